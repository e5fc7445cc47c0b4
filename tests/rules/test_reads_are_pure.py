"""Reading a state never changes it: ``view``, ``awaiting``, ``legal_commands``,
``result`` and ``is_over`` answer the same however often they are asked, and a state
that was read plays on exactly as one that was not.

The service relies on this: a worker keeps each game's folded state and serves every read
of that version from the one object, without copying it (service/app/cache.py). A ruleset
may remember what it worked out (Carcassonne keeps the open decisions until the next
event), as long as nothing it answers, decides or folds afterwards can tell.
"""

from __future__ import annotations

import copy

import pytest

from service.rules import get_ruleset
from service.rules.play import play_game

EXPANSIONS = ["river", "inns_cathedrals", "traders_builders", "hills_sheep", "wheel_of_fortune"]
CASES = {
    "carcassonne": ("carcassonne", {}, 2),
    "carcassonne, every expansion": ("carcassonne", {"expansions": EXPANSIONS}, 3),
    "carcassonne, external randomness": ("carcassonne", {"randomness": "external"}, 2),
    "south seas": ("carcassonne-south-seas", {}, 3),
    "catan": ("catan", {}, 4),
    "seafarers, the fog islands": ("catan", {"scenario": 3}, 3),
}


def reads(ruleset, state, seats: int) -> list:
    """Everything a reader may ask of a state, for every seat and a spectator."""
    answers = [ruleset.is_over(state), ruleset.awaiting(state), ruleset.result(state)]
    for seat in [*range(seats), None]:
        answers.append(ruleset.view(state, seat))
        if seat is not None:
            answers.append(ruleset.legal_commands(state, seat))
    return answers


@pytest.mark.parametrize("case", CASES)
def test_a_state_that_was_read_plays_on_as_one_that_was_not(case):
    """Also: an answer is the reader's own, sharing nothing the game changes later (the
    service serialises it after the state has gone back to the cache, where the next
    move evolves it in place)."""
    name, options, seats = CASES[case]
    ruleset = get_ruleset(name)
    bots = ["random"] * seats
    seed = f"pure reads: {case}".encode()
    unread_events, unread = play_game(ruleset, options, seats, seed, bots)
    answered = []

    def read_twice(state, _events) -> None:
        first = reads(ruleset, state, seats)
        assert reads(ruleset, state, seats) == first, "a second read answered differently"
        answered.append((first, copy.deepcopy(first)))

    read_events, read = play_game(ruleset, options, seats, seed, bots, observe=read_twice)
    assert read_events == unread_events
    assert reads(ruleset, read, seats) == reads(ruleset, unread, seats)
    changed = [n for n, (answer, as_given) in enumerate(answered) if answer != as_given]
    assert not changed, f"answers given after commands {changed[:5]} changed as play went on"

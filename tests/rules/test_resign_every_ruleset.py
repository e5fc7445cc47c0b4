"""Every ruleset plays on without a seat that resigns and never awaits it again; the
last seat left wins; the log replays to the same state. Bot games through the public
decider path, with resignations at several points of a game (in the set-up, in a
seat's own turn, out of it)."""

from __future__ import annotations

import pytest

from service.rules.carcassonne import CARCASSONNE
from service.rules.catan.game import CATAN
from service.rules.core import IllegalMove, bot_rng_for, rng_for
from service.rules.south_seas import SOUTH_SEAS

CASES = [
    (CARCASSONNE, {}),
    (CARCASSONNE, {"expansions": ["hills_sheep", "traders_builders", "wheel_of_fortune"]}),
    (SOUTH_SEAS, {}),
    (CATAN, {}),
    (CATAN, {"scenario": 1}),
    (CATAN, {"scenario": 3}),
]
RESIGN = {"type": "resign"}


def play(ruleset, options, seats, seed, resign_at):
    """A random-bot game where, at command ``n`` of ``resign_at``, seat ``resign_at[n]``
    resigns. Returns the events, the state and the seats that resigned."""
    state_events = ruleset.setup(ruleset.normalize_options(options), seats, rng_for(seed, 1))
    state = ruleset.fold(state_events)
    events, gone = list(state_events), []
    for step in range(100_000):
        if ruleset.is_over(state):
            break
        if step in resign_at:
            seat = resign_at[step]
            events += ruleset.apply(state, seat, RESIGN, rng_for(seed, len(events) + 1))
            gone.append(seat)
            continue
        awaited = ruleset.decisions(state)
        assert not {d.seat for d in awaited} & set(gone), "a resigned seat is awaited"
        seat = awaited[0].seat
        seq = len(events) + 1
        command = ruleset.bot_command(state, seat, "random", bot_rng_for(seed, seq))
        events += ruleset.apply(state, seat, command, rng_for(seed, seq))
    return events, state, gone


@pytest.mark.parametrize(
    ("ruleset", "options"), CASES, ids=lambda c: getattr(c, "name", None) or str(c or "")
)
def test_the_game_goes_on_without_a_resigned_seat_to_its_end(ruleset, options):
    events, state, gone = play(ruleset, options, 3, b"resign", {2: 0, 40: 2})
    assert ruleset.is_over(state)
    assert ruleset.result(state)["winners"] == [1]
    assert ruleset.view(ruleset.fold(events), None) == ruleset.view(state, None)


@pytest.mark.parametrize(
    ("ruleset", "options"), CASES, ids=lambda c: getattr(c, "name", None) or str(c or "")
)
def test_one_resignation_leaves_a_game_that_ends_as_usual(ruleset, options):
    events, state, gone = play(ruleset, options, 3, b"one", {25: 1})
    assert gone == [1]
    assert ruleset.is_over(state)
    assert ruleset.result(state)["winners"] and 1 not in ruleset.result(state)["winners"]
    assert ruleset.view(ruleset.fold(events), 1) == ruleset.view(state, 1)


@pytest.mark.parametrize(
    ("ruleset", "options"), CASES, ids=lambda c: getattr(c, "name", None) or str(c or "")
)
def test_a_seat_that_resigned_and_sends_a_move_is_told_so(ruleset, options):
    state = ruleset.fold(ruleset.setup(ruleset.normalize_options(options), 3, rng_for(b"t", 1)))
    ruleset.apply(state, 1, RESIGN, rng_for(b"t", 50))
    (awaited, *_) = ruleset.decisions(state)
    with pytest.raises(IllegalMove) as caught:
        ruleset.apply(state, 1, {"type": awaited.commands[0]}, rng_for(b"t", 60))
    assert caught.value.code == "not_your_turn"
    assert caught.value.message.startswith("seat 1 has resigned (awaited: ")

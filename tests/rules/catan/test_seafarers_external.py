"""Every Seafarers scenario replays in external randomness with its outcomes as commands.

A bot game of each scenario and player count is played with internal randomness; each
outcome the server drew for it is read from the command's events and sent in the command
(as the docs' "External randomness" sections say: the map as ``set_board``, dice, the
Pirate Islands' plunder and fortress die, cards bought or taken from an island, cards
stolen, fog spaces turned up, The New World's harbour types), and the game replayed with
``randomness: "external"`` and a random stream that must not matter is the same game:
the same events (salts aside), result and views for every seat and a spectator.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings

from service.rules.catan.game import CATAN, SCENARIOS
from service.rules.core import rng_for
from service.rules.play import play_game
from tests.rules.catan.external import Recording, external, without_salts
from tests.rules.properties import seeds

#: (scenario, seats, layout, bot): random layout, and beginner where it is not drawn too
CASES = [
    (number, seats, layout, bot)
    for number, info in SCENARIOS.items()
    for seats in info.players
    for layout in (("random",) if info.drawn else ("random", "beginner"))
    for bot in ("random", "value")
]

#: the outcomes every game of a scenario sends (besides dice), whatever its seed: the
#: Pirate Islands' winner attacked its fortress (3 times at least), The New World's
#: harbour markers are all placed. Fog turned up, the fleet's plunder and a card taken
#: from an island are sent when the game has them (most games, not all).
EXPECTED = {7: {"die"}, 9: {"types"}}

#: the one set-up draw external randomness leaves to the server: The Forgotten Tribe's
#: harbour markers, public in ``game_started`` (catan-seafarers.md, scenario 5)
DRAWN_IN_SETUP = {(5, "random")}

NEVER = b"never drawn from"


@pytest.mark.parametrize(
    "case", CASES, ids=[f"scenario {n}, {s} seats, {lay}, {bot}" for n, s, lay, bot in CASES]
)
@settings(max_examples=2, deadline=None)
@given(seeds)
def test_every_scenario_bot_game_replays_in_external_randomness(case, seed):
    """136 games, 2 of each scenario, player count, layout and bot: each, its drawn
    outcomes sent in its commands, is the same game with external randomness."""
    number, seats, layout, bot = case
    options = {"scenario": number, "layout": layout}
    recording = Recording(CATAN)
    events, state = play_game(recording, options, seats, seed, [bot] * seats)
    external_options = CATAN.normalize_options({**options, "randomness": "external"})
    replayed = CATAN.setup(external_options, seats, rng_for(seed, 1))
    if (number, layout) not in DRAWN_IN_SETUP:
        assert CATAN.setup(external_options, seats, rng_for(NEVER, 1)) == replayed
    drawn = replayed[0].data["board"] is None
    assert drawn == (external_options["layout"] == "random")
    assert {**replayed[0].data, "options": None, "board": None} == {
        **events[0].data,
        "options": None,
        "board": None,
    }
    twin = CATAN.fold(replayed)
    if drawn:  # the map arrives as set_board
        board = {"type": "set_board", "board": events[0].data["board"]}
        replayed += CATAN.apply(twin, 0, board, rng_for(NEVER, 2))
    sent: Counter[str] = Counter()
    for seat, command, caused in recording.steps:
        with_outcomes = external(command, caused)
        sent.update(field for field in with_outcomes if field not in command)
        replayed += CATAN.apply(twin, seat, with_outcomes, rng_for(NEVER, 0))
    assert sent["dice"] > 4 * seats
    assert all(sent[field] for field in EXPECTED.get(number, ())), sent
    assert without_salts(replayed[-len(events) + 1 :]) == without_salts(events[1:])
    assert CATAN.result(twin) == CATAN.result(state)
    for seat in (*range(seats), None):
        assert {**CATAN.view(twin, seat), "options": None} == {
            **CATAN.view(state, seat),
            "options": None,
        }


def test_every_outcome_external_randomness_sends_is_a_field_its_command_takes():
    """The service refuses a field a command's type does not take (the shapes of GET
    /v1/rulesets): each outcome a client sends in external randomness is one of them,
    a road's fog spaces as a ship's."""
    from tests.rules.catan.external import OUTCOMES

    takes = CATAN.describe()["commands"]
    sent = [(kind, field) for kind, outcomes in OUTCOMES.items() for _, field, _ in outcomes]
    assert ("build_road", "reveal") in sent
    assert [(kind, field) for kind, field in sent if field not in takes[kind]] == []

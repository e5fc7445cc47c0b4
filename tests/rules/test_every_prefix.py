"""A state may be read at any seq (``state?at=``), also between the events of one
command: every ruleset folds every prefix of a game's log, says whom it awaits (South
Seas awaits nobody between a command's events) and shows it to each seat and to a
spectator, without failing."""

from __future__ import annotations

import pytest

from service.rules.catan.game import CATAN
from service.rules.play import play_game
from service.rules.registry import all_rulesets

OPTIONS = {"carcassonne": {"expansions": ["hills_sheep", "traders_builders"]}}
#: every ruleset with the options above, and Catan's Seafarers scenarios with the most
#: moving parts: the fog turned up, gold, ships; the harbour markers placed by seats;
#: the gifts of The Forgotten Tribe, the pirate fleet, warships and fortresses, the
#: wonders started and built
CASES = [(r, OPTIONS.get(r.name, {})) for r in all_rulesets()] + [
    (CATAN, {"scenario": 3}),
    (CATAN, {"scenario": 5}),
    (CATAN, {"scenario": 8}),
    (CATAN, {"scenario": 9}),
    (CATAN, {"scenario": 6}),  # Cloth for Catan: villages, cloth, a third settlement
    (CATAN, {"scenario": 7}),
]


@pytest.mark.parametrize(
    ("ruleset", "options"), CASES, ids=lambda c: getattr(c, "name", None) or str(c or "")
)
def test_every_prefix_of_a_log_folds_to_a_state_that_can_be_shown(ruleset, options):
    seats = ruleset.min_seats + 1
    bots = [ruleset.bots[0]] * seats
    events, _ = play_game(ruleset, options, seats, b"prefixes", bots)
    state = ruleset.initial_state()
    for event in events:
        state = ruleset.evolve(state, event)
        awaited = {decision["id"] for decision in ruleset.awaiting(state)}
        listed = set()
        for seat in range(seats):
            ruleset.view(state, seat)
            listed |= {d["id"] for d in ruleset.legal_commands(state, seat)["decisions"]}
        ruleset.view(state, None)
        assert listed == awaited
    assert ruleset.is_over(state) and not ruleset.awaiting(state)

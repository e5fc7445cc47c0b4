"""``Carcassonne.apply`` folds each event once, into the state it is given, as the
decider emits it: it must leave exactly the state that ``decide`` and then ``evolve``
lead to, with the same events, and leave the state untouched when it refuses.
"""

from __future__ import annotations

import random

import pytest

from service.rules.carcassonne import CARCASSONNE
from service.rules.carcassonne.expansions import EXPANSIONS
from service.rules.carcassonne.state import State
from service.rules.core import IllegalMove, bot_rng_for, rng_for
from tests.rules.carcassonne.table import Table

ALL = list(EXPANSIONS)


def same(one: State, other: State) -> bool:
    """Whether two states hold the same game, as everyone may see it and whole."""
    return (
        CARCASSONNE.view(one, None) == CARCASSONNE.view(other, None)
        and one.folded == other.folded
        and one.hidden == other.hidden
        and one.stack == other.stack
        and one.resume == other.resume
        and CARCASSONNE.decisions(one) == CARCASSONNE.decisions(other)
    )


@pytest.mark.parametrize(
    ("expansions", "randomness", "bots"),
    [
        ([], "internal", ["random", "greedy"]),
        (ALL, "internal", ["random", "random", "greedy"]),
        (ALL, "external", ["greedy", "random"]),
        (["hills_sheep", "wheel_of_fortune"], "external", ["random", "random"]),
    ],
)
def test_apply_leaves_the_state_decide_then_evolve_leads_to(expansions, randomness, bots):
    options = CARCASSONNE.normalize_options(
        {"expansions": expansions, "randomness": randomness, "flock_timing": "after_figure"}
    )
    seed = f"apply-{len(expansions)}-{randomness}".encode()
    events = CARCASSONNE.setup(options, len(bots), rng_for(seed, 1))
    state = CARCASSONNE.fold(events)
    while not CARCASSONNE.is_over(state):
        (decision,) = CARCASSONNE.decisions(state)
        seq = len(events) + 1
        command = CARCASSONNE.bot_command(
            state, decision.seat, bots[decision.seat], bot_rng_for(seed, seq)
        )
        expected = CARCASSONNE.copy_state(state)
        decided = CARCASSONNE.decide(expected, decision.seat, command, rng_for(seed, seq))
        for event in decided:
            CARCASSONNE.evolve(expected, event)
        applied = CARCASSONNE.apply(state, decision.seat, command, rng_for(seed, seq))
        assert applied == decided
        assert same(state, expected)
        events += applied
    assert same(state, CARCASSONNE.fold(events))


def test_a_refused_draw_leaves_the_state_as_it_was():
    """The tile under a hill is checked before the hill's draw is folded."""
    table = Table(expansions=["hills_sheep"])
    before = CARCASSONNE.copy_state(table.state)
    hill = {"type": "draw_tile", "tile": "HS/RrC.h"}
    for command, code in (
        (hill, "hidden_tile_required"),
        ({**hill, "under": "nothing"}, "unknown_tile"),
        ({**hill, "under": "HS/RrC.h"}, "tile_not_in_stack"),
    ):
        with pytest.raises(IllegalMove) as caught:
            CARCASSONNE.apply(table.state, 0, command, random.Random(0))
        assert caught.value.code == code
        assert same(table.state, before)
    assert table.send({**hill, "under": "U"})

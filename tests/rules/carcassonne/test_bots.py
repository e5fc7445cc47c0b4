"""The bots: legal, deterministic, and the greedy one takes the best immediate score."""

from __future__ import annotations

import random

import pytest

from service.rules.carcassonne import CARCASSONNE
from service.rules.carcassonne.expansions import EXPANSIONS
from service.rules.carcassonne.state import State
from service.rules.core import IllegalMove
from service.rules.play import play_game
from tests.rules.carcassonne.table import Table
from tests.rules.tiling.graphs import layout


def test_greedy_completes_a_city_with_a_knight_for_4_points():
    table = Table()
    table.draw("E")  # above the start tile, E closes its city
    command = CARCASSONNE.bot_command(table.state, 0, "greedy", random.Random(1))
    assert command == {"type": "place_tile", "x": 0, "y": -1, "rotation": 180}
    table.send(command)
    assert CARCASSONNE.bot_command(table.state, 0, "greedy", random.Random(1)) == {
        "type": "place_follower",
        "spot": "city:S",
    }


def test_random_bot_draws_only_tiles_left_in_external_mode():
    table = Table()
    table.turn("C", 0, -1)
    for n in range(30):
        command = CARCASSONNE.bot_command(table.state, 1, "random", random.Random(n))
        assert command["type"] == "draw_tile" and command["tile"] != "BA/Cccc+"


def test_greedy_outscores_random_over_a_few_games():
    totals = [0, 0]
    for n in range(4):
        _, state = play_game(CARCASSONNE, {}, 2, f"duel-{n}".encode(), ["greedy", "random"])
        totals = [t + s for t, s in zip(totals, state.scores, strict=True)]
    assert totals[0] > totals[1]


def test_greedy_trials_leave_the_state_as_it_was():
    # The greedy bot places each candidate on a scratch copy that borrows the board's
    # features: with every expansion (goods, flocks, the wheel), asking it changes
    # nothing of the game it is asked about.
    def picture(state: State) -> tuple[object, ...]:
        assert state.board is not None
        return (layout(state.graph), dict(state.board.tiles), dict(state.board.frontier),
                repr(state.ext), list(state.scores), repr(state.supply), state.phase)  # fmt: skip

    asked = 0

    def observe(state: State, events: object) -> None:
        nonlocal asked
        for decision in CARCASSONNE.decisions(state):
            before = picture(state)
            CARCASSONNE.bot_command(state, decision.seat, "greedy", random.Random(asked))
            assert picture(state) == before
            asked += 1

    options = {"farmers": True, "expansions": list(EXPANSIONS)}
    play_game(CARCASSONNE, options, 3, b"trials", ["greedy"] * 3, observe=observe)
    assert asked > 200


def test_unknown_bots_are_refused():
    table = Table()
    with pytest.raises(IllegalMove) as caught:
        CARCASSONNE.bot_command(table.state, 0, "oracle", random.Random(0))
    assert caught.value.code == "unknown_bot"

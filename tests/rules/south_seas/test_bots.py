"""The bots: legal, deterministic, and the greedy one beats the random one."""

from __future__ import annotations

import random

import pytest

from service.rules.core import IllegalMove
from service.rules.play import play_game
from service.rules.south_seas import SOUTH_SEAS
from tests.rules.south_seas.table import Table


def test_the_ruleset_offers_a_random_and_a_greedy_bot():
    assert SOUTH_SEAS.bots == ("random", "greedy")
    table = Table()
    with pytest.raises(IllegalMove) as caught:
        SOUTH_SEAS.bot_command(table.state, 0, "clever", random.Random(0))
    assert caught.value.code == "unknown_bot"


def test_the_greedy_bot_takes_the_completion_in_front_of_it():
    table = Table()
    table.draw("SS/I.1")
    command = SOUTH_SEAS.bot_command(table.state, 0, "greedy", random.Random(0))
    assert command == {"type": "place_tile", "x": 0, "y": -1, "rotation": 180}
    table.send(command)
    assert SOUTH_SEAS.bot_command(table.state, 0, "greedy", random.Random(0)) == {
        "type": "place_islander",
        "spot": "island:S",
    }


def test_the_greedy_bot_wins_more_wares_than_the_random_bot():
    greedy = random_ = 0
    for n in range(4):
        _, state = play_game(SOUTH_SEAS, {}, 2, f"duel-{n}".encode(), ["greedy", "random"])
        greedy += sum(state.wares[0].values()) + 3 * state.ship_points(0)
        random_ += sum(state.wares[1].values()) + 3 * state.ship_points(1)
    assert greedy > random_

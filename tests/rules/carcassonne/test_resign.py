"""Resigning and abandoning a Carcassonne game (docs/rulesets/carcassonne.md, "Leaving
the game"): the game goes on without a seat that resigns, its figures stay on the board
and score at the end; with one seat left the game ends and that seat wins."""

from __future__ import annotations

import random

import pytest

from service.rules.carcassonne import CARCASSONNE
from service.rules.core import IllegalMove
from tests.rules.carcassonne.table import Table

RESIGN = {"type": "resign"}


def types(events) -> list[str]:
    return [e.type for e in events]


def test_a_seat_may_resign_out_of_its_turn_and_is_skipped_in_turn_order():
    table = Table(seats=3)
    assert types(table.send(RESIGN, seat=1)) == ["seat_resigned"]
    table.turn("U", 1, 0)  # seat 0's turn
    assert table.state.seat == 2  # seat 1 is passed over
    table.turn("U", -1, 0)
    assert table.state.seat == 0


def test_a_resigned_seat_is_never_awaited_and_sends_no_more_commands():
    table = Table(seats=3)
    table.send(RESIGN, seat=1)
    for x in range(1, 5):
        assert all(d.seat != 1 for d in CARCASSONNE.decisions(table.state))
        table.turn("U", x, 0)
    with pytest.raises(IllegalMove) as caught:
        table.send(RESIGN, seat=1)
    assert caught.value.code == "resigned"


def test_resigning_with_a_drawn_tile_sets_it_aside_and_ends_the_turn():
    table = Table(seats=3)
    table.draw("U")
    events = table.send(RESIGN, seat=0)
    assert types(events) == ["seat_resigned", "tile_set_aside", "turn_ended"]
    assert events[1].data["reason"] == "its seat resigned"
    assert table.state.set_aside == [events[1].data["tile"]]
    assert events[2].data == {"seat": 0, "next": 1}
    assert CARCASSONNE.decisions(table.state)[0].seat == 1


def test_resigning_after_placing_scores_the_tile_as_a_skip():
    table = Table(seats=3)
    table.turn("U", 1, 0, 0, "road:E,W")  # seat 0's follower on the road
    table.draw("U")
    table.place(-1, 0)
    events = table.send(RESIGN, seat=1)
    assert types(events)[0] == "seat_resigned"
    assert "follower_placed" not in types(events)
    assert events[-1].type == "turn_ended" and events[-1].data["next"] == 2


def test_the_figures_of_a_resigned_seat_stay_and_score_at_the_end():
    table = Table(seats=3)
    table.draw("U")
    table.place(1, 0)
    table.follow("road:E,W")  # seat 0's follower on the road
    table.send(RESIGN, seat=0)
    assert any(
        f.seat == 0 for feature in table.state.graph.features.values() for f in feature.figures
    )
    final = table.final()
    assert any(0 in data["winners"] for data in final)


def test_with_one_seat_left_the_game_ends_and_that_seat_wins():
    table = Table(seats=2)
    table.turn("U", 1, 0, 0, "road:E,W")
    table.draw("U")
    events = table.send(RESIGN, seat=1)
    assert types(events)[0] == "seat_resigned"
    assert events[-1].type == "game_ended"
    assert events[-1].data["winners"] == [0] and events[-1].data["reason"] == "resigned"
    assert CARCASSONNE.is_over(table.state)
    assert CARCASSONNE.result(table.state)["winners"] == [0]


def test_with_one_seat_left_the_tile_it_drew_leaves_the_game_as_the_game_ends():
    # Seat 1 resigns during seat 0's turn: seat 0's tile is not placed, and not for a
    # resignation of its own.
    table = Table(seats=2)
    table.draw("U")
    events = table.send(RESIGN, seat=1)
    assert types(events)[:2] == ["seat_resigned", "tile_set_aside"]
    assert events[1].data == {"seat": 0, "tile": "BA/RFr", "reason": "the game ended"}
    assert events[-1].type == "game_ended" and events[-1].data["winners"] == [0]


def test_the_remaining_seat_wins_even_when_behind_on_points():
    table = Table(seats=2)
    table.turn("U", 1, 0)
    table.turn("E", 0, -1, 180, "city:S")  # seat 1 closes the start tile's city: 4 points
    assert table.scores == [0, 4]
    events = table.send(RESIGN, seat=1)
    assert events[-1].data["winners"] == [0]
    assert events[-1].data["scores"] == [0, 4]


def test_an_abandoned_game_ends_with_no_winner():
    table = Table(seats=2)
    table.turn("U", 1, 0, 0, "road:E,W")
    events = CARCASSONNE.apply(table.state, None, {"type": "abandon"}, random.Random(0))
    assert types(events) == ["game_abandoned", "game_ended"]
    assert events[-1].data["winners"] == [] and events[-1].data["reason"] == "abandoned"
    assert CARCASSONNE.result(table.state) == {"scores": [0, 0], "over": True, "winners": []}


def test_nothing_is_resigned_or_abandoned_once_the_game_is_over():
    table = Table(seats=2)
    table.send(RESIGN, seat=1)
    for command in (RESIGN, {"type": "abandon"}):
        with pytest.raises(IllegalMove) as caught:
            table.send(command, seat=0)
        assert caught.value.code == "game_over"


def test_a_replay_of_the_log_reaches_the_same_state():
    table = Table(seats=3)
    table.turn("U", 1, 0, 0, "road:E,W")
    table.draw("U")
    table.send(RESIGN, seat=1)
    table.send({"type": "hand_to_bot", "bot": "greedy"}, seat=2)
    replayed = CARCASSONNE.fold(table.events)
    assert CARCASSONNE.view(replayed, None) == CARCASSONNE.view(table.state, None)


def test_a_resigned_seat_takes_no_part_in_the_plague():
    from service.rules.carcassonne.expansions.wheel_of_fortune import plague_queue

    table = Table(seats=3)
    table.turn("U", 1, 0, 0, "road:E,W")
    table.send(RESIGN, seat=0)
    assert 0 not in plague_queue(table.state, 1)

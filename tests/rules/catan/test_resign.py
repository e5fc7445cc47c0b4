"""Resigning and abandoning a Catan game (docs/rulesets/catan.md, "Leaving the game"):
the seat's pieces and hand stay, it is skipped in turn order and never awaited (no
discard, no trade, no set-up placement); with one seat left the game ends and that
seat wins. An abandoned game ends with no winner."""

from __future__ import annotations

import random

from service.rules.catan.game import CATAN
from tests.rules.catan.table import Table

RESIGN = {"type": "resign"}
THREE = (
    ("0,-1,N", "1,-2,S"),
    ("2,-1,S", "1,0,N"),
    ("-1,1,S", "-1,2,N"),
    ("-2,1,S", "-2,2,N"),
    ("0,2,N", "1,0,S"),
    ("-1,-1,S", "-1,0,N"),
)


def types(events) -> list[str]:
    return [e.type for e in events]


def test_a_seat_that_resigns_in_its_turn_ends_it_and_the_next_seat_rolls():
    table = Table(3).setup(*THREE)
    table.roll(6)
    events = table.send(RESIGN, seat=0)
    assert types(events) == ["seat_resigned", "turn_ended"]
    assert events[1].data == {"seat": 0, "next": 1}
    assert table.awaited() == [(1, "roll")]


def test_a_resigned_seat_is_skipped_in_turn_order():
    table = Table(3).setup(*THREE)
    table.send(RESIGN, seat=1)
    table.roll(6)
    table.end_turn()
    assert table.awaited() == [(2, "roll")]
    table.roll(6)
    table.end_turn()
    assert table.awaited() == [(0, "roll")]


def test_a_resigned_seat_never_proposes_a_trade_nor_is_offered_one():
    table = Table(3).setup(*THREE)
    table.send(RESIGN, seat=2)
    table.roll(6)
    assert (2, "propose_trade") not in table.awaited(proposals=True)
    assert table.menu(0, "turn")["offer_trade"]["to"] == [1]  # the menu says so too
    offer = {"type": "offer_trade", "give": {"grain": 1}, "get": {"wool": 1}}
    assert table.refused({**offer, "to": [2]}, seat=0) == "bad_offer"
    events = table.send(offer, seat=0)
    assert events[0].data["to"] == [1]


def test_a_resigned_seat_does_not_discard_on_a_seven_and_keeps_its_hand():
    table = Table(3).setup(*THREE)
    table.gather(1, grain=4, wool=4)  # seat 1 holds more than 7 cards
    table.end_turn()
    while table.current != 0:
        table.roll(table.idle_total())
        table.end_turn()
    cards = table.cards(1)
    assert cards > 7
    table.send(RESIGN, seat=1)
    table.roll(7)
    assert (1, "discard") not in table.awaited()
    assert table.cards(1) == cards


def test_resigning_while_others_answer_its_trade_offer_ends_the_offer_and_the_turn():
    table = Table(3).setup(*THREE)
    table.roll(6)
    table.send({"type": "offer_trade", "give": {"grain": 1}, "get": {"wool": 1}}, seat=0)
    assert (1, "respond_trade") in table.awaited()
    table.send(RESIGN, seat=0)
    assert table.view()["offer"] is None
    assert table.awaited() == [(1, "roll")]


def test_a_seat_that_resigns_in_the_set_up_places_nothing_and_the_next_seat_starts():
    table = Table(3)
    table.place("0,-1,N", "1,-2,S")  # seat 0's first settlement
    table.send(RESIGN, seat=0)
    for settlement, toward in THREE[1:5]:
        table.place(settlement, toward)
    assert table.awaited() == [(1, "roll")]
    assert table.current == 1


def test_with_one_seat_left_the_game_ends_and_that_seat_wins():
    table = Table(2).setup(*THREE[:2], THREE[4], THREE[5])
    table.roll(6)
    events = table.send(RESIGN, seat=0)
    assert types(events) == ["seat_resigned", "game_ended"]
    assert events[-1].data["winners"] == [1] and events[-1].data["reason"] == "resigned"
    assert CATAN.result(table.state)["winners"] == [1]
    assert not table.awaiting()


def test_an_abandoned_game_ends_with_no_winner():
    table = Table(3).setup(*THREE)
    events = CATAN.apply(table.state, None, {"type": "abandon"}, random.Random(0))
    assert types(events) == ["game_abandoned", "game_ended"]
    assert CATAN.result(table.state)["winners"] == [] and CATAN.is_over(table.state)


def test_a_replay_of_the_log_reaches_the_same_state():
    table = Table(3).setup(*THREE)
    table.roll(6)
    table.send(RESIGN, seat=1)
    table.end_turn()
    assert CATAN.view(CATAN.fold(table.events), 0) == table.view(0)


def test_value_bots_offer_trades_only_to_seats_still_playing():
    """A value bot's offer to everyone goes to the seats still in the game: an offer
    naming a seat that resigned is refused, which left the bots unable to move."""
    from service.rules.core import bot_rng_for, rng_for

    for seed in (b"value-1", b"value-2", b"value-3", b"h6"):
        events = CATAN.setup(CATAN.normalize_options({}), 3, rng_for(seed, 1))
        state = CATAN.fold(events)
        events += CATAN.apply(state, 0, {"type": "resign"}, rng_for(seed, len(events) + 1))
        offers = 0
        while not CATAN.is_over(state):
            seat, seq = CATAN.decisions(state)[0].seat, len(events) + 1
            command = CATAN.bot_command(state, seat, "value", bot_rng_for(seed, seq))
            offers += command["type"] == "offer_trade"
            events += CATAN.apply(state, seat, command, rng_for(seed, seq))
        assert all(0 not in e.data["to"] for e in events if e.type == "trade_offered")
        assert offers > 0, seed

"""Ship demands: the rulebook's ships, fixed, "any", "N identical" and "3 + 1" demands."""

from __future__ import annotations

import pytest

from service.rules.south_seas.content import content_for

SHIPS = content_for(None, None).ship_by_id


@pytest.mark.parametrize(
    ("ship", "points", "wares"),
    [
        ("S01", 5, {"shell": 2, "fish": 1, "banana": 1}),  # 2 shells, 1 fish, 1 banana
        ("S02", 5, {"fish": 3, "banana": 3}),  # 6 wares of the player's choice
        ("S03", 3, {"shell": 4}),  # 4 identical wares
        ("S04", 4, {"fish": 5}),  # 5 wares of the player's choice
        ("S05", 3, {"shell": 3, "banana": 1}),  # 3 of one type and 1 of another
    ],
)
def test_the_rulebook_ships_accept_the_rulebook_deliveries(ship, points, wares):
    assert SHIPS[ship].points == points
    assert SHIPS[ship].problem(wares) is None


@pytest.mark.parametrize(
    ("ship", "wares"),
    [
        ("S01", {"shell": 3, "fish": 1}),  # a fixed demand is exact
        ("S01", {"shell": 2, "fish": 1, "banana": 2}),  # no more wares than demanded
        ("S02", {"fish": 5}),  # six, not five
        ("S03", {"shell": 2, "fish": 2}),  # identical means one type
        ("S05", {"shell": 4}),  # the fourth ware is of another type
        ("S05", {"shell": 2, "banana": 2}),
    ],
)
def test_deliveries_that_do_not_meet_the_demand_are_refused(ship, wares):
    assert SHIPS[ship].problem(wares) is not None


@pytest.mark.parametrize("ship", sorted(SHIPS))
def test_what_a_ship_says_it_can_take_from_a_stock_meets_its_demand(ship):
    stock = {"shell": 5, "banana": 4, "fish": 8}
    paid = SHIPS[ship].payable(stock)
    if paid is not None:
        assert SHIPS[ship].problem(paid) is None
        assert all(paid[w] <= stock[w] for w in paid)


def test_payable_finds_no_delivery_when_the_wares_are_short():
    assert SHIPS["S03"].payable({"shell": 3, "banana": 3, "fish": 3}) is None
    assert SHIPS["S05"].payable({"shell": 4, "banana": 0, "fish": 0}) is None
    assert SHIPS["S05"].payable({"shell": 1, "banana": 3, "fish": 0}) == {"banana": 3, "shell": 1}

"""Production on a roll: one card per settlement, two per city, the robber and the bank.

On the beginner board a 6 makes the hills at (0,-1) yield brick and the fields at
(-1,2) yield grain.
"""

from __future__ import annotations

from service.rules.catan.board import RESOURCES, beginner_board
from service.rules.catan.layout import layout_of
from service.rules.catan.pieces import NOBODY
from service.rules.catan.production import produce as produce_on
from service.rules.catan.production import starting_resources
from service.rules.hexes.geometry import Corner, hex_corners

BOARD = beginner_board()
LAYOUT = layout_of(BOARD.to_json())


def produce(board, robber, buildings, total, bank):
    """``production.produce`` with the buildings named by corner (corner -> (seat,
    "settlement" | "city")) and the bank by resource, as the rules read."""
    assert board is BOARD
    owner = [NOBODY] * len(LAYOUT.grid.corners)
    city = [False] * len(LAYOUT.grid.corners)
    for corner, (seat, kind) in buildings.items():
        owner[LAYOUT.grid.corner_index[corner]] = seat
        city[LAYOUT.grid.corner_index[corner]] = kind == "city"
    return produce_on(LAYOUT, robber, owner, city, total, [bank[r] for r in RESOURCES])


HILLS_6 = (0, -1)
FIELDS_6 = (-1, 2)
FULL_BANK = {"brick": 19, "lumber": 19, "wool": 19, "grain": 19, "ore": 19}

# corners of the hills 6, clockwise from north
H_N, H_NE, H_SE, H_S, H_SW, H_NW = hex_corners(HILLS_6)
F_N = hex_corners(FIELDS_6)[0]


def test_a_settlement_takes_one_card_and_a_city_two() -> None:
    harvest = produce(BOARD, (0, 0), {H_N: (0, "settlement"), H_S: (1, "city")}, 6, FULL_BANK)
    assert harvest.gains == {0: {"brick": 1}, 1: {"brick": 2}}
    assert harvest.owed == harvest.gains
    assert harvest.shortages == ()


def test_a_seat_collects_from_every_building_on_every_producing_hex() -> None:
    buildings = {H_N: (0, "settlement"), H_S: (0, "city"), F_N: (0, "settlement")}
    harvest = produce(BOARD, (0, 0), buildings, 6, FULL_BANK)
    assert harvest.gains == {0: {"brick": 3, "grain": 1}}


def test_only_hexes_with_the_rolled_number_produce() -> None:
    harvest = produce(BOARD, (0, 0), {H_N: (0, "city")}, 5, FULL_BANK)
    assert harvest.gains == {}
    assert produce(BOARD, (0, 0), {H_N: (0, "city")}, 7, FULL_BANK).gains == {}


def test_the_robber_blocks_its_hex_only() -> None:
    buildings = {H_N: (0, "settlement"), F_N: (1, "settlement")}
    harvest = produce(BOARD, HILLS_6, buildings, 6, FULL_BANK)
    assert harvest.gains == {1: {"grain": 1}}
    assert harvest.owed == {1: {"grain": 1}}


def test_when_the_bank_runs_short_of_a_resource_owed_to_several_seats_nobody_gets_it() -> None:
    buildings = {H_N: (0, "settlement"), H_S: (1, "settlement"), F_N: (1, "settlement")}
    bank = FULL_BANK | {"brick": 1}
    harvest = produce(BOARD, (0, 0), buildings, 6, bank)
    assert harvest.owed == {0: {"brick": 1}, 1: {"brick": 1, "grain": 1}}
    assert harvest.gains == {1: {"grain": 1}}  # grain is judged on its own
    assert harvest.shortages == ("brick",)


def test_a_lone_seat_owed_a_scarce_resource_takes_what_is_left() -> None:
    buildings = {H_N: (0, "city"), H_S: (0, "settlement")}
    harvest = produce(BOARD, (0, 0), buildings, 6, FULL_BANK | {"brick": 2})
    assert harvest.owed == {0: {"brick": 3}}
    assert harvest.gains == {0: {"brick": 2}}
    assert harvest.shortages == ("brick",)


def test_a_lone_seat_gets_nothing_from_an_empty_bank() -> None:
    harvest = produce(BOARD, (0, 0), {H_N: (0, "city")}, 6, FULL_BANK | {"brick": 0})
    assert harvest.gains == {}
    assert harvest.shortages == ("brick",)


def test_a_bank_holding_exactly_what_is_owed_pays_everyone() -> None:
    buildings = {H_N: (0, "settlement"), H_S: (1, "city")}
    harvest = produce(BOARD, (0, 0), buildings, 6, FULL_BANK | {"brick": 3})
    assert harvest.gains == {0: {"brick": 1}, 1: {"brick": 2}}
    assert harvest.shortages == ()


def test_the_second_settlement_takes_one_card_per_adjacent_terrain() -> None:
    # (1,-2,S) touches pasture 2, hills 6 and pasture 4
    assert starting_resources(BOARD, H_NE) == {"wool": 2, "brick": 1}


def test_the_desert_and_the_sea_give_no_starting_resources() -> None:
    # (0,0,N) touches the desert, the hills 6 and the pasture 4
    assert starting_resources(BOARD, H_SE) == {"brick": 1, "wool": 1}
    # (0,-2,N) is on the coast, next to the mountains 10 only
    assert starting_resources(BOARD, Corner(0, -2, "N")) == {"ore": 1}

"""Cloth for Catan (Seafarers scenario 6, "L'Archipel oublié", rulebook lines 463-521):
a test per rule, built position by position through the public decider path on the
scenario's printed map (3 seats, external randomness), and the rulebook's worked cases.

The map as the tests use it (terrain, number; the small islands carry no number, their
villages do)::

    r=-4:          1,-4 mountains 11  2,-4 fields 3  3,-4 mountains 6  4,-4 forest 10
                   5,-4 forest 8
    r=-3:       0,-3 mountains 2  1,-3 fields 8  (sea) (sea)  4,-3 fields 5  5,-3 fields 4
    r=-2:     -1,-2 mountains 10  (sea) (sea)  2,-2 desert  (sea) (sea) (sea)
    r=-1:        (sea)  0,-1 gold  (sea) (sea)  3,-1 gold  (sea)
    r= 0:     (sea) (sea) (sea)  1,0 desert  (sea) (sea)  4,0 hills 9
    r= 1:       -2,1 pasture 9  -1,1 pasture 2  (sea) (sea)  2,1 pasture 4  3,1 forest 12
    r= 2:     -2,2 hills 3  -1,2 pasture 6  0,2 fields 11  1,2 hills 12  2,2 forest 5

The villages (intersection: number): 0,-1,N: 10, 0,-1,S: 9, 2,-2,N: 11, 2,-2,S: 8,
1,0,N: 6, 1,0,S: 3, 3,-1,N: 4, 3,-1,S: 5. Each lies one path of sea away from an
intersection of a main island: 1,-3,S (to 0,-1,N), -1,1,N (to 0,-1,S), 0,2,N (to 1,0,S).
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest

from service.pictures import board_svg
from service.rules.catan import cloth, scenarios
from service.rules.catan.game import CATAN
from service.rules.catan.state import NOBODY
from service.rules.core import Event
from service.rules.play import play_game
from tests.rules.catan.table import Table, corner, only, path, types

FILE = "6-cloth-for-catan.json"
#: the rulebook's one table for all islands (l.471-476) and its extra material (l.474)
TERRAINS = {
    "sea": 18,
    "desert": 2,
    "gold": 2,
    "fields": 5,
    "hills": 3,
    "mountains": 4,
    "pasture": 4,
    "forest": 4,
}  # l.473 "Nombre 18 2 2 5 3 4 4 4 4 42"
NUMBERS = {2: 2, 3: 3, 4: 3, 5: 3, 6: 3, 8: 3, 9: 3, 10: 3, 11: 3, 12: 2}  # l.476, 28
CLOTH = 50  # l.474 "50 jetons Catane comme lot de ressources"
VILLAGES = {
    "0,-1,N": 10,
    "0,-1,S": 9,
    "2,-2,N": 11,
    "2,-2,S": 8,
    "1,0,N": 6,
    "1,0,S": 3,
    "3,-1,N": 4,
    "3,-1,S": 5,
}
SMALL_ISLANDS = {"0,-1", "2,-2", "1,0", "3,-1"}

#: (settlement, "ship" or "road", the intersection it leads to) in set-up order 0 1 2,
#: 2 1 0, 0 1 2. Seat 0's first ship reaches the village 10; seat 1's heads for it, one
#: path short; seat 1's third settlement gives it 2 lumber and 1 wool: a ship.
OPENING = (
    ("1,-3,S", "ship", "0,-1,N"),  # seat 0: fields 8; the ship reaches the village 10
    ("-1,-1,N", "ship", "0,-2,S"),  # seat 1: mountains 10; a ship toward the village 10
    ("-2,2,N", "road", corner("-2,2", "NE")),  # seat 2: hills 3, pasture 9, pasture 2
    ("1,2,S", "road", corner("1,2", "SW")),  # seat 2, second: hills 12
    ("4,-4,N", "road", corner("4,-4", "NE")),  # seat 1, second: forest 10
    ("-2,2,S", "road", corner("-2,2", "SW")),  # seat 0, second: hills 3
    ("1,-4,N", "road", corner("1,-4", "NE")),  # seat 0, third: mountains 11
    ("2,2,N", "road", corner("2,2", "NW")),  # seat 1, third: forest 5, pasture 4, forest 12
    ("4,0,N", "road", corner("4,0", "NE")),  # seat 2, third: hills 9
)


def place(table: Table, settlement: str, piece: str, toward: str) -> list[Event]:
    return table.send({"type": "build_settlement", "corner": settlement}) + table.send(
        {"type": f"build_{piece}", "edge": path(settlement, toward)}
    )


def cloth_table(opening: tuple[tuple[str, str, str], ...] = OPENING) -> Table:
    """Three seats after the whole set-up of ``opening``, seat 0 to roll."""
    table = Table(3, scenario=6)
    for step in opening:
        place(table, *step)
    assert table.awaited() == [(0, "roll")]
    return table


def village(table: Table, name: str) -> dict:
    return next(v for v in table.view()["cloth"]["villages"] if v["corner"] == name)


def held(table: Table) -> list[int]:
    return table.view()["cloth"]["held"]


def total_cloth(table: Table) -> int:
    seen = table.view()["cloth"]
    return sum(v["cloth"] for v in seen["villages"]) + seen["reserve"] + sum(seen["held"])


# -- the map and the material (l.471-480) ------------------------------------------------


def test_the_component_table_is_the_rulebooks():
    s = scenarios.load(6, 4)
    doc = scenarios.raw(FILE)
    assert doc["players"] == [3, 4] and doc["victory_points"] == 14  # l.517
    assert set(s.hexes) == set(scenarios.FRAMES[42])
    assert dict(Counter(t.terrain for t in s.hexes.values())) == TERRAINS
    # the 28 number tokens: 20 on the main islands' hexes, 8 on the villages
    on_hexes = Counter(t.number for t in s.hexes.values() if t.number)
    on_villages = Counter(v["number"] for v in doc["cloth"]["villages"])
    assert sum(on_hexes.values()) == 20 and sum(on_villages.values()) == 8
    assert dict(on_hexes + on_villages) == NUMBERS
    kinds = Counter(h.type for h in s.harbours)
    assert kinds.pop("generic") == 4 and set(kinds.values()) == {1} and len(kinds) == 5
    material = doc["cloth"]
    assert 8 * material["per_village"] + material["reserve"] == CLOTH
    assert (material["per_village"], material["reserve"]) == (5, 10)  # l.480


def test_two_villages_on_each_small_island_at_its_north_and_south_intersections():
    table = cloth_table()
    villages = {v["corner"]: v["number"] for v in table.view()["cloth"]["villages"]}
    assert villages == VILLAGES
    islands = {name.rsplit(",", 1)[0] for name in villages}
    assert islands == SMALL_ISLANDS
    board = {t["hex"]: t for t in table.view()["board"]["hexes"]}
    assert sorted(board[h]["terrain"] for h in islands) == ["desert", "desert", "gold", "gold"]
    assert all(board[h]["number"] is None for h in islands)
    assert all(v["cloth"] == 5 for v in table.view()["cloth"]["villages"][1:])


def test_the_random_set_up_keeps_the_small_islands_and_their_villages():
    printed = scenarios.load(6, 3)
    for seed in range(10):
        game = CATAN.setup(CATAN.normalize_options({"scenario": 6}), 3, random.Random(seed))
        data = game[0].data
        board = {t["hex"]: (t["terrain"], t["number"]) for t in data["board"]["hexes"]}
        for h in SMALL_ISLANDS:
            q, r = map(int, h.split(","))
            assert board[h] == tuple(printed.hexes[q, r])
        assert {v["corner"]: v["number"] for v in data["scenario"]["cloth"]["villages"]} == VILLAGES


def test_a_board_sent_for_the_random_set_up_keeps_the_small_islands():
    options = {"scenario": 6, "randomness": "external", "layout": "random"}
    table = Table(3, **options)
    board = scenarios.deal(6, 3, random.Random(1), shuffle=True)["board"]
    swapped = json.loads(json.dumps(board))
    tiles = {t["hex"]: t for t in swapped["hexes"]}
    gold, fields = tiles["0,-1"], tiles["1,-3"]  # a small island's gold, a main island's
    gold["terrain"], gold["number"], fields["terrain"], fields["number"] = (
        fields["terrain"],
        fields["number"],
        "gold",
        None,
    )
    assert table.refused({"type": "set_board", "board": swapped}) == "bad_board"
    table.send({"type": "set_board", "board": board})
    assert table.awaited() == [(0, "place_settlement")]
    assert {v["corner"] for v in table.view()["cloth"]["villages"]} == set(VILLAGES)


# -- the set-up (l.486-488) --------------------------------------------------------------


def test_a_third_round_of_the_set_up_starts_with_the_last_seat_to_place_its_second():
    table = Table(3, scenario=6)
    order = []
    for step in OPENING:
        order.append(table.awaited()[0])
        place(table, *step)
    seats = [seat for seat, kind in order]
    assert seats == [0, 1, 2, 2, 1, 0, 0, 1, 2]
    assert table.awaited() == [(0, "roll")]


def test_the_starting_resources_come_from_the_third_settlement():
    table = Table(3, scenario=6)
    for step in OPENING[:6]:  # the first and second rounds
        assert "starting_resources" not in types(place(table, *step))
    assert table.hand(1) == Counter()  # its second, on forest 10, gave nothing
    events = place(table, *OPENING[6])  # seat 0, third: mountains 11
    assert only(events, "starting_resources").data["gains"] == {"0": {"ore": 1}}
    events = place(table, *OPENING[7])  # seat 1, third
    assert only(events, "starting_resources").data["gains"] == {"1": {"lumber": 2, "wool": 1}}
    assert table.hand(1) == Counter(lumber=2, wool=1)


def test_the_set_up_settles_only_the_two_main_islands():
    table = Table(3, scenario=6)
    spots = table.menu(0, "place_settlement")["build_settlement"]["corners"]
    assert "1,-2,S" not in spots  # the gold island's east intersection
    assert table.refused({"type": "build_settlement", "corner": "1,-2,S"}) == "small_island"
    assert table.refused({"type": "build_settlement", "corner": "0,-1,N"}) == "small_island"


def test_nobody_builds_on_the_small_islands():
    table = cloth_table()
    table.rolls(2, 2)  # seat 1, with 2 lumber and 1 wool: a ship to the village 10
    table.send({"type": "build_ship", "edge": path("0,-2,S", "0,-1,N")})
    # its ships touch the gold island at 0,-2,S and 0,-1,N: no settlement there, ever
    for at in ("0,-2,S", "0,-1,N"):
        assert table.refused({"type": "build_settlement", "corner": at}) == "small_island"
    assert "build_settlement" not in table.menu(1, "turn")


# -- trade with the villages (l.492-501) ----------------------------------------------------


def test_a_ship_line_reaching_a_village_takes_one_cloth_at_once():
    table = Table(3, scenario=6)
    events = place(table, *OPENING[0])
    connected = only(events, "village_connected").data
    assert connected == {"seat": 0, "village": "0,-1,N", "number": 10, "cloth": 1}
    assert village(table, "0,-1,N")["cloth"] == 4 and village(table, "0,-1,N")["traders"] == [0]
    assert held(table) == [1, 0, 0]


def test_a_ship_line_one_path_short_of_a_village_trades_with_nothing():
    table = cloth_table()
    assert village(table, "0,-1,N")["traders"] == [0]
    assert held(table)[1] == 0


def test_a_ship_moved_to_reach_a_village_trades_with_it():
    table = cloth_table()
    table.rolls(2, 2)  # seat 1 builds a ship past the village 10, beside it
    table.send({"type": "build_ship", "edge": path("0,-2,S", "-1,0,N")})
    table.rolls(2, 2, 2)  # seat 1's next turn: the ship moves onto the village
    move = {"type": "move_ship", "from": path("0,-2,S", "-1,0,N"), "to": path("0,-2,S", "0,-1,N")}
    events = table.send(move)
    assert types(events) == ["ship_moved", "village_connected"]
    assert village(table, "0,-1,N")["traders"] == [0, 1] and held(table)[1] == 1


def test_every_seat_trading_with_a_village_takes_one_cloth_when_its_number_is_rolled():
    table = cloth_table()
    table.rolls(2, 2)  # seat 0, then seat 1
    events = table.send({"type": "build_ship", "edge": path("0,-2,S", "0,-1,N")})
    assert only(events, "village_connected").data["cloth"] == 1
    assert village(table, "0,-1,N")["traders"] == [0, 1] and held(table) == [1, 1, 0]
    events = table.rolls(10)  # seat 2 rolls the village's number
    share = only(events, "cloth_distributed").data
    assert share == {
        "total": 10,
        "village": "0,-1,N",
        "gains": {"0": 1, "1": 1},
        "from_village": 2,
        "from_reserve": 0,
    }
    assert held(table) == [2, 2, 0] and village(table, "0,-1,N")["cloth"] == 1


def test_what_a_village_lacks_comes_from_the_reserve():
    table = cloth_table()
    table.rolls(2, 2)
    table.send({"type": "build_ship", "edge": path("0,-2,S", "0,-1,N")})
    table.rolls(10)  # the village: 3 -> 1
    events = table.rolls(10)  # 2 seats, 1 cloth left: 1 from the village, 1 from the reserve
    share = only(events, "cloth_distributed").data
    assert (share["from_village"], share["from_reserve"]) == (1, 1)
    assert share["gains"] == {"0": 1, "1": 1}
    assert village(table, "0,-1,N")["cloth"] == 0 and table.view()["cloth"]["reserve"] == 9
    assert held(table) == [3, 3, 0]
    assert total_cloth(table) == CLOTH


def test_an_empty_village_gives_nothing_not_even_from_the_reserve():
    table = cloth_table()
    table.rolls(2, 2)
    table.send({"type": "build_ship", "edge": path("0,-2,S", "0,-1,N")})
    table.rolls(10, 10)
    assert village(table, "0,-1,N")["cloth"] == 0
    events = table.rolls(10)
    assert "cloth_distributed" not in types(events)
    assert held(table) == [3, 3, 0] and table.view()["cloth"]["reserve"] == 9


def test_reaching_an_empty_village_trades_with_it_but_takes_nothing():
    table = cloth_table()
    table.rolls(10, 10, 10, 10)  # seat 0 alone: 4 -> 0
    assert village(table, "0,-1,N")["cloth"] == 0
    table.end_turn()
    table.roll(2)  # seat 1
    events = table.send({"type": "build_ship", "edge": path("0,-2,S", "0,-1,N")})
    assert only(events, "village_connected").data["cloth"] == 0
    assert village(table, "0,-1,N")["traders"] == [0, 1] and held(table)[1] == 0


def test_a_short_reserve_serves_the_seats_in_turn_order_from_the_roller():
    table = cloth_table()
    table.rolls(2, 2)
    table.send({"type": "build_ship", "edge": path("0,-2,S", "0,-1,N")})
    table.rolls(10)  # the village: 3 -> 1
    table.state.cloth.reserve = 0  # the reserve spent elsewhere
    events = table.rolls(10)  # seat 0 rolls: it is served first, from the village
    share = only(events, "cloth_distributed").data
    assert share["gains"] == {"0": 1} and (share["from_village"], share["from_reserve"]) == (1, 0)


def test_a_short_reserve_serves_the_roller_first_even_after_a_lower_seat():
    """Seat 1 rolls, with one cloth left for seats 0 and 1: in turn order from the
    roller, seat 1 is served and seat 0 is not (in seat order it would be seat 0)."""
    table = cloth_table()
    table.rolls(2, 2)
    table.send({"type": "build_ship", "edge": path("0,-2,S", "0,-1,N")})  # seat 1
    table.rolls(10)  # seat 2 rolls; the village: 3 -> 1
    table.state.cloth.reserve = 0  # the reserve spent elsewhere
    table.rolls(table.idle_total())  # seat 0
    events = table.rolls(10)  # seat 1
    assert table.current == 1
    share = only(events, "cloth_distributed").data
    assert share["gains"] == {"1": 1} and (share["from_village"], share["from_reserve"]) == (1, 0)


def test_two_cloth_make_a_victory_point_and_half_points_do_not_count():
    table = cloth_table()
    buildings = table.points(0)
    assert held(table)[0] == 1 and table.points(0) == buildings  # 1 cloth: no point
    table.rolls(10)
    assert held(table)[0] == 2 and table.points(0) == buildings + 1
    table.rolls(10)
    assert held(table)[0] == 3 and table.points(0) == buildings + 1  # 3 cloth: 1 point


# -- ships (l.505) and awards (l.513) -----------------------------------------------------


def test_a_ship_line_joining_a_building_to_a_village_is_closed():
    table = cloth_table()
    table.rolls(2, 2)  # seat 1: its line short of the village is open, its ship moves
    moves = table.menu(1, "turn")["move_ship"]["moves"]
    assert {m["from"] for m in moves} == {path("-1,-1,N", "0,-2,S")}
    table.send({"type": "build_ship", "edge": path("0,-2,S", "0,-1,N")})
    table.rolls(2, 2)  # seat 0: its ship from 1,-3,S to the village never moves
    move = {"type": "move_ship", "from": path("1,-3,S", "0,-1,N"), "to": path("1,-3,S", "1,-2,N")}
    assert table.refused(move) == "ship_not_movable"
    assert "move_ship" not in table.menu(0, "turn")
    table.rolls(2)  # seat 1: its line reaches the village now, closed
    assert "move_ship" not in table.menu(1, "turn")


def test_the_pirate_moves_and_robs_a_card_before_its_mover_reaches_a_village():
    """JSettlers keeps the pirate still until its mover has reached a village, and has it
    steal cloth; the rulebook says neither (the pirate's usual rules hold)."""
    table = cloth_table()
    table.rolls(2, 7)  # seat 1, trading with no village, rolls a 7
    assert table.awaited() == [(1, "move_robber")]
    move = {"type": "move_pirate", "hex": "0,-2", "victim": 0, "resource": "ore"}
    assert types(table.send(move)) == ["pirate_moved", "card_stolen"]
    assert table.hand(1)["ore"] == 1 and held(table) == [1, 0, 0]  # a card, not cloth


def bot_games(seats: int, bot: str, seeds: range) -> list[tuple[list[Event], object]]:
    return [
        play_game(CATAN, {"scenario": 6}, seats, bytes([seed, seats]), [bot] * seats)
        for seed in seeds
    ]


def test_no_longest_trade_route_award_but_the_largest_army():
    long_routes = armies = 0
    for events, state in bot_games(4, "random", range(6)):
        assert "longest_road" not in types(events) and state.longest == NOBODY
        long_routes += max(state.road_length) >= 5
        armies += "largest_army" in types(events)
    assert long_routes and armies


# -- the end (l.517) -------------------------------------------------------------------------


def test_three_empty_villages_end_the_game_at_once():
    opening = (
        ("1,-3,S", "ship", "0,-1,N"),  # seat 0: the village 10
        ("4,-4,N", "road", corner("4,-4", "NE")),
        ("3,1,N", "road", corner("3,1", "NE")),
        ("1,2,S", "road", corner("1,2", "SW")),
        ("5,-3,S", "road", corner("5,-3", "SW")),
        ("-1,1,N", "ship", "0,-1,S"),  # seat 0: the village 9
        ("0,2,N", "ship", "1,0,S"),  # seat 0: the village 3
        ("1,-4,N", "road", corner("1,-4", "NE")),
        ("-2,2,S", "road", corner("-2,2", "SW")),
    )
    table = cloth_table(opening)
    assert held(table) == [3, 0, 0]
    for total in (10, 9, 3) * 3:
        table.rolls(total)
    assert [village(table, v)["cloth"] for v in ("0,-1,N", "0,-1,S", "1,0,S")] == [1, 1, 1]
    table.rolls(10, 9)
    assert table.view()["over"] is False
    events = table.rolls(3)  # the third village empties: the game is over at once
    ended = only(events, "game_ended").data
    assert held(table)[0] == 15
    totals = [entry["total"] for entry in ended["points"]]
    assert totals[0] == 3 + 7 and ended["winners"] == [0]
    assert ended["points"][0]["sources"]["cloth"] == 7
    assert table.view()["over"] and total_cloth(table) == CLOTH


def test_at_the_end_by_empty_villages_ties_go_to_the_most_cloth_then_are_shared():
    state = cloth_table().state.copy()  # 3 settlements each
    state.cloth.held = [3, 2, 3]  # 1 point each, but seat 1 holds less cloth
    assert [state.points(s) for s in range(3)] == [4, 4, 4]
    assert cloth.winners(state) == [0, 2]
    state.cloth.held = [3, 2, 5]
    assert cloth.winners(state) == [2]


def test_fourteen_points_in_the_seats_own_turn_win():
    for events, state in bot_games(3, "value", range(3)):
        ended = events[-1].data
        if cloth.villages_empty(state.cloth) < cloth.EMPTY_VILLAGES_END:
            (winner,) = ended["winners"]
            assert ended["points"][winner]["total"] >= 14
            assert state.current == winner


@pytest.mark.parametrize("bot", ["random", "value"])
@pytest.mark.parametrize("seats", [3, 4])
def test_bot_games_end_by_fourteen_points_or_three_empty_villages_and_replay(seats, bot):
    for events, state in bot_games(seats, bot, range(4)):
        ended = events[-1].data
        empty = cloth.villages_empty(state.cloth)
        totals = [entry["total"] for entry in ended["points"]]
        if empty >= cloth.EMPTY_VILLAGES_END:
            ranks = [(totals[s], state.cloth.held[s]) for s in range(seats)]
            assert ended["winners"] == [s for s in range(seats) if ranks[s] == max(ranks)]
        else:
            assert max(totals[s] for s in ended["winners"]) >= 14
        villages = sum(v.cloth for v in state.cloth.villages)
        assert villages + state.cloth.reserve + sum(state.cloth.held) == CLOTH
        assert CATAN.view(CATAN.fold(events), None) == CATAN.view(state, None)


def test_the_board_picture_shows_each_village_with_its_number_and_cloth():
    table = cloth_table()
    view = json.loads(json.dumps(table.view()))
    svg = board_svg(
        "catan", view, seat=None, names=["A", "B", "C"], version=1, options=table.options, recent=[]
    )
    shown = re.findall(r'class="village" data-corner="([^"]+)" data-cloth="(\d+)"', svg)
    assert dict(shown) == {name: "4" if name == "0,-1,N" else "5" for name in VILLAGES}
    # the Largest Army is played, no Longest Road (line 513): knights counted, no length
    assert "knights played: 0" in svg and "road length" not in svg

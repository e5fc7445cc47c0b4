"""Catan Seafarers: the rulebook's general rules, one test per rule, position by position.

Most tests play scenario 1 (Heading for New Shores) for 4 players on its map as the
data file lays it (``layout="beginner"``), in external-randomness mode, through the
same :class:`~tests.rules.catan.table.Table` as the base game: resources come only
from rolled production. The part of that map the tests use (terrain, number)::

    north-west island:  1,-4 hills 3   2,-4 forest 2
    main island, east:  2,-2 hills 6   2,-1 forest 3   2,0 hills 8   1,1 fields 10
    sea east of it:     3,-2  3,-1  3,0  2,1  (and 3,-3 to the north)
    north-east island:  4,-4 gold 4   4,-3 mountains 8   5,-3 gold 9   4,-2 fields 5
                        4,-1 hills 10
    the robber on the desert -1,0; the pirate on the sea hex 5,-2

Seat 0 opens at 2,-1,N (forest 3, hills 6 and the sea 3,-2: a coastal intersection)
and 0,1,S (pasture 6, fields 12, mountains 9), so it gathers every resource.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from service.rules.catan import scenarios, ships
from service.rules.catan.board import Board
from service.rules.catan.game import CATAN, SCENARIOS
from service.rules.catan.roads import longest_road
from service.rules.core import Event, IllegalMove
from service.rules.hexes.geometry import corner_hexes, hex_corners, parse_corner, parse_hex
from tests.rules.catan.table import (
    ROAD,
    SETTLEMENT,
    TERRAIN_RESOURCE,
    Table,
    only,
    path,
    types,
)

SHIP = {"wool": 1, "lumber": 1}

#: the 4-seat opening on scenario 1's main island, in snake order
OPENING = (
    ("2,-1,N", "2,-2,S"),  # seat 0: forest 3, hills 6, sea
    ("-1,-1,N", "0,-2,S"),  # seat 1
    ("-2,1,N", "-1,0,S"),  # seat 2
    ("0,-1,N", "1,-2,S"),  # seat 3
    ("-1,1,S", "-1,2,N"),  # seat 3, second
    ("1,1,S", "0,2,N"),  # seat 2, second
    ("-2,2,S", "-2,3,N"),  # seat 1, second
    ("0,1,S", "-1,2,N"),  # seat 0, second: pasture 6, fields 12, mountains 9
)

#: a 4-seat opening for the trade route examples: seat 0 opens on the east coast at
#: 2,0,N (hills 8, forest 3 and the sea 3,-1), its road going inland to 2,-1,S, and at
#: 0,2,N (mountains 9, pasture 6, fields 10), its road going to the coast at 1,1,S; seat
#: 2's second settlement 1,-1,N (its road to 2,-2,S) stands two paths from the coast
#: corner 2,-1,N, and its first, -1,1,S, gives it grain
TRADE_ROUTE_OPENING = (
    ("2,0,N", "2,-1,S"),  # seat 0
    ("-1,-1,N", "0,-2,S"),  # seat 1
    ("-1,1,S", "-1,2,N"),  # seat 2
    ("0,-1,N", "1,-2,S"),  # seat 3
    ("-2,1,N", "-1,0,S"),  # seat 3, second
    ("1,-1,N", "2,-2,S"),  # seat 2, second
    ("-2,2,S", "-2,3,N"),  # seat 1, second
    ("0,2,N", "1,1,S"),  # seat 0, second
)


class SeaTable(Table):
    """A Seafarers game at the table; production reads land terrains only."""

    def __init__(self, seats: int = 4, scenario: int = 1, **options: Any) -> None:
        super().__init__(seats, scenario=scenario, **options)

    def production(self, total: int) -> dict[int, Counter[str]]:
        view = self.view()
        owed: dict[int, Counter[str]] = {s: Counter() for s in range(self.seats)}
        built = {b["corner"]: b for b in view["buildings"]}
        for tile in view["board"]["hexes"]:
            resource = TERRAIN_RESOURCE.get(tile["terrain"])
            if tile["number"] != total or tile["hex"] == view["robber"] or resource is None:
                continue
            for c in hex_corners(parse_hex(tile["hex"])):
                b = built.get(f"{c.q},{c.r},{c.d}")
                if b is not None:
                    owed[b["seat"]][resource] += 2 if b["kind"] == "city" else 1
        return owed

    def ship(self, a: str, b: str, seat: int | None = None, **extra: Any) -> list:
        return self.send({"type": "build_ship", "edge": path(a, b), **extra}, seat)

    def move(self, origin: tuple[str, str], target: tuple[str, str], seat: int = 0) -> list:
        command = {"type": "move_ship", "from": path(*origin), "to": path(*target)}
        return self.send(command, seat)

    def ships(self) -> list[tuple[str, int]]:
        return [(s["edge"], s["seat"]) for s in self.view()["ships"]]


def opened(**options: Any) -> SeaTable:
    return SeaTable(**options).setup(*OPENING)  # type: ignore[return-value]


def sailing(n: int, **options: Any) -> SeaTable:
    """Seat 0 in its turn, holding the cards for ``n`` ships."""
    table = opened(**options)
    table.gather(0, wool=n, lumber=n)
    return table


# -- the scenario as an option ----------------------------------------------------------


def test_each_scenario_is_an_option_with_its_player_counts_and_targets():
    described = CATAN.describe()["options"]["scenario"]
    assert described["enum"] == [None, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    assert {n: (s.players, s.victory_points) for n, s in SCENARIOS.items()} == {
        1: ((3, 4), 14),  # rulebook line 200: "atteint ou dépasse 14 points"
        2: ((3, 4), 13),  # line 258
        3: ((3, 4), 12),  # line 322
        4: ((3, 4), 14),  # line 386
        5: ((3, 4), 13),  # line 451: "atteint ou dépasse 13 points de victoire"
        6: ((3, 4), 14),  # line 517: "atteint ou dépasse 14 points de victoire"
        7: ((3, 4), 10),  # line 621: "possède au moins 10 points de victoire"
        8: ((3, 4), 10),  # line 685: "au moins 10 points de victoire"
        9: ((3, 4), 12),  # line 725
    }


def test_a_scenario_sets_its_own_victory_points_unless_the_option_is_given():
    assert CATAN.normalize_options({"scenario": 2})["victory_points"] == 13
    assert CATAN.normalize_options({"scenario": 2, "victory_points": 10})["victory_points"] == 10


def test_a_scenario_is_for_the_player_counts_its_maps_exist_for():
    options = CATAN.normalize_options({"scenario": 1})
    with pytest.raises(Exception, match="3 or 4 players"):
        CATAN.setup(options, 2, random.Random(0))


def test_robber_and_pirate_start_where_the_scenario_says():
    view = SeaTable().view()
    # 4 players: the robber on the desert (line 208), the pirate on the marked sea
    assert view["robber"] == "-1,0" and view["pirate"] == "5,-2"
    tiles = {t["hex"]: t for t in view["board"]["hexes"]}
    assert tiles[view["robber"]]["terrain"] == "desert"
    assert tiles[view["pirate"]]["terrain"] == "sea"


def test_the_first_settlements_go_on_the_start_area():
    """Scenario 1: "Les joueurs doivent placer leurs deux colonies de départ sur la
    grande île" (line 204)."""
    table = SeaTable()
    assert table.refused({"type": "build_settlement", "corner": "4,-2,N"}) == "not_a_start_area"


def test_a_settlement_goes_on_land():
    table = SeaTable()
    tiles = {t["hex"]: t["terrain"] for t in table.view()["board"]["hexes"]}
    at_sea = next(
        c
        for c in table.state.layout.corner_names
        if all(tiles.get(f"{q},{r}", "sea") == "sea" for q, r in corner_hexes(parse_corner(c)))
    )
    assert table.refused({"type": "build_settlement", "corner": at_sea}) == "settlement_at_sea"


# -- ships -------------------------------------------------------------------------------


def test_each_seat_has_15_ships():
    assert all(p["pieces"]["ship"] == 15 for p in opened().view()["players"])


def test_a_ship_costs_one_wool_and_one_lumber():
    table = sailing(1)
    before = table.hand(0)
    events = table.ship("2,-1,N", "3,-2,S")
    assert types(events) == ["ship_built"]
    assert before - table.hand(0) == Counter(SHIP)
    assert table.view()["players"][0]["pieces"]["ship"] == 14
    assert table.ships() == [("2,-1,NE", 0)]


def test_a_ship_goes_at_sea_or_along_a_coast_never_on_land():
    table = sailing(1)
    # 2,-2,SE lies between hills 2,-2 and forest 2,-1: land on both sides
    assert table.refused({"type": "build_ship", "edge": "2,-2,SE"}) == "ship_on_land"


def test_a_road_goes_beside_land_never_at_sea():
    table = opened()
    table.gather(0, **ROAD)
    # 3,-2,SE lies between the sea hexes 3,-2 and 3,-1
    assert table.refused({"type": "build_road", "edge": "3,-2,SE"}) == "road_at_sea"


def test_a_ship_starts_at_a_settlement_or_continues_a_ship():
    table = sailing(2)
    assert table.refused({"type": "build_ship", "edge": path("3,-2,S", "3,-1,N")}) == (
        "ship_not_connected"
    )
    table.ship("2,-1,N", "3,-2,S")
    table.ship("3,-2,S", "3,-1,N")  # continuing its own ship, with a turn (a deviation)
    assert table.ships() == [("2,-1,NE", 0), ("3,-2,SE", 0)]


def test_a_ship_never_continues_a_road_without_a_settlement_between():
    """Illustration D: a road on the coast ends at 3,-3,S, where no settlement stands;
    a ship may not follow it there."""
    table = opened()
    table.gather(0, brick=1, lumber=2, wool=1)
    table.road("2,-1,N", "3,-3,S")
    assert table.refused({"type": "build_ship", "edge": path("3,-3,S", "3,-2,N")}) == (
        "ship_not_connected"
    )


def test_a_road_never_continues_a_ship_without_a_settlement_between():
    table = opened()
    table.gather(0, brick=1, lumber=2, wool=1)
    table.ship("2,-1,N", "3,-2,S")
    assert table.refused({"type": "build_road", "edge": path("3,-2,S", "2,0,N")}) == (
        "road_not_connected"
    )


def test_a_coast_path_holds_a_road_or_a_ship_not_both():
    table = opened()
    table.gather(0, brick=1, lumber=2, wool=1)
    table.road("2,-1,N", "3,-2,S")
    assert table.refused({"type": "build_ship", "edge": path("2,-1,N", "3,-2,S")}) == (
        "path_occupied"
    )


def test_a_settlement_may_stand_at_the_end_of_a_ship_line():
    table = sailing(2)
    table.ship("2,-1,N", "3,-2,S")
    table.ship("3,-2,S", "3,-1,N")
    table.gather(0, **SETTLEMENT)
    events = table.settle("3,-1,N")
    assert only(events, "settlement_built").data["corner"] == "3,-1,N"


def test_in_the_setup_a_coastal_settlement_may_take_a_ship_instead_of_its_road():
    table = SeaTable()
    table.settle("2,-1,N")
    assert table.menu(0)["build_ship"]["edges"] == ["2,-2,E", "2,-1,NE"]
    events = table.ship("2,-1,N", "3,-2,S")
    assert only(events, "ship_built").data == {
        "seat": 0,
        "edge": "2,-1,NE",
        "free": True,
        "length": 1,
    }
    assert table.awaited() == [(1, "place_settlement")]


def test_an_inland_settlement_takes_a_road_in_the_setup():
    table = SeaTable()
    table.settle("0,1,S")
    assert "build_ship" not in table.menu(0)
    assert table.refused({"type": "build_ship", "edge": "0,1,SE"}) == "ship_on_land"


# -- moving ships --------------------------------------------------------------------------


def line_of_two() -> SeaTable:
    """Seat 0's open line 2,-1,N - 3,-2,S - 3,-1,N, built last turn; seat 0 to play."""
    table = sailing(2)
    table.ship("2,-1,N", "3,-2,S")
    table.ship("3,-2,S", "3,-1,N")
    table.next_turn(0)
    return table


def test_a_ship_built_this_turn_may_not_move():
    table = sailing(1)
    table.ship("2,-1,N", "3,-2,S")
    command = {"type": "move_ship", "from": "2,-1,NE", "to": "2,-2,E"}
    assert table.refused(command) == "ship_built_this_turn"


def test_a_ship_of_the_set_up_may_move_in_its_owners_first_turn():
    """A ship may not move "lors du même tour qu'il a été construit": one placed in the
    set-up was not built in its owner's first turn."""
    table = SeaTable()
    table.settle("2,-1,N")
    table.ship("2,-1,N", "3,-2,S")  # a ship instead of the first settlement's road
    for settlement, toward in OPENING[1:]:
        table.place(settlement, toward)
    table.roll(table.idle_total())
    command = {"type": "move_ship", "from": path("2,-1,N", "3,-2,S"), "to": "2,-2,E"}
    assert {"from": command["from"], "to": "2,-2,E"} in table.menu(0)["move_ship"]["moves"]
    assert types(table.send(command, 0)) == ["ship_moved"]


def test_the_last_ship_of_an_open_line_moves_to_a_place_where_it_could_be_built():
    table = line_of_two()
    assert table.menu(0)["move_ship"]["moves"] == [
        {"from": "3,-2,SE", "to": "2,-2,E"},
        {"from": "3,-2,SE", "to": "2,-1,E"},
    ]
    events = table.move(("3,-2,S", "3,-1,N"), ("3,-2,S", "2,0,N"))
    assert only(events, "ship_moved").data == {
        "seat": 0,
        "from": "3,-2,SE",
        "to": "2,-1,E",
        "length": 3,  # the set-up road, the settlement, then two ships
    }
    assert table.ships() == [("2,-1,NE", 0), ("2,-1,E", 0)]


def test_only_one_ship_moves_per_turn():
    table = line_of_two()
    table.move(("3,-2,S", "3,-1,N"), ("3,-2,S", "2,0,N"))
    command = {"type": "move_ship", "from": "2,-1,E", "to": "3,-2,SE"}
    assert table.refused(command) == "one_ship_move_per_turn"


def test_a_ship_inside_a_line_does_not_move():
    table = line_of_two()
    command = {"type": "move_ship", "from": "2,-1,NE", "to": "2,-2,E"}
    assert table.refused(command) == "ship_not_movable"


def test_a_moved_ship_goes_only_where_a_ship_could_be_built():
    table = line_of_two()
    far = {"type": "move_ship", "from": "3,-2,SE", "to": "3,0,NE"}
    assert table.refused(far) == "ship_not_connected"
    assert table.refused({**far, "to": "3,-2,SE"}) == "ship_must_move"
    assert table.refused({**far, "from": "2,-2,E"}) == "no_ship_there"


def test_every_end_of_a_branching_open_line_may_move_but_not_its_fork():
    """A line forks at 3,-2,S: both branches end open, so either last ship moves (the
    rulebook's "plusieurs déviations ouvertes"), the ship before the fork never."""
    table = sailing(3)
    table.ship("2,-1,N", "3,-2,S")
    table.ship("3,-2,S", "3,-1,N")
    table.ship("3,-2,S", "2,0,N")
    table.next_turn(0)
    movable = {move["from"] for move in table.menu(0)["move_ship"]["moves"]}
    assert movable == {"3,-2,SE", "2,-1,E"}


def test_the_ships_of_a_closed_line_never_move():
    """A line between two of the seat's settlements is closed (illustration F)."""
    table = line_of_two()
    table.gather(0, **SETTLEMENT)
    table.settle("3,-1,N")
    assert "move_ship" not in table.menu(0)
    command = {"type": "move_ship", "from": "3,-2,SE", "to": "2,-1,E"}
    assert table.refused(command) == "ship_not_movable"


def test_an_opponents_settlement_on_a_closed_sea_route_cuts_the_trade_route_not_the_line():
    """catan-seafarers.fr.md:73-75: "Les bateaux d'une route fermée ne peuvent être
    déplacés. Ceci s'applique même si un autre joueur construit une colonie sur
    l'intersection d'une route maritime fermée. Ceci interrompt une route considérée
    comme la plus longue, mais les colonies demeurent liées et/ou la route fermée."

    Seat 0's closed line (illustration F) of 4 ships runs along the coast from its
    settlement 2,0,N to its settlement 2,-2,N, through the coast corner 2,-1,N; with its
    set-up road it is a trade route of 5, the longest. Seat 2 builds a road to 2,-1,N and
    settles there: the route is cut to 3 (the road and 2 ships) and, nobody else having
    5, the award is set aside; the line stays closed, none of its ships may move."""
    table = SeaTable().setup(*TRADE_ROUTE_OPENING)
    table.gather(0, wool=4, lumber=4)
    line = ("2,0,N", "3,-2,S", "2,-1,N", "3,-3,S", "2,-2,N")
    for a, b in zip(line, line[1:], strict=False):
        table.ship(a, b)
    table.gather(0, **SETTLEMENT)
    table.settle("2,-2,N")
    assert table.view()["road_lengths"][0] == 5 and table.view()["longest_road"] == 0
    table.gather(2, **ROAD)
    table.road("2,-2,S", "2,-1,N", seat=2)
    table.gather(2, **SETTLEMENT)
    events = table.settle("2,-1,N", seat=2)
    assert only(events, "settlement_built").data["roads_cut"] == {"0": 3}
    assert only(events, "longest_road").data == {"seat": None, "length": None}
    assert table.view()["road_lengths"][0] == 3 and table.view()["longest_road"] is None
    table.next_turn(0)  # none of the ships was built this turn
    assert "move_ship" not in table.menu(0)
    # the two ships beside seat 2's settlement, and the one at seat 0's 2,-2,N, each to a
    # path where a ship could go if it moved
    for ship, to in (
        (("3,-2,S", "2,-1,N"), ("3,-2,S", "3,-1,N")),
        (("2,-1,N", "3,-3,S"), ("3,-3,S", "3,-2,N")),
        (("3,-3,S", "2,-2,N"), ("2,-2,N", "2,-3,S")),
    ):
        command = {"type": "move_ship", "from": path(*ship), "to": path(*to)}
        assert table.refused(command, seat=0) == "ship_not_movable"


# -- the pirate ---------------------------------------------------------------------------


def test_on_a_7_the_roller_moves_the_robber_or_the_pirate():
    table = sailing(1)
    table.ship("2,-1,N", "3,-2,S")
    table.next_turn(1)
    table.end_turn()
    table.next_turn(3)
    table.end_turn()
    table.roll(7)  # seat 0
    menu = table.menu(0, "move_robber")
    assert set(menu) == {"move_robber", "move_pirate"}
    pirate = {spot["hex"]: spot["victims"] for spot in menu["move_pirate"]["hexes"]}
    assert "5,-2" not in pirate  # the pirate must move
    assert pirate["3,-2"] == []  # seat 0's own ship only


def test_the_pirate_robs_a_seat_with_a_ship_beside_its_hex():
    table = sailing(1)
    table.ship("2,-1,N", "3,-2,S")
    table.next_turn(1)
    table.send({"type": "end_turn"}, 1)
    table.roll(7, seat=2)
    victims = {
        spot["hex"]: spot["victims"]
        for spot in table.menu(2, "move_robber")["move_pirate"]["hexes"]
    }
    assert victims["3,-2"] == [0] and victims["3,-1"] == []
    hand = table.hand(0)
    resource = next(r for r, n in hand.items() if n)
    command = {"type": "move_pirate", "hex": "3,-2", "victim": 0, "resource": resource}
    events = table.send(command, 2)
    assert types(events) == ["pirate_moved", "card_stolen"]
    assert table.view()["pirate"] == "3,-2"
    assert hand - table.hand(0) == Counter({resource: 1})


def test_no_ship_is_built_or_moved_beside_the_pirate():
    table = sailing(3)
    table.ship("2,-1,N", "3,-2,S")
    table.ship("3,-2,S", "3,-1,N")
    table.next_turn(1)
    table.end_turn()
    table.roll(7, seat=2)
    resource = next(r for r, n in table.hand(0).items() if n)
    command = {"type": "move_pirate", "hex": "3,-2", "victim": 0, "resource": resource}
    table.send(command, 2)
    table.next_turn(0)
    table.gather(0, **SHIP)
    assert table.refused({"type": "build_ship", "edge": "2,-2,E"}) == "pirate_blocks"
    command = {"type": "move_ship", "from": "3,-2,SE", "to": "2,-1,E"}
    assert table.refused(command) == "pirate_blocks"


def test_the_robber_goes_on_land_and_the_pirate_at_sea():
    table = opened()
    table.roll(7)
    assert table.refused({"type": "move_robber", "hex": "3,-2"}) == "robber_on_land"
    assert table.refused({"type": "move_pirate", "hex": "2,-1"}) == "pirate_at_sea"
    assert table.refused({"type": "move_pirate", "hex": "5,-2"}) == "pirate_at_sea"


# -- gold fields --------------------------------------------------------------------------


def gold_board() -> dict[str, Any]:
    """Scenario 1's map with the gold field 4,-4 (4) and the forest 2,-1 (3) swapped,
    so that gold lies on the main island, beside seat 0 (2,-1,N) and seat 1 (2,-1,S)."""
    from service.rules.catan import scenarios

    board = scenarios.deal(1, 4, random.Random(0), shuffle=False)["board"]
    tiles = {t["hex"]: t for t in board["hexes"]}
    a, b = tiles["4,-4"], tiles["2,-1"]
    (a["terrain"], a["number"]), (b["terrain"], b["number"]) = (
        (b["terrain"], b["number"]),
        (a["terrain"], a["number"]),
    )
    return board


GOLD_OPENING = (
    ("2,-1,N", "2,-2,S"),
    ("2,-1,S", "1,0,N"),
    ("-2,1,N", "-1,0,S"),
    ("0,-1,N", "1,-2,S"),
    ("-1,1,S", "-1,2,N"),
    ("1,1,S", "0,2,N"),
    ("-2,2,S", "-2,3,N"),
    ("0,1,S", "-1,2,N"),
)


@pytest.mark.parametrize("seats", [3, 4])
def test_the_four_islands_laid_at_random_give_forests_and_pastures_no_poor_number(seats: int):
    """Scenario 2, "Mise en place aléatoire": "Assurez-vous toutefois que les forêts et
    les prés n'aient pas de jetons numérotés à trop faibles probabilités": none of the
    tokens of one or two dots (2, 3, 11, 12) on a forest or a pasture."""
    layouts = set()
    for seed in range(40):
        board = scenarios.deal(2, seats, random.Random(seed), shuffle=True)["board"]
        spared = [t["number"] for t in board["hexes"] if t["terrain"] in ("forest", "pasture")]
        assert len(spared) == (8 if seats == 3 else 10)
        assert not set(spared) & {2, 3, 11, 12}
        layouts.add(tuple((t["hex"], t["terrain"], t["number"]) for t in board["hexes"]))
    assert len(layouts) == 40


def swapped(board: dict, a: str, b: str, part: str = "both") -> dict:
    """``board`` with the terrains and numbers of hexes ``a`` and ``b`` swapped (or only
    their ``"number"``)."""
    tiles = {t["hex"]: dict(t) for t in board["hexes"]}
    keys = ("terrain", "number") if part == "both" else (part,)
    for key in keys:
        tiles[a][key], tiles[b][key] = tiles[b][key], tiles[a][key]
    return {**board, "hexes": list(tiles.values())}


def test_a_scenario_board_sent_is_one_its_random_set_up_could_lay():
    """With external randomness the client draws a scenario's board, but only one its
    random set-up could lay: each group's tiles where the group keeps them, the rest as
    printed, and the set-up's rules for numbers."""
    four_islands = scenarios.deal(2, 3, random.Random(1), shuffle=True)["board"]
    tiles = {t["hex"]: t for t in four_islands["hexes"]}
    forest = next(h for h, t in tiles.items() if t["terrain"] == "forest")
    three = next(
        h
        for h, t in tiles.items()
        if t["number"] == 3 and t["terrain"] not in ("forest", "pasture")
    )
    poor = swapped(four_islands, forest, three, "number")  # a 3 on a forest
    assert scenarios.layout_problem(2, 3, Board.from_json(poor).hexes) == (
        "a 2, 3, 11 or 12 lies on forest or pasture"
    )
    table = SeaTable(3, scenario=2, layout="random")
    assert table.refused({"type": "set_board", "board": poor}) == "bad_board"
    assert types(table.send({"type": "set_board", "board": four_islands})) == ["board_set"]
    desert = scenarios.deal(4, 3, random.Random(1), shuffle=True)["board"]
    tiles = {t["hex"]: t for t in desert["hexes"]}
    sand = next(h for h, t in tiles.items() if t["terrain"] == "desert")
    field = next(h for h, t in tiles.items() if t["terrain"] == "fields")
    moved = swapped(desert, sand, field)  # Through the Desert: its desert is printed
    assert scenarios.layout_problem(4, 3, Board.from_json(moved).hexes) is not None
    for number, info in SCENARIOS.items():
        for seats in info.players:
            for seed in range(3):
                dealt = scenarios.deal(number, seats, random.Random(seed), shuffle=True)
                hexes = Board.from_json(dealt["board"]).hexes
                assert scenarios.layout_problem(number, seats, hexes) is None


def gold_table() -> SeaTable:
    """A game on :func:`gold_board`, a position made for the gold rules: no set-up lays
    gold on the main island, so ``set_board`` refuses it and its event is folded in."""
    table = SeaTable(layout="random")
    table.events.append(Event("board_set", {"board": gold_board()}))
    table.state = CATAN.evolve(table.state, table.events[-1])
    return table.setup(*GOLD_OPENING)  # type: ignore[return-value]


def test_a_gold_field_gives_each_building_resources_of_its_owners_choice_all_at_once():
    table = gold_table()
    events = table.roll(4)  # the gold field's number
    assert only(events, "resources_produced").data["gold"] == {"0": 1, "1": 1}
    # both seats choose at the same time, in any order, before the turn goes on
    assert table.awaited() == [(0, "choose_gold"), (1, "choose_gold")]
    before = table.hand(1)
    table.send({"type": "choose_gold", "resources": {"ore": 1}}, 1)
    assert table.hand(1) - before == Counter({"ore": 1})
    assert table.awaited() == [(0, "choose_gold")]
    before = table.hand(0)
    table.send({"type": "choose_gold", "resources": {"brick": 1}}, 0)
    assert table.hand(0) - before == Counter({"brick": 1})
    assert table.awaited() == [(0, "turn")]


def test_a_gold_choice_takes_exactly_what_is_owed_from_the_bank():
    table = gold_table()
    table.roll(4)
    assert table.refused({"type": "choose_gold", "resources": {"ore": 2}}, 0) == "wrong_gold"
    assert table.refused({"type": "choose_gold", "resources": {}}, 0) == "wrong_gold"


def test_a_city_on_a_gold_field_takes_two_resources_of_any_kinds():
    table = gold_table()
    table.gather(0, grain=2, ore=3)
    table.city("2,-1,N")
    table.next_turn(0)
    table.end_turn()
    events = table.roll(4, seat=1)
    assert only(events, "resources_produced").data["gold"] == {"0": 2, "1": 1}
    before = table.hand(0)
    table.send({"type": "choose_gold", "resources": {"wool": 1, "ore": 1}}, 0)
    assert table.hand(0) - before == Counter({"wool": 1, "ore": 1})


# -- special victory points --------------------------------------------------------------


def test_a_first_settlement_on_a_small_island_earns_2_special_points():
    """Line 196: "À chaque fois qu'un joueur construit une première colonie de sa
    couleur sur une petite île, il reçoit 2 points de victoire spéciaux"."""
    table = line_of_two()
    table.gather(0, **SETTLEMENT)
    before = table.points(0)
    events = table.settle("3,-1,N")
    data = only(events, "settlement_built").data
    assert data["special"] == 2
    assert table.points(0) == before + 3  # "la colonie vaut donc 3 points"
    assert table.view()["special_points"] == [2, 0, 0, 0]


def test_the_four_islands_example_each_foreign_island_settled_in_turn_earns_2():
    """Line 254: "Un joueur a établi ses deux premières colonies sur l'île en bas à
    gauche. Il rejoint l'île en haut à gauche et y fonde une colonie. Il reçoit donc 2
    jetons Catane. De cette île, il se rend à celle en haut à droite et y fonde également
    une colonie, pour laquelle il reçoit aussi 2 jetons Catane." (The south-west island
    grows no lumber nor grain, and the robber sits on its wool: seat 0 buys them from the
    bank, 4 bricks each.)"""
    table = SeaTable(3, scenario=2)
    table.settle("-1,0,N")  # the south-west island, both times
    table.ship("-1,0,N", "0,-2,S")
    for settlement, toward in (
        ("4,-3,S", "4,-2,N"),  # seat 1, the north-east island
        ("2,-1,S", "2,0,N"),  # seat 2, the south-east island
        ("3,-1,S", "3,0,N"),
        ("4,-5,S", "4,-4,N"),
        ("-2,1,S", "-2,2,N"),
    ):
        table.place(settlement, toward)

    def bought(**wanted: int) -> None:
        for resource, n in wanted.items():
            for _ in range(n):
                table.gather(0, brick=4)
                table.send({"type": "maritime_trade", "give": "brick", "get": resource}, 0)

    def sail(*corners: str) -> None:
        for a, b in zip(corners, corners[1:], strict=False):
            bought(lumber=1, wool=1)
            table.ship(a, b, 0)

    def settled(corner: str) -> dict:
        bought(lumber=1, grain=1, wool=1)
        table.gather(0, brick=1, **{r: 1 for r in ("lumber", "grain", "wool")})
        return only(table.settle(corner, 0), "settlement_built").data

    sail("0,-2,S", "0,-1,N")
    assert settled("0,-1,N")["special"] == 2  # the north-west island
    sail("0,-1,N", "1,-3,S", "1,-2,N", "2,-4,S", "2,-3,N")
    assert settled("2,-3,N")["special"] == 2  # the north-east: seat 1's, foreign to 0
    assert table.view()["special_points"] == [4, 0, 0]


def test_no_special_points_for_a_second_settlement_on_the_same_island():
    table = line_of_two()
    table.gather(0, **SETTLEMENT)
    table.settle("3,-1,N")
    table.gather(0, brick=2, lumber=2)
    table.road("3,-1,N", "4,-2,S")
    table.road("4,-2,S", "4,-1,N")
    table.gather(0, **SETTLEMENT)
    events = table.settle("4,-1,N")
    assert "special" not in only(events, "settlement_built").data
    assert table.view()["special_points"][0] == 2


def test_no_special_points_on_the_start_island():
    table = opened()
    table.gather(0, brick=2, lumber=2)
    table.road("2,-2,S", "1,-1,N")
    table.gather(0, **SETTLEMENT)
    assert "special" not in only(table.settle("1,-1,N"), "settlement_built").data


def test_the_game_ends_when_a_seat_reaches_the_target_in_its_turn():
    table = line_of_two()
    table.gather(0, **SETTLEMENT)
    points = table.points(0)
    game = SeaTable(victory_points=points + 3).setup(*OPENING)
    game.gather(0, wool=2, lumber=2)
    game.ship("2,-1,N", "3,-2,S")
    game.ship("3,-2,S", "3,-1,N")
    game.gather(0, **SETTLEMENT)
    events = game.settle("3,-1,N")
    ended = only(events, "game_ended").data
    assert ended["winners"] == [0]
    assert ended["points"][0]["sources"]["special_points"] == 2


# -- the longest trade route ---------------------------------------------------------------


def test_roads_and_ships_join_only_through_a_settlement_or_city():
    """Section C.1: roads and ships side by side count together only when a settlement
    or city separates them."""
    layout = opened().state.layout
    edge = layout.edge_by_name
    joint = layout.corner_by_name["2,-1,N"]
    roads = [edge[path("2,-1,N", "2,-2,S")], edge[path("2,-2,S", "1,-1,N")]]
    ships_ = [edge[path("2,-1,N", "3,-2,S")], edge[path("3,-2,S", "3,-1,N")]]
    grid = layout.grid
    assert longest_road(grid, roads, ships=ships_, own_corners={joint}) == 4
    assert longest_road(grid, roads, ships=ships_, own_corners=()) == 2


def test_a_settlement_between_a_road_and_a_ship_joins_them_into_one_trade_route():
    """Section C.1: roads and ships beside each other count as one route only through a
    settlement or city. (Its example, Red's 4 ships and 2 roads joined into 8 segments,
    is the next test.)"""
    table = opened()
    table.gather(0, brick=3, lumber=5, wool=2)
    table.road("2,-1,N", "3,-3,S")  # a coast road north: 2,-2,E
    table.road("2,-2,S", "1,-1,N")  # the set-up road 2,-2,SE goes on west
    table.ship("2,-1,N", "3,-2,S")
    table.ship("3,-2,S", "3,-1,N")
    # 2,-1,N holds seat 0's settlement: roads and ships meet through it
    assert table.view()["road_lengths"][0] == 4


def test_the_trade_route_example_a_settlement_between_road_and_ship_joins_6_and_2_into_8():
    """catan-seafarers.fr.md:91: "Rouge a la route la plus longue avec 4 bateaux et 2
    routes (donc 6 segments). Afin de lier ses deux routes et avoir ainsi 8 segments,
    Rouge doit d'abord construire une colonie entre la route et le navire situés sur la
    tuile numéroté 12."

    The picture is lost; this board fits the text. Seat 0's route of 6: 2 roads inland
    from its settlement 2,0,N (1,0,N - 2,-1,S - 2,0,N), then 4 ships along the coast
    to 1,2,N. Its second route, of 2: the roads from its settlement 0,2,N to the same
    coast corner 1,2,N (beside fields 10, where the book's is beside the 12). A road and
    a ship meet there on an empty intersection: the two routes are not joined, the
    longest is 6; a settlement there joins them into 8."""
    table = SeaTable().setup(*TRADE_ROUTE_OPENING)
    table.gather(0, wool=4, lumber=6, brick=2)
    table.road("2,-1,S", "1,0,N")
    sea_route = ("2,0,N", "3,-1,S", "2,1,N", "2,0,S", "1,2,N")
    for a, b in zip(sea_route, sea_route[1:], strict=False):
        table.ship(a, b)
    table.road("1,1,S", "1,2,N")
    assert table.view()["road_lengths"][0] == 6  # 2 roads + 4 ships
    assert table.view()["longest_road"] == 0
    table.gather(0, **SETTLEMENT)
    table.settle("1,2,N")  # between the road 1,1,S - 1,2,N and the ship 2,0,S - 1,2,N
    assert table.view()["road_lengths"][0] == 8  # 2 roads + 4 ships + 2 roads
    assert table.view()["longest_road"] == 0


# -- The Fog Islands -----------------------------------------------------------------------


def test_fog_spaces_are_hidden_until_a_road_or_ship_reaches_them():
    table = SeaTable(scenario=3, randomness="internal")
    view = table.view()
    fog = [t["hex"] for t in view["board"]["hexes"] if t["terrain"] == "fog"]
    assert len(fog) == 12 and view["fog_piles"] == {"tiles": 12, "numbers": 10}
    assert all(t["number"] is None for t in view["board"]["hexes"] if t["terrain"] == "fog")


def test_a_fog_space_reached_is_turned_up_and_a_land_tile_gives_its_resource():
    """Line 314: a ship reaching an intersection of an unknown space turns up the top
    tile there; a land tile takes the top number and gives the builder its resource.
    Seat 0 settles at 1,0,S (fields 0,1 between the sea hexes 1,0 and 1,1) and sends
    its set-up ship to 1,1,N, a corner of the fog space 2,0."""
    table = SeaTable(scenario=3)
    table.settle("1,0,S")
    ship = {"type": "build_ship", "edge": path("1,0,S", "1,1,N")}
    assert table.refused(ship) == "bad_reveal"  # external randomness: the tile is sent
    hills = {"hex": "2,0", "terrain": "hills", "number": 2}  # no 2 in the fog's pile
    assert table.refused({**ship, "reveal": [hills]}) == "bad_reveal"
    assert table.refused({**ship, "reveal": [{**hills, "terrain": "desert"}]}) == "bad_reveal"
    hills["number"] = 6
    events = table.send({**ship, "reveal": [hills]})
    assert types(events) == ["ship_built", "hex_revealed"]
    assert only(events, "hex_revealed").data == {
        "seat": 0,
        "hex": "2,0",
        "terrain": "hills",
        "number": 6,
        "gains": {"0": {"brick": 1}},
    }
    tiles = {t["hex"]: t for t in table.view()["board"]["hexes"]}
    assert tiles["2,0"] == hills
    assert table.hand(0) == Counter({"brick": 1})
    assert table.view()["fog_piles"] == {"tiles": 11, "numbers": 9}


def test_a_fog_space_turned_up_as_sea_gives_nothing():
    table = SeaTable(scenario=3)
    table.settle("1,0,S")
    sea = {"hex": "2,0", "terrain": "sea", "number": None}
    events = table.send({"type": "build_ship", "edge": path("1,0,S", "1,1,N"), "reveal": [sea]})
    assert only(events, "hex_revealed").data["gains"] == {}
    assert table.view()["fog_piles"] == {"tiles": 11, "numbers": 10}


def test_a_fog_space_drawn_by_the_server_is_in_no_event_before_it_is_turned_up():
    """Internal randomness: the piles are drawn when a space is turned up, so no event
    and no view holds a hidden tile (the log shows it only then)."""
    table = SeaTable(scenario=3, randomness="internal")
    table.settle("1,0,S")
    genesis = table.events[0].data
    assert {"hex": "2,0", "terrain": "fog", "number": None} in genesis["board"]["hexes"]
    assert genesis["scenario"]["fog"] == {  # the piles' contents, as the rulebook prints
        "terrains": {
            "sea": 2,
            "gold": 2,
            "fields": 2,
            "hills": 2,
            "mountains": 2,
            "pasture": 1,
            "forest": 1,
        },
        "numbers": {"3": 1, "4": 1, "5": 1, "6": 1, "8": 1, "9": 1, "10": 1, "11": 2, "12": 1},
    }
    assert all(e.type in ("game_started", "settlement_built") for e in table.events)
    events = table.send({"type": "build_ship", "edge": path("1,0,S", "1,1,N")})
    turned = only(events, "hex_revealed").data
    assert turned["hex"] == "2,0" and turned["terrain"] != "fog"


# -- The New World ------------------------------------------------------------------------


def test_the_new_world_seats_place_the_harbour_markers_in_turn_then_they_are_turned_up():
    """Line 711: the markers are shuffled face down and placed in turn beside land."""
    table = SeaTable(scenario=9, seats=3, randomness="internal")
    assert table.awaited() == [(0, "place_harbour")]
    inland = next(
        e
        for e in table.state.layout.edge_names
        if len(table.state.layout.grid.edge_hexes[table.state.layout.edge_by_name[e]]) == 2
        and not table.state.layout.board.is_coast(table.state.layout.edge_by_name[e])
    )
    assert table.refused({"type": "place_harbour", "edge": inland}) == "harbour_not_on_coast"
    seats = []
    while table.awaited()[0][1] == "place_harbour":
        seat = table.awaited()[0][0]
        seats.append(seat)
        edge = table.menu(seat)["place_harbour"]["edges"][0]
        events = table.send({"type": "place_harbour", "edge": edge}, seat)
    assert seats == [0, 1, 2, 0, 1, 2, 0, 1, 2, 0]
    harbours = only(events, "harbour_placed").data["harbours"]
    assert Counter(h["type"] for h in harbours) == Counter(
        {"generic": 5, "brick": 1, "lumber": 1, "wool": 1, "grain": 1, "ore": 1}
    )
    assert len(table.view()["board"]["harbours"]) == 10
    assert table.awaited() == [(0, "place_settlement")]


def test_the_new_world_harbour_types_come_from_the_markers_in_external_mode():
    # "beginner" lays a printed map; The New World has none, so its map is sent too
    table = SeaTable(scenario=9, seats=3, layout="beginner")
    assert table.options["layout"] == "random" and table.awaited() == [(0, "set_board")]
    drawn = scenarios.deal(9, 3, random.Random(9), shuffle=True)["board"]
    table.send({"type": "set_board", "board": drawn})
    for _ in range(9):
        seat = table.awaited()[0][0]
        table.send({"type": "place_harbour", "edge": table.menu(seat)["place_harbour"]["edges"][0]})
    edge = table.menu(0)["place_harbour"]["edges"][0]
    command = {"type": "place_harbour", "edge": edge, "types": ["generic"] * 10}
    assert table.refused(command) == "bad_harbour_types"


# -- road building ------------------------------------------------------------------------


def test_road_building_builds_roads_or_ships():
    """Section C.2: the card builds 2 roads, 2 ships, or one of each."""
    table = opened()
    table.buy_cards(0, "road_building")
    table.next_turn(0)
    table.send({"type": "play_road_building"})
    assert set(table.menu(0, "free_roads")) == {"build_road", "build_ship"}
    table.ship("2,-1,N", "3,-2,S")
    table.road("2,-1,N", "3,-3,S")
    assert table.awaited() == [(0, "turn")]
    assert table.view()["players"][0]["pieces"]["ship"] == 14


def test_no_ship_is_built_beyond_the_15():
    table = sailing(1)
    state = CATAN.copy_state(table.state)
    state.pieces[0]["ship"] = 0  # as after 15 ships, without playing them all
    edge = state.layout.edge_by_name[path("2,-1,N", "3,-2,S")]
    assert ships.ship_problem(state, 0, edge) == "no_ships_left"


def test_the_base_game_has_no_ships():
    table = Table(2)
    table.settle("0,-1,N")
    with pytest.raises(IllegalMove) as refused:
        table.send({"type": "build_ship", "edge": "0,-1,NE"})
    assert refused.value.code == "unexpected_command"
    assert "ships" not in table.view()

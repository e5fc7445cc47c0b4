"""The worked examples of the rulebooks (English and French), built tile by tile.

The start tile ``SS/IB=`` has an island on its north side (1 banana), a bridge from west
to east (1 shell), a sea strip between them (no fish) and the sea south of the bridge
(a group of two fish). Seat 0 is Red and seat 1 Blue unless a test says otherwise.
"""

from __future__ import annotations

import pytest

from service.rules.core import IllegalMove
from service.rules.south_seas import SOUTH_SEAS
from tests.rules.south_seas.table import Table, evaluated, of_type, tiles_with

RED, BLUE = 0, 1


def test_completed_bridge_red_gains_2_shells():
    table = Table()
    table.turn("SS/J3", -1, 0, 180, spot="bridge:E")  # a junction ends the bridge
    table.turn("SS/S", 0, 1)
    events = table.turn("SS/IB>", 1, 0, 180)  # an island ends it on the other side
    (bridge,) = evaluated(events)
    assert bridge["kind"] == "bridge" and bridge["complete"] and bridge["winners"] == [RED]
    assert (bridge["icons"], bridge["ware"]) == (2, "shell")
    assert bridge["tiles"] == [[-1, 0], [0, 0], [1, 0]]
    assert table.wares(RED)["shell"] == 2 and table.state.supply[RED] == 4


def test_completed_bridge_red_gains_4_shells():
    table = Table()
    table.turn("SS/J3", -1, 0, 180, spot="bridge:E")
    table.turn("SS/B.2", 1, 0, 90)
    events = table.turn("SS/IB>", 2, 0, 180)
    (bridge,) = evaluated(events)
    assert bridge["wares"] == 4 and bridge["winners"] == [RED]
    assert table.wares(RED) == {"shell": 4, "banana": 0, "fish": 0}


def test_completed_island_red_gains_2_bananas():
    table = Table()
    events = table.turn("SS/I.1", 0, -1, 180, spot="island:S")
    (island,) = evaluated(events)
    assert island["kind"] == "island" and island["trigger"] == "completed"
    assert (island["wares"], island["winners"]) == (2, [RED])
    assert table.wares(RED)["banana"] == 2


def test_completed_island_red_gains_4_bananas():
    table = Table()
    table.turn("SS/III", 0, -1, 180, spot="island:E,S,W")
    table.turn("SS/I.1", 1, -1, 270)
    events = table.turn("SS/I.0", -1, -1, 90)
    (island,) = evaluated(events)
    assert (island["wares"], island["winners"]) == (4, [RED])
    assert len(island["tiles"]) == 4


def test_enclosed_sea_region_red_gains_5_fish():
    table = Table()
    table.turn("SS/IcI", 0, 1, spot="sea:SL,SR")
    table.turn("SS/I-I", 0, 2, 90)  # a channel between two islands
    events = table.turn("SS/IcI", 0, 3, 180)
    (sea,) = evaluated(events)
    assert sea["kind"] == "sea" and sea["complete"] and sea["trigger"] == "completed"
    assert (sea["wares"], sea["winners"]) == (5, [RED])
    assert table.wares(RED)["fish"] == 5


def test_fishing_boat_red_gains_5_fish_and_a_group_of_two_is_covered():
    table = Table()
    table.turn("SS/S", 0, 1, spot="sea:NL,NR,EL,ER,SL,SR,WL,WR")
    table.turn("SS/I.1", 0, -1, 180)
    events = table.turn("SS/S.b", 1, 1)
    (sea,) = evaluated(events)
    assert sea["trigger"] == "fishing_boat" and not sea["complete"]
    assert (sea["wares"], sea["winners"]) == (5, [RED])
    assert sea["cover"] == {"x": 0, "y": 0, "spot": "sea:ER,SL,SR,WL", "group": 2}
    assert table.state.supply[RED] == 4 and table.state.boats == 18
    # Covered fish never count again: 3 are left, and Blue's boat brings 1 more.
    events = table.turn("SS/S.b", -1, 1, spot="sea:NL,NR,EL,ER,SL,SR,WL,WR")
    (again,) = evaluated(events)
    assert (again["winners"], again["wares"]) == ([BLUE], 4)
    assert again["cover"] == {"x": 0, "y": 1, "spot": "sea:NL,NR,EL,ER,SL,SR,WL,WR", "group": 2}


def test_red_places_a_fisherman_with_the_boat_gains_3_fish_and_the_islander_returns():
    table = Table()
    events = table.turn("SS/S.b", 0, 1, spot="sea:NL,NR,EL,ER,SL,SR,WL,WR")
    placed, evaluation = of_type(events, "islander_placed"), evaluated(events)
    assert placed[0]["role"] == "fisherman"
    (sea,) = evaluation
    assert (sea["wares"], sea["winners"], sea["returned"]) == (3, [RED], True)
    assert sea["cover"]["group"] == 2
    assert table.state.supply[RED] == 4 and table.wares(RED)["fish"] == 3


def market_table(display: tuple[str, ...]) -> Table:
    """Red's market at (0, 1) with seven of its eight neighbours placed; Blue to play."""
    table = Table(display=display)
    table.turn("SS/M", 0, 1, spot="market")
    for tile, x, y, rotation in [
        ("SS/B.1", 1, 0, 90),
        ("SS/B.1", -1, 0, 90),
        ("SS/S", -1, 1, 0),
        ("SS/S", 1, 1, 0),
        ("SS/S", -1, 2, 0),
        ("SS/S.b", 0, 2, 0),
    ]:
        table.turn(tile, x, y, rotation)
    return table


def test_completed_market_red_chooses_the_6_valued_ship_on_the_far_right():
    table = market_table(display=("S19", "S01", "S08", "S20"))
    events = table.turn("SS/S.b", 1, 2)  # Blue surrounds Red's market
    (market,) = evaluated(events)
    assert market["kind"] == "market" and market["ship_owed"] and market["winners"] == [RED]
    assert table.state.supply[RED] == 4
    assert table.awaited == {
        "seat": RED,
        "kind": "choose_ship",
        "ships": ["S19", "S20"],
        "market": {"x": 0, "y": 1},
    }
    (award,) = of_type(table.send({"type": "choose_ship", "ship": "S20"}), "ship_awarded")
    assert (award["seat"], award["ship"], award["points"]) == (RED, "S20", 6)
    assert table.state.held[RED] == ["S20"]
    assert table.awaited == {"seat": BLUE, "kind": "reveal_ship"}  # refill to 4


def test_multiple_islanders_blue_and_red_each_gain_4_bananas():
    table = Table()
    table.turn("SS/II", 0, -1, 90, spot="island:E,S")
    table.turn("SS/B.1", 1, 0, 90)
    table.turn("SS/B.1", 2, 0, 90)
    table.turn("SS/I.0", 2, -1, 270, spot="island:W")
    events = table.turn("SS/IcI", 1, -1)  # joins both islands and completes them
    (island,) = evaluated(events)
    assert island["winners"] == [RED, BLUE] and island["wares"] == 4
    assert table.wares(RED)["banana"] == table.wares(BLUE)["banana"] == 4


def test_multiple_islanders_two_distinct_sea_regions_are_joined_by_a_tile():
    table = Table()
    # Example 1: a fisherman (seat 0) in the sea north of the bridge.
    table.turn("SS/B.1", 1, 0, 90, spot="sea:NL,NR,EL,WR")
    # Example 2: seat 1 may place one south of the bridge: another sea region.
    table.turn("SS/B.1", -1, 0, 90, spot="sea:ER,SL,SR,WL")
    # Example 3: a tile whose sea runs around the end of the bridge joins them.
    table.turn("SS/MB", 2, 0, 90)
    events = table.turn("SS/S.b", 2, 1)  # a boat in the joined region evaluates it
    (sea,) = evaluated(events)
    assert sorted(i["seat"] for i in sea["islanders"]) == [0, 1] and sea["winners"] == [0, 1]
    assert table.wares(0)["fish"] == table.wares(1)["fish"] == sea["wares"] > 0


def test_clarification_islands_touching_at_a_corner_are_distinct():
    table = Table()
    table.turn("SS/I+I", 0, 1, 180, spot="island:W")
    (decision,) = SOUTH_SEAS.legal_commands(table.state, BLUE)["decisions"]
    assert decision["kind"] == "draw_tile"
    table.draw("SS/I.1")
    table.place(0, 2, 0)
    spots = [s["spot"] for s in table.menu(BLUE)["place_islander"]]
    assert "island:N" in spots  # the island touching Red's at a corner is free
    (island,) = evaluated(table.islander("island:N"))
    assert island["winners"] == [BLUE] and island["wares"] == 2
    assert [i["seat"] for i in island["islanders"]] == [BLUE]
    assert table.state.supply[RED] == 3  # Red's banana picker stays on her island


def test_clarification_sea_regions_split_by_an_island_on_one_tile_are_distinct():
    table = Table()
    table.turn("SS/IcI", 0, 1, spot="sea:SL,SR")  # south of the island
    table.turn("SS/B.1", 1, 0, 90, spot="sea:ER,SL,SR,WL")  # north of it: allowed
    events = table.turn("SS/IcI", 0, 2, 180)
    (sea,) = evaluated(events)
    assert sea["winners"] == [RED] and sea["wares"] == 4
    assert table.wares(BLUE)["fish"] == 0 and table.state.supply[BLUE] == 3


def test_end_of_game_example_incomplete_features_are_evaluated_as_if_complete():
    red, blue, green, black, yellow = range(5)
    counts = {"SS/J3": 1, "SS/B.1": 4, "SS/M": 1, "SS/IcI": 4, "SS/I.1": 1}
    counts |= {"SS/I.2": 2, "SS/I.0": 1, "SS/S": 1}
    table = Table(seats=5, tiles=tiles_with(counts))
    table.turn("SS/J3", 1, 0, 180)
    table.turn("SS/B.1", 2, 0, 90)
    table.turn("SS/B.1", -1, 0, 90, spot="bridge:E,W")  # Green's shell collector
    table.turn("SS/M", -1, -1, spot="market")  # Black's merchant
    table.turn("SS/B.1", 3, 0, 90)
    table.turn("SS/IcI", 1, 1, spot="island:E,W")  # Red
    table.turn("SS/IcI", 3, 1, spot="island:E,W")  # Blue
    table.turn("SS/I.1", 0, -1, 180)
    table.turn("SS/B.1", 1, -1)
    table.turn("SS/I.2", 1, 2, 180, spot="sea:NL,NR,EL,ER,WL,WR")  # Yellow's fisherman
    table.turn("SS/I.0", -1, 1, 90, spot="island:E")  # Red's second banana picker
    table.turn("SS/IcI", 2, 1, spot="sea:SL,SR")  # Blue's fisherman
    table.turn("SS/IcI", 0, 1)  # the left island is now one
    table.turn("SS/S", -2, -1)
    events = table.turn("SS/I.2", 2, 2, 180, spot="island:S")  # the last tile
    assert SOUTH_SEAS.is_over(table.state)
    final = {(e["kind"], tuple(e["tiles"][0])): e for e in evaluated(events)}
    assert all(e["trigger"] == "end_of_game" and not e["complete"] for e in final.values())
    left_island = final["island", (-1, 1)]
    assert sorted(i["seat"] for i in left_island["islanders"]) == [red, red, blue]
    assert (left_island["winners"], left_island["wares"]) == ([red], 4)
    bridge = final["bridge", (-1, 0)]
    assert (bridge["winners"], bridge["wares"]) == ([green], 3)
    market = final["market", (-1, -1)]
    assert (market["winners"], market["wares"]) == ([], 0)
    sea = final["sea", (1, 1)]
    assert (sea["winners"], sea["wares"]) == ([blue, yellow], 4)
    right_island = final["island", (2, 2)]
    assert (right_island["winners"], right_island["wares"]) == ([yellow], 2)
    assert table.wares(red)["banana"] == 4 and table.wares(black) == dict.fromkeys(
        ("shell", "banana", "fish"), 0
    )
    assert table.wares(yellow) == {"shell": 0, "banana": 2, "fish": 4}


def test_a_bridge_that_forms_a_closed_loop_is_complete():
    table = Table()
    # Four curved bridges (a shell each) south of the start tile close a ring.
    table.turn("SS/Bc.1", 0, 1, 0, spot="bridge:S,W")
    table.turn("SS/Bc.1", -1, 1, 270)
    table.turn("SS/Bc.1", 0, 2, 90)
    events = table.turn("SS/Bc.1", -1, 2, 180)
    (bridge,) = evaluated(events)
    assert bridge["kind"] == "bridge" and bridge["complete"] and bridge["winners"] == [RED]
    assert bridge["tiles"] == [[-1, 1], [-1, 2], [0, 1], [0, 2]]
    assert (bridge["icons"], bridge["wares"]) == (4, 4)
    assert table.wares(RED)["shell"] == 4 and table.state.supply[RED] == 4


def test_a_bridge_that_ends_at_a_market_is_complete():
    table = Table()
    table.turn("SS/J3", -1, 0, 180, spot="bridge:E")  # a junction ends the bridge
    events = table.turn("SS/MB", 1, 0, 90)  # a market ends it on the other side
    (bridge,) = evaluated(events)
    assert bridge["complete"] and bridge["winners"] == [RED]
    # the junction's arm has no shell; the start tile and the market tile one each
    assert bridge["tiles"] == [[-1, 0], [0, 0], [1, 0]] and bridge["wares"] == 2
    assert table.wares(RED)["shell"] == 2


def test_placement_the_left_side_continues_the_island_the_bottom_the_sea_region():
    table = Table()
    table.turn("SS/II", 0, -1, 90)  # the start tile's island turns east
    table.turn("SS/B.1", 1, 0, 90)  # the bridge goes on east, sea to its north
    table.draw("SS/I.1")
    refused = {"type": "place_tile", "x": 1, "y": -1, "rotation": 0}
    with pytest.raises(IllegalMove) as caught:  # island facing the sea below
        table.send(refused)
    assert caught.value.code == "tile_does_not_fit"
    table.place(1, -1, 270)  # island west, sea south
    graph, board = table.state.graph, table.state.board
    island = graph.feature(graph.node_at(board, (1, -1), "island:W"))
    sea = graph.feature(graph.node_at(board, (1, -1), "sea:NL,NR,EL,ER,SL,SR"))
    assert (0, -1) in island.tiles and (0, 0) in island.tiles
    assert (1, 0) in sea.tiles


def test_clarification_and_example_2_sea_regions_touching_at_a_corner_are_distinct():
    table = Table()
    table.turn("SS/I+I", 0, 1, 180)  # islands west and south, their tips touching
    table.turn("SS/I.1", -1, 1, 90, spot="sea:NL,NR,SL,SR,WL,WR")  # Blue, west of them
    # Red's sea south of them touches Blue's only at the corner where the tips meet.
    table.draw("SS/I.1")
    table.place(0, 2, 0)
    spots = [s["spot"] for s in table.menu(RED)["place_islander"]]
    assert "sea:EL,ER,SL,SR,WL,WR" in spots
    table.islander("sea:EL,ER,SL,SR,WL,WR")
    graph, board = table.state.graph, table.state.board
    blue_sea = graph.find(graph.node_at(board, (-1, 1), "sea:NL,NR,SL,SR,WL,WR"))
    red_sea = graph.find(graph.node_at(board, (0, 2), "sea:EL,ER,SL,SR,WL,WR"))
    corner_sea = graph.find(graph.node_at(board, (0, 1), "sea:NL,NR,EL,ER"))
    assert len({blue_sea, red_sea, corner_sea}) == 3  # the three seas round the tips
    # A tile in the corner joins them: now two fishermen share one sea region.
    table.turn("SS/S", -1, 2)
    joined = graph.feature(graph.node_at(board, (-1, 2), "sea:NL,NR,EL,ER,SL,SR,WL,WR"))
    assert sorted(f.seat for f in joined.figures) == [RED, BLUE]


def test_an_island_with_an_internal_gap_is_complete_only_when_the_gap_is_filled():
    # A ring of island tiles round the empty space (0, -2), north of the start tile.
    table = Table(tiles=tiles_with({"SS/IIII": 2, "SS/II": 4, "SS/III": 3}))
    table.turn("SS/IIII", 0, -1, 0, spot="island:N,E,S,W")
    for tile, x, y, rotation in [
        ("SS/II", -1, -1, 0),
        ("SS/II", 1, -1, 270),
        ("SS/III", -1, -2, 90),
        ("SS/III", 1, -2, 270),
        ("SS/II", -1, -3, 90),
        ("SS/II", 1, -3, 180),
    ]:
        assert evaluated(table.turn(tile, x, y, rotation)) == []
    events = table.turn("SS/III", 0, -3, 180)  # every outer border is closed now
    graph, board = table.state.graph, table.state.board
    ring = graph.feature(graph.node_at(board, (0, -1), "island:N,E,S,W"))
    assert evaluated(events) == [] and not ring.complete and ring.open == 4
    (island,) = evaluated(table.turn("SS/IIII", 0, -2))  # the gap is filled
    assert island["complete"] and island["winners"] == [RED] and len(island["tiles"]) == 10
    # 1 (start) + 3 + 3 (the two full tiles) + 4 x 2 (corners) + 3 x 2 (sides)
    assert island["wares"] == 21

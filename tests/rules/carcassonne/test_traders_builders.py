"""Traders & Builders (Big Box rulebook, "Marchands & Bâtisseurs"): its tiles against
the reference (shared/reference/carcassonne.md §2.4) and every worked example of its
pages, built tile by tile.

The OCR'd rulebook lost its illustrations: each board is rebuilt from what the text
names (tiles, figures, points). Seat 0 is Blue and plays first, seat 1 is Red.
The start tile D lies at (0, 0), city north, road west-east.
"""

from __future__ import annotations

from service.rules.carcassonne import CARCASSONNE
from tests.rules.carcassonne.expansion_data import attribute, catalogue, tiles_of
from tests.rules.carcassonne.table import Table, only, refused, scored

BLUE, RED = 0, 1


# -- Traders & Builders (§2.4): 24 tiles; goods 9 wine, 6 grain, 5 cloth, 4 without ----------

TRADERS_BUILDERS = {
    "TB/Cc.g": (1, "CFFC"), "TB/Cc.w": (1, "CFFC"), "TB/CCc.c": (1, "FCCC"),
    "TB/CCc.w": (1, "FCCC"), "TB/Ccc.g": (1, "CCFC"), "TB/CcCC.c": (1, "CCCC"),
    "TB/CcRR!.c": (1, "CRRC"), "TB/CcRR.w": (1, "CRRC"), "TB/CcRC.c": (1, "CRCC"),
    "TB/CcRC.g": (1, "CRCC"), "TB/CcR.c": (1, "CRFC"), "TB/CcR!.w": (1, "CRFC"),
    "TB/CccR.w": (1, "CCRC"), "TB/CcCc.w": (1, "CCCC"), "TB/CFc.w": (1, "FCFC"),
    "TB/CR": (1, "CRFF"), "TB/CRc.g": (1, "FCRC"), "TB/CRc.w": (1, "FCRC"),
    "TB/CRcR.w": (1, "RCRC"), "TB/LRRR": (1, "FRRR"), "TB/RCc.g": (1, "CFRC"),
    "TB/RCc!.g": (1, "CFRC"), "TB/RRC": (1, "CFRR"), "TB/RRrr": (1, "RRRR"),
}  # fmt: skip


def test_traders_and_builders_has_24_tiles_with_9_wine_6_grain_5_cloth_and_4_without():
    assert tiles_of("traders_builders", "TB/") == TRADERS_BUILDERS
    goods = {g: attribute("traders_builders", g) for g in ("wine", "grain", "cloth")}
    assert goods == {"wine": 9, "grain": 6, "cloth": 5}
    plain = [
        t.id
        for t in catalogue("traders_builders").tiles
        if t.id.startswith("TB/") and not any(s.attrs for s in t.segments)
    ]
    assert sorted(plain) == ["TB/CR", "TB/LRRR", "TB/RRC", "TB/RRrr"]


def test_the_bridge_carries_two_roads_that_do_not_meet():
    bridge = catalogue("traders_builders").get("TB/RRrr")
    assert bridge.spots[0][:2] == ("road:N,S", "road:E,W")
    # "Les prés sont séparés par le pont. Il y a 4 sections séparées de pré sur cette tuile."
    assert [s for s in bridge.spots[0] if s.startswith("field")] == [
        "field:NL,WR", "field:NR,EL", "field:ER,SL", "field:SR,WL",
    ]  # fmt: skip


def test_the_cloister_cuts_the_road_in_three_and_the_house_ends_a_road():
    tiles = catalogue("traders_builders")
    # "L'abbaye sépare la route en 3 sections."
    assert tiles.get("TB/LRRR").spots[0][:4] == ("cloister", "road:E", "road:S", "road:W")
    # "Une route se termine à la ville et l'autre à la petite maison. Il y a 3 sections
    # séparées de pré sur cette tuile."
    assert tiles.get("TB/RRC").spots[0] == (
        "city:N", "road:W", "road:S", "field:WR", "field:SR,WL", "field:EL,ER,SL",
    )  # fmt: skip


# -- Traders & Builders ---------------------------------------------------------------------


def test_the_completer_takes_the_goods_and_the_most_of_each_good_scores_10():
    table = Table(expansions=["traders_builders"])
    # A city of 5 tiles with 2 grain and 1 wine icons; Blue's knight; Red completes it.
    table.turn("TB/CFc.w", 0, 1, 0, "city:E,W")
    table.turn("TB/CRc.g", 1, 1, 0)
    table.turn("E", 2, 1, 270)
    table.turn("TB/RCc.g", -1, 1, 90)
    table.turn("U", 1, 0, 0)
    events = table.turn("K", -1, 0, 180)
    city = only(scored(events), kind="city")
    assert (len(city["tiles"]), city["winners"], city["points"]) == (5, [BLUE], 10)
    taken = only([e.data for e in events if e.type == "goods_taken"])
    assert (taken["seat"], taken["goods"]) == (RED, {"wine": 1, "grain": 2})
    # Blue completes a city with wine and cloth, nobody's; Red one with cloth.
    table.turn("TB/Cc.w", 3, 1, 90)
    table.turn("E", 3, 0, 180)
    table.turn("TB/CcR.c", 4, 1, 270)
    table.turn("TB/CCc.c", -1, 2, 0)
    table.turn("E", 4, 2, 0)
    table.turn("K", 0, 2, 270)
    table.turn("B", 1, -1, 0)
    table.turn("E", -2, 2, 90)
    goods = table.state.ext["traders_builders"]["goods"]
    assert goods == [{"wine": 1, "grain": 0, "cloth": 1}, {"wine": 1, "grain": 2, "cloth": 1}]
    # The example for two players: Blue scores 20 and Red 30; ties all score 10.
    final = [s for s in table.final() if s["kind"] == "goods"]
    assert [(s["good"], s["winners"], s["points"]) for s in final] == [
        ("wine", [BLUE, RED], 10),
        ("grain", [RED], 10),
        ("cloth", [BLUE, RED], 10),
    ]
    before = table.scores
    ended = CARCASSONNE.final_scoring(table.state)[-1].data["scores"]
    assert [e - b for e, b in zip(ended, before, strict=True)] == [20, 30]


def turn_ended(events: list) -> dict:
    return only([e.data for e in events if e.type == "turn_ended"])


def test_the_builder_gives_a_second_tile_when_its_road_is_extended_never_a_third():
    table = Table(expansions=["traders_builders"])
    table.turn("U", 1, 0, 0, "road:E,W")  # Blue's robber
    table.turn("B", 0, 1)
    builder = table.turn("U", 2, 0, 0, "road:E,W", figure="builder")
    assert turn_ended(builder) == {"seat": BLUE, "next": RED}  # placing it gives nothing yet
    table.turn("B", 1, 1)
    ended = turn_ended(table.turn("U", 3, 0))
    assert (ended["next"], ended["extra"]) == (
        BLUE,
        "builder: the tile extended the road holding the builder",
    )
    assert table.state.extra
    again = table.turn("U", 4, 0)  # the second tile extends it too: no third
    assert turn_ended(again) == {"seat": BLUE, "next": RED}


def test_the_builder_moves_on_from_the_completed_road_to_the_knights_city():
    # The rulebook's second example: 1. a robber; 2. the builder; 3a. a tile completes the
    # road (robber and builder go home) and takes a knight in its city; 3b. the second tile
    # extends that city and takes the builder.
    table = Table(expansions=["traders_builders"])
    table.turn("A", -1, 0, 270, "road:E")  # 1. Blue's robber; a cloister ends the road
    table.turn("B", 0, 1)
    table.turn("U", 1, 0, 0, "road:E,W", figure="builder")  # 2.
    table.turn("B", 1, 1)
    first = table.turn("L", 2, 0, 0, "city:N")  # 3a. the junction ends the road
    road = only(scored(first), kind="road")
    assert (len(road["tiles"]), road["winners"], road["points"]) == (4, [BLUE], 4)
    assert sorted(f["figure"] for f in road["figures"]) == ["builder", "follower"]
    assert turn_ended(first)["next"] == BLUE  # the builder's second tile
    assert table.state.supply[BLUE] == {"follower": 6, "builder": 1, "pig": 1}
    second = table.turn("N", 2, -1, 180, "city:E,S", figure="builder")  # 3b.
    assert turn_ended(second) == {"seat": BLUE, "next": RED}  # never a third
    city = table.state.graph.feature(table.state.tile_node((2, 0), "city:N"))
    assert sorted((f.seat, f.kind) for f in city.figures) == [(BLUE, "builder"), (BLUE, "follower")]
    assert table.state.supply[BLUE] == {"follower": 6, "builder": 0, "pig": 1}
    assert table.scores == [4, 0]


def test_builders_of_both_players_share_a_road_held_by_both_and_each_gives_its_owner_a_tile():
    # "La route où est placé le bâtisseur peut contenir des partisans adverses" and "Il peut
    # y avoir le bâtisseur de plusieurs joueurs sur une même route."
    table = Table(expansions=["traders_builders"])
    table.turn("U", 1, 0, 0, "road:E,W")  # Blue's robber on the start tile's road
    table.turn("U", 0, 1, 0, "road:E,W")  # Red's robber on another road
    table.turn("V", -1, 0, 270)
    table.turn("V", -1, 1, 180)  # the two roads are one
    table.turn("U", 2, 0, 0, "road:E,W", figure="builder")  # Blue's builder
    table.turn("U", 1, 1, 0, "road:E,W", figure="builder")  # Red's builder
    road = table.state.graph.feature(table.state.tile_node((0, 0), "road:E,W"))
    assert sorted((f.seat, f.kind) for f in road.figures) == [
        (BLUE, "builder"),
        (BLUE, "follower"),
        (RED, "builder"),
        (RED, "follower"),
    ]
    assert turn_ended(table.turn("U", 3, 0))["next"] == BLUE  # Blue extends it: again
    assert turn_ended(table.turn("B", 3, 1))["next"] == RED
    assert turn_ended(table.turn("A", 2, 1, 90))["next"] == RED  # Red extends it: again


def test_the_builder_never_counts_for_the_majority_and_returns_with_the_road():
    table = Table(expansions=["traders_builders"])
    table.turn("U", 1, 0, 0, "road:E,W")
    table.turn("B", 0, 1)
    table.turn("U", 2, 0, 0, "road:E,W", figure="builder")
    table.turn("B", 1, 1)
    table.turn("W", 3, 0, 0)  # a junction ends the road in the east: a second tile
    events = table.turn("W", -1, 0, 0)  # the second tile closes the road
    road = only(scored(events), kind="road")
    assert [(f["figure"], f["weight"]) for f in road["figures"]] == [
        ("follower", 1),
        ("builder", 0),
    ]
    assert (road["winners"], road["points"]) == ([BLUE], 5)
    assert table.state.supply[BLUE] == {"follower": 7, "builder": 1, "pig": 1}


def test_a_builder_goes_only_beside_its_own_follower_and_never_in_a_field():
    table = Table(expansions=["traders_builders"])
    table.draw("U")
    table.place(1, 0, 0)
    build = {"type": "place_follower", "spot": "road:E,W", "figure": "builder"}
    assert refused(table, build).code == "builder_needs_follower"
    field = {"type": "place_follower", "spot": "field:NL,NR,EL,WR", "figure": "builder"}
    assert refused(table, field).code == "builder_on_road_or_city"
    pig = {"type": "place_follower", "spot": "field:NL,NR,EL,WR", "figure": "pig"}
    assert refused(table, pig).code == "pig_needs_farmer"


def test_the_pig_blue_scores_8_and_red_loses_his_pig():
    table = Table(expansions=["traders_builders"])
    table.turn("U", 1, 0, 0, "field:NL,NR,EL,WR")  # Blue's farmer by the start city
    table.turn("E", 0, -1, 180, "field:NL,NR,EL,ER,WL,WR")  # Red's farmer; city 1 done
    table.turn("U", -1, 0, 0, "field:NL,NR,EL,WR", figure="pig")  # Blue's pig
    table.turn("B", 0, -2, 0, "field:NL,NR,EL,ER,SL,SR,WL,WR", figure="pig")  # Red's pig
    table.turn("B", 0, 1, 0, "field:NL,NR,EL,ER,SL,SR,WL,WR")  # Blue's second farmer
    table.turn("E", 1, -1, 0)  # joins Blue's and Red's fields
    table.turn("A", 2, 0, 90)  # the road ends: both sides of it are one field now
    table.turn("E", 1, -2, 180)  # city 2 done
    fields = [s for s in table.final() if s["kind"] == "field"]
    field = only(fields, reason="field: 3 points x 2 completed cities")
    assert (field["winners"], field["points"]) == ([BLUE], 6)
    pig = only(fields, reason="pig: +1 point x 2 completed cities")
    assert (pig["winners"], pig["points"]) == ([BLUE], 2)
    assert len(fields) == 2  # Red is not the majority: no points, his pig is lost

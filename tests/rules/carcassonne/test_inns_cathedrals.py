"""Inns & Cathedrals (Big Box rulebook, "Auberges & Cathédrales"): its tiles against
the reference (shared/reference/carcassonne.md §2.3) and every worked example of its
pages, built tile by tile.

The OCR'd rulebook lost its illustrations: each board is rebuilt from what the text
names (tiles, figures, points). Seat 0 is Blue and plays first, seat 1 is Red.
The start tile D lies at (0, 0), city north, road west-east.
"""

from __future__ import annotations

from tests.rules.carcassonne.expansion_data import attribute, catalogue, tiles_of
from tests.rules.carcassonne.table import Table, only, refused, scored

BLUE, RED = 0, 1


# -- Inns & Cathedrals (§2.3): 18 tiles, 6 inns, 2 cathedrals, 3 shields --------------------

INNS_CATHEDRALS = {
    "IC/Cccc.c": (2, "CCCC"), "IC/LRFR": (1, "FRFR"), "IC/CCCC": (1, "CCCC"),
    "IC/CCC": (1, "CCFC"), "IC/CRCR": (1, "CRCR"), "IC/CCc+": (1, "CFCC"),
    "IC/C!": (1, "CFFF"), "IC/CFR": (1, "CFRF"), "IC/CcR": (1, "CRFC"),
    "IC/CRcR+": (1, "RCRC"), "IC/RCc.i": (1, "CFRC"), "IC/RrC.i": (1, "CFRR"),
    "IC/CcRr+.i": (1, "CRRC"), "IC/RRR.i": (1, "FRRR"), "IC/RFr.i": (1, "FRFR"),
    "IC/Rr.i": (1, "FFRR"), "IC/RrRr": (1, "RRRR"),
}  # fmt: skip


def test_inns_and_cathedrals_has_18_tiles_6_inns_2_cathedrals_3_shields():
    assert tiles_of("inns_cathedrals", "IC/") == INNS_CATHEDRALS
    assert sum(n for n, _ in INNS_CATHEDRALS.values()) == 18
    assert attribute("inns_cathedrals", "inn") == 6
    assert attribute("inns_cathedrals", "cathedral") == 2
    assert attribute("inns_cathedrals", "shield") == 3


def test_the_special_tiles_of_inns_and_cathedrals():
    tiles = catalogue("inns_cathedrals")
    # Four separate city quarters around an inner field that touches all four.
    quarters = tiles.get("IC/CCCC")
    assert quarters.spots[0] == ("city:N", "city:W", "city:E", "city:S", "field:I")
    assert quarters.segments[4].touches == (0, 1, 2, 3)
    # A cloister cuts the road in two.
    assert tiles.get("IC/LRFR").spots[0][:3] == ("cloister", "road:W", "road:E")
    # Two curved roads that do not meet.
    assert tiles.get("IC/RrRr").spots[0][:2] == ("road:N,W", "road:E,S")


# -- Inns & Cathedrals ----------------------------------------------------------------------


def test_the_big_follower_counts_as_two_and_blue_alone_scores_the_3_points_of_the_road():
    # "Bleu est le seul à recevoir les 3 points pour la route": Blue's big follower and
    # Red's robber on two roads that the last tile joins into one of 3 tiles.
    table = Table(expansions=["inns_cathedrals"])
    table.turn("A", -1, 0, 270)
    table.turn("A", 1, 0, 90)
    table.turn("W", 1, 1, 0, "road:W", figure="big_follower")  # Blue's big follower
    table.turn("W", -1, 1, 0, "road:E")  # Red's robber
    road = only(scored(table.turn("U", 0, 1)), kind="road")  # joins and completes them
    assert len(road["tiles"]) == 3
    assert sorted((f["seat"], f["weight"]) for f in road["figures"]) == [(BLUE, 2), (RED, 1)]
    assert (road["winners"], road["points"]) == ([BLUE], 3)
    assert table.scores == [3, 0]
    assert table.state.supply[BLUE]["big_follower"] == 1  # it returns like any follower


def test_a_completed_road_with_an_inn_scores_2_per_tile_blue_scores_6():
    table = Table(expansions=["inns_cathedrals"])
    table.turn("IC/RRR.i", 1, 0, 180, "road:W")  # the inn's road ends at a junction
    events = table.turn("W", -1, 0, 0)  # Red closes the other end: 3 tiles
    road = only(scored(events), kind="road")
    assert (len(road["tiles"]), road["inns"], road["winners"], road["points"]) == (3, 1, [0], 6)
    assert road["reason"] == "completed road with an inn: 2 points x 3 tiles"
    assert table.scores == [6, 0]


def test_an_unfinished_road_with_an_inn_scores_0_at_the_end():
    table = Table(expansions=["inns_cathedrals"])
    table.turn("IC/RRR.i", 1, 0, 180, "road:W")
    road = only(table.final(), kind="road")
    assert (road["complete"], road["winners"], road["points"]) == (False, [BLUE], 0)
    assert road["reason"] == "unfinished road with an inn: 0 points"


def test_two_inns_on_a_completed_road_still_score_2_per_tile():
    # "S'il y a une ou plusieurs auberges sur une route complétée..."
    table = Table(expansions=["inns_cathedrals"])
    table.turn("IC/RRR.i", 1, 0, 180, "road:W")  # Blue's robber; a junction and an inn
    table.turn("IC/RFr.i", -1, 0)  # a second inn on the same road
    road = only(scored(table.turn("W", -2, 0)), kind="road")
    assert (len(road["tiles"]), road["inns"], road["winners"], road["points"]) == (
        4,
        2,
        [BLUE],
        8,
    )


def cathedral_city(table: Table) -> list:
    """Blue's knight on a cathedral above the start tile; a city of 7 tiles and 1 shield
    once the last cap is placed (returned as that turn's events)."""
    table.turn("IC/Cccc.c", 0, -1, 0, "city:N,E,S,W")
    table.turn("F", 0, -2, 90)  # shield, city north-south
    table.turn("E", 0, -3, 180)
    table.turn("E", 1, -1, 270)
    table.turn("G", -1, -1, 0)
    return table.turn("E", -2, -1, 90)


def test_a_completed_city_with_a_cathedral_scores_3_per_tile_and_shield_blue_scores_24():
    table = Table(expansions=["inns_cathedrals"])
    city = only(scored(cathedral_city(table)), kind="city")
    assert (len(city["tiles"]), city["shields"], city["cathedrals"]) == (7, 1, 1)
    assert (city["winners"], city["points"]) == ([BLUE], 24)
    assert table.scores == [24, 0]


def test_an_unfinished_city_with_a_cathedral_scores_0_at_the_end():
    table = Table(expansions=["inns_cathedrals"])
    table.turn("IC/Cccc.c", 0, -1, 0, "city:N,E,S,W")
    table.turn("F", 0, -2, 90)
    table.turn("E", 0, -3, 180)
    table.turn("E", 1, -1, 270)
    table.turn("G", -1, -1, 0)  # the west end stays open
    city = only(table.final(), kind="city")
    assert (len(city["tiles"]), city["winners"], city["points"]) == (6, [BLUE], 0)


def test_a_follower_may_not_join_a_feature_held_by_a_big_follower():
    table = Table(expansions=["inns_cathedrals"])
    table.turn("U", 1, 0, 0, "road:E,W", figure="big_follower")
    table.draw("U")
    table.place(2, 0, 0)
    assert refused(table, {"type": "place_follower", "spot": "road:E,W"}).code == (
        "feature_occupied"
    )

"""The River (Big Box rulebook, "La Rivière"): its tiles against the reference
(shared/reference/carcassonne.md §2.6) and its rules, built tile by tile.

The OCR'd rulebook lost its illustrations: each board is rebuilt from what the text
names (tiles, figures, points). Seat 0 is Blue and plays first, seat 1 is Red.
The spring lies at (0, 0), flowing east.
"""

from __future__ import annotations

from service.rules.carcassonne import CARCASSONNE
from service.rules.play import play_game
from tests.rules.carcassonne.expansion_data import catalogue, tiles_of
from tests.rules.carcassonne.table import Table, menu, refused

BLUE, RED = 0, 1


# -- The River (§2.6): 12 tiles, 1 spring, 1 lake, 10 river tiles ---------------------------

RIVER = {
    "RI/s": (1, "FWFF"), "RI.1/I.e": (1, "FFFW"), "RI.1/CICI": (1, "CWCW"),
    "RI.1/CIRI": (1, "CWRW"), "RI.1/LIRI": (1, "FWRW"), "RI.1/RIrI": (1, "WRWR"),
    "RI.1/IFI": (2, "FWFW"), "RI.1/CcII": (1, "CWWC"), "RI.1/RrII": (1, "RRWW"),
    "RI.1/II": (2, "FFWW"),
}  # fmt: skip


def test_the_river_has_12_tiles_a_spring_a_lake_and_10_river_tiles():
    assert tiles_of("river", "RI") == RIVER
    groups = {t.id: (t.group, t.start) for t in catalogue("river").tiles if t.id.startswith("RI")}
    assert groups.pop("RI/s") == (None, 1)
    assert groups.pop("RI.1/I.e") == ("river_end", 0)
    assert {group for group, _ in groups.values()} == {"river"}
    assert sum(RIVER[tile][0] for tile in groups) == 10


# -- The River ------------------------------------------------------------------------------


def test_the_spring_replaces_the_start_tile_and_flows_east():
    table = Table(expansions=["river"])
    started = table.events[0].data
    assert started["start"] == {"tile": "RI/s", "x": 0, "y": 0, "rotation": 0}
    # The base start tile stays in the box: 3 D left, plus the 10 river tiles and the lake.
    assert started["stack"]["BA/RCr"] == 3
    assert sum(started["stack"].values()) == 71 + 11


def test_river_tiles_are_drawn_first_and_the_lake_last():
    table = Table(expansions=["river"])
    assert refused(table, {"type": "draw_tile", "tile": "U"}).code == "tile_not_drawable_yet"
    lake = {"type": "draw_tile", "tile": "RI.1/I.e"}
    assert refused(table, lake).code == "tile_not_drawable_yet"
    assert set(menu(table.state, BLUE)["draw_tile"]["tiles"]) == {
        "RI.1/CICI", "RI.1/CIRI", "RI.1/LIRI", "RI.1/RIrI", "RI.1/IFI", "RI.1/CcII",
        "RI.1/RrII", "RI.1/II",
    }  # fmt: skip


def test_a_game_draws_the_ten_river_tiles_then_the_lake_then_the_main_stack():
    events, _ = play_game(CARCASSONNE, {"expansions": ["river"]}, 2, b"river", ["random"] * 2)
    drawn = [e.data["tile"] for e in events if e.type == "tile_drawn"]
    assert all(t.startswith("RI.1/") and t != "RI.1/I.e" for t in drawn[:10])
    assert drawn[10] == "RI.1/I.e"
    assert not any(t.startswith("RI") for t in drawn[11:])


def test_a_river_tile_must_continue_the_river():
    table = Table(expansions=["river"])
    table.draw("RI.1/IFI")
    # North of the spring, the straight's fields meet the spring's field: it fits, but
    # it does not continue the river.
    assert refused(table, {"type": "place_tile", "x": 0, "y": -1, "rotation": 0}).code == (
        "river_not_continued"
    )
    table.place(1, 0, 0)


def test_the_river_may_not_make_a_u_turn():
    table = Table(expansions=["river"])
    table.turn("RI.1/II", 1, 0, 0)  # east, then a right bend to the south
    table.draw("RI.1/II")
    # Another right bend would send the river back west, under itself.
    u_turn = {"type": "place_tile", "x": 1, "y": 1, "rotation": 90}
    assert refused(table, u_turn).code == "river_u_turn"
    table.place(1, 1, 180)  # a left bend: east again


def test_followers_go_on_river_tiles_but_not_on_the_river():
    table = Table(expansions=["river"])
    table.draw("RI.1/CICI")
    table.place(1, 0, 0)
    spots = menu(table.state, BLUE)["place_follower"]["spots"]
    assert "river" not in {entry["kind"] for entry in spots}
    assert refused(table, {"type": "place_follower", "spot": "river:E,W"}).code == (
        "figure_not_allowed"
    )
    placed = table.follow("city:N")
    assert placed[0].data["kind"] == "city"

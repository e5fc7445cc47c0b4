"""The Wheel of Fortune (Big Box rulebook, "La Roue de la Fortune"): its provisional
tiles and board, every action of the wheel and the crown spaces, built tile by tile.

The OCR'd rulebook lost its illustrations: each board is rebuilt from what the text
names. Seat 0 is Blue and plays first, seat 1 is Red. The wheel board fills the spaces
(0..3, 0..3); its north edge shows, west to east, a field, a road, a city and a field;
its west edge, south to north, a field, a road, a field, a city; its south edge, east
to west, a field, a road, a city, a field (see data/wheel_of_fortune.json). The pig
starts on Fortune; clockwise come Taxes, Famine, Storm, Inquisition and Plague. Tiles
with a wheel icon are drawn naming the icon of the copy (external randomness).
"""

from __future__ import annotations

import json

import pytest

from service.rules.carcassonne import CARCASSONNE
from service.rules.carcassonne.expansions.wheel_of_fortune import DATA, packaged_board
from service.rules.core import IllegalMove, InvalidOptions
from tests.rules.carcassonne.expansion_data import catalogue
from tests.rules.carcassonne.table import Table, awaited, menu, only, refused, waiting

BLUE, RED = 0, 1
WHEEL = ["wheel_of_fortune"]


def spin(table: Table, tile: str, icon: int, x: int, y: int, rotation: int = 0) -> list[dict]:
    """Draw a copy of ``tile`` with the wheel icon ``icon``, place it, place nothing;
    returns the data of the draw's events (the wheel's turn)."""
    events = table.send({"type": "draw_tile", "tile": tile, "wheel": icon})
    if table.state.phase == "place_tile":
        table.place(x, y, rotation)
        table.follow(None)
    return [{"type": e.type, **e.data} for e in events]


def of(events: list[dict], kind: str) -> dict:
    return only([e for e in events if e["type"] == kind])


# -- tiles and board ----------------------------------------------------------------------------


def test_12_tiles_with_wheel_icons_marked_provisional():
    raw = json.loads(DATA.read_text())
    assert "PROVISIONAL" in raw["provisional"]["tiles"]
    tiles = [t for t in catalogue("wheel_of_fortune").tiles if t.id.startswith("WF/") and t.count]
    land = [t for t in tiles if not t.start]
    assert sum(t.count for t in land) == 12
    assert sorted(n for t in land for n in t.wheel) == [1] * 4 + [2] * 4 + [3] * 4


def test_the_wheel_board_is_a_large_start_tile_with_six_sectors_and_nine_crown_spaces():
    raw = json.loads(DATA.read_text())
    assert "PROVISIONAL" in raw["provisional"]["wheel_board"]
    board = packaged_board()
    assert [s["name"] for s in board["sectors"]] == [
        "fortune", "taxes", "famine", "storm", "inquisition", "plague",
    ]  # fmt: skip
    crowns = [s["crowns"] for s in board["sectors"]]
    assert crowns[0] == 0 and sum(crowns) == 9 and set(crowns[1:]) == {1, 2}
    table = Table(expansions=WHEEL)
    started = table.events[0].data
    spaces = [started["start"], *started["layout"]]
    assert {(p["x"], p["y"]) for p in spaces} == {(x, y) for x in range(4) for y in range(4)}
    assert table.state.ext["wheel_of_fortune"]["pig"] == "fortune"
    # Its terrain follows the normal rules: a road leaves its west side at (0, 2).
    table.draw("U")
    table.place(-1, 2, 0)
    assert only(CARCASSONNE.view(table.state, None)["board"], x=-1)["tile"] == "BA/RFr"


def test_the_12_tiles_join_the_base_tiles_but_the_start_tile_stays_in_the_box():
    # "... toutes les tuiles du jeu de base (à l'exception de la tuile de départ au dos
    # plus foncé) ... avec les 12 tuiles Terrain identifiées par le symbole Roue".
    stack = Table(expansions=WHEEL).events[0].data["stack"]
    assert stack["BA/RCr"] == 3
    assert sum(n for t, n in stack.items() if t.startswith("BA/")) == 71
    assert sum(n for t, n in stack.items() if t.startswith("WF/")) == 12
    assert sum(stack.values()) == 83


def test_with_the_river_the_spring_flows_away_from_the_wheel_board():
    table = Table(expansions=["river", *WHEEL])
    started = table.events[0].data
    assert started["layout"][-1] == {"tile": "RI/s", "x": 4, "y": 0, "rotation": 0}
    table.draw("RI.1/IFI")
    table.place(5, 0, 0)  # the river goes on, east, away from the board


def test_an_operator_may_pass_a_corrected_board_checked_against_the_rulebook():
    board = packaged_board()
    storm_with_two = {
        **board,
        "sectors": [{**s, "crowns": 2 if s["name"] == "storm" else s["crowns"]}
                    for s in board["sectors"]],
    }  # fmt: skip
    table = Table(expansions=WHEEL, wheel_board=storm_with_two)
    assert table.state.ext["wheel_of_fortune"]["crowns"]["storm"] == [None, None]
    fortune_crowned = {
        **board,
        "sectors": [{"name": "fortune", "crowns": 1}, *board["sectors"][1:]],
    }
    with pytest.raises(InvalidOptions) as caught:
        CARCASSONNE.normalize_options({"expansions": WHEEL, "wheel_board": fortune_crowned})
    assert caught.value.field == "wheel_board"


def test_a_drawn_copy_names_its_wheel_icon():
    table = Table(expansions=WHEEL)
    assert refused(table, {"type": "draw_tile", "tile": "WF/RFr"}).code == "wheel_icon_required"
    wrong = {"type": "draw_tile", "tile": "U", "wheel": 4}
    assert refused(table, wrong).code == "no_such_wheel_icon"
    # a tile no copy of which carries an icon takes none, where it was left unread
    plain = refused(table, {"type": "draw_tile", "tile": "BA/RRR", "wheel": 1})
    assert (plain.code, plain.message) == ("no_such_wheel_icon", "no BA/RRR (W) has a wheel icon")


def test_the_draw_menu_says_each_tiles_icons_left_and_whether_a_draw_must_name_one():
    table = Table(expansions=WHEEL)
    wheel = menu(table.state, 0)["draw_tile"]["wheel"]
    # a copy of WF/RFr always carries its icon; BA/RFr has plain copies besides
    assert wheel["WF/RFr"] == {"icons": [1], "plain": 0}
    assert wheel["BA/RFr"] == {"icons": [3, 1, 2], "plain": 5}
    assert "BA/RRR" not in wheel  # no copy carries one
    table.send({"type": "draw_tile", "tile": "WF/RFr", "wheel": 1})
    place = menu(table.state, 0)["place_tile"]["placements"][0]
    table.place(place["x"], place["y"], place["rotation"])
    table.follow(None)
    assert "WF/RFr" not in menu(table.state, 1)["draw_tile"]["wheel"]  # its one copy


def test_a_crown_space_that_does_not_exist_is_told_apart_from_one_taken():
    table = Table(expansions=WHEEL)
    table.draw("B")
    table.place(3, 4, 0)
    for sector, space in (("taxes", 5), ("Taxes", 0), ("taxes", "0"), ("fortune", 0), ([], 1)):
        wrong = refused(table, {"type": "place_on_wheel", "sector": sector, "space": space})
        assert wrong.code == "unknown_crown_space", (sector, space)
        assert "taxes 0-1" in wrong.message


# -- the actions ----------------------------------------------------------------------------


def test_taxes_blue_scores_2_knights_plus_2_banners_4_each_8_in_all():
    table = Table(expansions=WHEEL)
    table.turn("F", 0, -1, 0, "city:E,W")  # a banner; Blue's first knight
    table.turn("T", 1, -1, 0)
    table.turn("F", 3, -1, 0, "city:E,W")  # another banner; Blue's second knight
    table.turn("R", 2, -1, 180)  # one city now, not completed
    events = spin(table, "B", 1, 3, 4)  # the pig moves 1: Taxes
    assert of(events, "wheel_turned")["to"] == "taxes"
    taxes = of(events, "wheel_scored")
    assert [f["points"] for f in taxes["figures"]] == [4, 4]
    assert taxes["points"] == [8, 0]
    assert table.scores == [8, 0]


def test_taxes_a_lone_knight_scores_1_knight_plus_2_banners_3():
    """The rulebook's second figure: "1 (chevalier) + 2 (bannières) = 3 points"."""
    table = Table(expansions=WHEEL)
    table.turn("F", 0, -1, 0, "city:E,W")  # a banner; Blue's knight
    table.turn("T", 1, -1, 0)
    table.turn("F", 3, -1, 0)  # another banner, nobody on it
    table.turn("R", 2, -1, 180)  # one city now, not completed
    events = spin(table, "B", 1, 3, 4)  # the pig moves 1: Taxes
    taxes = of(events, "wheel_scored")
    assert [f["points"] for f in taxes["figures"]] == [3]
    assert taxes["points"] == [3, 0]
    assert table.scores == [3, 0]


def test_storm_then_fortune_fortune_gives_the_active_player_3():
    table = Table(expansions=WHEEL)
    storm = spin(table, "U", 3, -1, 2)
    assert of(storm, "wheel_scored")["points"] == [7, 7]  # 1 per follower in supply
    fortune = spin(table, "E", 3, 1, 4)  # Red's turn: 3 more, round to Fortune
    assert of(fortune, "wheel_turned")["to"] == "fortune"
    assert of(fortune, "wheel_scored")["points"] == [0, 3]


def test_storm_scores_each_player_1_per_follower_in_supply():
    table = Table(expansions=WHEEL)
    table.turn("U", -1, 2, 0, "road:E,W")  # Blue's robber leaves the supply
    events = spin(table, "U", 3, -2, 2)
    assert of(events, "wheel_scored")["points"] == [6, 7]


def test_famine_each_farmer_scores_1_per_completed_city_in_its_field():
    table = Table(expansions=WHEEL)
    table.turn("E", 1, 4, 0, "field:EL,ER,SL,SR,WL,WR")  # closes a city of the board
    events = spin(table, "U", 2, -1, 2)
    famine = of(events, "wheel_scored")
    assert (famine["sector"], famine["points"]) == ("famine", [1, 0])


def test_famine_needs_no_majority_and_a_big_follower_is_one_farmer():
    # "Contrairement aux règles de décompte de fin de partie, un joueur n'a pas besoin
    # d'être majoritaire en paysans pour marquer des points."
    table = Table(expansions=["inns_cathedrals", *WHEEL])
    table.turn("U", -1, 2, 0, "field:NL,NR,EL,WR", figure="big_follower")  # Blue, north
    table.turn("U", -2, 2, 0, "field:ER,SL,SR,WL")  # Red's farmer, south of the road
    table.turn("E", -2, 1, 0)
    table.turn("E", -2, 0, 180)  # a city of 2 tiles is completed beside the field
    table.turn("A", -3, 2, 270)  # a cloister ends the road: one field, Blue 2 against 1
    famine = of(spin(table, "U", 2, -4, 2, 90), "wheel_scored")
    assert famine["sector"] == "famine"
    assert sorted((f["seat"], f["points"]) for f in famine["figures"]) == [(BLUE, 1), (RED, 1)]
    assert famine["points"] == [1, 1]


def test_famine_scores_farmers_only_never_a_shepherd_in_the_same_field():
    # Hills & Sheep: the shepherd is no follower and counts in no other scoring.
    table = Table(expansions=["hills_sheep", *WHEEL])
    table.turn("E", 1, 4, 0, "field:EL,ER,SL,SR,WL,WR")  # Blue's farmer; a city closes
    table.turn("B", 1, 5, 0, "field:NL,NR,EL,ER,SL,SR,WL,WR", figure="shepherd")  # Red's
    table.send({"type": "draw_sheep", "token": "2"})
    famine = of(spin(table, "U", 2, -1, 2), "wheel_scored")
    assert (famine["sector"], famine["points"]) == ("famine", [1, 0])
    assert [f["seat"] for f in famine["figures"]] == [BLUE]


def test_storm_counts_followers_and_the_big_follower_but_no_special_figure():
    # "Les pions spéciaux ne sont pas des partisans": builder, pig and shepherd stay out.
    expansions = ["inns_cathedrals", "traders_builders", "hills_sheep", *WHEEL]
    table = Table(expansions=expansions)
    assert table.state.supply[BLUE] == {
        "follower": 7, "big_follower": 1, "builder": 1, "pig": 1, "shepherd": 1,
    }  # fmt: skip
    storm = of(spin(table, "U", 3, -1, 2), "wheel_scored")
    assert (storm["sector"], storm["points"]) == ("storm", [8, 8])


def test_inquisition_scores_2_per_monk():
    table = Table(expansions=WHEEL)
    table.turn("B", 3, 4, 0, "cloister")  # Blue's monk
    spin(table, "U", 1, -1, 2)  # Taxes: no knight
    events = spin(table, "U", 3, -2, 2)
    inquisition = of(events, "wheel_scored")
    assert (inquisition["sector"], inquisition["points"]) == ("inquisition", [2, 0])


def test_a_big_follower_is_one_knight_for_taxes_and_one_monk_for_the_inquisition():
    table = Table(expansions=["inns_cathedrals", *WHEEL])
    table.turn("F", 0, -1, 0, "city:E,W", figure="big_follower")  # Blue's, by a banner
    table.turn("B", 3, 4, 0, "cloister", figure="big_follower")  # Red's
    taxes = of(spin(table, "U", 1, -1, 2), "wheel_scored")
    assert (taxes["sector"], taxes["points"]) == ("taxes", [2, 0])  # 1 banner + 1 knight
    inquisition = of(spin(table, "U", 3, -2, 2), "wheel_scored")
    assert (inquisition["sector"], inquisition["points"]) == ("inquisition", [0, 2])


def test_plague_every_player_active_first_takes_back_a_follower_from_the_land():
    table = Table(expansions=WHEEL)
    table.turn("U", -1, 2, 0, "road:E,W")  # Blue's robber
    table.turn("B", 3, 4, 0, "cloister")  # Red's monk
    spin(table, "U", 2, -2, 2)  # Famine
    events = spin(table, "U", 3, -3, 2)  # Red's turn: Plague
    assert of(events, "plague")["queue"] == [RED, BLUE]
    assert waiting(table.state) == [
        awaited(
            "plague",
            RED,
            ("remove_follower",),
            followers=[{"x": 3, "y": 4, "spot": "cloister", "figure": "follower"}],
        )
    ]
    take_road = {"type": "remove_follower", "x": -1, "y": 2, "spot": "road:E,W"}
    with pytest.raises(IllegalMove) as caught:
        table.send(take_road, seat=BLUE)  # Blue waits for Red
    assert caught.value.code == "not_your_turn"
    table.send({"type": "remove_follower", "x": 3, "y": 4, "spot": "cloister"}, seat=RED)
    table.send(take_road, seat=BLUE)
    assert table.state.supply == [{"follower": 7}, {"follower": 7}]
    assert waiting(table.state)[0] == awaited("place_tile", RED, tile="BA/RFr")


def test_plague_sends_home_a_builder_left_without_its_owners_follower():
    table = Table(expansions=["traders_builders", *WHEEL])
    table.turn("U", -1, 2, 0, "road:E,W")  # Blue's robber
    table.turn("B", 3, 4)
    table.turn("U", -2, 2, 0, "road:E,W", figure="builder")
    spin(table, "WF/Rr", 2, 0, 4)  # Famine
    events = spin(table, "U", 3, -3, 2)  # Blue: Plague; Red has no follower on the land
    table.send({"type": "remove_follower", "x": -1, "y": 2, "spot": "road:E,W"})
    returned = only([e.data for e in table.events if e.type == "figure_returned"])
    assert (returned["figure"], returned["seat"]) == ("builder", BLUE)
    assert table.state.supply[BLUE] == {"follower": 7, "builder": 1, "pig": 1}
    assert of(events, "plague")["queue"] == [BLUE]


def test_plague_never_takes_a_follower_from_the_wheel():
    # "Un joueur ne peut enlever un partisan de la roue de cette façon."
    table = Table(expansions=WHEEL)
    table.turn("U", -1, 2, 0, "road:E,W")  # Blue's robber
    table.draw("B")
    table.place(3, 4, 0)
    table.send({"type": "place_on_wheel", "sector": "storm", "space": 0})  # Red's only one
    spin(table, "U", 2, -2, 2)  # Famine
    events = spin(table, "U", 3, -3, 2)  # Red's turn: the pig passes Storm to the Plague
    assert of(events, "plague")["queue"] == [BLUE]  # Red has no follower on the land
    assert CARCASSONNE.awaiting(table.state)[0]["followers"] == [
        {"x": -1, "y": 2, "spot": "road:E,W", "figure": "follower"}
    ]
    table.send({"type": "remove_follower", "x": -1, "y": 2, "spot": "road:E,W"}, seat=BLUE)
    assert table.state.ext["wheel_of_fortune"]["crowns"]["storm"] == [RED]


# -- crown spaces --------------------------------------------------------------------------


def test_a_follower_alone_in_a_two_space_sector_scores_6_and_returns():
    table = Table(expansions=WHEEL)
    table.draw("B")
    table.place(3, 4, 0)
    table.send({"type": "place_on_wheel", "sector": "famine", "space": 0})  # instead of a tile
    assert table.state.supply[BLUE]["follower"] == 6
    events = spin(table, "U", 2, -1, 2)
    crown = of(events, "crown_scored")
    assert (crown["winners"], crown["points"]) == ([BLUE], 6)
    assert table.state.supply[BLUE]["follower"] == 7
    assert table.state.ext["wheel_of_fortune"]["crowns"]["famine"] == [None, None]


def test_a_follower_alone_in_a_one_space_sector_scores_3():
    table = Table(expansions=WHEEL)
    table.draw("B")
    table.place(3, 4, 0)
    table.send({"type": "place_on_wheel", "sector": "storm", "space": 0})
    crown = of(spin(table, "U", 3, -1, 2), "crown_scored")
    assert (crown["winners"], crown["points"]) == ([BLUE], 3)


def test_two_followers_sharing_a_sector_score_3_each_and_a_space_holds_one():
    table = Table(expansions=WHEEL)
    table.draw("B")
    table.place(3, 4, 0)
    table.send({"type": "place_on_wheel", "sector": "taxes", "space": 0})
    table.draw("B")
    table.place(4, 4, 0)
    taken = {"type": "place_on_wheel", "sector": "taxes", "space": 0}
    assert refused(table, taken).code == "crown_not_free"
    table.send({**taken, "space": 1})
    crown = of(spin(table, "U", 1, -1, 2), "crown_scored")
    assert (crown["winners"], crown["points"]) == ([BLUE, RED], 3)
    assert table.scores == [3, 3]


def test_the_crown_spaces_are_in_the_figure_steps_menu():
    table = Table(expansions=WHEEL)
    table.draw("B")
    table.place(3, 4, 0)
    crowns = menu(table.state, BLUE)["place_on_wheel"]
    assert {"sector": "storm", "space": 0} in crowns
    assert len(crowns) == 9


def anywhere(table: Table, tile: str) -> None:
    """Draw a copy of ``tile`` without a wheel icon and place it where it first fits."""
    table.draw(tile)
    first = menu(table.state, table.state.seat)["place_tile"]["placements"][0]
    table.place(first["x"], first["y"], first["rotation"])


def test_a_crown_space_takes_a_follower_from_the_supply_and_none_is_left():
    table = Table(expansions=WHEEL)
    # Blue puts his 7 followers on crown spaces, one a turn; Red places tiles, nothing else.
    crowns = [("taxes", 0), ("taxes", 1), ("famine", 0), ("famine", 1), ("storm", 0)]
    crowns += [("inquisition", 0), ("inquisition", 1)]
    for (sector, space), blue, red in zip(crowns, "UUUUUAA", "WWWWXIG", strict=True):
        anywhere(table, blue)
        table.send({"type": "place_on_wheel", "sector": sector, "space": space})
        anywhere(table, red)
        table.follow(None)
    assert table.state.supply[BLUE]["follower"] == 0
    anywhere(table, "F")
    assert "place_on_wheel" not in menu(table.state, BLUE)  # no crown space
    plague = {"type": "place_on_wheel", "sector": "plague", "space": 0}
    assert refused(table, plague).code == "crown_needs_follower"


def test_followers_on_the_crown_score_nothing_when_the_pig_only_passes():
    table = Table(expansions=WHEEL)
    table.draw("B")
    table.place(3, 4, 0)
    table.send({"type": "place_on_wheel", "sector": "taxes", "space": 0})
    events = spin(table, "U", 2, -1, 2)  # the pig passes Taxes and stops on Famine
    assert of(events, "wheel_turned")["to"] == "famine"
    assert not [e for e in events if e["type"] == "crown_scored"]
    assert table.state.ext["wheel_of_fortune"]["crowns"]["taxes"] == [BLUE, None]
    assert table.scores == [0, 0]


def test_followers_on_the_crown_score_nothing_at_the_end():
    table = Table(expansions=WHEEL)
    table.draw("B")
    table.place(3, 4, 0)
    table.send({"type": "place_on_wheel", "sector": "storm", "space": 0})
    assert table.final() == []

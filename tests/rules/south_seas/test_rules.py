"""One test per rule of the rulebooks (and per choice made where they are silent)."""

from __future__ import annotations

import random

import pytest

from service.rules.core import IllegalMove, InvalidOptions
from service.rules.south_seas import SOUTH_SEAS
from tests.rules.south_seas.table import Table, evaluated, of_type, tiles_with

RED, BLUE, GREEN = 0, 1, 2
ALL_SEA = "sea:NL,NR,EL,ER,SL,SR,WL,WR"


def illegal(table: Table, command: dict, seat: int | None = None) -> IllegalMove:
    with pytest.raises(IllegalMove) as caught:
        table.send(command, seat)
    assert caught.value.rule  # every refusal quotes its rule
    return caught.value


# -- setup --------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [1, 6])
def test_south_seas_is_for_2_to_5_players(seats):
    with pytest.raises(InvalidOptions):
        SOUTH_SEAS.setup(SOUTH_SEAS.normalize_options({}), seats, random.Random(0))


def test_setup_gives_4_islanders_no_wares_4_face_up_ships_and_draws_for_seat_0():
    events = SOUTH_SEAS.setup(SOUTH_SEAS.normalize_options({}), 5, random.Random(1))
    state = SOUTH_SEAS.fold(events)
    assert state.supply == [4] * 5
    assert state.wares == [{"shell": 0, "banana": 0, "fish": 0}] * 5
    assert len(of_type(events, "ship_revealed")) == 4 and len(state.display) == 4
    assert len(state.ship_stack) == 20 and state.boats == 19
    assert SOUTH_SEAS.awaiting(state) == [
        {
            "id": f"d{len(events)}",
            "seat": 0,
            "kind": "place_tile",
            "decision": "place_tile",
            "commands": ["place_tile"],
            "tile": state.tile.id,
        }
    ]
    assert state.remaining == 71  # 72 sea tiles besides the start tile, one drawn


def test_the_log_names_the_rules_version_it_was_written_under():
    events = SOUTH_SEAS.setup(SOUTH_SEAS.normalize_options({}), 2, random.Random(0))
    assert events[0].data["rules_version"] == SOUTH_SEAS.rules_version == 1


def test_with_external_randomness_the_active_seat_reveals_4_ships_then_draws():
    table = Table(display=None)
    assert table.awaited == {"seat": RED, "kind": "reveal_ship"}
    for ship in ("S01", "S02", "S03"):
        table.reveal(ship)
    assert illegal(table, {"type": "reveal_ship", "ship": "S01"}).code == "ship_not_in_stack"
    assert illegal(table, {"type": "reveal_ship", "ship": "S99"}).code == "unknown_ship"
    table.reveal("S04")
    assert table.awaited == {"seat": RED, "kind": "draw_tile"}


# -- 1. place a tile ----------------------------------------------------------------


def test_a_tile_continues_the_bridge_and_sea_regions_it_touches():
    """SS/B.1 turned a quarter east of the start tile SS/IB=: its bridge continues the
    start tile's east-west bridge, and its two seas the start tile's two."""
    table = Table()
    table.draw("SS/B.1")
    assert of_type(table.place(1, 0, 90), "tile_placed")[0]["rotation"] == 90
    state = table.state

    def feature(pos, spot):
        return state.graph.feature(state.tile_node(pos, spot))

    bridge = feature((1, 0), "bridge:E,W")
    assert bridge is feature((0, 0), "bridge:E,W") and bridge.tiles == {(0, 0), (1, 0)}
    north_sea = feature((0, 0), "sea:EL,WR")
    assert north_sea is feature((1, 0), "sea:NL,NR,EL,WR") and len(north_sea.tiles) == 2
    south_sea = feature((0, 0), "sea:ER,SL,SR,WL")
    assert south_sea is feature((1, 0), "sea:ER,SL,SR,WL") and len(south_sea.tiles) == 2


def test_a_tile_continues_the_island():
    """carcassonne-south-seas.en.md line 121 (fr line 125): "The Island is continued."
    SS/I.1 turned half round north of the start tile SS/IB=: its island, now on its
    south side, continues the start tile's island into one island of 2 tiles."""
    table = Table()
    table.draw("SS/I.1")
    table.place(0, -1, 180)
    assert table.awaited["kind"] == "place_islander"
    state = table.state
    island = state.graph.feature(state.tile_node((0, -1), "island:S"))
    assert island is state.graph.feature(state.tile_node((0, 0), "island:N"))
    assert island.tiles == {(0, -1), (0, 0)}


def test_a_tile_that_does_not_continue_the_island_is_not_allowed():
    table = Table()
    table.draw("SS/I.1")
    assert illegal(table, {"type": "place_tile", "x": 0, "y": -1, "rotation": 0}).code == (
        "tile_does_not_fit"
    )


@pytest.mark.parametrize(
    ("x", "y", "rotation", "code"),
    [(1, 1, 0, "no_neighbour"), (0, 0, 0, "position_occupied"), (0, 1, 45, "bad_rotation")],
)
def test_a_tile_touches_a_placed_tile_by_a_side_on_an_empty_space(x, y, rotation, code):
    table = Table()
    table.draw("SS/S")
    command = {"type": "place_tile", "x": x, "y": y, "rotation": rotation}
    assert illegal(table, command).code == code


def test_a_tile_that_fits_nowhere_is_set_aside_and_the_player_draws_again():
    table = Table()
    table.turn("SS/I.1", 0, -1, 180)  # closes the only island edge
    events = table.draw("SS/IIII")
    (aside,) = of_type(events, "tile_set_aside")
    assert aside == {"seat": BLUE, "tile": "SS/IIII", "reason": "fits nowhere on the board"}
    assert table.awaited == {"seat": BLUE, "kind": "draw_tile"}
    assert table.state.set_aside == ["SS/IIII"]


def test_a_drawn_tile_must_still_be_in_the_stack():
    table = Table(tiles=tiles_with({"SS/S": 1, "SS/M": 1}))
    table.turn("SS/S", 0, 1)
    assert illegal(table, {"type": "draw_tile", "tile": "SS/S"}).code == "tile_not_in_stack"
    assert illegal(table, {"type": "draw_tile", "tile": "nope"}).code == "unknown_tile"


# -- 2a. place an islander ------------------------------------------------------------


def test_blue_may_not_place_a_shell_collector_on_an_occupied_bridge():
    table = Table()
    table.turn("SS/B.1", 1, 0, 90, spot="bridge:E,W")
    table.draw("SS/MB")
    table.place(2, 0, 90)
    menu = table.menu(BLUE)
    assert [s["role"] for s in menu["place_islander"]] == ["merchant", "fisherman"]
    refused = illegal(table, {"type": "place_islander", "spot": "bridge:W"})
    assert refused.code == "feature_occupied"
    assert of_type(table.islander("market"), "islander_placed")[0]["role"] == "merchant"


@pytest.mark.parametrize(
    ("spot", "role"),
    [("bridge:W", "shell_collector"), ("sea:SL,SR,WL", "fisherman"), ("sea:NL,NR,WR", "fisherman")],
)
def test_blue_may_not_place_a_banana_picker_on_an_occupied_island(spot, role):
    """carcassonne-south-seas.en.md line 184 (fr line 182): "Blue may not place a Banana
    Picker here, as the Island is already occupied. Blue may, however, place a Shell
    Collector or Fisherman as indicated." SS/IBv continues Red's island: Blue's menu
    offers its bridge and both its seas, not its island; each offer may be taken."""
    table = Table()
    table.turn("SS/II", 0, -1, 180, spot="island:S,W")
    table.draw("SS/IBv")
    table.place(-1, -1, 90)
    offered = [(s["spot"], s["role"]) for s in table.menu(BLUE)["place_islander"]]
    assert offered == [
        ("bridge:W", "shell_collector"),
        ("sea:SL,SR,WL", "fisherman"),
        ("sea:NL,NR,WR", "fisherman"),
    ]
    refused = illegal(table, {"type": "place_islander", "spot": "island:E"})
    assert refused.code == "feature_occupied"
    placed = of_type(table.islander(spot), "islander_placed")
    assert (placed[0]["seat"], placed[0]["role"]) == (BLUE, role)


def test_an_islander_goes_only_on_the_tile_just_placed():
    table = Table()
    table.draw("SS/S")
    table.place(0, 1)
    assert illegal(table, {"type": "place_islander", "spot": "island:N"}).code == "unknown_spot"


def four_islanders_for_red(table: Table) -> None:
    """Red places her 4 islanders on open features; Blue places tiles only."""
    table.turn("SS/B.1", 1, 0, 90, spot="bridge:E,W")
    table.turn("SS/B.1", 2, 0, 90)
    table.turn("SS/B.1", -1, 0, 90, spot="sea:NL,NR,EL,WR")
    table.turn("SS/B.1", -2, 0, 90)
    table.turn("SS/I.1", 0, 1, 180, spot="island:S")
    table.turn("SS/B.1", 3, 0, 90)
    table.turn("SS/I.1", 1, -1, 0, spot="island:N")
    table.turn("SS/S", -1, 1)  # Blue


def test_an_islander_comes_from_the_supply():
    table = Table()
    four_islanders_for_red(table)
    assert table.state.supply[RED] == 0
    table.draw("SS/S")
    table.place(1, 1)
    assert table.menu(RED)["place_islander"] == []
    assert illegal(table, {"type": "place_islander", "spot": ALL_SEA}).code == "no_islanders_left"


# -- 2b. retrieve an islander -----------------------------------------------------------


def test_retrieving_is_allowed_only_with_an_empty_supply_by_default():
    table = Table()
    table.turn("SS/B.1", 1, 0, 90, spot="bridge:E,W")
    table.turn("SS/S", 0, 1)
    table.draw("SS/S")
    table.place(1, 1)
    command = {"type": "retrieve_islander", "x": 1, "y": 0, "spot": "bridge:E,W"}
    assert illegal(table, command).code == "supply_not_empty"
    assert table.menu(RED)["retrieve_islander"] == []


def test_a_player_with_an_empty_supply_retrieves_an_islander_and_gets_nothing_for_it():
    table = Table()
    four_islanders_for_red(table)
    table.draw("SS/S")
    table.place(1, 1)
    menu = table.menu(RED)
    assert {"x": 1, "y": 0, "spot": "bridge:E,W"} in menu["retrieve_islander"]
    other = {"type": "retrieve_islander", "x": 2, "y": 0, "spot": "bridge:E,W"}
    assert illegal(table, other).code == "no_islander_there"  # the bridge, not her islander
    events = table.send({"type": "retrieve_islander", "x": 1, "y": 0, "spot": "bridge:E,W"})
    assert of_type(events, "islander_retrieved")[0]["kind"] == "bridge"
    assert evaluated(events) == [] and table.state.supply[RED] == 1
    assert table.wares(RED) == {"shell": 0, "banana": 0, "fish": 0}


def test_option_retrieve_whenever_no_islander_is_placed():
    table = Table(retrieve="instead_of_placing")
    table.turn("SS/B.1", 1, 0, 90, spot="bridge:E,W")
    table.turn("SS/S", 0, 1)
    table.draw("SS/S")
    table.place(1, 1)
    table.send({"type": "retrieve_islander", "x": 1, "y": 0, "spot": "bridge:E,W"})
    assert table.state.supply[RED] == 4


# -- 3. evaluations -----------------------------------------------------------------------


def test_a_completed_unoccupied_feature_gives_nothing():
    table = Table()
    assert evaluated(table.turn("SS/I.1", 0, -1, 180)) == []


def test_a_fishing_boat_in_an_unoccupied_sea_region_triggers_nothing():
    table = Table()
    assert evaluated(table.turn("SS/S.b", 0, 1)) == []
    assert table.state.boats == 19


def test_a_fishing_boat_counts_only_when_it_is_placed():
    table = Table()
    table.turn("SS/S.b", 0, 1)  # nobody fishes here yet
    events = table.turn("SS/S", 1, 1, spot=ALL_SEA)  # a fisherman joins later: no boat now
    assert evaluated(events) == [] and table.state.supply[BLUE] == 3


def test_when_the_19_fishing_boat_tokens_are_used_up_boats_still_evaluate_but_cover_nothing():
    table = Table(tiles=tiles_with({"SS/S.b": 21}))
    covers = []
    for y in range(1, 21):
        (sea,) = evaluated(table.turn("SS/S.b", 0, y, spot=ALL_SEA))
        covers.append(sea["cover"])
        if table.awaited["kind"] == "deliver":
            table.send({"type": "pass"})
        assert sea["returned"] and sea["trigger"] == "fishing_boat"
    assert all(covers[:19]) and covers[19] is None
    assert sea["cover_reason"] == "no fishing-boat token is left, so no fish are covered"
    assert table.state.boats == 0 and len(table.state.covered) > 0


def test_a_sea_cut_by_a_bridge_end_on_one_tile_only_closes_each_side_once():
    # The market tile's sea runs around the bridge's end: on the start tile's east side
    # it meets two sea regions at once. The joined region has 6 open sides left.
    table = Table()
    table.turn("SS/MB", 1, 0, 90)
    graph, board = table.state.graph, table.state.board
    sea = graph.feature(graph.node_at(board, (1, 0), ALL_SEA))
    assert sea.open == 6 and not sea.complete


def test_several_markets_completed_at_once_are_awarded_clockwise_from_the_active_player():
    table = Table(seats=3, display=("S19", "S17", "S01", "S08"))
    for tile, x, y, rotation, spot in [
        ("SS/B.1", -1, 0, 90, None),
        ("SS/B.1", 1, 0, 90, None),
        ("SS/B.1", -2, 0, 90, None),
        ("SS/M", -1, 1, 0, "market"),  # seat 0
        ("SS/B.1", 2, 0, 90, None),
        ("SS/M", 1, 1, 0, "market"),  # seat 2
        ("SS/I.1", -2, 1, 270, None),
        ("SS/I.1", 2, 1, 90, None),
        ("SS/I.0", -2, 2, 180, None),
        ("SS/I.0", -1, 2, 180, None),
        ("SS/I.1", 0, 2, 180, None),
        ("SS/I.1", 1, 2, 180, None),
        ("SS/I.2", 2, 2, 180, None),
    ]:
        table.turn(tile, x, y, rotation, spot)
    events = table.turn("SS/S", 0, 1)  # seat 1 surrounds both markets
    assert [m["winners"] for m in evaluated(events)] == [[GREEN], [RED]]
    (first,) = of_type(events, "ship_awarded")
    assert (first["seat"], first["ship"]) == (GREEN, "S19")  # the only 6
    assert table.awaited == {"seat": BLUE, "kind": "reveal_ship"}  # refill to 4 first
    table.reveal("S13")
    assert table.awaited["seat"] == RED and table.awaited["ships"] == ["S17", "S01"]


def test_a_ship_choice_is_made_by_the_merchant_even_outside_her_turn():
    from tests.rules.south_seas.test_rulebook_examples import market_table

    table = market_table(display=("S19", "S01", "S08", "S20"))
    table.turn("SS/S.b", 1, 2)
    assert table.state.seat == BLUE and table.awaited["seat"] == RED
    refused = illegal(table, {"type": "choose_ship", "ship": "S20"}, seat=BLUE)
    assert refused.code == "not_your_turn"
    assert illegal(table, {"type": "choose_ship", "ship": "S01"}).code == "ship_not_offered"


def test_a_single_highest_ship_is_awarded_without_a_choice_and_the_display_refilled():
    from tests.rules.south_seas.test_rulebook_examples import market_table

    table = market_table(display=("S19", "S01", "S08", "S02"))
    events = table.turn("SS/S.b", 1, 2)
    (award,) = of_type(events, "ship_awarded")
    assert (award["seat"], award["ship"], award["highest"]) == (RED, "S19", ["S19"])
    assert table.awaited == {"seat": BLUE, "kind": "reveal_ship"}
    table.reveal("S05")
    assert sorted(table.state.display) == ["S01", "S02", "S05", "S08"]


# -- 4. deliver --------------------------------------------------------------------------


def four_bananas_for_red(display: tuple[str, ...]) -> Table:
    table = Table(display=display)
    table.turn("SS/III", 0, -1, 180, spot="island:E,S,W")
    table.turn("SS/I.1", 1, -1, 270)
    table.turn("SS/I.0", -1, -1, 90)
    return table


def test_red_delivers_4_identical_wares_to_a_ship_and_takes_it():
    table = four_bananas_for_red(("S03", "S05", "S20", "S21"))
    assert table.awaited == {"seat": RED, "kind": "deliver", "ships": ["S03"]}
    assert illegal(table, {"type": "deliver", "ship": "S01", "wares": {}}).code == (
        "ship_not_face_up"
    )
    command = {"type": "deliver", "ship": "S03"}
    assert illegal(table, command | {"wares": {"shell": 4}}).code == "not_enough_wares"
    assert illegal(table, command | {"wares": {"banana": 3}}).code == "demand_not_met"
    assert illegal(table, command | {"wares": {"banana": -1}}).code == "bad_wares"
    events = table.send(command | {"wares": {"banana": 4}})
    (delivered,) = of_type(events, "wares_delivered")
    assert (delivered["points"], delivered["wares"]) == (3, {"banana": 4})
    assert table.state.held[RED] == ["S03"] and table.wares(RED)["banana"] == 0
    assert table.awaited == {"seat": RED, "kind": "reveal_ship"}  # 4 ships face up again


def test_a_player_may_pass_instead_of_delivering():
    table = four_bananas_for_red(("S03", "S05", "S20", "S21"))
    events = table.send({"type": "pass"})
    assert of_type(events, "turn_ended") == [{"seat": RED, "next": BLUE}]
    assert table.wares(RED)["banana"] == 4


def test_without_wares_for_any_face_up_ship_the_delivery_step_is_skipped():
    table = four_bananas_for_red(("S01", "S05", "S20", "S21"))
    assert table.awaited == {"seat": BLUE, "kind": "draw_tile"}


# -- end of the game -------------------------------------------------------------------


def final_score_table() -> Table:
    """Red's 16-shell bridge, and six ships worth 2, 3, 4, 4, 5 and 6 (1 ware each)."""
    tiles = tiles_with({"SS/J3": 1, "SS/S": 6, "SS/I.1": 6})
    tiles["tiles"].append(
        {"id": "TEST/IB>15", "count": 1, "edges": "IBSS", "features": [
            {"kind": "island", "at": "N"}, {"kind": "bridge", "at": "E", "shell": 15},
            {"kind": "sea", "at": "EL"}, {"kind": "sea", "at": "ER SL SR WL WR"}]}
    )  # fmt: skip
    ships = {
        "format": 1,
        "ships": [
            {"id": name, "points": points, "demand": {"any": 1}}
            for name, points in [("P6", 6), ("P5", 5), ("P4", 4), ("Q4", 4), ("P3", 3), ("P2", 2)]
        ],
    }
    table = Table(display=("P6", "P5", "P4", "Q4"), tiles=tiles, ships=ships)
    table.turn("SS/J3", -1, 0, 180, spot="bridge:E")
    table.turn("SS/I.1", 0, -1, 180)
    return table


def filler_turn(table: Table, tile: str) -> list:
    table.draw(tile)
    placement = table.menu(table.awaited["seat"])["place_tile"][0]
    return table.place(placement["x"], placement["y"], placement["rotation"]) + table.islander(None)


def test_the_game_ends_after_the_turn_in_which_the_last_ship_was_taken():
    table = final_score_table()
    table.turn("TEST/IB>15", 1, 0, 180)
    assert table.wares(RED)["shell"] == 16
    for ship, reveal in [("P6", "P3"), ("P5", "P2"), ("P4", None), ("Q4", None), ("P3", None)]:
        table.send({"type": "deliver", "ship": ship, "wares": {"shell": 1}})
        if reveal:
            table.reveal(reveal)
        filler_turn(table, "SS/I.1")  # Blue
        filler_turn(table, "SS/S")  # Red
    events = table.send({"type": "deliver", "ship": "P2", "wares": {"shell": 1}})
    (ended,) = of_type(events, "game_ended")
    assert ended["because"] == "ships_exhausted" and SOUTH_SEAS.is_over(table.state)
    assert illegal(table, {"type": "draw_tile", "tile": "SS/S"}, seat=BLUE).code == "game_over"


def test_final_score_red_ships_2_3_4_4_5_6_and_10_wares_make_27_points():
    table = final_score_table()
    table.turn("TEST/IB>15", 1, 0, 180)
    for ship, reveal in [("P6", "P3"), ("P5", "P2"), ("P4", None), ("Q4", None), ("P3", None)]:
        table.send({"type": "deliver", "ship": ship, "wares": {"shell": 1}})
        if reveal:
            table.reveal(reveal)
        filler_turn(table, "SS/I.1")
        filler_turn(table, "SS/S")
    (ended,) = of_type(
        table.send({"type": "deliver", "ship": "P2", "wares": {"shell": 1}}), "game_ended"
    )
    assert ended["ship_points"][RED] == 2 + 3 + 4 + 4 + 5 + 6 == 24
    assert ended["wares"][RED] == 10
    assert ended["scores"][RED] == 24 + 10 // 3 == 27 and ended["winners"] == [RED]


# -- more rules, and the choices made where the rulebooks are silent ------------------


def test_the_start_tile_is_placed_in_the_middle_and_the_drawn_tile_is_shown_to_all():
    table = Table()
    (started,) = of_type(table.events, "game_started")
    assert started["start"] == {"tile": "SS/IB=", "x": 0, "y": 0, "rotation": 0}
    assert list(table.state.board.tiles) == [(0, 0)]
    table.draw("SS/S")
    assert SOUTH_SEAS.view(table.state, BLUE)["tile"] == "SS/S"  # Red's tile, Blue's view


@pytest.mark.parametrize(
    ("tile", "roles"),
    [
        ("SS/MI", ["banana_picker", "merchant", "fisherman"]),
        ("SS/MB", ["merchant", "shell_collector", "fisherman"]),
    ],
)
def test_an_islander_is_a_shell_collector_banana_picker_merchant_or_fisherman(tile, roles):
    table = Table()
    table.draw(tile)
    table.place(0, 1, 180 if tile == "SS/MI" else 0)
    spots = table.menu(RED)["place_islander"]
    assert sorted(s["role"] for s in spots) == sorted(roles)


def test_only_one_islander_is_placed_per_turn():
    table = Table(display=("S03", "S05", "S20", "S21"))
    table.turn("SS/III", 0, -1, 180, spot="island:E,S,W")
    table.turn("SS/I.1", 1, -1, 270)
    table.turn("SS/I.0", -1, -1, 90, spot="sea:NL,NR,SL,SR,WL,WR")  # and 4 bananas
    assert table.awaited["kind"] == "deliver"
    refused = illegal(table, {"type": "place_islander", "spot": "sea:NL,NR,SL,SR,WL,WR"})
    assert refused.code == "unexpected_command"
    assert table.state.supply[RED] == 3


def test_a_player_may_not_join_a_feature_she_already_occupies_herself():
    table = Table()
    table.turn("SS/B.1", 1, 0, 90, spot="bridge:E,W")
    table.turn("SS/S", 0, 1)
    table.draw("SS/B.1")
    table.place(2, 0, 90)
    spots = [s["spot"] for s in table.menu(RED)["place_islander"]]
    assert "bridge:E,W" not in spots
    assert illegal(table, {"type": "place_islander", "spot": "bridge:E,W"}).code == (
        "feature_occupied"
    )


def test_if_no_group_of_two_fish_is_left_a_single_fish_is_covered():
    table = Table()
    (first,) = evaluated(table.turn("SS/S.b", 0, 1, spot=ALL_SEA))
    assert first["cover"]["group"] == 2  # the start tile's two fish
    (second,) = evaluated(table.turn("SS/S.b", 1, 1, spot=ALL_SEA))
    assert second["wares"] == 2  # one fish on each boat tile; the two are covered
    assert second["cover"] == {"x": 0, "y": 1, "spot": ALL_SEA, "group": 1}
    assert table.state.boats == 17


def test_retrieving_an_islander_from_a_feature_the_tile_completes_gives_nothing():
    table = Table()
    four_islanders_for_red(table)  # her banana picker is on the island at (1, -1)
    table.draw("SS/I.1")
    table.place(1, -2, 180)  # completes that island
    events = table.send({"type": "retrieve_islander", "x": 1, "y": -1, "spot": "island:N"})
    assert evaluated(events) == [] and table.wares(RED)["banana"] == 0
    assert table.state.supply[RED] == 1


def test_a_player_delivers_to_exactly_one_ship_per_turn():
    table = final_score_table()
    table.turn("TEST/IB>15", 1, 0, 180)  # 16 shells: enough for every face-up ship
    table.send({"type": "deliver", "ship": "P6", "wares": {"shell": 1}})
    table.reveal("P3")
    assert table.awaited == {"seat": BLUE, "kind": "draw_tile"}
    assert table.state.held[RED] == ["P6"]


def test_a_market_completing_when_the_ship_display_is_empty_gives_its_merchant_nothing():
    ships = {
        "format": 1,
        "ships": [
            {"id": name, "points": points, "demand": {"any": 1}}
            for name, points in [("P6", 6), ("P5", 5), ("P4", 4), ("P2", 2)]
        ],
    }
    table = Table(seats=3, display=("P6", "P5", "P4", "P2"), ships=ships)
    table.turn("SS/III", 0, -1, 180, spot="island:E,S,W")
    table.turn("SS/I.1", 1, -1, 270)
    table.turn("SS/I.1", -1, -1, 90)  # Green completes Red's island: 5 bananas
    deliveries = {3: "P6", 6: "P5", 9: "P4"}  # Red's next three turns: one ship each
    for n, (tile, x, y, rotation, spot) in enumerate(
        [
            ("SS/B.1", -1, 0, 90, None),
            ("SS/B.1", 1, 0, 90, None),
            ("SS/B.1", -2, 0, 90, None),
            ("SS/M", -1, 1, 0, "market"),  # Red's merchant
            ("SS/B.1", 2, 0, 90, None),
            ("SS/M", 1, 1, 0, "market"),  # Green's merchant
            ("SS/I.1", -2, 1, 270, None),
            ("SS/I.1", 2, 1, 90, None),
            ("SS/I.0", -2, 2, 180, None),
            ("SS/I.0", -1, 2, 180, None),
            ("SS/I.1", 0, 2, 180, None),
            ("SS/I.1", 1, 2, 180, None),
            ("SS/I.2", 2, 2, 180, None),
        ],
        start=3,
    ):
        table.turn(tile, x, y, rotation, spot)
        if table.awaited["kind"] == "deliver":
            ship = deliveries.get(n)
            table.send(
                {"type": "pass"}
                if ship is None
                else {"type": "deliver", "ship": ship, "wares": {"banana": 1}}
            )
    assert table.state.display == ["P2"] and table.state.ship_stack == []
    events = table.turn("SS/S", 0, 1)  # Blue surrounds both markets
    green_award, red_award = of_type(events, "ship_awarded")
    assert (green_award["seat"], green_award["ship"]) == (GREEN, "P2")  # clockwise from Blue
    assert (red_award["seat"], red_award["ship"], red_award["points"]) == (RED, None, 0)
    assert red_award["reason"] == "no face-up ship is left for this market's merchant"
    assert table.state.held[RED] == ["P6", "P5", "P4"] and table.state.supply[RED] == 4
    (ended,) = of_type(events, "game_ended")
    assert ended["because"] == "ships_exhausted"
    assert ended["ship_points"] == [6 + 5 + 4, 0, 2]


BOATS_BOTH_SIDES = {
    "id": "TEST/B.bb",
    "count": 1,
    "edges": "BSBS",
    "features": [
        {"kind": "bridge", "at": "N S", "shell": 1},
        {"kind": "sea", "at": "NR EL ER SL", "boat": 1},
        {"kind": "sea", "at": "SR WL WR NL", "boat": 1, "fish1": 1},
    ],
}


def boats_both_sides_table(counts: dict[str, int]) -> Table:
    tiles = tiles_with(counts)
    tiles["tiles"].append(BOATS_BOTH_SIDES)
    return Table(tiles=tiles)


def test_a_tile_with_fishing_boats_in_two_occupied_sea_regions_evaluates_both():
    table = boats_both_sides_table({"SS/B.1": 2, "SS/S": 1})
    table.turn("SS/B.1", 1, 0, 90, spot="sea:NL,NR,EL,WR")  # Red, north of the bridge
    table.turn("SS/B.1", -1, 0, 90, spot="sea:ER,SL,SR,WL")  # Blue, south of it
    south, north = evaluated(table.turn("TEST/B.bb", 2, 0, 90))  # in the tile's order
    assert (north["winners"], north["wares"], north["cover"]["group"]) == ([RED], 1, 1)
    assert (south["winners"], south["wares"], south["cover"]["group"]) == ([BLUE], 4, 2)
    assert north["boat"] != south["boat"] and table.state.boats == 17
    assert table.state.supply == [4, 4]


def test_two_fishing_boats_on_one_tile_in_one_sea_region_evaluate_it_once():
    table = boats_both_sides_table({"SS/MB": 1, "SS/S": 1})
    # The market tile's sea runs round its bridge's end and joins both sides of the start's
    # bridge; Red fishes there.
    table.turn("SS/MB", 1, 0, 90, spot=ALL_SEA)
    (sea,) = evaluated(table.turn("TEST/B.bb", -1, 0, 90))  # both boats in Red's region
    assert sea["trigger"] == "fishing_boat" and sea["winners"] == [RED]
    assert sea["wares"] == 3  # the start tile's two fish and the new tile's one
    assert table.state.boats == 18


def test_a_fishing_boat_in_an_occupied_sea_region_without_fish_gives_and_covers_nothing():
    table = Table()
    table.turn("SS/B.2", 1, 0, 90, spot="sea:NL,NR,EL,WR")  # no fish north of the bridge
    (sea,) = evaluated(table.turn("SS/B.b", -1, 0, 270))  # a boat north of the bridge
    assert (sea["trigger"], sea["wares"], sea["winners"]) == ("fishing_boat", 0, [RED])
    assert sea["cover"] is None
    assert sea["cover_reason"] == "no uncovered fish are left in this sea region"
    assert table.state.boats == 19 and table.state.supply[RED] == 4


def test_a_fishing_boat_that_completes_its_sea_region_evaluates_it_once_as_completed():
    tiles = tiles_with({"SS/IB>": 1, "SS/S": 1})
    tiles["tiles"].append(
        {"id": "TEST/IB<.b", "count": 1, "edges": "ISSB", "features": [
            {"kind": "island", "at": "N"}, {"kind": "bridge", "at": "W", "shell": 1},
            {"kind": "sea", "at": "WR", "boat": 1, "fish1": 1},
            {"kind": "sea", "at": "EL ER SL SR WL"}]}
    )  # fmt: skip
    table = Table(tiles=tiles)
    # Red fishes in the strip between the start tile's island and bridge, closed to the west.
    table.turn("SS/IB>", -1, 0, 0, spot="sea:EL")
    # Blue closes it to the east with a tile whose pocket there holds a boat and a fish.
    (sea,) = evaluated(table.turn("TEST/IB<.b", 1, 0))
    assert (sea["kind"], sea["trigger"], sea["complete"]) == ("sea", "completed", True)
    assert (sea["winners"], sea["wares"]) == ([RED], 1)
    assert "cover" not in sea and table.state.boats == 19


@pytest.mark.parametrize(("resigns", "reason"), [(1, "the game ended"), (0, "its seat resigned")])
def test_with_one_seat_left_a_drawn_tile_leaves_the_game_before_the_final_evaluation(
    resigns, reason
):
    """As in Carcassonne: the tile seat 0 drew is not placed, and no finished game
    shows a tile still in hand."""
    table = Table()
    table.draw("SS/S")
    events = table.send({"type": "resign"}, seat=resigns)
    assert [e.type for e in events][:2] == ["seat_resigned", "tile_set_aside"]
    assert events[1].data == {"seat": 0, "tile": "SS/S", "reason": reason}
    assert events[-1].type == "game_ended" and events[-1].data["winners"] == [1 - resigns]
    view = SOUTH_SEAS.view(table.state, None)
    assert (view["over"], view["tile"], view["set_aside"]) == (True, None, ["SS/S"])

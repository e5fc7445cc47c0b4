"""One test per rule of the base game (drawing, placing, followers, turns, options)."""

from __future__ import annotations

import random

import pytest

from service.rules.carcassonne import CARCASSONNE
from service.rules.core import IllegalMove, InvalidOptions
from tests.rules.carcassonne.table import Table, awaited, menu, waiting


class Scripted(random.Random):
    """An rng whose draws the test chooses: ``randrange`` returns the given indices."""

    def __init__(self, *picks: int) -> None:
        super().__init__(0)
        self.picks = list(picks)

    def randrange(self, *args: int) -> int:  # type: ignore[override]
        return self.picks.pop(0)


def illegal(table: Table, command: dict, seat: int | None = None) -> IllegalMove:
    with pytest.raises(IllegalMove) as caught:
        table.send(command, seat)
    assert caught.value.rule, "every refusal quotes the rule"
    return caught.value


def new_game(rng: random.Random, seats: int = 2, **options: object) -> list:
    return CARCASSONNE.setup(CARCASSONNE.normalize_options(options), seats, rng)


# -- setup and options ----------------------------------------------------------------------


def test_game_started_carries_the_options_seats_start_tile_and_stack():
    started = new_game(random.Random(1), seats=3, farmers=False)[0]
    assert started.type == "game_started"
    data = started.data
    assert data["options"] == {
        "farmers": False,
        "small_cities": False,
        "expansions": [],
        "flock_timing": "before_figure",
        "hill_tiebreak": "any",
        "wheel_board": None,
        "randomness": "internal",
    }
    assert data["seats"] == 3
    assert data["start"] == {"tile": "BA/RCr", "x": 0, "y": 0, "rotation": 0}
    assert sum(data["stack"].values()) == 71
    assert data["figures"] == {"follower": 7}


def test_options_default_to_farmers_on_small_cities_off_and_no_expansion():
    assert CARCASSONNE.normalize_options({}) == {
        "farmers": True,
        "small_cities": False,
        "expansions": [],
        "flock_timing": "before_figure",
        "hill_tiebreak": "any",
        "wheel_board": None,
        "randomness": "internal",
    }


@pytest.mark.parametrize("options", [{"farmers": "yes"}, {"randomness": "dice"}, {"river": True}])
def test_bad_options_are_refused(options):
    with pytest.raises(InvalidOptions):
        CARCASSONNE.normalize_options(options)


@pytest.mark.parametrize("seats", [1, 9])
def test_2_to_8_players(seats):
    with pytest.raises(InvalidOptions):
        new_game(random.Random(0), seats=seats)


def test_each_player_has_7_followers():
    state = CARCASSONNE.fold(new_game(random.Random(0), seats=8))
    assert state.supply == [{"follower": 7}] * 8


# -- drawing --------------------------------------------------------------------------------


def test_the_first_tile_is_drawn_at_setup_for_seat_0_from_the_rng():
    events = new_game(Scripted(0))
    assert events[1].type == "tile_drawn"
    assert events[1].data == {"seat": 0, "tile": "BA/LR"}  # index 0: the first A


def test_a_draw_is_uniform_over_the_remaining_multiset():
    # Index 70 is the last of the 71 tiles in the stack, the single X.
    assert new_game(Scripted(70))[1].data["tile"] == "BA/RRRR"
    # Index 6 follows the two A and four B: the single C.
    assert new_game(Scripted(6))[1].data["tile"] == "BA/Cccc+"


def test_a_tile_that_fits_nowhere_is_set_aside_and_another_is_drawn():
    table = Table()
    table.turn("E", 0, -1, 180)  # closes the only open city side
    events = table.draw("C")  # four city sides: fits nowhere now
    assert [e.type for e in events] == ["tile_drawn", "tile_set_aside"]
    assert table.state.set_aside == ["BA/Cccc+"]
    assert waiting(table.state) == [awaited("draw_tile", 1)]
    assert table.draw("U")[0].data == {"seat": 1, "tile": "BA/RFr"}


def test_internal_draws_set_aside_a_tile_that_fits_nowhere_and_draw_again():
    # Stack order: A A B B B B C D D D E...; index 10 is the first E.
    state = CARCASSONNE.fold(new_game(Scripted(10)))
    place = {"type": "place_tile", "x": 0, "y": -1, "rotation": 180}
    for event in CARCASSONNE.decide(state, 0, place, Scripted()):
        CARCASSONNE.evolve(state, event)
    # The next draws: C (which now fits nowhere), then the first A.
    events = CARCASSONNE.decide(state, 0, {"type": "skip"}, Scripted(6, 0))
    assert [(e.type, e.data.get("tile")) for e in events] == [
        ("turn_ended", None),
        ("tile_drawn", "BA/Cccc+"),
        ("tile_set_aside", "BA/Cccc+"),
        ("tile_drawn", "BA/LR"),
    ]


def test_external_draw_is_checked_against_the_stack():
    table = Table()
    assert illegal(table, {"type": "draw_tile", "tile": "Z"}).code == "unknown_tile"
    table.turn("C", 0, -1)  # the only C
    assert illegal(table, {"type": "draw_tile", "tile": "C"}).code == "tile_not_in_stack"
    assert table.draw("BA/Cc.1")[0].data["tile"] == "BA/Cc.1"  # ids work as well as letters


def test_internal_randomness_takes_no_draw_command():
    state = CARCASSONNE.fold(new_game(random.Random(3)))
    with pytest.raises(IllegalMove) as caught:
        CARCASSONNE.decide(state, 0, {"type": "draw_tile", "tile": "A"}, random.Random(0))
    assert caught.value.code == "unexpected_command"


# -- placing tiles -------------------------------------------------------------------------


def test_a_tile_must_touch_a_placed_tile_with_a_side():
    table = Table()
    table.draw("U")
    assert illegal(table, {"type": "place_tile", "x": 5, "y": 5, "rotation": 0}).code == (
        "no_neighbour"
    )
    # Touching only at a corner is not enough.
    assert illegal(table, {"type": "place_tile", "x": 1, "y": 1, "rotation": 0}).code == (
        "no_neighbour"
    )


def test_a_tile_goes_on_an_empty_space():
    table = Table()
    table.draw("U")
    assert illegal(table, {"type": "place_tile", "x": 0, "y": 0, "rotation": 0}).code == (
        "position_occupied"
    )


def test_every_touching_side_must_continue_its_neighbour():
    table = Table()
    table.draw("E")
    # A field side against the start tile's city.
    assert illegal(table, {"type": "place_tile", "x": 0, "y": -1, "rotation": 0}).code == (
        "tile_does_not_fit"
    )
    table.place(0, -1, 180)
    table.follow(None)
    table.turn("U", 1, 0)
    table.draw("U")
    # At (1,-1), turned 90, U's west field continues E's field but its southern road
    # would meet the field north of the road below.
    assert illegal(table, {"type": "place_tile", "x": 1, "y": -1, "rotation": 90}).code == (
        "tile_does_not_fit"
    )


@pytest.mark.parametrize("rotation", [45, "90", None, True, 360])
def test_rotations_are_quarter_turns_in_degrees(rotation):
    table = Table()
    table.draw("U")
    command = {"type": "place_tile", "x": 1, "y": 0, "rotation": rotation}
    assert illegal(table, command).code == "bad_rotation"


def test_coordinates_must_be_integers():
    table = Table()
    table.draw("U")
    command = {"type": "place_tile", "x": "1", "y": 0, "rotation": 0}
    assert illegal(table, command).code == "bad_command"


def test_rotation_is_clockwise_and_spots_are_named_in_the_board_frame():
    table = Table()
    table.draw("E")
    table.place(0, -1, 180)  # E's city (north when printed) now faces south
    spots = menu(table.state, 0)["place_follower"]["spots"]
    assert {"spot": "city:S", "kind": "city", "sides": ["S"]} in spots


# -- followers --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tile", "x", "y", "rotation", "spot", "kind"),
    [
        ("U", 1, 0, 0, "road:E,W", "road"),  # a robber
        ("C", 0, -1, 0, "city:N,E,S,W", "city"),  # a knight (the city stays open)
        ("A", -1, 0, 270, "cloister", "cloister"),  # a monk
        ("U", 1, 0, 0, "field:NL,NR,EL,WR", "field"),  # a farmer
    ],
)
def test_a_follower_is_a_robber_knight_monk_or_farmer_by_where_it_stands(
    tile, x, y, rotation, spot, kind
):
    """ "Robber, knight, monk, farmer": the follower takes the role of the feature it
    stands on, which scores it as that feature."""
    table = Table()
    table.draw(tile)
    table.place(x, y, rotation)
    spots = menu(table.state, 0)["place_follower"]["spots"]
    assert {"spot": spot, "kind": kind} in [{"spot": s["spot"], "kind": s["kind"]} for s in spots]
    table.follow(spot)
    feature = table.state.graph.feature(table.state.tile_node((x, y), spot))
    assert feature.kind.name == kind and [f.seat for f in feature.figures] == [0]


def test_a_follower_goes_only_on_the_tile_just_placed():
    table = Table()
    table.draw("U")
    table.place(1, 0)
    # The start tile's city is not on the tile just placed.
    assert illegal(table, {"type": "place_follower", "spot": "city:N"}).code == "unknown_spot"


def test_a_follower_may_not_join_an_occupied_feature_however_far_and_whoever_owns_it():
    table = Table()
    table.turn("U", 1, 0, 0, "road:E,W")
    table.turn("U", -1, 0)
    table.draw("U")
    table.place(2, 0)
    assert illegal(table, {"type": "place_follower", "spot": "road:E,W"}).code == (
        "feature_occupied"
    )
    assert table.follow("field:ER,SL,SR,WL")[0].type == "follower_placed"


def test_rulebook_example_a_robber_on_the_continued_road_leaves_the_field_and_the_cloister():
    """Big Box, "Placer un partisan": "Bleu peut uniquement placer un paysan dans le pré
    ou un moine dans l'abbaye puisqu'il y a déjà un voleur sur la route continuée"."""
    table = Table()
    table.turn("U", 1, 0, 0, "road:E,W")  # Red's robber
    table.draw("A")
    table.place(2, 0, 90)  # Blue's cloister continues the road
    spots = [s["spot"] for s in menu(table.state, 1)["place_follower"]["spots"]]
    assert spots == ["cloister", "field:NL,NR,EL,ER,SL,SR,WL,WR"]
    assert illegal(table, {"type": "place_follower", "spot": "road:W"}).code == ("feature_occupied")


def test_rulebook_example_a_knight_in_the_continued_city_leaves_the_road_and_the_fields():
    """Big Box, "Placer un partisan": Bleu "peut placer son partisan comme voleur ou comme
    paysan. Il ne peut le placer comme chevalier, car il y a déjà un chevalier dans la
    ville continuée"."""
    table = Table()
    table.turn("G", 0, -1, 90, "city:N,S")  # Red's knight
    table.draw("D")
    table.place(0, -2, 180)  # Blue's tile continues the city, with a road
    spots = [s["spot"] for s in menu(table.state, 1)["place_follower"]["spots"]]
    assert spots == ["road:E,W", "field:ER,WL", "field:NL,NR,EL,WR"]
    assert illegal(table, {"type": "place_follower", "spot": "city:S"}).code == ("feature_occupied")


def test_a_follower_comes_from_the_supply():
    red = 0
    table = Table()
    reds = [("B", 0, 1, 0, "cloister"), ("W", 1, 0, 0, "road:S"), ("W", 2, 0, 0, "road:S"),
            ("W", 3, 0, 0, "road:S"), ("W", 4, 0, 0, "road:S"), ("B", -1, 1, 0, "cloister"),
            ("B", -2, 1, 0, "cloister")]  # fmt: skip
    others = [(-1, 0), (-2, 0), (-3, 0), (-4, 0), (5, 0), (6, 0), (7, 0)]
    for mine, (x, y) in zip(reds, others, strict=True):
        table.turn(*mine)
        table.turn("U", x, y)
    assert table.state.supply[red]["follower"] == 0
    table.draw("A")
    table.place(8, 0, 90)
    assert menu(table.state, red)["place_follower"]["spots"] == []
    assert illegal(table, {"type": "place_follower", "spot": "cloister"}).code == (
        "no_followers_left"
    )


def test_without_farmers_no_follower_goes_in_a_field():
    table = Table(farmers=False)
    table.draw("U")
    table.place(1, 0)
    kinds = {s["kind"] for s in menu(table.state, 0)["place_follower"]["spots"]}
    assert kinds == {"road"}
    command = {"type": "place_follower", "spot": "field:NL,NR,EL,WR"}
    assert illegal(table, command).code == "farmers_disabled"


def test_farmers_stay_until_the_end():
    table = Table()
    table.turn("E", 0, -1, 180, "field:NL,NR,EL,ER,WL,WR")  # completes a city
    assert table.state.supply[0]["follower"] == 6
    field = [f for f in table.final() if f["kind"] == "field"][0]
    assert field["returned"] is False


def test_followers_come_back_after_scoring():
    table = Table()
    table.turn("U", 1, 0, 0, "road:E,W")
    assert table.state.supply[0]["follower"] == 6
    table.turn("U", -1, 0)
    table.turn("W", 2, 0)
    table.turn("W", -2, 0)  # closes the road: the robber comes back
    assert table.state.supply[0]["follower"] == 7


def test_one_follower_per_turn():
    table = Table()
    table.turn("U", 1, 0, 0, "road:E,W")
    assert waiting(table.state)[0] == awaited("draw_tile", 1)


# -- turns and errors ------------------------------------------------------------------------


def test_only_the_awaited_seat_may_act():
    table = Table()
    assert illegal(table, {"type": "draw_tile", "tile": "U"}, seat=1).code == "not_your_turn"


def test_commands_follow_the_order_of_a_turn():
    table = Table()
    assert illegal(table, {"type": "place_tile", "x": 1, "y": 0, "rotation": 0}).code == (
        "unexpected_command"
    )
    assert illegal(table, {"type": "dance"}).code == "unknown_command"


def test_scores_during_play_go_to_every_seat_in_the_majority():
    table = Table(seats=3)
    table.turn("R", 0, -1, 180, "city:E,S,W")
    table.turn("K", 1, 0, 0, "city:N")
    table.turn("E", -1, -1, 90)
    table.turn("N", 1, -1, 270)
    assert table.scores == [10, 10, 0]


# -- questions about a state ----------------------------------------------------------------


def test_awaiting_shapes():
    table = Table()
    assert waiting(table.state) == [awaited("draw_tile", 0)]
    table.draw("D")
    assert waiting(table.state) == [awaited("place_tile", 0, tile="BA/RCr")]
    table.place(1, 0, 0)
    assert waiting(table.state) == [
        awaited("place_follower", 0, ("place_follower", "skip"), x=1, y=0)
    ]


def test_legal_commands_group_the_spots_by_placement():
    table = Table()
    table.draw("E")
    options = menu(table.state, 0)["place_tile"]
    assert options["tile"] == "BA/C"
    placements = {(p["x"], p["y"], p["rotation"]): p["spots"] for p in options["placements"]}
    # Above the start tile only with the city south; below it with any field side north.
    assert set(placements) == {(0, -1, 180), (0, 1, 90), (0, 1, 180), (0, 1, 270)}
    assert [s["spot"] for s in placements[(0, -1, 180)]] == ["city:S", "field:NL,NR,EL,ER,WL,WR"]
    assert CARCASSONNE.legal_commands(table.state, 1) == {"seat": 1, "decisions": []}


def test_view_shows_the_public_state():
    table = Table()
    table.turn("U", 1, 0, 0, "road:E,W")
    view = CARCASSONNE.view(table.state, None)
    assert view["board"] == [
        {"x": 0, "y": 0, "tile": "BA/RCr", "rotation": 0},
        {"x": 1, "y": 0, "tile": "BA/RFr", "rotation": 0},
    ]
    assert view["followers"] == [
        {"seat": 0, "figure": "follower", "x": 1, "y": 0, "spot": "road:E,W", "kind": "road"}
    ]
    assert view["supply"] == [{"follower": 6}, {"follower": 7}]
    assert view["remaining"] == 70 and view["stack"]["BA/RFr"] == 7
    assert view["awaiting"] == CARCASSONNE.awaiting(table.state)
    assert waiting(table.state) == [awaited("draw_tile", 1)]
    assert view["over"] is False


def test_the_game_ends_after_the_last_tile_with_final_scoring():
    from service.rules.play import play_game

    events, state = play_game(CARCASSONNE, {}, 2, b"end", ["random", "random"])
    assert CARCASSONNE.is_over(state)
    assert events[-1].type == "game_ended"
    assert events[-1].data["scores"] == CARCASSONNE.result(state)["scores"]
    best = max(state.scores)
    assert events[-1].data["winners"] == [s for s, v in enumerate(state.scores) if v == best]
    with pytest.raises(IllegalMove) as caught:
        CARCASSONNE.decide(state, state.seat, {"type": "skip"}, random.Random(0))
    assert caught.value.code == "game_over"
    assert CARCASSONNE.awaiting(state) == []


def test_ties_share_the_victory():
    """Big Box rulebook line 334: "En cas d'égalité, les ex æquo se partagent la
    victoire": a whole game between random bots (its seed found by a search) that
    ends 15 to 15."""
    from service.rules.play import play_game

    events, state = play_game(CARCASSONNE, {}, 2, b"tie-14", ["random", "random"])
    ended = events[-1].data
    assert ended["scores"] == [15, 15] and ended["winners"] == [0, 1]
    assert CARCASSONNE.result(state)["winners"] == [0, 1]

"""Hills & Sheep (Big Box rulebook, "Moutons & Collines"): its tiles and tokens against
the reference (shared/reference/carcassonne.md §2.5) and every worked example of its
pages, built tile by tile.

The OCR'd rulebook lost its illustrations: each board is rebuilt from what the text
names (tiles, figures, points). Seat 0 is Red and plays first, seat 1 is Blue (the
examples follow Red). The start tile D lies at (0, 0), city north, road west-east.
Sheep and wolf tokens are sent as commands (external randomness), as the examples
name them.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from service.rules.carcassonne import CARCASSONNE
from service.rules.carcassonne.expansions.hills_sheep import TOKENS, hill_tiebreak
from service.rules.carcassonne.state import State
from service.rules.core import Event
from service.rules.play import play_game
from service.rules.tiling.features import Feature, Figure
from tests.rules.carcassonne.expansion_data import catalogue, tiles_of
from tests.rules.carcassonne.table import Table, menu, only, refused, scored, waiting

RED, BLUE = 0, 1

HILLS_SHEEP = {
    "HS/C!.v": (2, "CFFF"), "HS/CC!.v": (2, "CCFC"), "HS/Cc.h.1": (1, "CFFC"),
    "HS/CC.h.2": (1, "CFFC"), "HS/Cc.v": (1, "CFFC"), "HS/CFC.h": (1, "CFCF"),
    "HS/CFC.v": (1, "FCFC"), "HS/CFR.h": (1, "CFRF"), "HS/CRr.h": (1, "CRRF"),
    "HS/LCRr": (1, "CRRF"), "HS/LRrR": (1, "RRRF"), "HS/RCC.v": (1, "CFRC"),
    "HS/RFR.h": (1, "RFRF"), "HS/RR.h": (1, "FFRR"), "HS/RrC.h": (1, "CFRR"),
    "HS/RRr.v": (1, "FRRR"),
}  # fmt: skip


def test_hills_and_sheep_has_18_tiles_8_hills_8_vineyards_2_plain_cloisters():
    assert tiles_of("hills_sheep", "HS/") == HILLS_SHEEP
    tiles = [t for t in catalogue("hills_sheep").tiles if t.id.startswith("HS/")]

    def count(kind: str) -> int:
        return sum(t.count for t in tiles if any(s.kind.name == kind for s in t.segments))

    assert (sum(t.count for t in tiles), count("hill"), count("vineyard")) == (18, 8, 8)
    plain = [t.id for t in tiles if t.id.startswith("HS/L")]
    assert plain == ["HS/LCRr", "HS/LRrR"]


def test_18_tokens_4_one_sheep_5_two_5_three_2_four_2_wolves():
    assert TOKENS == {"1": 4, "2": 5, "3": 5, "4": 2, "wolf": 2}
    table = Table(expansions=["hills_sheep"])
    assert table.state.ext["hills_sheep"]["bag"] == TOKENS
    assert table.events[0].data["figures"]["shepherd"] == 1


def test_the_asymmetric_city_tile_has_two_cities_on_its_north_side():
    tile = catalogue("hills_sheep").get("HS/CC!.v")
    assert tile.spots[0][1:3] == ("city:N,W", "city:N,E")


# -- the tiles' particularities (lines 628-637) -------------------------------------------
# "Les prés entre ces deux villes ne sont pas reliés." (HS/CFC.v: a city on its west side
# and one on its east side, a field north and a field south of the vineyard between them)
# and "[...] séparent la route en deux routes distinctes." (HS/RFR.h: the hill cuts the
# road that runs from its north side to its south side in two).


def test_the_fields_between_the_two_cities_of_the_vineyard_tile_are_not_joined():
    """carcassonne-big-box.fr.md lines 632-635. HS/CFC.v goes south of D: its north
    field meets D's field south of the road and takes Red's farmer; a cloister laid to
    its south meets only its south field, which Blue may still take. Caps close both
    cities: the two fields stay two, each scoring both cities for its own farmer."""
    table = Table(expansions=["hills_sheep"])
    table.draw("HS/CFC.v")
    table.place(0, 1, 0)
    spots = [s["spot"] for s in menu(table.state, RED)["place_follower"]["spots"]]
    assert spots == ["city:W", "city:E", "field:NL,NR", "field:SL,SR"]  # two fields
    table.follow("field:NL,NR")  # Red's farmer, north of the vineyard
    graph, node = table.state.graph, table.state.tile_node

    def north_and_south() -> list[Feature]:
        return [graph.feature(node((0, 1), half)) for half in ("field:NL,NR", "field:SL,SR")]

    north, south = north_and_south()
    assert north is not south
    assert (north.tiles, south.tiles) == ({(0, 0), (0, 1)}, {(0, 1)})

    # A tile to the south: its field meets the south field only, free for Blue's farmer.
    table.draw("B")
    table.place(0, 2)
    whole = "field:NL,NR,EL,ER,SL,SR,WL,WR"
    assert whole in [s["spot"] for s in menu(table.state, BLUE)["place_follower"]["spots"]]
    table.follow(whole)
    north, south = north_and_south()
    assert north is not south
    assert (north.tiles, south.tiles) == ({(0, 0), (0, 1)}, {(0, 1), (0, 2)})
    assert [[f.seat for f in field.figures] for field in (north, south)] == [[RED], [BLUE]]

    table.turn("E", -1, 1, 90)  # closes the west city
    table.turn("E", 1, 1, 270)  # closes the east city
    fields = [f for f in table.final() if f["kind"] == "field"]
    assert sorted((f["tiles"], f["winners"], f["points"]) for f in fields) == [
        ([[0, 0], [0, 1]], [RED], 6),
        ([[0, 1], [0, 2]], [BLUE], 6),
    ]


def test_the_hill_separates_the_road_into_two_distinct_roads():
    """carcassonne-big-box.fr.md lines 634-637. HS/RFR.h turned a quarter east of D:
    its west road continues D's, its east road is another. Red's robber on the west one
    leaves the east one free for Blue; a cloister ends it (Blue 2), another ends D's
    road in the west (Red 3): two roads, each scored alone."""
    table = Table(expansions=["hills_sheep"])
    table.send({"type": "draw_tile", "tile": "HS/RFR.h", "under": "U"})
    table.place(1, 0, 90)
    spots = [s["spot"] for s in menu(table.state, RED)["place_follower"]["spots"]]
    assert spots == ["road:E", "road:W", "field:ER,SL,SR,WL", "field:NL,NR,EL,WR"]  # two roads
    table.follow("road:W")  # Red's robber on D's road
    graph, node = table.state.graph, table.state.tile_node
    west, east = graph.feature(node((1, 0), "road:W")), graph.feature(node((1, 0), "road:E"))
    assert west is not east
    assert (west.tiles, east.tiles) == ({(0, 0), (1, 0)}, {(1, 0)})

    table.draw("A")
    table.place(2, 0, 90)  # a cloister ends the east road
    assert "road:W" in [s["spot"] for s in menu(table.state, BLUE)["place_follower"]["spots"]]
    road = only(scored(table.follow("road:W")), kind="road")  # Blue's robber
    assert (road["tiles"], road["winners"], road["points"]) == ([[1, 0], [2, 0]], [BLUE], 2)
    assert not graph.feature(node((1, 0), "road:W")).complete  # Red's road is still open

    road = only(scored(table.turn("A", -1, 0, 270)), kind="road")  # ends D's road
    assert road["tiles"] == [[-1, 0], [0, 0], [1, 0]]
    assert (road["winners"], road["points"]) == ([RED], 3)
    assert table.scores == [3, 2]


# -- the tile that joins the two city parts (lines 639-642) --------------------------------
# "La tuile de droite relie les deux sections de ville précédemment distinctes de la tuile
# de gauche (créant une ville de 2 tuiles)." The left tile is HS/CC!.v, the only one with
# two city parts on one side (carcassonne-hills-and-sheep.fr.md lines 69-71).

LEFT = (1, -1)  # HS/CC!.v, rotation 90: its two city parts share its east side
RIGHT = (2, -1)  # E, rotation 270: one city cap facing west
TWO_PARTS = ["city:N,E", "city:E,S"]  # the left tile's parts, named in the board frame


@pytest.mark.parametrize("knight", TWO_PARTS)
def test_the_right_tile_joins_the_two_city_parts_of_the_left_tile_into_a_city_of_2_tiles(
    knight: str,
):
    """carcassonne-big-box.fr.md lines 639-642. E (city south) closes the start city at
    (0, -1) and gives the left tile a field to lie against; HS/CC!.v goes at (1, -1)
    with its split side east, and only its field touches another tile. The second player
    puts a knight on one of its two parts (each in turn); the first player's E at
    (2, -1) then joins both parts into one city of 2 tiles, which that knight holds."""
    table = Table(expansions=["hills_sheep"])
    table.turn("E", 0, -1, 180)  # completes D's city; nobody scores it
    table.draw("HS/CC!.v")
    table.place(*LEFT, 90)
    # Two separate city parts: each is its own spot, each a city of one tile.
    spots = [s["spot"] for s in menu(table.state, BLUE)["place_follower"]["spots"]]
    assert spots == [*TWO_PARTS, "field:WL,WR"]
    table.follow(knight)
    graph, node = table.state.graph, table.state.tile_node
    parts = [graph.feature(node(LEFT, spot)) for spot in TWO_PARTS]
    assert parts[0] is not parts[1]
    assert [p.tiles for p in parts] == [{LEFT}, {LEFT}]
    city = only([f for f in table.final() if f["kind"] == "city"])
    assert (city["tiles"], city["winners"], city["points"]) == ([[1, -1]], [BLUE], 1)

    # The right tile: its one city cap touches both parts.
    table.draw("E")
    table.place(*RIGHT, 270)
    spots = [s["spot"] for s in menu(table.state, RED)["place_follower"]["spots"]]
    assert spots == ["field:NL,NR,EL,ER,SL,SR"]  # the city already holds a knight
    table.follow(None)
    joined = graph.feature(node(RIGHT, "city:W"))
    assert all(graph.feature(node(LEFT, spot)) is joined for spot in TWO_PARTS)
    assert joined.tiles == {LEFT, RIGHT}  # "une ville de 2 tuiles"
    assert not joined.complete
    # Scored as it stands (unfinished, at the end): one city of 2 tiles, 1 point each.
    city = only([f for f in table.final() if f["kind"] == "city"])
    assert city["tiles"] == [[1, -1], [2, -1]]
    assert (city["winners"], city["points"], city["shields"]) == ([BLUE], 2, 0)


# -- the special case: two asymmetric city tiles side by side (lines 643-648) --------------
# "Cas particulier : Si ces deux tuiles sont placées ainsi, toutes les sections de ville
# sont reliées. (Ces tuiles ont été créées volontairement asymétriques.)" and
# carcassonne-hills-and-sheep.fr.md lines 70-71: "Cas particulier : si ces deux tuiles
# sont placées de cette façon, alors les deux sections de ville sont reliées entre elles."
# Both tiles are HS/CC!.v (the box has 2), their split sides together: turned a quarter
# left, the right tile's split side faces west, and its one-port part meets the left
# tile's two-port part, its two-port part both of the left tile's parts.

RIGHT_TWIN = (2, -1)  # the second HS/CC!.v, rotation 270: its split side west
TWIN_PARTS = ["city:N,W", "city:S,W"]  # its parts, named in the board frame


@pytest.mark.parametrize("knight", TWO_PARTS)
def test_two_asymmetric_city_tiles_split_side_to_split_side_join_all_four_city_parts(
    knight: str,
):
    """carcassonne-big-box.fr.md lines 643-648. The board of the example before, the
    right tile a second HS/CC!.v turned so that the split sides meet: all four city
    parts make one city of 2 tiles, which Blue's knight (on either left part) holds."""
    table = Table(expansions=["hills_sheep"])
    table.turn("E", 0, -1, 180)  # completes D's city; nobody scores it
    table.turn("HS/CC!.v", *LEFT, 90, knight)  # Blue's knight on one of the two parts
    graph, node = table.state.graph, table.state.tile_node
    assert graph.feature(node(LEFT, TWO_PARTS[0])) is not graph.feature(node(LEFT, TWO_PARTS[1]))

    table.draw("HS/CC!.v")
    table.place(*RIGHT_TWIN, 270)
    # Every city part of the right tile is in the knight's city: only its field is free.
    spots = [s["spot"] for s in menu(table.state, RED)["place_follower"]["spots"]]
    assert spots == ["field:EL,ER"]
    table.follow(None)
    city = graph.feature(node(LEFT, knight))
    parts = [(LEFT, spot) for spot in TWO_PARTS] + [(RIGHT_TWIN, spot) for spot in TWIN_PARTS]
    assert all(graph.feature(node(pos, spot)) is city for pos, spot in parts)
    assert city.tiles == {LEFT, RIGHT_TWIN}
    assert city.open == 4  # the four city sides facing north and south; the split sides met
    assert [f.seat for f in city.figures] == [BLUE]
    city = only([f for f in table.final() if f["kind"] == "city"])
    assert city["tiles"] == [[1, -1], [2, -1]]
    assert (city["winners"], city["points"]) == ([BLUE], 2)


# -- the tile whose field a hedge splits (lines 643-647) -------------------------------------
# "La tuile de droite relie les deux prés précédemment distincts de la tuile de gauche."
# "Cas particulier : Si ces deux tuiles sont placées ainsi, les deux villes ne sont pas
# reliées. Les prés, en haut et en bas, ne sont pas reliés non plus." HS/C!.v has a city
# on its north side and a hedge from it down to the south side's middle, with a field on
# either side (carcassonne-hills-and-sheep.fr.md line 72).

HEDGED = (0, -1)  # HS/C!.v turned 180: its city faces D's, its hedge side north
HEDGED_EAST, HEDGED_WEST = "field:NR,EL,ER", "field:NL,WL,WR"


def test_a_tile_laid_against_the_hedge_side_joins_its_two_fields():
    table = Table(expansions=["hills_sheep"])
    table.turn("HS/C!.v", *HEDGED, 180)
    graph, node = table.state.graph, table.state.tile_node
    assert graph.feature(node(HEDGED, HEDGED_EAST)) is not graph.feature(node(HEDGED, HEDGED_WEST))
    table.turn("B", 0, -2)  # a cloister in one field all round
    field = graph.feature(node((0, -2), "field:NL,NR,EL,ER,SL,SR,WL,WR"))
    assert graph.feature(node(HEDGED, HEDGED_EAST)) is field
    assert graph.feature(node(HEDGED, HEDGED_WEST)) is field


def test_two_hedge_sides_laid_together_keep_the_fields_on_either_side_apart():
    """The hedges meet in one line: the fields east of it join each other, and so do
    the fields west of it, but east and west stay two fields."""
    table = Table(expansions=["hills_sheep"])
    table.turn("HS/C!.v", *HEDGED, 180, HEDGED_EAST)  # Red's farmer east of the hedge
    table.turn("HS/C!.v", 0, -2)  # its hedge side south, against the first one's
    graph, node = table.state.graph, table.state.tile_node
    east, west = graph.feature(node(HEDGED, HEDGED_EAST)), graph.feature(node(HEDGED, HEDGED_WEST))
    assert east is not west
    assert graph.feature(node((0, -2), "field:EL,ER,SL")) is east
    assert graph.feature(node((0, -2), "field:SR,WL,WR")) is west
    assert east.tiles == west.tiles == {HEDGED, (0, -2)}
    # A straight road west of the pair: its east field meets only the west field, which
    # no farmer holds, so Red may put one there.
    table.draw("U")
    table.place(-1, -2, 90)
    spots = [s["spot"] for s in menu(table.state, RED)["place_follower"]["spots"]]
    assert "field:NR,EL,ER,SL" in spots


# -- hills ----------------------------------------------------------------------------------


def test_a_tile_drawn_blind_goes_under_each_hill():
    table = Table(expansions=["hills_sheep"])
    hill = {"type": "draw_tile", "tile": "HS/RrC.h"}
    assert refused(table, hill).code == "hidden_tile_required"
    events = table.send({**hill, "under": "U"})
    hidden = only([e.data for e in events if e.type == "tile_hidden"])
    assert re.fullmatch("[0-9a-f]{32}", hidden.pop("salt"))
    assert hidden == {"seat": RED, "tile": "BA/RFr", "under": "HS/RrC.h"}
    assert table.state.hidden == ["BA/RFr"]
    assert table.state.stack["BA/RFr"] == 7


def test_the_draw_menu_names_the_hills_whose_draw_names_the_tile_under_them():
    under = menu(Table(expansions=["hills_sheep"]).state, RED)["draw_tile"]["under"]
    assert "HS/RrC.h" in under and all(tile.endswith(".h") or ".h." in tile for tile in under)
    assert "under" not in menu(Table().state, RED)["draw_tile"]


def test_only_a_hill_takes_a_tile_under_it_and_only_one_left_to_draw():
    table = Table(expansions=["hills_sheep"])
    plain = refused(table, {"type": "draw_tile", "tile": "U", "under": "V"})
    assert plain.code == "nothing_under"
    hill = {"type": "draw_tile", "tile": "HS/RrC.h"}
    assert refused(table, {**hill, "under": "XX"}).code == "unknown_tile"
    itself = refused(table, {**hill, "under": "HS/RrC.h"})  # its one copy is the hill
    assert (itself.code, itself.message) == (
        "tile_not_in_stack",
        "no HS/RrC.h is left to put under HS/RrC.h",
    )


# -- the tile under a hill is nobody's to see ---------------------------------------------------


def redacted_log(events: list[Event], seat: int | None) -> list[Event]:
    """The log as ``seat`` receives it (what the service sends): redacted events keep
    their type and carry what ``redact`` leaves."""
    return [
        e if e.is_visible_to(seat) else Event(e.type, CARCASSONNE.redact(e, seat), e.visible_to)
        for e in events
    ]


def test_nobody_sees_the_tile_under_a_hill_not_even_the_seat_that_named_it():
    table = Table(expansions=["hills_sheep"])
    (event,) = [e for e in table.send(HILL) if e.type == "tile_hidden"]
    assert event.visible_to == ()
    for viewer in (RED, BLUE, None):
        assert CARCASSONNE.redact(event, viewer) == {"seat": RED, "tile": None, "under": HILL_ID}
    # The views show the public stack: the U under the hill is still among the tiles not
    # seen, and one tile is hidden; 71 + 18 - 1 (the start) - 1 (the hill) can be drawn.
    for viewer in (RED, BLUE, None):
        view = CARCASSONNE.view(table.state, viewer)
        assert (view["stack"]["BA/RFr"], view["hidden"], view["remaining"]) == (8, 1, 87)
    # A client folding the redacted log knows a tile left the stack, not which.
    for viewer in (RED, BLUE, None):
        client = CARCASSONNE.fold(redacted_log(table.events, viewer))
        assert (client.hidden, client.blind, client.stack["BA/RFr"]) == ([], 1, 8)
        assert CARCASSONNE.view(client, viewer) == CARCASSONNE.view(table.state, viewer)


def test_with_external_randomness_the_draw_menu_follows_the_true_stack():
    # The seats' clients name every tile, the one under a hill too, and the draws are
    # checked against the true stack: the awaited seat's menu cannot offer the tile under
    # the hill, so it says one U fewer than the public view (the documented trade-off).
    table = Table(expansions=["hills_sheep"])
    table.send(HILL)
    table.place(1, 0, 0)
    table.follow(None)
    assert menu(table.state, BLUE)["draw_tile"]["tiles"]["BA/RFr"] == 7
    assert CARCASSONNE.view(table.state, BLUE)["stack"]["BA/RFr"] == 8


HILL_ID = "HS/RrC.h"
HILL = {"type": "draw_tile", "tile": HILL_ID, "under": "U"}
VIEWERS = (0, 1, 2, None)


@pytest.mark.parametrize("seed", [b"hills-1", b"hills-2", b"hills-3"])
def test_a_client_folding_the_redacted_log_sees_what_the_server_shows_at_every_step(seed):
    """A random 3-seat game with the server's draws: after setup and every command, each
    seat's and a spectator's fold of the log as it receives it gives the view, awaited
    decisions, menu and result the server gives from its own fold; the tiles under the
    hills are named in no redacted event; and the server's draws come from the true stack
    only."""
    options = {"expansions": ["hills_sheep"]}
    clients: dict[int | None, State] = {}
    folded = {viewer: 0 for viewer in VIEWERS}
    start: dict[str, int] = {}

    def observe(state: State, events: list[Event]) -> None:
        if not start:
            start.update(events[0].data["stack"])
            clients.update({v: CARCASSONNE.initial_state() for v in VIEWERS})
        assert all(n >= 0 for n in state.stack.values())
        assert state.blind == 0 and sum(state.stack.values()) == state.remaining
        for viewer in VIEWERS:
            client = clients[viewer]
            for event in redacted_log(events[folded[viewer] :], viewer):
                if event.type == "tile_hidden":
                    assert event.data["tile"] is None and "salt" not in event.data
                CARCASSONNE.evolve(client, event)
            folded[viewer] = len(events)
            assert CARCASSONNE.view(client, viewer) == CARCASSONNE.view(state, viewer)
            assert CARCASSONNE.awaiting(client) == CARCASSONNE.awaiting(state)
            assert CARCASSONNE.result(client) == CARCASSONNE.result(state)
            for wait in CARCASSONNE.awaiting(state):
                if wait["seat"] == viewer:
                    menu = CARCASSONNE.legal_commands(state, viewer)
                    assert CARCASSONNE.legal_commands(client, viewer) == menu

    events, state = play_game(
        CARCASSONNE, options, 3, seed, ["random", "greedy", "random"], observe
    )
    hidden = [e.data["tile"] for e in events if e.type == "tile_hidden"]
    assert hidden and state.hidden == hidden and clients[None].blind == len(hidden)
    # Every tile was drawn or hidden exactly as often as the stack held it.
    drawn = Counter(e.data["tile"] for e in events if e.type == "tile_drawn")
    assert drawn + Counter(hidden) == Counter({t: n for t, n in start.items() if n})
    # The server's own fold of the whole log, and a second game from the same seed,
    # are the same game.
    assert CARCASSONNE.view(CARCASSONNE.fold(events), None) == CARCASSONNE.view(state, None)
    again, _ = play_game(CARCASSONNE, options, 3, seed, ["random", "greedy", "random"])
    assert again == events


def test_with_the_servers_draws_every_hill_but_the_last_tile_hides_one():
    events, _ = play_game(CARCASSONNE, {"expansions": ["hills_sheep"]}, 2, b"hills", ["random"] * 2)
    hills = {t.id for t in catalogue("hills_sheep").tiles if t.id.endswith(".h") or ".h." in t.id}
    for n, event in enumerate(events):
        if event.type == "tile_drawn" and event.data["tile"] in hills:
            following = events[n + 1].type
            last = not any(e.type == "tile_drawn" for e in events[n + 1 :])
            assert following == "tile_set_aside" or following == "tile_hidden" or last


def hill_city(table: Table) -> list:
    """Red's knight on a hill tile and Blue's knight, tied in a city of 4 tiles and a
    shield that Red's next tile completes (returns that turn's events)."""
    table.send({"type": "draw_tile", "tile": "HS/RrC.h", "under": "U"})
    table.place(1, 0, 0)
    table.follow("city:N")  # Red's knight, on the hill
    table.turn("N", 0, -1, 180, "city:E,S")  # Blue's knight
    return table.turn("M", 1, -1, 270)


def test_on_a_tie_the_follower_on_a_hill_wins_alone_red_scores_the_10_points():
    table = Table(expansions=["hills_sheep"])
    city = only(scored(hill_city(table)), kind="city")
    assert (len(city["tiles"]), city["shields"], city["points"]) == (4, 1, 10)
    assert sorted(f["seat"] for f in city["figures"]) == [RED, BLUE]
    assert city["winners"] == [RED]
    assert table.scores == [10, 0]


def test_without_a_hill_the_same_tie_scores_10_for_both():
    table = Table(expansions=["hills_sheep"])
    table.turn("K", 1, 0, 0, "city:N")  # the same tile without a hill
    table.turn("N", 0, -1, 180, "city:E,S")
    city = only(scored(table.turn("M", 1, -1, 270)), kind="city")
    assert (city["winners"], city["points"]) == ([RED, BLUE], 10)


def test_the_two_readings_of_the_hill_tie_break():
    # Both tied players have followers on hills: the rulebook ("any") keeps the tie;
    # the variant ("most") gives it to the one with more followers on hills.
    for reading, winners in (("any", [RED, BLUE]), ("most", [BLUE])):
        table = Table(expansions=["hills_sheep"], hill_tiebreak=reading)
        table.send({"type": "draw_tile", "tile": "HS/RrC.h", "under": "U"})
        table.place(1, 0, 0)
        table.follow(None)
        on_hill, plain = (1, 0), (0, 0)
        figures = [
            Figure(RED, "follower", 1, on_hill, "city:N"),
            Figure(RED, "follower", 1, plain, "city:N"),
            Figure(BLUE, "follower", 1, on_hill, "city:N"),
            Figure(BLUE, "follower", 1, on_hill, "city:N"),
        ]
        assert hill_tiebreak(table.state, figures, [RED, BLUE]) == winners


def test_at_the_end_a_farmer_on_a_hill_wins_a_tied_field_alone():
    # "Les mêmes règles s'appliquent aux évaluations en fin de partie (donc également pour
    # départager des égalités entre paysans)."
    table = Table(expansions=["hills_sheep"])
    table.send({"type": "draw_tile", "tile": "HS/RFR.h", "under": "U"})
    table.place(1, 0, 90)  # the hill ends the road
    table.follow("field:ER,SL,SR,WL")  # Red's farmer, south of the road, on the hill
    table.turn("U", -1, 0, 0, "field:NL,NR,EL,WR")  # Blue's farmer, north of the road
    table.turn("E", 0, -1, 180)  # the start tile's city is completed
    table.turn("A", 2, 0, 90)  # a cloister ends the road: both sides are one field
    field = only(table.final(), kind="field")
    assert sorted(f["seat"] for f in field["figures"]) == [RED, BLUE]
    assert (field["winners"], field["points"]) == ([RED], 3)


def hill_draw(table: Table, tile: str) -> None:
    table.send({"type": "draw_tile", "tile": tile, "under": "U"})


def three_hills_city(table: Table) -> list:
    """Red's big follower and Blue's two knights, each on a hill, in three cities that
    Red's last tile joins into one of 4 tiles: 2 against 2 (returns that turn's events)."""
    hill_draw(table, "HS/CFC.h")
    table.place(0, -1, 0)  # two cities; the south one closes the start tile's
    table.follow("city:N", figure="big_follower")  # Red: strength 2, one hill
    table.turn("B", -1, -1)
    table.turn("B", 1, -1)
    hill_draw(table, "HS/CFR.h")
    table.place(-1, -2, 90)
    table.follow("city:E")  # Blue's first knight, on a hill
    table.turn("U", 1, 0)
    hill_draw(table, "HS/CC.h.2")
    table.place(1, -2, 0)
    table.follow("city:W")  # Blue's second knight, on a hill
    return table.turn("R", 0, -2, 180)  # city west, south and east: the three meet


def test_a_big_follower_on_a_hill_ties_two_knights_and_the_hill_readings_decide():
    # A tie is one of strength, not of numbers (the interactions' note): Red's big
    # follower (2) ties Blue's two knights. Every tied player has a follower on a hill:
    # "any" keeps the tie; "most" gives it to Blue's two followers on hills against one.
    for reading, winners, scores in (("any", [RED, BLUE], [8, 8]), ("most", [BLUE], [0, 8])):
        table = Table(expansions=["inns_cathedrals", "hills_sheep"], hill_tiebreak=reading)
        city = only(scored(three_hills_city(table)), kind="city")
        assert (len(city["tiles"]), city["points"]) == (4, 8)
        weights = sorted((f["seat"], f["weight"]) for f in city["figures"])
        assert weights == [(RED, 2), (BLUE, 1), (BLUE, 1)]
        assert (city["winners"], table.scores) == (winners, scores)


# -- vineyards ------------------------------------------------------------------------------


def test_a_completed_cloister_scores_3_more_per_vineyard_red_scores_15():
    table = Table(expansions=["hills_sheep"])
    table.turn("B", 0, 1, 0, "cloister")  # Red's monk
    table.turn("U", -1, 0)
    table.turn("U", 1, 0)
    table.turn("HS/C!.v", -1, 1, 180)
    table.turn("HS/C!.v", 1, 1, 180)
    table.turn("E", -1, 2)
    table.turn("E", 1, 2)
    events = table.turn("B", 0, 2)  # the eighth neighbour
    cloister = only(scored(events), kind="cloister")
    assert (cloister["vineyards"], cloister["winners"], cloister["points"]) == (2, [RED], 15)
    assert cloister["reason"] == "completed cloister: 1 + 8 surrounding tiles + 3 x 2 vineyards"


def test_the_same_vineyard_scores_for_blues_cloister_when_he_completes_it_later():
    # "Si Bleu parvient à compléter son abbaye plus tard dans la partie, il marquera lui
    # aussi 3 points de plus pour le vignoble adjacent."
    table = Table(expansions=["hills_sheep"])
    table.turn("B", 0, 1, 0, "cloister")  # Red's monk
    table.turn("U", 1, 0)
    table.turn("U", -1, 0)
    table.turn("U", 2, 0)
    table.turn("HS/C!.v", 1, 1, 180)  # the vineyard between the two cloisters
    table.turn("B", 2, 1, 0, "cloister")  # Blue's monk
    table.turn("HS/C!.v", -1, 1, 180)
    table.turn("U", 3, 0)
    table.turn("E", -1, 2)
    table.turn("E", 1, 2)
    red = only(scored(table.turn("B", 0, 2)), kind="cloister")
    assert (red["vineyards"], red["winners"], red["points"]) == (2, [RED], 15)
    table.turn("B", 3, 1)
    table.turn("A", 2, 2)
    blue = only(scored(table.turn("E", 3, 2, 180)), kind="cloister")
    assert (blue["vineyards"], blue["winners"], blue["points"]) == (1, [BLUE], 12)
    assert table.scores == [15, 12]


def test_vineyards_give_nothing_to_an_unfinished_cloister_at_the_end():
    table = Table(expansions=["hills_sheep"])
    table.turn("B", 0, 1, 0, "cloister")
    table.turn("HS/C!.v", -1, 1, 180)
    cloister = only(table.final(), kind="cloister")
    assert (cloister["points"], "vineyards" in cloister) == (3, False)


# -- shepherds ------------------------------------------------------------------------------


def shared_field(table: Table) -> None:
    """Red's and Blue's shepherds with 8 sheep in 4 tokens, in fields about to meet."""
    table.turn("U", 1, 0, 0, "field:NL,NR,EL,WR", figure="shepherd")
    table.send({"type": "draw_sheep", "token": "2"})
    table.turn("U", -1, 0, 0, "field:ER,SL,SR,WL", figure="shepherd")
    table.send({"type": "draw_sheep", "token": "3"})
    table.draw("E")
    table.place(1, -1, 0)  # extends Red's field: Red tends his flock first
    table.send({"type": "tend_flock", "action": "grow"})
    table.send({"type": "draw_sheep", "token": "1"})
    table.follow(None)
    table.draw("B")
    table.place(0, 1, 0)  # extends Blue's field
    table.send({"type": "tend_flock", "action": "grow"})
    table.send({"type": "draw_sheep", "token": "2"})
    table.follow(None)
    table.draw("A")
    table.place(2, 0, 90)  # the road ends: the two fields are one, with 4 tokens


def test_shepherds_sharing_a_field_each_score_its_8_sheep_when_red_gathers():
    table = Table(expansions=["hills_sheep"])
    shared_field(table)
    assert CARCASSONNE.awaiting(table.state)[0]["decision"] == "tend_flock"
    events = table.send({"type": "tend_flock", "action": "gather"})
    flock = only([e.data for e in events if e.type == "flock_scored"])
    assert (flock["sheep"], sorted(flock["tokens"]), flock["winners"]) == (
        8,
        ["1", "2", "2", "3"],
        [RED, BLUE],
    )
    assert flock["points"] == 8 and table.scores == [8, 8]
    assert table.state.supply[RED]["shepherd"] == table.state.supply[BLUE]["shepherd"] == 1
    assert table.state.ext["hills_sheep"]["bag"] == TOKENS  # every token back in the bag


def test_had_red_grown_the_flock_a_wolf_would_have_left_both_with_nothing():
    table = Table(expansions=["hills_sheep"])
    shared_field(table)
    table.send({"type": "tend_flock", "action": "grow"})
    events = table.send({"type": "draw_sheep", "token": "wolf"})
    lost = only([e.data for e in events if e.type == "flock_lost"])
    assert sorted(s["seat"] for s in lost["shepherds"]) == [RED, BLUE]
    assert table.scores == [0, 0]
    after = {"bag": TOKENS, "flocks": {}, "due": None, "tending": None}
    assert table.state.ext["hills_sheep"] == after
    assert table.state.phase == "place_follower"  # the turn goes on


def test_a_token_drawn_is_named_as_the_bag_names_it():
    table = Table(expansions=["hills_sheep"])
    table.turn("U", 1, 0, 0, "field:NL,NR,EL,WR", figure="shepherd")
    wrong = refused(table, {"type": "draw_sheep", "token": 3})
    assert (wrong.code, wrong.message) == (
        "token_not_in_bag",
        'no token 3 is in the bag; it holds "1", "2", "3", "4", "wolf"',
    )


def test_a_shepherd_placed_on_a_wolf_goes_home():
    table = Table(expansions=["hills_sheep"])
    table.turn("U", 1, 0, 0, "field:NL,NR,EL,WR", figure="shepherd")
    events = table.send({"type": "draw_sheep", "token": "wolf"})
    assert [e.type for e in events][:2] == ["sheep_drawn", "flock_lost"]
    assert table.state.supply[RED]["shepherd"] == 1
    assert not [f for f in CARCASSONNE.view(table.state, None)["followers"]]


def test_a_shepherd_stands_beside_a_farmer_but_never_beside_another_shepherd():
    table = Table(expansions=["hills_sheep"])
    table.turn("U", 1, 0, 0, "field:NL,NR,EL,WR")  # Red's farmer
    table.turn("U", 2, 0, 0, "field:NL,NR,EL,WR", figure="shepherd")  # Blue's shepherd
    table.send({"type": "draw_sheep", "token": "3"})
    table.draw("U")
    table.place(3, 0, 0)
    other = {"type": "place_follower", "spot": "field:NL,NR,EL,WR", "figure": "shepherd"}
    assert refused(table, other).code == "field_has_shepherd"


def test_a_farmer_joins_a_field_held_by_a_shepherd():
    # "... mais pas par un autre berger, et vice versa": a shepherd is no farmer.
    table = Table(expansions=["hills_sheep"])
    table.turn("U", 1, 0, 0, "field:NL,NR,EL,WR", figure="shepherd")  # Red's shepherd
    table.send({"type": "draw_sheep", "token": "2"})
    events = table.turn("U", 2, 0, 0, "field:NL,NR,EL,WR")  # Blue's farmer beside it
    placed = only([e.data for e in events if e.type == "follower_placed"])
    assert (placed["seat"], placed["figure"]) == (BLUE, "follower")


def test_a_field_closed_all_round_gathers_at_once():
    table = Table(expansions=["hills_sheep", "inns_cathedrals"])
    table.turn("IC/CCCC", 0, -1, 0, "field:I", figure="shepherd")  # an inner field
    events = table.send({"type": "draw_sheep", "token": "3"})
    flock = only([e.data for e in events if e.type == "flock_scored"])
    assert (flock["winners"], flock["points"]) == ([RED], 3)
    assert flock["reason"] == "flock gathered, its field is closed: 1 point x 3 sheep"


# "Cas particulier : si vous refermez un pré occupé par des bergers et des moutons et que
# celui-ci se retrouve encerclé par des routes ou des remparts, réalisez immédiatement
# l'action Rentrer le troupeau à l'étable (vous pouvez tenter d'agrandir le troupeau avant
# de réaliser cette action obligatoire)" (carcassonne-hills-and-sheep.fr.md line 43, and
# note [3], line 114: "C'est à ce moment-là qu'a lieu l'évaluation des moutons").
# Four road curves (V) south of D, their roads making a ring: the corner fields inside it
# are one field, closed by roads when the fourth curve is laid.

INSIDE = "field:ER,SL"  # the first curve's corner field, inside the ring


def test_a_tile_closing_the_shepherds_field_lets_red_grow_the_flock_then_gathers_it_at_once():
    table = Table(expansions=["hills_sheep"])
    table.turn("V", 0, 1, 270, INSIDE, figure="shepherd")  # Red: road east and south
    table.send({"type": "draw_sheep", "token": "2"})
    table.turn("V", 1, 1, 0)  # Blue: road west and south
    table.draw("V")
    table.place(0, 2, 180)  # Red: road north and east; extends the field
    table.send({"type": "tend_flock", "action": "grow"})
    table.send({"type": "draw_sheep", "token": "1"})
    table.follow(None)
    table.turn("U", -1, 0)  # Blue plays elsewhere
    field = table.state.graph.feature(table.state.tile_node((0, 1), INSIDE))
    assert field.open > 0 and field.tiles == {(0, 1), (1, 1), (0, 2)}

    # Red's fourth curve closes the ring: Red may still try to grow the flock first.
    table.draw("V")
    table.place(1, 2, 90)
    field = table.state.graph.feature(table.state.tile_node((0, 1), INSIDE))
    assert (field.open, len(field.tiles)) == (0, 4)
    pending = only(waiting(table.state))
    assert (pending["decision"], pending["actions"]) == ("tend_flock", ["grow", "gather"])
    table.send({"type": "tend_flock", "action": "grow"})
    events = table.send({"type": "draw_sheep", "token": "3"})
    # The token joins the flock, which is gathered at once, before the figure step.
    assert [e.type for e in events] == ["sheep_drawn", "flock_scored", "flock_tended"]
    flock = only([e.data for e in events if e.type == "flock_scored"])
    assert flock["tiles"] == [[0, 1], [0, 2], [1, 1], [1, 2]]
    assert (flock["tokens"], flock["sheep"], flock["winners"], flock["points"]) == (
        ["2", "1", "3"],
        6,
        [RED],
        6,
    )
    assert flock["reason"] == "flock gathered, its field is closed: 1 point x 6 sheep"
    assert table.scores == [6, 0]
    assert table.state.supply[RED]["shepherd"] == 1  # home already
    assert table.state.ext["hills_sheep"]["bag"] == TOKENS  # every token back in the bag
    assert only(waiting(table.state))["decision"] == "place_follower"  # the turn goes on


def test_shepherds_score_nothing_at_the_end():
    table = Table(expansions=["hills_sheep"])
    table.turn("U", 1, 0, 0, "field:NL,NR,EL,WR", figure="shepherd")
    table.send({"type": "draw_sheep", "token": "4"})
    assert table.final() == []


# -- with the River ---------------------------------------------------------------------------


def test_sheep_painted_on_river_meadows_count_when_the_flock_is_gathered():
    table = Table(expansions=["river", "hills_sheep"])
    table.draw("RI.1/CcII")
    table.place(1, 0, 90)  # the river bends south; 3 sheep are painted south-west of it
    table.follow("field:SR,WL", figure="shepherd")
    table.send({"type": "draw_sheep", "token": "2"})
    table.turn("RI.1/IFI", 1, 1, 90)  # Red extends the meadow: nothing to tend
    table.draw("RI.1/II")
    table.place(1, 2, 180)  # Blue extends it
    events = table.send({"type": "tend_flock", "action": "gather"})
    flock = only([e.data for e in events if e.type == "flock_scored"])
    assert (flock["tokens"], flock["painted"], flock["points"]) == (["2"], 3, 5)
    field = table.state.graph.feature(table.state.tile_node((1, 0), "field:SR,WL"))
    assert field.attrs["sheep"] == 3  # painted sheep stay for the next flock


def test_a_river_tile_shows_a_painted_vineyard_which_the_vineyard_rule_counts():
    river = catalogue("river")
    assert [t.id for t in river.tiles if any(s.kind.name == "vineyard" for s in t.segments)] == [
        "RI.1/RrII"
    ]


def test_with_the_later_rulebooks_reading_the_flock_is_tended_after_the_figure():
    table = Table(expansions=["hills_sheep"], flock_timing="after_figure")
    table.turn("U", 1, 0, 0, "field:NL,NR,EL,WR", figure="shepherd")
    table.send({"type": "draw_sheep", "token": "2"})
    table.turn("B", 0, 1)
    table.draw("E")
    table.place(1, -1, 0)  # extends Red's field: the figure step comes first
    assert CARCASSONNE.awaiting(table.state)[0]["decision"] == "place_follower"
    table.follow("city:N")
    assert CARCASSONNE.awaiting(table.state)[0]["decision"] == "tend_flock"
    events = table.send({"type": "tend_flock", "action": "gather"})
    assert [e.type for e in events][:3] == ["flock_scored", "flock_tended", "turn_ended"]
    assert table.scores == [2, 0]


def test_a_follower_put_on_a_crown_space_does_not_spare_tending_the_flock():
    """With the later rulebooks' reading, the flock is tended after the figure step, and
    it must be ("vous devez choisir"): a follower put on the Wheel of Fortune's crown is
    that step's figure, as one put on the tile would be."""
    table = Table(expansions=["hills_sheep", "wheel_of_fortune"], flock_timing="after_figure")
    table.draw("U")
    table.place(0, -1, 0)
    (shepherd,) = [
        spot["spot"]
        for spot in menu(table.state, 0)["place_follower"]["figures"]["shepherd"]
        if "NL" in spot["spot"]
    ]
    table.follow(shepherd, "shepherd")
    table.send({"type": "draw_sheep", "token": "3"})
    table.turn("B", 3, -1, 0)
    table.draw("U")
    table.place(-1, -1, 0)  # extends Red's field
    crown = menu(table.state, 0)["place_on_wheel"][0]
    events = table.send({"type": "place_on_wheel", **crown})
    assert [e.type for e in events] == ["crown_taken", "flock_to_tend"]
    assert CARCASSONNE.awaiting(table.state)[0]["decision"] == "tend_flock"
    events = table.send({"type": "tend_flock", "action": "gather"})
    assert [e.type for e in events][:3] == ["flock_scored", "flock_tended", "turn_ended"]


def test_a_flock_tended_after_the_figure_in_a_field_its_tile_closed_ends_only_once():
    """Found by the property tests: a flock gathered (or lost, or grown) when tended
    after the figure, in a field the turn's tile closed, was gathered again by the end
    of the turn, scoring twice and giving its shepherd back twice."""
    options = {
        "expansions": ["river", "traders_builders", "hills_sheep", "wheel_of_fortune"],
        "small_cities": True,
        "flock_timing": "after_figure",
        "hill_tiebreak": "most",
    }
    events, state = play_game(CARCASSONNE, options, 5, b"436", ["random"] * 5)
    ended: list[tuple[int, int, str]] = []
    for event in events:
        if event.type == "turn_ended":
            ended = []
        elif event.type in ("flock_scored", "flock_lost"):
            for s in event.data["shepherds"]:
                assert (s["x"], s["y"], s["spot"]) not in ended
                ended.append((s["x"], s["y"], s["spot"]))
    assert all(supply["shepherd"] <= 1 for supply in state.supply)

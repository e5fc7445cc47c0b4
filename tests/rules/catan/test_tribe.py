"""Catan Seafarers scenario 5, The Forgotten Tribe ("Les bons voisins", rulebook
lines 394-455): one test per rule, position by position.

The tests play the file's map (``layout="beginner"``) for 3 seats in external-randomness
mode through :class:`~tests.rules.catan.test_seafarers.SeaTable`: resources come only
from rolled production. The part of the map they use (terrain, number)::

    main island, south-west:  -1,0 hills 4   0,0 fields 8   1,0 forest 5
                              1,-1 pasture 6   -1,-1 forest 4
    sea between:              -2,1  -1,1  0,1  1,1
    south-west small island:  -2,2 desert   -1,2 hills (no number)
    gifts there:              -2,2,NE chit   -2,1,SE development card
                              -1,1,SE generic harbour marker
    the robber on the desert 4,-4 (north small island); the pirate on the sea 3,-4

Seat 0 opens at 1,-1,S (pasture 6, fields 8, forest 5) and, second, at the coastal
-1,1,N (hills 4, fields 8), where it takes a ship instead of a road, toward -1,0,S; its
ships sail on to -2,2,N, the small island's northern tip, where the chit and the
development card lie.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

from service.rules.catan import scenarios
from service.rules.catan.game import CATAN
from service.rules.catan.scenarios import from_jsettlers_edge, from_jsettlers_port
from service.rules.catan.tribe import CHIT, DEVELOPMENT
from service.rules.hexes.geometry import edge_hexes, parse_edge, parse_hex
from service.rules.play import play_game
from tests.rules.catan.table import corner, drawn, only, path, types, written
from tests.rules.catan.test_catan_properties import assert_every_reader_folds_its_own_view
from tests.rules.catan.test_seafarers import SeaTable
from tests.rules.catan.test_seafarers_properties import SeaWatch

FILE = "5-the-forgotten-tribe.json"
SHIP = {"wool": 1, "lumber": 1}

#: the 3-seat opening in snake order; seat 0's second settlement takes a ship
OPENING = (
    ("1,-1,S", corner("1,0", "N")),  # seat 0: pasture 6, fields 8, forest 5
    ("3,-2,S", corner("3,-1", "N")),  # seat 1
    ("-1,-1,N", corner("-1,-1", "NE")),  # seat 2
    ("2,-1,S", corner("2,0", "N")),  # seat 2, second
    ("4,-2,N", corner("4,-2", "NE")),  # seat 1, second
)
#: seat 0's second settlement: hills 4, fields 8 and the sea hex -1,1 (its two coast
#: paths both lie on that sea hex, so it can take one harbour)
COAST = "-1,1,N"
WEST = "-1,0,S"  # where seat 0's set-up ship leads: hills 4 and the sea hexes -2,1, -1,1
TIP = "-2,2,N"  # the south-west small island's northern tip
CHIT_PATH = path(TIP, "-1,1,S")  # -2,2,NE
CARD_PATH = path(TIP, "-2,1,S")  # -2,1,SE
MARKER_PATH = path("-1,1,S", "-1,2,N")  # -1,1,SE: the generic harbour marker


def tribe(**options: Any) -> SeaTable:
    """Three seats after the opening, seat 0 to roll, its ship from -1,1,N to -1,0,S."""
    table = SeaTable(3, scenario=5, **options)
    for settlement, toward in OPENING:
        table.place(settlement, toward)
    table.settle(COAST)
    table.ship(COAST, WEST)
    assert table.awaited() == [(0, "roll")]
    return table


def sail(table: SeaTable, *corners: str, **extra: Any) -> list:
    """Seat 0's ships along consecutive intersections, each paid for by production."""
    events = []
    for a, b in zip(corners, corners[1:], strict=False):
        table.gather(0, **SHIP)
        events += table.ship(a, b, 0, **extra)
    return events


def gifts(table: SeaTable) -> dict[str, str]:
    return {g["edge"]: g["gift"] for g in table.view()["tribe"]["gifts"]}


# -- the map and its components ---------------------------------------------------------


def test_the_map_has_the_rulebooks_components_and_extra_material():
    """Lines 402-409: 19 sea, 3 deserts, 2 gold fields, 5 of each other terrain (49
    hexes); 18 numbers; 5 special harbours and 1 generic; 4 development cards and 8
    Catan chits."""
    s = scenarios.from_json(scenarios.raw(FILE))
    counts = s.counts()
    assert counts["terrains"] == {
        "sea": 19,
        "desert": 3,
        "gold": 2,
        "fields": 5,
        "hills": 5,
        "mountains": 5,
        "pasture": 5,
        "forest": 5,
    }
    assert counts["numbers"] == {2: 1, 3: 2, 4: 2, 5: 2, 6: 2, 8: 2, 9: 2, 10: 2, 11: 2, 12: 1}
    assert set(s.hexes) == set(scenarios.FRAMES[49])
    lying = Counter(gifts(tribe()).values())
    assert lying == {
        CHIT: 8,
        DEVELOPMENT: 4,
        "generic": 1,
        "brick": 1,
        "lumber": 1,
        "wool": 1,
        "grain": 1,
        "ore": 1,
    }


def test_the_gifts_lie_on_coast_paths_of_the_small_islands_a_ship_can_reach():
    """Lines 417-419: each gift on its own coast path of a small island, on the island
    JSettlers puts it on (its side facing the frame, where no ship goes here, is moved
    to the nearest path a ship can take: see the file's sources)."""
    doc = scenarios.raw(FILE)
    layout = tribe().state.layout
    js = doc["jsettlers"]
    origins = [from_jsettlers_edge(int(e, 16)) for e in js["svp_edges"] + js["dev_card_edges"]]
    origins += [from_jsettlers_port(int(e, 16), f)[1] for e, f in js["gift_ports"]]
    small = {parse_hex(h) for h in doc["unnumbered"]}
    placed = [parse_edge(g["edge"]) for g in doc["tribe"]["gifts"]]
    assert len(set(placed)) == len(placed) == 18
    for edge, origin in zip(placed, origins, strict=True):
        assert layout.ship_edge[layout.grid.edge_index[edge]]
        (land,) = [h for h in edge_hexes(edge) if h in small]
        (was,) = [h for h in edge_hexes(origin) if h in small]
        assert layout.island_of[land] == layout.island_of[was]


def test_the_small_islands_carry_no_number_and_produce_nothing():
    """Line 415: "Ne placez pas de jeton numéroté sur les petites îles"; line 425: "ces
    petites îles ne produisent pas de ressources"."""
    table = tribe()
    small = set(scenarios.raw(FILE)["unnumbered"])
    tiles = {t["hex"]: t for t in table.view()["board"]["hexes"]}
    assert {h for h, t in tiles.items() if t["terrain"] != "sea" and t["number"] is None} == small
    assert all(tiles[h]["terrain"] != "desert" or h in small for h in tiles)
    producing = {h for hexes in table.state.layout.producing.values() for h, _, _ in hexes}
    assert not producing & {parse_hex(h) for h in small}


# -- settlements -------------------------------------------------------------------------


def test_the_start_settlements_go_on_the_big_island():
    """Line 425: the set-up settlements go on the big central island."""
    table = SeaTable(3, scenario=5)
    code = table.refused({"type": "build_settlement", "corner": TIP})
    assert code == "settlement_on_small_island"


def test_a_coastal_start_settlement_may_take_a_ship_instead_of_its_road():
    """Line 425: "il peut placer un bateau plutôt qu'une route"."""
    table = tribe()
    assert (path(COAST, WEST), 0) in table.ships()
    assert table.view()["players"][0]["pieces"]["road"] == 14


def test_no_settlement_is_built_on_the_small_islands():
    """Line 425: "Il n'est pas possible de construire une colonie sur les petites îles"."""
    table = tribe()
    sail(table, WEST, TIP, "-2,1,S", card="knight")
    table.gather(0, brick=1, lumber=1, wool=1, grain=1)
    code = table.refused({"type": "build_settlement", "corner": "-2,1,S"})
    assert code == "settlement_on_small_island"
    assert "build_settlement" not in table.menu(0, "turn")


# -- the robber and the pirate -----------------------------------------------------------


def test_the_robber_starts_on_a_random_desert_and_the_pirate_on_the_marked_sea():
    """Line 429: the robber on "une tuile Désert aléatoire", the pirate on the sea
    marked with a white X (JSettlers' FOR_TRI_PIRATE_HEX 0x0309, here 3,-4)."""
    starts = Counter()
    for seed in range(30):
        dealt = scenarios.deal(5, 3, random.Random(seed), shuffle=True)["board"]
        tiles = {t["hex"]: t["terrain"] for t in dealt["hexes"]}
        assert tiles[dealt["robber"]] == "desert"
        assert dealt["pirate"] == "3,-4" and tiles["3,-4"] == "sea"
        starts[dealt["robber"]] += 1
    assert set(starts) == {"4,-4", "2,2", "-2,2"}  # each of the three deserts


def seven(table: SeaTable) -> None:
    """Seat 0 rolls a 7 in its next turn (nobody holds more than 7 cards)."""
    if table.view()["rolled"]:
        table.end_turn()
    while table.current != 0:
        table.roll(table.idle_total())
        table.end_turn()
    table.roll(7)
    assert table.awaited() == [(0, "move_robber")]


def test_the_robber_never_goes_onto_the_small_islands():
    """Line 429: "Les voleurs ne peuvent pas être déplacés sur les petites îles"."""
    table = tribe()
    seven(table)
    assert table.refused({"type": "move_robber", "hex": "2,2"}) == "robber_on_small_island"
    offered = {spot["hex"] for spot in table.menu(0)["move_robber"]["hexes"]}
    main = {parse_hex(h) for h in scenarios.raw(FILE)["areas"][0]["hexes"]}
    assert {parse_hex(h) for h in offered} == main


def test_the_robber_never_returns_to_its_starting_desert():
    """Line 429: "Une fois que les voleurs ont quitté la tuile Désert de départ, ils ne
    peuvent plus y retourner"."""
    table = tribe()
    assert table.view()["robber"] == "4,-4"
    seven(table)
    table.send({"type": "move_robber", "hex": "4,-1"})  # nobody to rob there
    seven(table)
    assert table.refused({"type": "move_robber", "hex": "4,-4"}) == "robber_back_to_desert"
    assert "4,-4" not in {spot["hex"] for spot in table.menu(0)["move_robber"]["hexes"]}


def test_on_a_seven_the_pirate_may_move_instead():
    """Line 429: "les voleurs ou les pirates peuvent être déplacés"."""
    table = tribe()
    seven(table)
    events = table.send({"type": "move_pirate", "hex": "0,1"})
    assert types(events) == ["pirate_moved"] and table.view()["pirate"] == "0,1"


# -- the chits ---------------------------------------------------------------------------


def test_a_ship_built_on_a_chit_path_takes_the_chit_worth_one_point():
    """Line 433: each chit is 1 victory point, taken by building a ship on its path."""
    table = tribe()
    before = table.points(0)
    events = sail(table, WEST, TIP, "-1,1,S")
    assert types(events) == ["ship_built", "ship_built", "gift_taken"]
    assert only(events, "gift_taken").data == {"seat": 0, "edge": CHIT_PATH, "gift": CHIT}
    assert table.points(0) == before + 1
    assert table.view()["tribe"]["chits"] == [1, 0, 0]
    assert CHIT_PATH not in gifts(table)


def test_a_chit_taken_is_gone_for_good():
    """Line 435: "Une fois le jeton récupéré, il n'est plus disponible": a ship built on
    its path again takes nothing."""
    table = moved_onto_the_card_path()
    events = sail(table, TIP, "-1,1,S")  # the chit path, empty since the chit was taken
    assert types(events) == ["ship_built"]
    assert table.view()["tribe"]["chits"] == [1, 0, 0]


def test_a_chit_counts_as_its_own_source_of_points_and_can_win():
    """Line 451: the game ends when a seat reaches the target during its turn; the chit
    shows as its own source in the final count."""
    table = tribe(victory_points=3)  # seat 0 holds 2 settlements: one chit wins
    sail(table, WEST, TIP)
    events = sail(table, TIP, "-1,1,S")
    assert types(events) == ["ship_built", "gift_taken", "game_ended"]
    (final,) = [p for p in events[-1].data["points"] if p["seat"] == 0]
    assert final["sources"]["chits"] == 1 and final["total"] == 3


# -- moving a ship -----------------------------------------------------------------------


def moved_onto_the_card_path() -> SeaTable:
    """Seat 0 took the chit with a ship, then, a turn later, moved that ship onto the
    development card's path."""
    table = tribe()
    sail(table, WEST, TIP, "-1,1,S")
    table.next_turn(0)
    events = table.move((TIP, "-1,1,S"), (TIP, "-2,1,S"))
    assert types(events) == ["ship_moved"]
    return table


def test_a_ship_moved_onto_a_gift_path_takes_nothing():
    """Lines 433, 443, 447 say "construire un bateau": only a ship built there takes
    the gift (the official reading); the card stays under the moved ship."""
    table = moved_onto_the_card_path()
    assert gifts(table)[CARD_PATH] == DEVELOPMENT
    assert table.view()["players"][0]["development_cards"] == 0


def test_a_free_ship_of_road_building_takes_the_gift():
    """Road Building builds its ships: one on a gift path takes the gift."""
    table = tribe()
    sail(table, WEST, TIP)
    sail(table, TIP, "-2,1,S", card="road_building")
    table.next_turn(0)
    table.send({"type": "play_road_building"}, 0)
    events = table.ship(TIP, "-1,1,S", 0)
    assert types(events) == ["ship_built", "gift_taken"]
    assert only(events, "gift_taken").data["gift"] == CHIT
    assert table.awaited() == [(0, "free_roads")]


# -- the development cards ---------------------------------------------------------------


def test_the_four_development_cards_are_set_aside_from_the_deck():
    """Line 419: the top 4 cards of the deck go on the paths: 21 are left for sale."""
    assert tribe().view()["development_deck"] == 25 - 4


def test_a_ship_built_on_a_card_path_takes_the_card_as_if_bought():
    """Line 443: the card is the seat's as if bought: not played the turn it is taken,
    and as secret as a bought card."""
    table = tribe()
    sail(table, WEST, TIP)
    table.gather(0, **SHIP)
    assert table.refused({"type": "build_ship", "edge": CARD_PATH}) == "card_not_in_deck"
    events = table.ship(TIP, "-2,1,S", 0, card="knight")
    gift = only(events, "gift_taken")
    data = dict(gift.data)
    assert re.fullmatch("[0-9a-f]{32}", data.pop("salt"))  # guards the published hash
    assert data == {"seat": 0, "edge": CARD_PATH, "gift": DEVELOPMENT, "card": "knight"}
    assert gift.visible_to == (0,)
    for reader in (None, 1, 2):
        (seen,) = [e for e in CATAN.seat_log(table.events, reader) if e.type == "gift_taken"]
        assert seen.data == {"seat": 0, "edge": CARD_PATH, "gift": DEVELOPMENT}
    assert table.view(0)["players"][0]["development_new"] == {"knight": 1}
    assert table.view(1)["players"][0]["development_cards"] == 1
    assert table.refused({"type": "play_knight"}, 0) == "card_bought_this_turn"
    assert table.view()["development_deck"] == 21  # the card was set aside, not sold
    table.end_turn()
    while table.current != 0:
        table.roll(table.idle_total())
        table.end_turn()
    assert "play_knight" in table.menu(0, "roll")


def test_a_victory_point_card_taken_counts_at_once_and_stays_hidden():
    """Line 443: "on découvre les cartes donnant des points de victoire uniquement
    lorsque l'on gagne la partie"."""
    table = tribe()
    public = table.points(0)
    sail(table, WEST, TIP)
    sail(table, TIP, "-2,1,S", card="victory_point")
    assert table.points(0) == public
    assert table.view(0)["players"][0]["total_points"] == public + 1
    assert "total_points" not in table.view(1)["players"][0]


# -- the harbour markers -----------------------------------------------------------------


def with_the_generic_marker() -> SeaTable:
    """Seat 0 took the chit and then the generic harbour marker."""
    table = tribe()
    events = sail(table, WEST, TIP, "-1,1,S", "-1,2,N")
    assert only(events[-2:], "gift_taken").data["edge"] == MARKER_PATH
    return table


def test_a_harbour_marker_taken_is_placed_beside_one_of_the_seats_settlements():
    """Line 447: "Le port doit être placé le long de la côte de manière à ce que l'une
    de ses extrémités touche à l'une des colonies du joueur"."""
    table = with_the_generic_marker()
    assert table.awaited() == [(0, "place_harbour")]
    menu = table.menu(0, "place_harbour")["place_harbour"]
    assert menu["harbour"] == "generic"
    assert set(menu["edges"]) == {path(COAST, WEST), path(COAST, "0,0,S")}
    code = table.refused({"type": "place_harbour", "edge": path("1,0,S", "0,1,N")})
    assert code == "harbour_not_beside_settlement"
    code = table.refused({"type": "place_harbour", "edge": path(COAST, "0,-1,S")})
    assert code == "harbour_not_on_coast"  # between two land hexes


def test_a_placed_harbour_works_at_once():
    """Line 447: "Un joueur qui place un marqueur Port peut bénéficier de ses avantages
    immédiatement"."""
    table = with_the_generic_marker()
    events = table.send({"type": "place_harbour", "edge": path(COAST, "0,0,S")})
    assert only(events, "harbour_marker_placed").data == {
        "seat": 0,
        "edge": path(COAST, "0,0,S"),
        "type": "generic",
    }
    assert table.awaited() == [(0, "turn")]
    (harbour,) = table.view()["board"]["harbours"]
    assert harbour["type"] == "generic" and sorted(harbour["corners"]) == [COAST, "0,0,S"]
    assert table.state.rates[0] == [3, 3, 3, 3, 3]
    assert table.view()["tribe"]["harbours_held"] == [[], [], []]


def lumber_marker_taken() -> SeaTable:
    """Seat 0 placed the generic harbour at -1,1,N, then sailed on round the island to
    take the lumber marker (1,2,NE)."""
    table = with_the_generic_marker()
    table.send({"type": "place_harbour", "edge": path(COAST, WEST)})
    sail(table, "-1,2,N", "0,1,S", "0,2,N", "1,1,S", "1,2,N")
    events = sail(table, "1,2,N", "2,1,S")
    assert only(events, "gift_taken").data["gift"] == "lumber"
    return table


def test_a_marker_without_a_place_is_kept():
    """Line 447: "Si le joueur n'a pas de colonie sur la côte, il peut conserver ce jeton
    pour plus tard": seat 0's only coastal settlement has its two coast paths on the
    sea hex -1,1, which holds the generic harbour already."""
    table = lumber_marker_taken()
    assert table.awaited() == [(0, "turn")]
    assert table.view()["tribe"]["harbours_held"] == [["lumber"], [], []]


def settled_on_the_coast() -> SeaTable:
    """Seat 0, holding the lumber marker, builds a settlement on the coast at 1,0,S."""
    table = lumber_marker_taken()
    table.build_roads(0, "1,-1,S", "0,1,N", "1,0,S")
    table.gather(0, brick=1, lumber=1, wool=1, grain=1)
    events = table.settle("1,0,S", 0)
    assert types(events) == ["settlement_built"]
    return table


def test_a_kept_marker_is_placed_right_after_the_seats_next_coastal_settlement():
    """The decision opens as soon as the seat has a place for the marker: here right
    after it builds a settlement on the coast."""
    table = settled_on_the_coast()
    assert table.awaited() == [(0, "place_harbour")]
    menu = table.menu(0, "place_harbour")["place_harbour"]
    assert menu["harbour"] == "lumber"
    assert set(menu["edges"]) == {path("1,0,S", "0,1,N"), path("1,0,S", "1,1,N")}
    table.send({"type": "place_harbour", "edge": path("1,0,S", "1,1,N")})
    assert table.state.rates[0] == [3, 2, 3, 3, 3]  # lumber at 2:1, the rest at 3:1
    assert table.view()["tribe"]["harbours_held"] == [[], [], []]


def test_the_board_picture_shows_the_gifts_left_and_each_seats_chits_and_markers():
    """The gifts still on their paths are drawn (a chit, a card, a harbour marker); one
    taken is gone from the board and counted in its seat's score."""
    table = tribe()
    shown = {g.get("data-edge"): g.get("data-gift") for g in drawn(table.picture(), "gift")}
    assert shown == gifts(table)
    kinds = Counter("marker" if g not in (CHIT, DEVELOPMENT) else g for g in shown.values())
    assert kinds == {CHIT: 8, "marker": 6, DEVELOPMENT: 4}  # lines 407, 409
    assert {shown[CHIT_PATH], shown[CARD_PATH], shown[MARKER_PATH]} == {
        CHIT,
        DEVELOPMENT,
        "generic",
    }
    table = lumber_marker_taken()
    picture = table.picture()
    shown = {g.get("data-edge"): g.get("data-gift") for g in drawn(picture, "gift")}
    assert shown == gifts(table) and CHIT_PATH not in shown and MARKER_PATH not in shown
    score = " ".join(written(drawn(picture, "score")[0]).split())
    assert "Catan chits from the tribe: 1 harbour markers to place: 2:1 lumber" in score


def test_at_most_one_harbour_per_sea_hex():
    """Line 447: "Il ne peut y avoir qu'un seul marqueur Port par tuile Mer": the path
    -1,1,N-0,0,S lies on the sea hex -1,1, which holds the generic harbour."""
    table = settled_on_the_coast()
    code = table.refused({"type": "place_harbour", "edge": path(COAST, "0,0,S")})
    assert code == "one_harbour_per_sea_hex"


def test_harbour_markers_are_never_stacked():
    """Line 447: "Les marqueurs Port ne peuvent pas être posés un par-dessus l'autre"."""
    table = settled_on_the_coast()
    code = table.refused({"type": "place_harbour", "edge": path(COAST, WEST)})
    assert code == "harbour_taken"


# -- the random set-up -------------------------------------------------------------------


def test_the_random_set_up_keeps_5_6_8_and_9_off_the_3_hexes_on_the_right():
    """Line 455: terrains and numbers laid at random, but "les 3 tuiles Terrain à droite
    ne reçoivent pas un bon jeton (5, 6, 8 ou 9)" (JSettlers'
    FOR_TRI_LANDHEX_COORD_MAIN_FAR_COASTAL); the small islands stay as they are."""
    doc = scenarios.raw(FILE)
    right = doc["setup"]["poor_numbers"]
    assert sorted(right) == ["3,0", "4,-1", "4,-2"]
    printed = {h["hex"]: (h["terrain"], h["number"]) for h in doc["hexes"]}
    main = set(doc["areas"][0]["hexes"])
    layouts = set()
    for seed in range(40):
        dealt = scenarios.deal(5, 4, random.Random(seed), shuffle=True)["board"]
        tiles = {t["hex"]: (t["terrain"], t["number"]) for t in dealt["hexes"]}
        assert all(tiles[h][1] not in (5, 6, 8, 9) for h in right)
        assert {h: t for h, t in tiles.items() if h not in main} == {
            h: t for h, t in printed.items() if h not in main
        }
        for part in (0, 1):  # the big island's terrains and numbers, rearranged
            assert Counter(tiles[h][part] for h in main) == Counter(printed[h][part] for h in main)
        layouts.add(tuple(sorted(tiles.items())))
    assert len(layouts) == 40


def test_the_harbour_markers_are_turned_up_in_random_order():
    """Line 418: the 6 markers laid face down, then turned up: their types are shuffled
    over the markers' paths (the printed map keeps the file's order)."""
    paths = None
    orders = set()
    for seed in range(20):
        dealt = scenarios.deal(5, 3, random.Random(seed), shuffle=True)["scenario"]["tribe"]
        markers = [g for g in dealt["gifts"] if g["gift"] not in (CHIT, DEVELOPMENT)]
        assert paths in (None, [g["edge"] for g in markers])
        paths = [g["edge"] for g in markers]
        assert sorted(g["gift"] for g in markers) == sorted(
            ["generic", "brick", "lumber", "wool", "grain", "ore"]
        )
        orders.add(tuple(g["gift"] for g in markers))
    assert len(orders) > 10
    printed = scenarios.deal(5, 3, random.Random(0), shuffle=False)["scenario"]["tribe"]
    assert printed == {"gifts": scenarios.raw(FILE)["tribe"]["gifts"]}


# -- whole games -------------------------------------------------------------------------


def test_bot_games_end_at_13_points_and_conserve_the_gifts():
    """Line 451: the game ends when a seat has 13 points during its own turn. Along
    the way (SeaWatch, after every command): 8 chits, 4 development cards and 6 harbour
    markers, each on its path or taken; at the end the log replays to the live state."""
    for seats in (3, 4):
        for bot in ("random", "value"):
            watch = SeaWatch()
            events, state = play_game(
                CATAN, {"scenario": 5}, seats, bytes([seats, len(bot)]), [bot] * seats, watch
            )
            ended = events[-1]
            assert ended.type == "game_ended"
            (winner,) = ended.data["winners"]
            assert winner == state.current
            totals = {p["seat"]: p["total"] for p in ended.data["points"]}
            assert totals[winner] >= 13
            assert_every_reader_folds_its_own_view(events, state)


def test_a_board_sent_from_outside_keeps_the_small_islands_without_numbers():
    """External randomness: the board a client sends is the scenario's, its small
    islands without numbers (a number moved onto one of them is refused) and its robber
    on a desert."""
    dealt = scenarios.deal(5, 3, random.Random(1), shuffle=True)["board"]
    moved = {**dealt, "hexes": [dict(t) for t in dealt["hexes"]]}
    tiles = {t["hex"]: t for t in moved["hexes"]}
    tiles["1,-4"]["number"], tiles["0,0"]["number"] = tiles["0,0"]["number"], None
    moved["unnumbered"] = sorted({*dealt["unnumbered"], "0,0"} - {"1,-4"})
    table = SeaTable(3, scenario=5, layout="random")
    assert table.refused({"type": "set_board", "board": moved}) == "bad_board"
    on_land = {**dealt, "robber": "0,0"}  # the robber starts on a desert
    assert table.refused({"type": "set_board", "board": on_land}) == "bad_board"
    table.send({"type": "set_board", "board": dealt})
    assert table.awaited() == [(0, "place_settlement")]

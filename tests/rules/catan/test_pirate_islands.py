"""The Pirate Islands (Seafarers scenario 7): one test per rule of its own, position by
position (rulebook shared/rules/catan-seafarers.fr.md, lines 523-627).

The games are played on the map as the data file lays it (``layout="beginner"``), in
external-randomness mode, through :class:`PirateTable`: resources come only from rolled
production, and the tests choose the dice, so the pirate fleet sails where they say.

The places the tests use::

    colours (seat: first settlement, ship, fortress, marked intersection)
      0 south  2,2,N   2,1,SE   -2,2,S  -1,3,N
      1 north  5,-4,S  4,-3,NE  1,-4,N  3,-5,S
      2 west   3,-1,S  2,0,NE   -2,1,N  0,-1,S
      3 white  3,-1,N  3,-2,SE  0,-3,S  0,-1,N
    the fleet's path (clockwise, from its start): 1,2 0,2 0,1 0,0 1,-1 1,-2 2,-3 3,-4
      4,-4 4,-3 3,-2 2,-1 2,0 2,1; its hex beside each first settlement: 2,1 (seat 0,
      step 13), 4,-3 (seat 1, step 9), 3,-2 (seat 3, step 10), 2,0 (seat 2, step 12)
    seat 0's route, one of its shortest ways: 2,2,N 2,1,S 1,3,N 1,2,S 0,3,N 0,2,S -1,3,N
      -1,2,S -2,3,N -2,2,S (its fortress)
"""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections import Counter
from typing import Any

import pytest

from service.pictures import board_svg
from service.rules.catan import pirate_islands, scenarios
from service.rules.catan.game import CATAN
from service.rules.catan.pieces import DECK, KNIGHT, VICTORY_POINT
from service.rules.core import IllegalMove
from service.rules.hexes.geometry import (
    corner_hexes,
    corner_name,
    edge_corners,
    hex_corners,
    neighbours,
    parse_corner,
    parse_edge,
    parse_hex,
)
from service.rules.play import play_game
from tests.rules.catan.table import dice as dice_of
from tests.rules.catan.table import drawn, only, types, written
from tests.rules.catan.test_catan_properties import (
    assert_every_reader_folds_its_own_view,
    assert_hidden_cards_stay_hidden,
)
from tests.rules.catan.test_seafarers import SeaTable

FILE = "7-the-pirate-islands.json"
SVG = "{http://www.w3.org/2000/svg}"
DATA = scenarios.raw(FILE)["pirate_islands"]
PATH = DATA["fleet_path"]

#: the 4-seat set-up on the eastern island, in snake order (settlement, road's end)
OPENING = (
    ("6,-3,S", "6,-2,N"),  # seat 0: forest 10, pasture 8, forest 5
    ("6,-4,S", "6,-3,N"),  # seat 1
    ("5,-3,S", "5,-2,N"),  # seat 2
    ("4,-1,S", "4,0,N"),  # seat 3
    ("5,-2,S", "5,-1,N"),  # seat 3, second
    ("5,-1,S", "5,0,N"),  # seat 2, second
    ("4,0,S", "4,1,N"),  # seat 1, second
    ("6,-5,S", "6,-4,N"),  # seat 0, second: fields 4, hills 5
)
#: seat 0's route, from its settlement: the paths of one shortest way to its fortress
SOUTH_ROUTE = ("2,2,N", "2,1,S", "1,3,N", "1,2,S", "0,3,N", "0,2,S", "-1,3,N", "-1,2,S")
SOUTH_ROUTE += ("-2,3,N", "-2,2,S")


def lower_dice(low: int) -> list[int]:
    """Two dice whose lower is ``low`` and whose total is not 7."""
    return [low, 6 if low != 1 else 5]


class PirateTable(SeaTable):
    """A game of The Pirate Islands at the table. Every roll names the cards the fleet
    would take from each seat it beats (the first of its hand), as external randomness
    asks; only the beaten seats' entries are read."""

    def __init__(self, seats: int = 4, **options: Any) -> None:
        super().__init__(seats, scenario=7, **options)
        #: whether a roll answers the resource choices it opens (the first the bank has)
        self.choose = True
        #: the seat gathering resources now (it never rolls a 7 on itself)
        self.gatherer: int | None = None

    def gather(self, seat: int, **needs: int) -> None:
        self.gatherer = seat
        super().gather(seat, **needs)
        self.gatherer = None

    def roll(self, total: int, seat: int | None = None, dice: list[int] | None = None) -> list:
        """A roll of ``dice``, or of ``total`` with the dice that sail the fleet beside
        the fewest buildings (the turns that only gather resources); there, a 7 instead
        while a seat hoards more than 7 cards (the others never spend theirs), its
        discards made of the seats' largest piles, and no card stolen."""
        others = [s for s in range(self.seats) if s != self.gatherer]
        if (
            dice is None
            and any(self.cards(s) > 7 for s in others)
            and (self.gatherer is None or self.cards(self.gatherer) <= 7)
        ):
            events = self.send({"type": "roll", "dice": self.calm(7), "plunder": self.plunder()})
            while self.awaited()[0][1] == "discard":
                who = self.awaited()[0][0]
                hand, count = self.hand(who), self.cards(who) // 2
                thrown: Counter[str] = Counter()
                for _ in range(count):
                    most = max(hand, key=lambda r: hand[r] - thrown[r])
                    thrown[most] += 1
                self.send({"type": "discard", "resources": dict(thrown)}, who)
            return events + self.send({"type": "steal", "victim": None})
        command = {"type": "roll", "dice": dice or self.calm(total), "plunder": self.plunder()}
        events = self.send(command, seat)
        while self.choose and self.awaited()[0][1] == "choose_gold":
            chooser = self.awaited()[0][0]
            count = self.menu(chooser, "choose_gold")["choose_gold"]["count"]
            resource = max(self.bank(), key=lambda r: self.bank()[r])
            self.send({"type": "choose_gold", "resources": {resource: count}}, chooser)
        return events

    def calm(self, total: int) -> list[int]:
        view = self.view()
        built = {b["corner"] for b in view["buildings"]}
        at = PATH.index(view["pirate_islands"]["fleet"])

        def beside(low: int) -> int:
            landing = parse_hex(PATH[(at + low) % len(PATH)])
            return sum(1 for c in hex_corners(landing) if corner_name(c) in built)

        pairs = [[low, total - low] for low in range(1, 7) if low <= total - low <= 6]
        return min(pairs, key=lambda pair: beside(pair[0])) if pairs else dice_of(total)

    def plunder(self) -> dict[str, dict[str, int]]:
        view = self.view()
        found = {}
        for s in range(self.seats):
            cities = sum(1 for b in view["buildings"] if b["seat"] == s and b["kind"] == "city")
            count = min(self.cards(s), 1 + cities)
            taken: Counter[str] = Counter()
            for resource, n in sorted(self.hand(s).items()):
                taken[resource] = min(n, count - sum(taken.values()))
            found[str(s)] = dict(+taken)
        return found

    def sail(self, low: int, seat: int | None = None) -> list:
        """A roll whose lower die is ``low`` (the fleet's strength and its steps)."""
        return self.roll(0, seat, lower_dice(low))

    def fleet(self) -> str | None:
        return self.view()["pirate_islands"]["fleet"]

    def colour(self, seat: int) -> dict[str, Any]:
        return self.view()["pirate_islands"]["colours"][seat]

    def route(self, seat: int, *corners: str) -> list:
        """Ships along consecutive corners, each paid for by production."""
        events = []
        for a, b in zip(corners, corners[1:], strict=False):
            self.gather(seat, wool=1, lumber=1)
            events += self.ship(a, b, seat)
        return events

    def warships(self, seat: int, n: int) -> list:
        """``n`` knights bought in one turn (paid for by production) and each turned into
        a warship."""
        events = self.buy_cards(seat, *["knight"] * n)
        for _ in range(n):
            events += self.send({"type": "convert_warship"}, seat)
        return events


def opened(seats: int = 4) -> PirateTable:
    table = PirateTable(seats)
    for settlement, toward in OPENING if seats == 4 else OPENING[:3] + OPENING[5:]:
        table.place(settlement, toward)
    assert table.awaited() == [(0, "roll")]
    return table


# -- the components and the set-up ---------------------------------------------------------


def test_the_map_holds_four_fortresses_of_three_chits_and_the_fleets_clockwise_loop():
    s = scenarios.from_json(scenarios.raw(FILE))
    east = next(a for a in s.areas if a.name == "east").hexes
    pirate = next(a for a in s.areas if a.name == "pirate-islands").hexes
    colours = DATA["colours"]
    assert len(colours) * DATA["chits_per_fortress"] == 12  # l.539 "12 jetons Catane"
    assert [c["colour"] for c in colours][-1] == "white"  # removed at 3 players (l.551)
    for colour in colours:
        fortress = parse_corner(colour["fortress"])
        assert any(h in pirate for h in _land(s, fortress))  # on the pirate islands (l.549)
        assert any(h in pirate for h in _land(s, parse_corner(colour["pirate_intersection"])))
        assert all(h in east for h in _land(s, parse_corner(colour["settlement"])))
        assert colour["ship"] in colour["route"]
    # the fleet: 14 sea hexes side by side, round the two central islands (l.579)
    path = [parse_hex(h) for h in PATH]
    assert len(path) == len(set(path)) == 14 and all(h in s.sea for h in path)
    assert all(b in neighbours(a) for a, b in zip(path, path[1:] + path[:1], strict=True))
    assert path[0] == s.pirate
    # clockwise as drawn (north up, r growing south): the loop's signed area, with
    # x = 2q + r and y = r (half-hex units), is positive
    points = [(2 * q + r, r) for q, r in path]
    turns = zip(points, points[1:] + points[:1], strict=True)
    assert sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in turns) > 0


def _land(s: scenarios.Scenario, corner: Any) -> list[tuple[int, int]]:
    return [h for h in corner_hexes(corner) if h in s.land]


def test_only_the_central_pasture_and_the_western_hills_have_no_number():
    """Line 545: the board names them; every other producing hex needs its number, and
    a board sent with external randomness leaves the same ones without."""
    printed = scenarios.deal(7, 3, random.Random(0), shuffle=False)["board"]
    assert printed["unnumbered"] == ["-2,1", "0,-3", "1,1"]
    tiles = {t["hex"]: t for t in printed["hexes"]}
    assert [tiles[h]["terrain"] for h in printed["unnumbered"]] == ["hills", "hills", "pasture"]
    options = CATAN.normalize_options({"scenario": 7, "randomness": "external"})
    genesis = CATAN.setup(options, 3, random.Random(0))
    wrong = (
        ([], "None is not a number"),
        ([*printed["unnumbered"], "2,2"], "takes no number token"),
    )
    for unnumbered, refusal in wrong:
        board = {**printed, "unnumbered": unnumbered}
        state = CATAN.fold(genesis)
        with pytest.raises(IllegalMove, match=refusal):
            CATAN.apply(state, 0, {"type": "set_board", "board": board}, random.Random(0))
    state = CATAN.fold(genesis)
    CATAN.apply(state, 0, {"type": "set_board", "board": printed}, random.Random(0))
    assert CATAN.awaiting(state)[0]["kind"] == "place_settlement"


def test_each_route_is_the_shortest_ways_to_the_fortress_through_the_marked_intersection():
    """Every path of a colour lies on a shortest way from its settlement to its fortress
    (9 paths), which passes its marked intersection and starts with its ship; no two
    routes share a path (l.567). Longer ways exist along them (zig-zags): the rules
    refuse them, ship by ship."""
    seen: set[str] = set()
    for colour in DATA["colours"]:
        ways = [w for w in _ways(colour) if len(w) == 9]
        assert min(len(w) for w in _ways(colour)) == 9
        assert {e for w in ways for e in w} == set(colour["route"])
        mark = parse_corner(colour["pirate_intersection"])
        assert all(any(mark in edge_corners(parse_edge(e)) for e in w) for w in ways)
        assert all(w[0] == colour["ship"] for w in ways)
        assert not seen & set(colour["route"])
        seen |= set(colour["route"])


def _ways(colour: dict[str, Any]) -> list[list[str]]:
    """Every way without a loop along the colour's paths from settlement to fortress."""
    goal = colour["fortress"]
    ends = {e: [corner_name(c) for c in edge_corners(parse_edge(e))] for e in colour["route"]}
    found: list[list[str]] = []

    def walk(at: str, way: list[str], visited: set[str]) -> None:
        if at == goal:
            found.append(way)
            return
        for e, (a, b) in ends.items():
            following = b if a == at else a if b == at else None
            if following is not None and following not in visited and e not in way:
                walk(following, [*way, e], visited | {following})

    walk(colour["settlement"], [], {colour["settlement"]})
    return found


def test_each_seat_starts_with_a_settlement_and_a_ship_then_places_two_settlements():
    table = opened()
    view = table.view()
    for seat, colour in enumerate(DATA["colours"]):
        built = [b["corner"] for b in view["buildings"] if b["seat"] == seat]
        assert built[0] == colour["settlement"] and len(built) == 3  # l.559
        assert (colour["ship"], seat) in table.ships()
        # 5 settlements: 3 on the eastern island, 1 on the fortress, 1 left
        assert view["players"][seat]["pieces"] == {
            "road": 13,
            "settlement": 1,
            "city": 4,
            "ship": 14,
        }
    assert view["robber"] is None and table.fleet() == PATH[0]  # l.563


def test_only_the_second_set_up_settlement_gives_starting_resources():
    table = opened()
    # seat 0's second settlement 6,-5,S: fields 4 and hills 5; its first takes nothing
    assert table.hand(0) == Counter({"grain": 1, "brick": 1})


def test_at_three_players_white_and_the_victory_point_cards_are_removed():
    three, four = opened(3), opened(4)
    assert [c["colour"] for c in three.view()["pirate_islands"]["colours"]] == [
        "south",
        "north",
        "west",
    ]
    assert not any(b["corner"] == "3,-1,N" for b in three.view()["buildings"])
    assert three.view()["development_deck"] == sum(DECK) - DECK[VICTORY_POINT]
    assert three.state.deck[VICTORY_POINT] == 0 and three.state.deck[KNIGHT] == DECK[KNIGHT]
    # at 4 players the victory point cards stay, and play as knights
    assert four.view()["development_deck"] == sum(DECK)
    assert four.state.deck[KNIGHT] == DECK[KNIGHT] + DECK[VICTORY_POINT]
    three.gather(0, wool=1, grain=1, ore=1)
    card = {"type": "buy_development", "card": "victory_point"}
    assert three.refused(card, 0) == "card_not_in_deck"


# -- the pirate fleet -----------------------------------------------------------------------


def test_the_fleet_sails_clockwise_by_the_lower_die_before_production():
    table = opened()
    events = table.roll(0, 0, [5, 3])
    assert types(events)[:2] == ["fleet_moved", "dice_rolled"]
    assert only(events, "fleet_moved").data["steps"] == 3
    assert table.fleet() == PATH[3]
    table.end_turn()
    table.roll(0, 1, [2, 2])  # a double: that number
    assert table.fleet() == PATH[5]


def test_a_seven_moves_the_fleet_too_but_no_robber():
    table = opened()
    events = table.roll(0, 0, [1, 6])
    assert table.fleet() == PATH[1] and "robber_moved" not in types(events)
    assert table.awaited() == [(0, "steal")]


def test_the_fleet_beats_a_seat_with_fewer_warships_and_takes_a_card_per_city_and_one():
    table = opened()
    table.sail(6)  # seat 0: the fleet to 2,-3, beside nobody
    table.end_turn()
    before = table.hand(1)  # lumber 2, ore 1
    wrong = {"type": "roll", "dice": [3, 3], "plunder": {"1": {"ore": 2}}}
    assert table.refused(wrong, 1) == "bad_plunder"  # 1 card, not 2
    events = table.roll(0, 1, [3, 3])  # to 4,-3, beside seat 1's first settlement
    attack = only(events, "pirates_attacked").data
    assert attack == {
        "seat": 1,
        "strength": 3,
        "warships": 0,
        "winner": "pirates",
        "lost": {"lumber": 1},
    }
    assert table.hand(1) == before - Counter({"lumber": 1})


def test_a_city_costs_one_more_card_when_the_fleet_wins():
    table = opened()
    table.gather(1, grain=2, ore=3)
    table.city("5,-4,S", 1)
    table.gather(1, grain=1, lumber=1)
    _steer(table, 8, seat=1)
    assert table.cards(1) >= 2
    events = table.sail(1, seat=1)  # to 4,-3, beside seat 1's city
    assert sum(only(events, "pirates_attacked").data["lost"].values()) == 2


def test_a_seat_with_as_many_warships_as_the_fleet_ties_and_loses_nothing():
    table = opened()
    table.warships(0, 1)
    _steer(table, 12, seat=0)
    table.choose = False
    events = table.sail(1, seat=0)  # to 2,1 beside seat 0's settlement, strength 1
    attack = only(events, "pirates_attacked").data
    assert attack == {"seat": 0, "strength": 1, "warships": 1, "winner": "nobody"}
    assert table.awaited() == [(0, "turn")]


def test_a_seat_with_more_warships_beats_the_fleet_and_takes_a_resource_of_its_choice():
    table = opened()
    table.route(0, "2,1,S", "1,2,N")
    table.warships(0, 2)
    _steer(table, 12, seat=0)
    table.choose = False
    events = table.roll(0, 0, [1, 1])
    assert only(events, "pirates_attacked").data["winner"] == "seat"
    assert table.awaited()[0] == (0, "choose_gold")
    before = table.hand(0)
    table.send({"type": "choose_gold", "resources": {"ore": 1}}, 0)
    assert table.hand(0) == before + Counter({"ore": 1})
    assert table.awaited() == [(0, "turn")]


def holding(table: PirateTable, seat: int, cards: int) -> None:
    """The seat's hand set to ``cards`` resource cards, taken from the bank (its own put
    back first): a hand size no sequence of rolls gives as simply."""
    hand, bank = table.state.hands[seat], table.state.bank
    for i in range(5):
        bank[i], hand[i] = bank[i] + hand[i], 0
    for k in range(cards):
        hand[k % 5] += 1
        bank[k % 5] -= 1


@pytest.mark.parametrize(("cards", "discarded"), [(6, None), (7, 4), (9, 5)])
def test_a_seat_that_beats_the_fleet_on_a_seven_discards_half_of_its_hand_with_its_reward(
    cards: int, discarded: int | None
):
    """The attack comes "avant même que le joueur ... ait résolu les effets d'un 7", and
    its reward with it: a seat holding more than 7 cards when the 7's discards come,
    its reward included, discards half of them."""
    table = opened()
    table.route(0, "2,1,S", "1,2,N")
    table.warships(0, 2)
    _steer(table, 12, seat=0)
    holding(table, 0, cards)
    table.choose = False
    table.roll(0, 0, [1, 6])  # a 7, and the fleet beside seat 0's settlement, strength 1
    assert table.awaited() == [(0, "choose_gold")]
    table.send({"type": "choose_gold", "resources": {"ore": 1}}, 0)
    assert table.cards(0) == cards + 1
    asked = [
        d.details["count"]
        for d in CATAN.decisions(table.state)
        if d.kind == "discard" and d.seat == 0
    ]
    assert asked == ([] if discarded is None else [discarded])


def test_when_the_bank_cannot_reward_every_winner_the_first_attacked_are_paid():
    """Two seats beat the fleet and the bank holds one card: the first attacked takes
    it, whoever would answer first; the second is owed nothing."""
    state = opened().state
    pirate_islands.fleet_part(state).rewards = [2, 1]
    state.bank[:] = [0, 0, 0, 0, 1]
    choices, rewarded = pirate_islands.rewards_due(state)
    assert [(p.seat, p.kind) for p in choices] == [(2, "choose_gold")]
    assert rewarded == {2: 1}
    pirate_islands.fleet_part(state).rewards = [2, 1]
    state.bank[:] = [1, 1, 0, 0, 0]
    choices, rewarded = pirate_islands.rewards_due(state)
    assert [p.seat for p in choices] == [2, 1]  # both at once: each takes one card
    assert rewarded == {2: 1, 1: 1}


def _steer(table: PirateTable, step: int, seat: int) -> None:
    """Turns pass until it is ``seat``'s turn to roll with the fleet on ``step`` of its
    path: the seat before it sails the fleet there if it can, every other roll by 1."""
    for _ in range(40):
        if table.view()["rolled"]:
            table.end_turn()
        at = PATH.index(table.fleet())
        if table.current == seat and at == step:
            return
        steps = (step - at) % len(PATH)
        last = (table.current + 1) % table.seats == seat
        table.sail(min(max(steps, 1), 6) if last else 1)
    raise AssertionError("the fleet never came")


# -- a 7 ------------------------------------------------------------------------------------


def test_on_a_seven_the_seats_discard_then_the_roller_steals_from_any_seat():
    table = opened()
    table.roll(0, 0, [1, 6])
    menu = table.menu(0, "steal")["steal"]
    assert menu["victims"] == [1, 2, 3]  # every seat holding a card, near it or not
    events = table.send({"type": "steal", "victim": 3, "resource": "brick"}, 0)
    assert types(events) == ["steal_chosen", "card_stolen"]
    assert table.hand(0)["brick"] == 2
    assert table.refused({"type": "steal", "victim": 0}, 0) == "unexpected_command"


def test_the_fleet_attacks_before_a_seven_is_resolved():
    table = opened()
    table.sail(6)
    table.end_turn()
    events = table.roll(0, 1, [3, 4])  # a 7: the fleet to 4,-3, beside seat 1
    assert types(events) == ["fleet_moved", "pirates_attacked", "dice_rolled"]
    assert table.awaited() == [(1, "steal")]


def test_the_roller_may_steal_nothing_but_not_from_itself():
    table = opened()
    table.roll(0, 0, [1, 6])
    assert table.refused({"type": "steal", "victim": 0}, 0) == "not_a_victim"
    assert types(table.send({"type": "steal", "victim": None}, 0)) == ["steal_chosen"]


# -- routes, warships, settlements ------------------------------------------------------------


def test_a_ship_goes_on_the_next_path_of_the_seats_own_route_only():
    table = opened()
    table.gather(0, wool=2, lumber=2)
    # from the ship's end the way forks: either path one nearer the fortress
    assert table.menu(0, "turn")["build_ship"]["edges"] == ["1,2,E", "1,2,NE"]
    assert table.refused({"type": "build_ship", "edge": "1,1,SE"}, 0) == "ship_not_on_route"
    assert table.refused({"type": "build_ship", "edge": "3,1,NE"}, 0) == "ship_not_on_route"
    table.ship("2,1,S", "1,3,N", 0)
    assert table.menu(0, "turn")["build_ship"]["edges"] == ["1,2,SE"]


def test_a_route_takes_the_shortest_way_and_never_goes_past_the_fortress():
    table = opened()
    table.route(0, "2,1,S", "1,2,N")
    table.gather(0, wool=1, lumber=1)
    # from 1,2,N the route's path to 1,3,N is no nearer the fortress: a zig-zag
    assert table.refused({"type": "build_ship", "edge": "1,2,E"}, 0) == "ship_not_on_route"
    table.route(0, "1,2,N", "1,1,S", "0,3,N", "0,2,S", "-1,3,N", "-1,2,S", "-2,3,N", "-2,2,S")
    assert pirate_islands.reaches_fortress(table.state, 0)
    table.gather(0, wool=1, lumber=1)
    assert "build_ship" not in table.menu(0, "turn")
    assert table.refused({"type": "build_ship", "edge": "0,2,NE"}, 0) == "ship_not_on_route"


def test_no_road_goes_on_a_route_and_ships_do_not_move():
    table = opened()
    table.route(0, "2,1,S", "1,2,N")
    assert table.refused({"type": "move_ship", "from": "1,2,E", "to": "1,2,SE"}, 0) == (
        "ships_do_not_move"
    )
    assert pirate_islands.road_problem(table.state, _edge(table, "2,1,SE")) == "route_is_for_ships"


def _edge(table: PirateTable, name: str) -> int:
    return table.state.layout.edge_by_name[name]


def test_a_road_from_a_pirate_island_settlement_may_not_block_a_route():
    table = opened()
    table.route(0, *SOUTH_ROUTE[1:7])  # to the marked intersection -1,3,N
    table.gather(0, brick=1, lumber=1, wool=1, grain=1)
    table.settle("-1,3,N", 0)
    table.gather(0, brick=1, lumber=1)
    # -1,2,SE runs along the mountains -1,2: a road could go there, but it is the route's
    road = {"type": "build_road", "edge": "-1,2,SE"}
    assert table.refused(road, 0) == "route_is_for_ships"


def test_a_knight_turns_the_ship_nearest_the_settlement_into_a_warship():
    table = opened()
    table.route(0, "2,1,S", "1,2,N")
    events = table.warships(0, 1)
    assert only(events, "warship_converted").data["edge"] == "2,1,SE"
    table.buy_cards(0, "knight")
    table.send({"type": "convert_warship"}, 0)
    assert table.colour(0)["warships"] == ["2,1,SE", "1,2,NE"]
    # the card goes to the discard, not back to the deck; none is played as a knight
    assert table.view(0)["players"][0]["development"] == {}
    assert table.view()["development_deck"] == 25 - 2


def test_a_knight_is_never_played_as_a_knight():
    table = opened()
    table.buy_cards(0, "knight")
    table.end_turn()
    table.next_turn(0)
    assert "play_knight" not in table.menu(0, "turn")
    assert table.refused({"type": "play_knight"}, 0) == "knight_is_a_warship"


def test_a_warship_needs_a_knight_and_a_ship_that_is_not_one_yet():
    table = opened()
    table.roll(0, 0, [3, 3])
    assert "convert_warship" not in table.menu(0, "turn")
    assert table.refused({"type": "convert_warship"}, 0) == "no_knight"
    table.warships(0, 1)
    table.buy_cards(0, "knight")
    assert table.refused({"type": "convert_warship"}, 0) == "no_ship_to_convert"


def test_a_seat_settles_a_pirate_island_only_on_its_own_marked_intersection():
    table = opened()
    table.route(0, *SOUTH_ROUTE[1:8])  # to -1,2,S, past -1,3,N
    table.gather(0, brick=1, lumber=1, wool=1, grain=1)
    # its ships reach the eastern island's coast at 1,3,N too, where settling is as usual
    assert table.menu(0, "turn")["build_settlement"]["corners"] == ["-1,3,N", "1,3,N"]
    assert table.refused({"type": "build_settlement", "corner": "-1,2,S"}, 0) == (
        "pirate_intersection_only"
    )
    table.settle("-1,3,N", 0)
    assert table.points(0) == 4


# -- the fortresses and the end ----------------------------------------------------------------


def _at_the_fortress(warships: int) -> PirateTable:
    table = opened()
    table.route(0, *SOUTH_ROUTE[1:])
    table.warships(0, warships)
    return table


def test_a_seat_attacks_its_fortress_only_once_its_route_reaches_it():
    table = opened()
    table.roll(0, 0, [3, 3])
    assert table.refused({"type": "attack_fortress", "die": 1}, 0) == "route_not_closed"


def test_more_warships_than_the_fortress_die_win_a_chit_and_end_the_turn():
    table = _at_the_fortress(2)
    assert table.refused({"type": "attack_fortress", "die": 7}, 0) == "bad_die"
    events = table.send({"type": "attack_fortress", "die": 1}, 0)
    assert types(events) == ["fortress_attacked", "turn_ended"]
    assert only(events, "fortress_attacked").data["winner"] == "seat"
    assert table.colour(0)["chits"] == 1 and table.current == 1


def test_fewer_warships_than_the_die_lose_the_two_ships_nearest_the_fortress():
    table = _at_the_fortress(1)
    events = table.send({"type": "attack_fortress", "die": 4}, 0)
    assert only(events, "fortress_attacked").data["ships_lost"] == ["-2,2,SE", "-2,3,NE"]
    assert len(table.view()["pirate_islands"]["colours"][0]["warships"]) == 1
    assert not pirate_islands.reaches_fortress(table.state, 0)


def test_as_many_warships_as_the_die_lose_the_ship_nearest_the_fortress():
    table = _at_the_fortress(1)
    events = table.send({"type": "attack_fortress", "die": 1}, 0)
    attack = only(events, "fortress_attacked").data
    assert attack["winner"] == "nobody" and attack["ships_lost"] == ["-2,2,SE"]


def test_the_third_chit_conquers_the_fortress_as_the_seats_settlement():
    table = _at_the_fortress(2)
    for _ in range(2):
        table.send({"type": "attack_fortress", "die": 1}, 0)
        table.next_turn(0)
    points = table.points(0)
    events = table.send({"type": "attack_fortress", "die": 1}, 0)
    assert only(events, "fortress_attacked").data["conquered"] == "-2,2,S"
    assert table.points(0) == points + 1
    assert {"corner": "-2,2,S", "seat": 0, "kind": "settlement"} in table.view()["buildings"]
    assert table.colour(0)["conquered"]
    table.next_turn(0)
    assert "attack_fortress" not in table.menu(0, "turn")
    assert table.refused({"type": "attack_fortress", "die": 1}, 0) == "fortress_conquered"
    # it produces: the gold field 3 beside it gives seat 0 a resource of its choice
    table.end_turn()
    table.choose = False
    events = table.roll(0, 1, [1, 2])
    assert only(events, "resources_produced").data["gold"] == {"0": 1}
    assert (0, "choose_gold") in table.awaited()


def test_ten_points_do_not_win_without_the_seats_own_fortress():
    """A bot game: a seat may pass 10 points and play on until it has its fortress."""
    seen = False
    for seed in range(6):
        events, state = play_game(CATAN, {"scenario": 7}, 4, bytes([seed]), ["value"] * 4)
        (winner,) = state.winners
        assert state.fleet.conquered(winner) and state.final[winner]["total"] >= 10
        seen |= any(
            state.final[s]["total"] >= 10 and not state.fleet.conquered(s)
            for s in range(4)
            if s != winner
        )
        assert not {"longest_road", "largest_army", "robber_moved"} & set(types(events))
    assert seen


def test_bot_games_replay_to_the_live_state_for_every_reader():
    for seats in (3, 4):
        for bot in ("random", "value"):
            events, state = play_game(CATAN, {"scenario": 7}, seats, b"replay", [bot] * seats)
            assert_every_reader_folds_its_own_view(events, state)
            assert_hidden_cards_stay_hidden(events, seats)


def test_when_every_fortress_is_conquered_the_fleet_leaves():
    for seed in range(100):  # seed 43 is the first such game
        events, state = play_game(CATAN, {"scenario": 7}, 3, bytes([seed, 7]), ["value"] * 3)
        if all(state.fleet.conquered(s) for s in range(3)):
            last = [e for e in events if e.type == "fortress_attacked"][-1]
            assert last.data["fleet_leaves"] and state.pirate is None
            after = events[events.index(last) :]
            assert "fleet_moved" not in types(after)
            names = ["A", "B", "C"]
            view = CATAN.view(state, None)
            svg = board_svg("catan", view, seat=None, names=names, version=len(events), options={})
            picture = ET.fromstring(svg)
            assert not drawn(picture, "fleet-path") and not drawn(picture, "pirate")
            assert not drawn(picture, "fortress")  # each is its seat's settlement now
            assert "Dotted loop" not in written(picture)  # nor told of
            return
    raise AssertionError("no game with every fortress taken")


def test_the_board_picture_shows_the_fortresses_the_routes_the_warships_and_the_fleets_loop():
    """What the scenario adds to the board, drawn: each fortress with the chits still
    under it, each seat's sea route and marked intersection, its warships (a red
    pennant), the fleet's loop; and in the scores, each seat's chits won and warships."""
    table = _at_the_fortress(2)
    table.send({"type": "attack_fortress", "die": 1}, 0)  # won: a chit, no ship lost
    colours = table.view()["pirate_islands"]["colours"]
    picture = table.picture()
    fortresses = {
        int(f.get("data-seat")): (f.get("data-corner"), f.get("data-chits-left"))
        for f in drawn(picture, "fortress")
    }
    assert fortresses == {0: ("-2,2,S", "2"), 1: ("1,-4,N", "3"), 2: ("-2,1,N", "3")} | {
        3: ("0,-3,S", "3")
    }
    warships = {
        (int(ship.get("data-seat")), ship.get("data-edge"))
        for ship in drawn(picture, "ship")
        if ship.get("data-warship") == "true"
    }
    assert warships == {(0, edge) for edge in colours[0]["warships"]} and len(warships) == 2
    routes = {
        int(r.get("data-seat")): r.get("data-intersection") for r in drawn(picture, "sea-route")
    }
    assert routes == {0: "-1,3,N", 1: "3,-5,S", 2: "0,-1,S", 3: "0,-1,N"}
    assert len(drawn(picture, "fleet-path")) == 1
    scores = {
        int(r.get("data-seat")): " ".join(written(r).split()) for r in drawn(picture, "score")
    }
    assert "fortress: 1 of 3 chits won; 2 warships" in scores[0]
    assert "knights played" not in scores[0]  # no Largest Army, no Longest Road (line 553)
    titles = [f.find(f"{SVG}title").text for f in drawn(picture, "fortress")]
    assert titles[0] == "the pirate fortress of seat 0: 2 chits left"
    assert "Dotted loop: the pirate fleet's way" in " ".join(written(picture).split())
    assert "fortress: 0 of 3 chits won; 0 warships" in scores[1]
    labels = {int(f.get("data-seat")): written(f) for f in drawn(picture, "fortress")}
    assert labels == {0: "A 2 chits left", 1: "B 3 chits left", 2: "C 3 chits left"} | {
        3: "D 3 chits left"
    }
    for _ in range(2):  # two more wins: the fortress is seat 0's settlement
        table.next_turn(0)
        table.send({"type": "attack_fortress", "die": 1}, 0)
    picture = table.picture()
    assert {f.get("data-seat") for f in drawn(picture, "fortress")} == {"1", "2", "3"}
    assert "fortress: conquered" in written(drawn(picture, "score")[0])
    (route,) = [r for r in drawn(picture, "sea-route") if r.get("data-seat") == "0"]
    assert not route.findall(f"{SVG}path")  # served: only its marked intersection stays


def test_the_fleet_attacks_every_seat_with_a_building_beside_its_hex():
    """Each seat with a building on a corner of the fleet's hex is attacked, once."""
    table = opened()
    table.route(0, "2,1,S", "1,3,N", "1,2,S", "0,3,N", "0,2,S", "-1,3,N")
    table.gather(0, brick=1, lumber=1, wool=1, grain=1)
    table.settle("-1,3,N", 0)
    # the path's hex 0,2 touches seat 0's new settlement only; 0,1 nobody
    corners = {corner_name(c) for c in hex_corners(parse_hex("0,2"))}
    assert "-1,3,N" in corners
    assert pirate_islands.attacked_seats(table.state, parse_hex("0,2")) == [0]
    assert pirate_islands.attacked_seats(table.state, parse_hex("0,1")) == []

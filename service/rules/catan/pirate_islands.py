"""The Pirate Islands (Seafarers scenario 7, "L'Île aux pirates"): every rule of its own.

The rulebook's section (shared/rules/catan-seafarers.fr.md, lines 523-627), as built:

- each colour starts with a settlement and a ship on the eastern island, a pirate
  fortress (a settlement of its colour on 3 Catan chits) on the western islands, and an
  intersection marked with its colour on a pirate island; at 3 players the 4th colour
  (white) is not played. The fortress is one of the seat's 5 settlements;
- at 3 players the victory point cards leave the development deck; at 4 they stay and
  play as knights, so the deck holds 19 knights and no victory point card;
- no robber, no Longest Road, no Largest Army; a knight is never played as a knight;
- a seat builds one sea route only: from its first settlement, along its colour's
  edges (data), through its marked intersection to its fortress, each ship one edge
  nearer the fortress (the shortest way), never past the fortress; no road goes on a
  route's edge (routes cannot be blocked); ships do not move;
- a knight card (bought this turn or before) turns the seat's ship nearest its
  settlement that is not one yet into a warship (``convert_warship``, in the seat's
  turn, any number of times; not the turn's one development card); the card is spent;
- after every roll, before production and before a 7 is resolved, the pirate fleet
  sails clockwise along its 14 sea hexes by the lower die and attacks each seat with a
  building on a corner of the hex it stops on: the lower die against the seat's
  warships; the fleet wins: the seat loses 1 resource card, and 1 more per city, drawn
  at random, to the bank; the seat wins: it takes 1 resource of its choice from the
  bank (the ``choose_gold`` decision); a tie: nothing;
- a 7: no robber, the seats with more than 7 cards discard half, then the roller may
  steal a card from any seat (``steal``);
- settlements on the pirate islands: on the seat's marked intersection only;
- once the route reaches the fortress, the seat may attack it (``attack_fortress``,
  which ends its turn): a die against the warships: more warships, the seat wins a
  chit; fewer, it loses the 2 ships nearest the fortress; as many, 1. The third chit
  conquers the fortress: it becomes the seat's settlement;
- a seat wins with 10 points in its own turn once it has conquered its own fortress;
  when every fortress is conquered the fleet leaves the game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from service.rules.catan.pieces import (
    COSTS,
    DECK,
    DEVELOPMENT_INDEX,
    KNIGHT,
    NOBODY,
    VICTORY_POINT,
    can_pay,
    counts_of,
    named,
)
from service.rules.core import JSON, Event
from service.rules.decisions import Decision, Pending
from service.rules.hexes.geometry import corner_name, edge_corners, hex_name, parse_edge, parse_hex

if TYPE_CHECKING:
    from service.rules.catan.state import State

#: Catan chits under each fortress (line 549)
CHITS: Final = 3

RULES: Final = {
    "ship_not_on_route": "The Pirate Islands: each seat builds one sea route only, from its "
    "first settlement through the intersection of its colour to its pirate fortress, by the "
    "shortest way, without branching and never past the fortress.",
    "route_is_for_ships": "The Pirate Islands: a sea route cannot be blocked; no road goes on "
    "its paths.",
    "ships_do_not_move": "The Pirate Islands: a sea route's ships stay where they are built.",
    "pirate_intersection_only": "The Pirate Islands: on a pirate island a seat settles only "
    "the intersection marked with its colour.",
    "knight_is_a_warship": "The Pirate Islands: a knight (at 4 players also a victory point "
    "card) turns a ship into a warship; it is never played as a knight.",
    "no_knight": "A warship costs a knight card in hand.",
    "no_ship_to_convert": "A knight turns the seat's ship nearest its settlement that is not "
    "a warship yet; the seat has none.",
    "route_not_closed": "A seat attacks its fortress once its sea route reaches it.",
    "fortress_conquered": "A conquered fortress is the seat's settlement; nothing to attack.",
    "bad_die": "A die is an int from 1 to 6.",
    "bad_plunder": "The fleet takes, from each seat it beats, 1 card and 1 more per city "
    "(all its cards if it holds fewer), cards that seat holds.",
    "not_a_victim": "The Pirate Islands: on a 7 the roller may steal a card from any other "
    "seat that holds one.",
}

#: the scenario's commands in a seat's turn
TURN_COMMANDS: Final = ("convert_warship", "attack_fortress")


@dataclass(frozen=True, slots=True)
class Colour:
    """One colour's places, by name: its first settlement and ship, its fortress, the
    intersection marked with it on a pirate island, its route's paths, and each route
    corner's distance (in paths) to the fortress."""

    name: str
    settlement: str
    ship: str
    fortress: str
    intersection: str
    route: frozenset[str]
    distance: Mapping[str, int]

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Colour:
        return cls(
            data["colour"],
            data["settlement"],
            data["ship"],
            data["fortress"],
            data["pirate_intersection"],
            frozenset(data["route"]),
            _distances(data["fortress"], data["route"]),
        )


def _distances(fortress: str, route: list[str]) -> dict[str, int]:
    """Each corner of the route's paths -> paths to the fortress (breadth first)."""
    ends = [tuple(corner_name(c) for c in edge_corners(parse_edge(e))) for e in route]
    distance = {fortress: 0}
    frontier = [fortress]
    while frontier:
        reached = []
        for corner in frontier:
            for a, b in ends:
                other = b if a == corner else a if b == corner else None
                if other is not None and other not in distance:
                    distance[other] = distance[corner] + 1
                    reached.append(other)
        frontier = reached
    return distance


@dataclass(slots=True)
class Fleet:
    """The scenario's part of the state (``State.fleet``): the fleet's path (its hex is
    ``State.pirate``, ``None`` once it has left), the colours by seat, each seat's
    warships (path indices) and chits won, and the rewards owed by the last attack."""

    path: tuple[tuple[int, int], ...]
    colours: tuple[Colour, ...]
    warships: list[list[int]]
    chits: list[int]
    rewards: list[int]

    def copy(self) -> Fleet:
        return Fleet(
            self.path,
            self.colours,
            [list(w) for w in self.warships],
            list(self.chits),
            list(self.rewards),
        )

    def conquered(self, seat: int) -> bool:
        return self.chits[seat] == CHITS


def fleet_part(state: State) -> Fleet:
    """The scenario's part of the state, where the game is The Pirate Islands."""
    part = state.fleet
    assert part is not None, "not The Pirate Islands"
    return part


def fleet_of(scenario: dict[str, Any], seats: int) -> Fleet | None:
    """The scenario's state at the start, from ``game_started``'s scenario data (``None``
    for any other scenario). The first ``seats`` colours are played: at 3 seats the last
    one, white, is left out (rulebook line 551)."""
    data = scenario.get("pirate_islands")
    if data is None:
        return None
    colours = tuple(Colour.from_json(c) for c in data["colours"][:seats])
    path = tuple(parse_hex(h) for h in data["fleet_path"])
    return Fleet(path, colours, [[] for _ in colours], [0] * seats, [])


def deck(seats: int) -> list[int]:
    """The development deck: without the victory point cards at 3 seats; at 4 they play as
    knights (line 551), so they are counted with the knights."""
    cards = list(DECK)
    if seats == 4:
        cards[KNIGHT] += cards[VICTORY_POINT]
    cards[VICTORY_POINT] = 0
    return cards


def lay_start_pieces(state: State) -> None:
    """Each seat's settlement and ship on the eastern island, and its fortress, which
    holds one of its settlements (line 549), once the board is laid."""
    layout = state.laid()
    for seat, colour in enumerate(fleet_part(state).colours):
        corner = layout.corner_by_name[colour.settlement]
        state.owner[corner] = seat
        state.buildings_of[seat].append(corner)
        state.rates[seat] = layout.rates_with(state.rates[seat], corner)
        edge = layout.edge_by_name[colour.ship]
        state.ship[edge] = seat
        state.ships_of[seat].append(edge)
        state.pieces[seat]["settlement"] -= 2  # the first settlement, and the fortress's
        state.pieces[seat]["ship"] -= 1


# -- the sea route ------------------------------------------------------------------------


def _walk(state: State, seat: int) -> tuple[list[int], int]:
    """The seat's ships in order from its first settlement (its route has no branch),
    and the corner they reach."""
    layout, ship = state.laid(), state.ship
    grid = layout.grid
    corner = layout.corner_by_name[fleet_part(state).colours[seat].settlement]
    found: list[int] = []
    while True:
        following = [e for e in grid.corner_edges[corner] if ship[e] == seat and e not in found]
        if not following:
            return found, corner
        found.append(following[0])
        a, b = grid.edge_corners[following[0]]
        corner = b if a == corner else a


def route_ships(state: State, seat: int) -> list[int]:
    """The seat's ships in order from its first settlement."""
    return _walk(state, seat)[0]


def route_end(state: State, seat: int) -> int:
    """The corner the seat's route has reached."""
    return _walk(state, seat)[1]


def reaches_fortress(state: State, seat: int) -> bool:
    colour = fleet_part(state).colours[seat]
    return state.laid().corner_names[route_end(state, seat)] == colour.fortress


def ship_problem(state: State, seat: int, edge: int, *, setup: bool, free: bool) -> str | None:
    """Why a ship of ``seat`` may not go on ``edge``: only the next path of its route,
    one nearer its fortress, until the route reaches it."""
    layout = state.laid()
    colour = fleet_part(state).colours[seat]
    if setup or layout.edge_names[edge] not in colour.route:
        return "ship_not_on_route"
    if state.occupied(edge):
        return "path_occupied"
    if state.pieces[seat]["ship"] < 1:
        return "no_ships_left"
    end = layout.corner_names[route_end(state, seat)]
    ends = [layout.corner_names[c] for c in layout.grid.edge_corners[edge]]
    if end not in ends or end == colour.fortress:
        return "ship_not_on_route"
    (other,) = (c for c in ends if c != end)
    if colour.distance.get(other) != colour.distance[end] - 1:
        return "ship_not_on_route"
    if not free and not can_pay(state.hands[seat], COSTS["ship"]):
        return "cannot_afford"
    return None


def road_problem(state: State, edge: int) -> str | None:
    """No road on a route's path: the routes cannot be blocked (line 567)."""
    name = state.laid().edge_names[edge]
    if any(name in colour.route for colour in fleet_part(state).colours):
        return "route_is_for_ships"
    return None


def settlement_problem(state: State, seat: int, corner: int) -> str | None:
    """On the pirate islands (outside the start area) only the seat's own marked
    intersection (line 593)."""
    layout = state.laid()
    areas, area_of = state.areas, state.area_of
    foreign = any(
        h in area_of and not areas[area_of[h]]["start"] for h in layout.grid.corner_hexes[corner]
    )
    if foreign and layout.corner_names[corner] != fleet_part(state).colours[seat].intersection:
        return "pirate_intersection_only"
    return None


# -- warships -----------------------------------------------------------------------------


def warship_to_convert(state: State, seat: int) -> int | None:
    """The seat's ship nearest its settlement that is not a warship yet."""
    warships = fleet_part(state).warships[seat]
    return next((e for e in route_ships(state, seat) if e not in warships), None)


def conversion_problem(state: State, seat: int) -> str | None:
    if state.devs[seat][KNIGHT] + state.new_devs[seat][KNIGHT] < 1:
        return "no_knight"
    if warship_to_convert(state, seat) is None:
        return "no_ship_to_convert"
    return None


def warship_converted(state: State, seat: int) -> Event:
    edge = warship_to_convert(state, seat)
    data = {"seat": seat, "edge": state.laid().edge_names[edge], "card": "knight"}
    return Event("warship_converted", data)


# -- the pirate fleet ---------------------------------------------------------------------


def sails(state: State) -> bool:
    """Whether the fleet is still in the game (it leaves once every fortress is taken)."""
    return state.fleet is not None and state.pirate is not None


def attacked_seats(state: State, target: tuple[int, int]) -> list[int]:
    """The seats with a settlement or city on a corner of the fleet's hex, each attacked
    once whatever the number of its buildings there."""
    owners = {state.owner[c] for c in state.laid().grid.hex_corners[target]}
    return sorted(s for s in owners if s != NOBODY)


def plunder_count(state: State, seat: int) -> int:
    """What a beaten seat loses: 1 card and 1 more per city, at most what it holds."""
    cities = sum(1 for c in state.buildings_of[seat] if state.city[c])
    return min(state.cards(seat), 1 + cities)


def drawn(hand: list[int], count: int, rng: random.Random) -> list[int]:
    """``count`` cards drawn at random from ``hand`` (counts per resource)."""
    cards = [i for i, n in enumerate(hand) for _ in range(n)]
    chosen = [0] * 5
    for i in rng.sample(cards, count):
        chosen[i] += 1
    return chosen


def fleet_events(
    state: State,
    seat: int,
    dice: list[int],
    plunder: Callable[[int, int], list[int]],
) -> list[Event]:
    """The fleet sails by the lower die and attacks where it stops: ``fleet_moved`` and a
    ``pirates_attacked`` per seat attacked. ``plunder(seat, count)`` gives the cards a
    beaten seat loses."""
    fleet, pirate = fleet_part(state), state.pirate
    assert pirate is not None, "the fleet has left"  # (no dice move it then)
    strength = min(dice)
    start = fleet.path.index(pirate)
    target = fleet.path[(start + strength) % len(fleet.path)]
    moved = {
        "seat": seat,
        "from": hex_name(pirate),
        "to": hex_name(target),
        "steps": strength,
    }
    events = [Event("fleet_moved", moved)]
    for other in attacked_seats(state, target):
        warships = len(fleet.warships[other])
        data: JSON = {"seat": other, "strength": strength, "warships": warships}
        if strength > warships:
            data["winner"] = "pirates"
            count = plunder_count(state, other)
            data["lost"] = named(plunder(other, count) if count else [0] * 5)
        else:
            data["winner"] = "seat" if warships > strength else "nobody"
        events.append(Event("pirates_attacked", data))
    return events


def steal_victims(state: State, seat: int) -> list[int]:
    return [s for s in range(state.seats) if s != seat and state.cards(s) > 0]


# -- the fortresses -----------------------------------------------------------------------


def attack_problem(state: State, seat: int) -> str | None:
    if fleet_part(state).conquered(seat):
        return "fortress_conquered"
    if not reaches_fortress(state, seat):
        return "route_not_closed"
    return None


def fortress_attacked(state: State, seat: int, die: int) -> Event:
    """The seat's warships against the fortress's die: a chit won, or the ships nearest
    the fortress lost (2 if fewer warships, 1 if as many)."""
    fleet = fleet_part(state)
    warships = len(fleet.warships[seat])
    data: JSON = {"seat": seat, "die": die, "warships": warships, "ships_lost": []}
    if warships > die:
        data["winner"] = "seat"
        data["chits"] = fleet.chits[seat] + 1
        if data["chits"] == CHITS:
            data["conquered"] = fleet.colours[seat].fortress
            others = [s for s in range(len(fleet.colours)) if s != seat]
            data["fleet_leaves"] = all(fleet.conquered(s) for s in others)
    else:
        lost = 2 if warships < die else 1
        data["winner"] = "pirates" if warships < die else "nobody"
        names = state.laid().edge_names
        data["ships_lost"] = [names[e] for e in reversed(route_ships(state, seat)[-lost:])]
    return Event("fortress_attacked", data)


def may_win(state: State, seat: int) -> bool:
    """The end (line 617): the seat has conquered its own fortress (and, as everywhere,
    has the points)."""
    return fleet_part(state).conquered(seat)


# -- menus and bots ---------------------------------------------------------------------


def turn_choices(state: State, seat: int) -> list[tuple[str, Any]]:
    found: list[tuple[str, Any]] = []
    if conversion_problem(state, seat) is None:
        found.append(("convert_warship", None))
    if attack_problem(state, seat) is None:
        found.append(("attack_fortress", None))
    return found


def steal_menu(state: State, decision: Decision) -> JSON:
    return {"steal": {"victims": steal_victims(state, decision.seat)}}


def view(state: State) -> JSON:
    """The fleet, the fortresses with their chits, the routes and the warships."""
    fleet, layout = fleet_part(state), state.layout
    return {
        "fleet": None if state.pirate is None else hex_name(state.pirate),
        "fleet_path": [hex_name(h) for h in fleet.path],
        "colours": [
            {
                "seat": seat,
                "colour": colour.name,
                "fortress": colour.fortress,
                "intersection": colour.intersection,
                "route": sorted(colour.route),
                "warships": []
                if layout is None
                else [layout.edge_names[e] for e in fleet.warships[seat]],
                "chits": fleet.chits[seat],
                "conquered": fleet.conquered(seat),
            }
            for seat, colour in enumerate(fleet.colours)
        ],
    }


# -- evolvers -------------------------------------------------------------------------------


def _fleet_moved(state: State, data: dict[str, Any]) -> None:
    state.pirate = parse_hex(data["to"])


def _pirates_attacked(state: State, data: dict[str, Any]) -> None:
    """Cards lost go back to the bank; a seat that beat the fleet is owed a resource of
    its choice, chosen once the roll is folded (see ``rewards_due``)."""
    seat = data["seat"]
    if data["winner"] == "pirates":
        for i, n in enumerate(counts_of(data["lost"])):
            state.hands[seat][i] -= n
            state.bank[i] += n
    elif data["winner"] == "seat":
        fleet_part(state).rewards.append(seat)


def rewards_due(state: State) -> tuple[list[Pending], dict[int, int]]:
    """The rewards of the seats that beat the fleet on this roll, as gold choices of one
    resource, all open at once, and the card each seat gets by them: they come before a
    7's discards, which count them. When the bank holds fewer cards than there are
    winners, the first attacked are paid (so who is does not depend on who answers
    first)."""
    fleet = fleet_part(state)
    seats, fleet.rewards = fleet.rewards, []
    paid = seats[: sum(state.bank)]
    return [Pending(seat, "choose_gold", {"count": 1}) for seat in paid], dict.fromkeys(paid, 1)


def _warship_converted(state: State, data: dict[str, Any]) -> None:
    seat, card = data["seat"], DEVELOPMENT_INDEX[data["card"]]
    if state.devs[seat][card] > 0:
        state.devs[seat][card] -= 1
    elif state.new_devs[seat][card] > 0:
        state.new_devs[seat][card] -= 1
    else:  # a card this fold cannot name
        state.dev_unknown[seat] -= 1
    fleet_part(state).warships[seat].append(state.laid().edge_by_name[data["edge"]])


def _fortress_attacked(state: State, data: dict[str, Any]) -> None:
    seat, layout, fleet = data["seat"], state.laid(), fleet_part(state)
    for name in data["ships_lost"]:
        edge = layout.edge_by_name[name]
        state.ship[edge] = NOBODY
        state.ships_of[seat].remove(edge)
        state.pieces[seat]["ship"] += 1
        if edge in fleet.warships[seat]:
            fleet.warships[seat].remove(edge)
    if data["winner"] == "seat":
        fleet.chits[seat] += 1
    if "conquered" in data:  # the fortress's settlement is the seat's own from now on
        corner = layout.corner_by_name[data["conquered"]]
        state.owner[corner] = seat
        state.buildings_of[seat].append(corner)
        state.rates[seat] = layout.rates_with(state.rates[seat], corner)
        if data["fleet_leaves"]:
            state.pirate = None


def _steal_chosen(state: State, data: dict[str, Any]) -> None:
    state.answered(data["seat"], "steal")


EVOLVERS: Final[dict[str, Callable[[State, dict[str, Any]], None]]] = {
    "fleet_moved": _fleet_moved,
    "pirates_attacked": _pirates_attacked,
    "warship_converted": _warship_converted,
    "fortress_attacked": _fortress_attacked,
    "steal_chosen": _steal_chosen,
}

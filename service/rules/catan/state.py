"""The state of a Catan game and how each event changes it (``evolve``).

The state is only ever built by folding events. A seat's own fold of the log as it
reads it (other seats' stolen cards and bought development cards redacted) knows its
own hand exactly and only the number of cards of the others: a card whose kind this
fold does not know is counted in ``unknown``, so ``sum(hand) + unknown`` is always
the true number of cards even where the known counts run below zero.

Open decisions live in an :class:`~service.rules.decisions.Agenda`, changed only
here: a 7 interrupts the turn with the discards and then the robber, a development
card with its own step, a trade offer with the answers of the seats it is made to.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from service.rules.catan import cloth, pirate_islands, tribe, wonders
from service.rules.catan.layout import Layout, layout_of
from service.rules.catan.pieces import (
    AWARD_POINTS,
    BANK,
    COSTS,
    DECK,
    DEVELOPMENT_INDEX,
    KNIGHT,
    NOBODY,
    PIECES,
    RESOURCE_INDEX,
    SHIPS,
    counts_of,
    take_development,
)
from service.rules.core import Event
from service.rules.decisions import Agenda, Pending
from service.rules.hexes.geometry import Hex, parse_hex
from service.rules.seating import next_seated

#: decision kind -> the commands that answer it
ANSWERS: dict[str, tuple[str, ...]] = {
    "set_board": ("set_board",),
    "place_settlement": ("build_settlement",),
    "place_road": ("build_road",),
    "roll": ("roll", "play_knight"),
    "discard": ("discard",),
    "move_robber": ("move_robber",),
    "turn": (
        "build_road",
        "build_settlement",
        "build_city",
        "buy_development",
        "play_knight",
        "play_road_building",
        "play_year_of_plenty",
        "play_monopoly",
        "maritime_trade",
        "offer_trade",
        "end_turn",
    ),
    "free_roads": ("build_road",),
    "respond_trade": ("respond_trade",),
    "conclude_trade": ("confirm_trade", "cancel_trade"),
    "propose_trade": ("propose_trade", "pass_trade"),
    "consider_proposal": ("accept_proposal", "decline_proposal"),
}
#: Seafarers: the same decisions, some answered by more commands, and its own
SEAFARERS_ANSWERS: dict[str, tuple[str, ...]] = {
    **ANSWERS,
    "place_harbour": ("place_harbour",),
    "place_road": ("build_road", "build_ship"),
    "move_robber": ("move_robber", "move_pirate"),
    "turn": (*ANSWERS["turn"][:-1], "build_ship", "move_ship", ANSWERS["turn"][-1]),
    "free_roads": ("build_road", "build_ship"),
    "choose_gold": ("choose_gold",),
}
#: The Wonders of Catan: the wonder commands in the turn, and no pirate
WONDERS_ANSWERS: dict[str, tuple[str, ...]] = {
    **SEAFARERS_ANSWERS,
    "move_robber": ("move_robber",),
    "turn": (*SEAFARERS_ANSWERS["turn"][:-1], *wonders.COMMANDS, ANSWERS["turn"][-1]),
}
#: The Pirate Islands (scenario 7): warships and fortresses in the turn, a steal on a 7
PIRATE_ISLANDS_ANSWERS: dict[str, tuple[str, ...]] = {
    **SEAFARERS_ANSWERS,
    "turn": (*SEAFARERS_ANSWERS["turn"][:-1], *pirate_islands.TURN_COMMANDS, "end_turn"),
    "steal": ("steal",),
}
#: every command of every Catan game, by the decision it answers
ALL_ANSWERS: dict[str, tuple[str, ...]] = {
    **SEAFARERS_ANSWERS,
    "turn": (
        *SEAFARERS_ANSWERS["turn"][:-1],
        *wonders.COMMANDS,
        *pirate_islands.TURN_COMMANDS,
        ANSWERS["turn"][-1],
    ),
    "steal": PIRATE_ISLANDS_ANSWERS["steal"],
}
#: the decisions that belong to one trade under way
TRADE_DECISIONS = frozenset({"respond_trade", "conclude_trade", "consider_proposal"})

SETUP, MAIN, OVER = "setup", "main", "over"


class State:
    """Everything the log has established so far. Mutated in place by :func:`evolve`."""

    __slots__ = (
        "options",
        "seats",
        "layout",
        "owner",
        "city",
        "road",
        "roads_of",
        "buildings_of",
        "pieces",
        "hands",
        "unknown",
        "bank",
        "devs",
        "new_devs",
        "dev_unknown",
        "deck",
        "deck_left",
        "knights",
        "dev_played",
        "robber",
        "phase",
        "current",
        "turn",
        "rolled",
        "last_roll",
        "setup_corner",
        "rates",
        "agenda",
        "longest",
        "road_length",
        "army",
        "offer",
        "free_roads",
        "winners",
        "final",
        "events",
        "scenario",
        "ship",
        "ships_of",
        "new_ships",
        "ship_moved",
        "pirate",
        "areas",
        "area_of",
        "settled",
        "special",
        "fog_tiles",
        "fog_numbers",
        "harbours_left",
        "harbours_placed",
        "wonders",
        "cloth",
        "tribe",
        "fleet",
    )

    def __init__(self) -> None:
        self.options: dict[str, Any] = {}
        self.seats = 0
        self.layout: Layout | None = None
        #: per corner: the seat with a building there, or NOBODY; and whether a city
        self.owner: list[int] = []
        self.city: list[bool] = []
        #: per edge: the seat with a road there, or NOBODY
        self.road: list[int] = []
        self.roads_of: list[list[int]] = []
        self.buildings_of: list[list[int]] = []
        #: per seat: pieces left in supply by kind (road, settlement, city)
        self.pieces: list[dict[str, int]] = []
        self.hands: list[list[int]] = []
        self.unknown: list[int] = []
        self.bank: list[int] = []
        #: per seat: development cards in hand by kind (bought before this turn, and
        #: bought this turn), and cards this fold cannot name
        self.devs: list[list[int]] = []
        self.new_devs: list[list[int]] = []
        self.dev_unknown: list[int] = []
        #: the deck's composition (known to the server's fold only) and size
        self.deck: list[int] = []
        self.deck_left = 0
        self.knights: list[int] = []
        self.dev_played = False
        self.robber: tuple[int, int] | None = None
        self.phase = SETUP
        self.current = 0
        self.turn = 0
        self.rolled = False
        self.last_roll: list[int] | None = None
        #: per seat: the corner of the settlement just placed in the set-up
        self.setup_corner: list[int] = []
        #: per seat: maritime rate per resource (4, 3 at a generic harbour, 2)
        self.rates: list[list[int]] = []
        self.agenda = Agenda(ANSWERS)
        self.longest = NOBODY
        self.road_length: list[int] = []
        self.army = NOBODY
        #: the trade offer under way: seat, give, get, to, answers by seat
        self.offer: dict[str, Any] | None = None
        self.free_roads = 0
        self.winners: list[int] = []
        self.final: list[dict[str, Any]] = []
        self.events = 0
        # -- Seafarers (all empty in the base game) --
        #: the scenario's data from game_started (number, target, areas, fog piles)
        self.scenario: dict[str, Any] | None = None
        #: per edge: the seat with a ship there, or NOBODY
        self.ship: list[int] = []
        self.ships_of: list[list[int]] = []
        #: the ships the seat in turn built this turn (they may not move yet)
        self.new_ships: list[int] = []
        self.ship_moved = False
        self.pirate: Hex | None = None
        #: the land areas (start areas, special points), and each land hex's area
        self.areas: list[dict[str, Any]] = []
        self.area_of: dict[Hex, int] = {}
        #: per seat: the areas it has a settlement or city in (or had, in the set-up)
        self.settled: list[set[int]] = []
        #: per seat: special victory points (first settlements on foreign islands)
        self.special: list[int] = []
        #: The Fog Islands: the face-down piles, by terrain and by number
        self.fog_tiles: dict[str, int] = {}
        self.fog_numbers: dict[int, int] = {}
        #: The New World: harbour markers still to be placed, and the places chosen
        self.harbours_left: list[str] = []
        self.harbours_placed: list[str] = []
        #: The Wonders of Catan: the cards, each seat's wonder and its level
        self.wonders: wonders.Wonders | None = None
        #: Cloth for Catan: the villages, the reserve and the seats' cloth
        self.cloth: cloth.Cloth | None = None
        #: The Forgotten Tribe: the gifts, chits and held harbour markers (None elsewhere)
        self.tribe: tribe.Tribe | None = None
        #: The Pirate Islands: the fleet, routes, warships and fortresses
        self.fleet: pirate_islands.Fleet | None = None

    def copy(self) -> State:
        other = State.__new__(State)
        for name in ("options", "seats", "layout", "deck_left", "dev_played", "robber"):
            setattr(other, name, getattr(self, name))
        for name in ("phase", "current", "turn", "rolled", "last_roll", "longest", "army"):
            setattr(other, name, getattr(self, name))
        other.free_roads, other.events, other.final = self.free_roads, self.events, self.final
        other.owner, other.city, other.road = list(self.owner), list(self.city), list(self.road)
        for name in ("roads_of", "buildings_of", "hands", "devs", "new_devs", "rates"):
            setattr(other, name, [list(x) for x in getattr(self, name)])
        other.pieces = [dict(p) for p in self.pieces]
        for name in ("unknown", "bank", "dev_unknown", "deck", "knights", "setup_corner"):
            setattr(other, name, list(getattr(self, name)))
        other.road_length, other.winners = list(self.road_length), list(self.winners)
        other.agenda = self.agenda.copy()
        other.offer = None if self.offer is None else copy_offer(self.offer)
        other.scenario, other.areas, other.area_of = self.scenario, self.areas, self.area_of
        other.pirate = self.pirate
        other.ship, other.ships_of = list(self.ship), [list(x) for x in self.ships_of]
        other.new_ships, other.ship_moved = list(self.new_ships), self.ship_moved
        other.settled, other.special = [set(x) for x in self.settled], list(self.special)
        other.fog_tiles, other.fog_numbers = dict(self.fog_tiles), dict(self.fog_numbers)
        other.harbours_left = list(self.harbours_left)
        other.harbours_placed = list(self.harbours_placed)
        other.wonders = None if self.wonders is None else self.wonders.copy()
        other.cloth = None if self.cloth is None else self.cloth.copy()
        other.tribe = None if self.tribe is None else self.tribe.copy()
        other.fleet = None if self.fleet is None else self.fleet.copy()
        return other

    # -- the optional fields where the phase guarantees them ---------------------------

    def laid(self) -> Layout:
        """The layout, where the board is known (everywhere after ``set_board``)."""
        layout = self.layout
        assert layout is not None, "the board is not laid yet"
        return layout

    def seafarers(self) -> dict[str, Any]:
        """The scenario's data, where the game is one of Seafarers' scenarios."""
        scenario = self.scenario
        assert scenario is not None, "not a Seafarers game"
        return scenario

    def trade_offer(self) -> dict[str, Any]:
        """The trade offer (or proposal) under way, where a trade decision is open."""
        offer = self.offer
        assert offer is not None, "no trade is under way"
        return offer

    def answered(self, seat: int, kind: str) -> None:
        """The seat's open decision of this kind has been answered: it closes."""
        decision = self.agenda.find(seat, kind)
        assert decision is not None, f"no {kind} is open for seat {seat}"
        self.agenda.close(decision)

    # -- what follows from the fields ------------------------------------------------

    def cards(self, seat: int) -> int:
        return sum(self.hands[seat]) + self.unknown[seat]

    def dev_count(self, seat: int) -> int:
        return sum(self.devs[seat]) + sum(self.new_devs[seat]) + self.dev_unknown[seat]

    def public_points(self, seat: int) -> int:
        """Points everyone can count: buildings, the two awards, special points (and
        cloth, in Cloth for Catan)."""
        buildings, city = self.buildings_of[seat], self.city
        points = len(buildings)
        for corner in buildings:  # a city: 2 (a loop costs less than sum and map here)
            if city[corner]:
                points += 1
        points += AWARD_POINTS * ((self.longest == seat) + (self.army == seat))
        if self.cloth is not None:  # Cloth for Catan: 2 cloth, 1 point
            points += cloth.points(self.cloth, seat)
        if self.tribe is not None:  # The Forgotten Tribe's chits
            points += self.tribe.chits[seat]
        return points + (self.special[seat] if self.special else 0)

    def others_buildings(self, seat: int) -> set[int]:
        """The corners holding another seat's settlement or city (which cut its roads)."""
        return {c for other, built in enumerate(self.buildings_of) if other != seat for c in built}

    def occupied(self, edge: int) -> bool:
        """Whether a path holds a road or a ship (a coast path holds one, not both)."""
        return self.road[edge] != NOBODY or (bool(self.ship) and self.ship[edge] != NOBODY)

    def hidden_points(self, seat: int) -> int:
        """Victory point cards, known to their owner's fold (and the server's)."""
        return self.devs[seat][1] + self.new_devs[seat][1]

    def points(self, seat: int) -> int:
        # (hidden_points, without the call: asked at every end of turn)
        return self.public_points(seat) + self.devs[seat][1] + self.new_devs[seat][1]


def copy_offer(offer: dict[str, Any]) -> dict[str, Any]:
    """An offer that the state's later answers (written in place) do not change."""
    return {**offer, "answers": dict(offer["answers"])}


# -- evolvers ---------------------------------------------------------------------------


def _game_started(state: State, data: dict[str, Any]) -> None:
    state.options = data["options"]
    state.seats = seats = data["seats"]
    state.bank = [BANK] * 5
    state.deck = list(DECK)
    state.deck_left = sum(DECK)
    state.hands = [[0] * 5 for _ in range(seats)]
    state.unknown = [0] * seats
    state.devs = [[0] * 5 for _ in range(seats)]
    state.new_devs = [[0] * 5 for _ in range(seats)]
    state.dev_unknown = [0] * seats
    state.knights = [0] * seats
    state.pieces = [dict(PIECES) for _ in range(seats)]
    state.roads_of = [[] for _ in range(seats)]
    state.buildings_of = [[] for _ in range(seats)]
    state.setup_corner = [NOBODY] * seats
    state.rates = [[4] * 5 for _ in range(seats)]
    state.road_length = [0] * seats
    scenario = data.get("scenario")
    if scenario is not None:
        state.scenario = scenario
        state.agenda = Agenda(SEAFARERS_ANSWERS)
        for pieces in state.pieces:
            pieces["ship"] = SHIPS
        state.ships_of = [[] for _ in range(seats)]
        state.settled = [set() for _ in range(seats)]
        state.special = [0] * seats
        if scenario["fog"] is not None:
            state.fog_tiles = dict(scenario["fog"]["terrains"])
            state.fog_numbers = {int(n): c for n, c in scenario["fog"]["numbers"].items()}
        state.harbours_left = list(scenario["harbours_to_place"])
        if scenario.get("wonders") is not None:  # The Wonders of Catan
            state.wonders = wonders.Wonders.started(scenario["wonders"], seats)
            state.agenda = Agenda(WONDERS_ANSWERS)
        state.fleet = pirate_islands.fleet_of(scenario, seats)
        if state.fleet is not None:
            state.agenda = Agenda(PIRATE_ISLANDS_ANSWERS)
            state.deck = pirate_islands.deck(seats)
            state.deck_left = sum(state.deck)
    if data.get("board") is None:
        state.agenda.then(Pending(0, "set_board"))
    else:
        _lay_board(state, data["board"])


def _lay_board(state: State, board: dict[str, Any]) -> None:
    """The board is known: the set-up starts (snake order), then the first turn."""
    state.layout = layout = layout_of(board)
    state.robber = layout.board.robber
    state.pirate = layout.board.pirate
    state.owner = [NOBODY] * len(layout.grid.corners)
    state.city = [False] * len(layout.grid.corners)
    state.road = [NOBODY] * len(layout.grid.edges)
    if state.scenario is not None:
        state.ship = [NOBODY] * len(layout.grid.edges)
        state.areas = _areas(state.scenario, layout)
        state.area_of = {
            parse_hex(h): i for i, area in enumerate(state.areas) for h in area["hexes"]
        }
        if "tribe" in state.scenario:
            tribe.start(state)
    if state.fleet is not None:
        pirate_islands.lay_start_pieces(state)
    # The New World: the seats place the harbour markers in turn, then the set-up
    for i in range(len(state.harbours_left)):
        state.agenda.then(Pending(i % state.seats, "place_harbour"))
    order = [*range(state.seats), *reversed(range(state.seats))]
    if state.scenario is not None and "cloth" in state.scenario:
        # Cloth for Catan: the villages, and a third settlement for every seat
        state.cloth = cloth.lay(state.scenario["cloth"], layout, state.seats)
        order += range(state.seats)
    for seat in order:
        state.agenda.then(Pending(seat, "place_settlement"))
        state.agenda.then(Pending(seat, "place_road"))
    state.agenda.then(Pending(0, "roll"))


def _areas(scenario: dict[str, Any], layout: Layout) -> list[dict[str, Any]]:
    """The scenario's land areas; where it names none (The New World), each island."""
    if scenario["areas"] is not None:
        return list(scenario["areas"])
    islands: dict[int, list[str]] = {}
    for h, island in layout.island_of.items():
        islands.setdefault(island, []).append(layout.hex_names[h])
    return [
        {
            "name": f"island-{i + 1}",
            "hexes": sorted(hexes),
            "start": True,
            "special_points": scenario["island_points"],
        }
        for i, hexes in sorted(islands.items())
    ]


def _board_set(state: State, data: dict[str, Any]) -> None:
    state.agenda.close(state.agenda.open[0])
    _lay_board(state, data["board"])


def _pay(state: State, seat: int, cost: tuple[int, ...] | list[int]) -> None:
    hand, bank = state.hands[seat], state.bank
    for i, n in enumerate(cost):
        hand[i] -= n
        bank[i] += n


def _gain(state: State, seat: int, counts: list[int]) -> None:
    hand, bank = state.hands[seat], state.bank
    for i, n in enumerate(counts):
        hand[i] += n
        bank[i] -= n


def _settlement_built(state: State, data: dict[str, Any]) -> None:
    layout = state.laid()
    seat, corner = data["seat"], layout.corner_by_name[data["corner"]]
    state.owner[corner] = seat
    state.buildings_of[seat].append(corner)
    for other, length in data.get("roads_cut", {}).items():
        state.road_length[int(other)] = length
    state.pieces[seat]["settlement"] -= 1
    state.rates[seat] = layout.rates_with(state.rates[seat], corner)
    if state.scenario is not None:
        state.settled[seat].update(data["areas"])
        state.special[seat] += data.get("special", 0)
        if "length" in data:  # a road and a ship of the seat now join here
            state.road_length[seat] = data["length"]
    if state.phase == SETUP:
        state.setup_corner[seat] = corner
        state.agenda.close(state.agenda.open[0])
    else:
        _pay(state, seat, COSTS["settlement"])
        if state.tribe is not None:  # a held harbour marker may now have a place
            tribe.offer_harbour(state, seat)


def _road_built(state: State, data: dict[str, Any]) -> None:
    seat, edge = data["seat"], state.laid().edge_by_name[data["edge"]]
    state.road[edge] = seat
    state.roads_of[seat].append(edge)
    _path_built(state, data, "road")


def _ship_built(state: State, data: dict[str, Any]) -> None:
    seat, edge = data["seat"], state.laid().edge_by_name[data["edge"]]
    state.ship[edge] = seat
    state.ships_of[seat].append(edge)
    if state.phase != SETUP:  # a ship of the set-up may move in its owner's first turn
        state.new_ships.append(edge)
    _path_built(state, data, "ship")


def _path_built(state: State, data: dict[str, Any], kind: str) -> None:
    """What a road and a ship have in common: the piece, the length, the decision."""
    seat = data["seat"]
    state.road_length[seat] = data["length"]
    state.pieces[seat][kind] -= 1
    if state.phase == SETUP:
        state.agenda.close(state.agenda.open[0])
        if len(state.agenda.open) == 1 and state.agenda.open[0].kind == "roll":
            state.phase = MAIN
            state.turn = 1
    elif data.get("free"):
        state.free_roads -= 1
        if state.free_roads == 0:
            state.answered(seat, "free_roads")
    else:
        _pay(state, seat, COSTS[kind])


def _ship_moved(state: State, data: dict[str, Any]) -> None:
    seat, by_name = data["seat"], state.laid().edge_by_name
    origin, target = by_name[data["from"]], by_name[data["to"]]
    state.ship[origin] = NOBODY
    state.ship[target] = seat
    ships = state.ships_of[seat]
    ships[ships.index(origin)] = target
    state.road_length[seat] = data["length"]
    state.ship_moved = True


def _free_roads_ended(state: State, data: dict[str, Any]) -> None:
    state.free_roads = 0
    state.answered(data["seat"], "free_roads")


def _city_built(state: State, data: dict[str, Any]) -> None:
    seat, corner = data["seat"], state.laid().corner_by_name[data["corner"]]
    state.city[corner] = True
    state.pieces[seat]["city"] -= 1
    state.pieces[seat]["settlement"] += 1
    _pay(state, seat, COSTS["city"])


def _resources_taken(state: State, data: dict[str, Any]) -> None:
    """Starting resources, production, a year of plenty: from the bank to seats; gold
    fields (Seafarers) owe resources of each seat's choice, chosen at once."""
    hands, bank = state.hands, state.bank
    for seat, resources in data["gains"].items():
        hand = hands[int(seat)]
        for name, n in resources.items():
            i = RESOURCE_INDEX[name]
            hand[i] += n
            bank[i] -= n
    gold = data.get("gold")
    if gold:
        choices = [Pending(int(s), "choose_gold", {"count": n}) for s, n in gold.items()]
        state.agenda.interrupt(choices)


def _gold_chosen(state: State, data: dict[str, Any]) -> None:
    seat = data["seat"]
    _gain(state, seat, counts_of(data["resources"]))
    state.answered(seat, "choose_gold")


def _hex_revealed(state: State, data: dict[str, Any]) -> None:
    """The Fog Islands: a space's tile (and number, on land) turned up from the piles;
    a land tile gives the builder its resource (gold: one of its choice)."""
    board = state.laid().board.to_json()
    for tile in board["hexes"]:
        if tile["hex"] == data["hex"]:
            tile["terrain"], tile["number"] = data["terrain"], data["number"]
    state.layout = layout_of(board)
    state.fog_tiles[data["terrain"]] -= 1
    if data["number"] is not None:
        state.fog_numbers[data["number"]] -= 1
    _resources_taken(state, data)


def _harbour_placed(state: State, data: dict[str, Any]) -> None:
    """The New World: a harbour marker placed face down; the last one placed turns
    them all up (``harbours``, the whole list)."""
    state.answered(data["seat"], "place_harbour")
    state.harbours_left.pop()
    state.harbours_placed.append(data["edge"])
    if "harbours" in data:
        board = state.laid().board.to_json()
        board["harbours"] = data["harbours"]
        state.layout = layout_of(board)


def _wonder_started(state: State, data: dict[str, Any]) -> None:
    """The Wonders of Catan: one of the seat's ships from its supply goes on the card."""
    seat = data["seat"]
    state.pieces[seat]["ship"] -= 1
    wonders.wonders_part(state).wonder[seat] = data["wonder"]


def _wonder_built(state: State, data: dict[str, Any]) -> None:
    seat = data["seat"]
    _pay(state, seat, counts_of(data["cost"]))
    wonders.wonders_part(state).level[seat] = data["level"]


def _dice_rolled(state: State, data: dict[str, Any]) -> None:
    seat = data["seat"]
    state.rolled = True
    state.last_roll = list(data["dice"])
    agenda = state.agenda
    if len(agenda.open) == 1:  # the roll alone, as nearly always: no search for it
        if data["total"] != 7 and state.fleet is None:  # and no 7: the turn opens
            agenda.close_open_then(*_trading_phase(state.seats, seat))
            return
        agenda.close_open()
    else:
        state.answered(seat, "roll")
    # The Pirate Islands: the rewards for beating the fleet come first, even on a 7, whose
    # discards count the cards they give
    fleet = state.fleet is not None
    rewards, rewarded = pirate_islands.rewards_due(state) if fleet else ([], {})
    if data["total"] == 7:
        limit = state.options["discard_limit"]
        held = [state.cards(other) + rewarded.get(other, 0) for other in range(state.seats)]
        discards = [
            Pending(other, "discard", {"count": cards // 2})
            for other, cards in enumerate(held)
            if cards > limit
        ]
        agenda.then(*discards)  # every seat concerned at once, in any order
        # The Pirate Islands: no robber; the roller may steal from any seat
        agenda.then(Pending(seat, "steal" if fleet else "move_robber"))
    agenda.then(*_trading_phase(state.seats, seat))
    if rewards:
        agenda.interrupt(rewards)


@cache
def _trading_phase(seats: int, seat: int) -> tuple[Pending, ...]:
    """The trading and building phase of ``seat``'s turn: its turn, and each other seat
    may propose a trade, once (the same every turn, so made once)."""
    proposals = [Pending(o, "propose_trade", {"to": seat}) for o in range(seats) if o != seat]
    return (Pending(seat, "turn"), *proposals)


@cache
def _roll_of(seat: int) -> Pending:
    return Pending(seat, "roll")


def _discarded(state: State, data: dict[str, Any]) -> None:
    seat = data["seat"]
    hand, bank = state.hands[seat], state.bank
    for i, n in enumerate(counts_of(data["resources"])):
        hand[i] -= n
        bank[i] += n
    state.answered(seat, "discard")


def _robber_moved(state: State, data: dict[str, Any]) -> None:
    state.robber = state.laid().hex_by_name[data["hex"]]
    state.answered(data["seat"], "move_robber")


def _pirate_moved(state: State, data: dict[str, Any]) -> None:
    state.pirate = state.laid().hex_by_name[data["hex"]]
    state.answered(data["seat"], "move_robber")


def _card_stolen(state: State, data: dict[str, Any]) -> None:
    thief, victim, resource = data["thief"], data["victim"], data.get("resource")
    if resource is None:  # redacted: one card this fold cannot name changed hands
        state.unknown[victim] -= 1
        state.unknown[thief] += 1
    else:
        state.hands[victim][RESOURCE_INDEX[resource]] -= 1
        state.hands[thief][RESOURCE_INDEX[resource]] += 1


def _development_bought(state: State, data: dict[str, Any]) -> None:
    seat = data["seat"]
    _pay(state, seat, COSTS["development"])
    state.deck_left -= 1
    take_development(state, seat, data.get("card"))


def _play(state: State, seat: int, card: int) -> None:
    """A development card leaves the hand (a card this fold cannot name if need be)."""
    if state.devs[seat][card] > 0:
        state.devs[seat][card] -= 1
    else:
        state.dev_unknown[seat] -= 1
    state.dev_played = True


def _knight_played(state: State, data: dict[str, Any]) -> None:
    seat = data["seat"]
    _play(state, seat, KNIGHT)
    state.knights[seat] += 1
    state.agenda.interrupt([Pending(seat, "move_robber")])


def _road_building_played(state: State, data: dict[str, Any]) -> None:
    seat = data["seat"]
    _play(state, seat, DEVELOPMENT_INDEX["road_building"])
    state.free_roads = data["roads"]
    state.agenda.interrupt([Pending(seat, "free_roads", {"roads": data["roads"]})])


def _year_of_plenty_played(state: State, data: dict[str, Any]) -> None:
    seat = data["seat"]
    _play(state, seat, DEVELOPMENT_INDEX["year_of_plenty"])
    _gain(state, seat, counts_of(data["resources"]))


def _monopoly_played(state: State, data: dict[str, Any]) -> None:
    seat, resource = data["seat"], RESOURCE_INDEX[data["resource"]]
    _play(state, seat, DEVELOPMENT_INDEX["monopoly"])
    for other, n in data["taken"].items():
        state.hands[int(other)][resource] -= n
        state.hands[seat][resource] += n


def _maritime_traded(state: State, data: dict[str, Any]) -> None:
    # (_pay and _gain of counts_of, written out: a turn's commonest trade)
    hand, bank = state.hands[data["seat"]], state.bank
    for name, n in data["give"].items():
        i = RESOURCE_INDEX[name]
        hand[i] -= n
        bank[i] += n
    for name, n in data["get"].items():
        i = RESOURCE_INDEX[name]
        hand[i] += n
        bank[i] -= n


def _trade_proposed(state: State, data: dict[str, Any]) -> None:
    seat, active = data["seat"], data["to"]
    state.answered(seat, "propose_trade")
    state.offer = {
        "seat": seat,
        "give": data["give"],
        "get": data["get"],
        "to": [active],
        "answers": {},
        "proposal": True,
    }
    details = {"from": seat, "give": data["give"], "get": data["get"]}
    state.agenda.interrupt([Pending(active, "consider_proposal", details)])


def _trade_passed(state: State, data: dict[str, Any]) -> None:
    state.answered(data["seat"], "propose_trade")


def _trade_offered(state: State, data: dict[str, Any]) -> None:
    seat, to = data["seat"], data["to"]
    state.offer = {
        "seat": seat,
        "give": data["give"],
        "get": data["get"],
        "to": list(to),
        "answers": {},
        "proposal": False,
    }
    asked = [Pending(other, "respond_trade", {"from": seat}) for other in to]
    state.agenda.interrupt([*asked, Pending(seat, "conclude_trade")])


def _trade_answered(state: State, data: dict[str, Any]) -> None:
    seat, offer = data["seat"], state.trade_offer()
    answer = {"answer": data["answer"]}
    if data["answer"] == "counter":
        answer.update(give=data["give"], get=data["get"])
    offer["answers"][str(seat)] = answer
    state.answered(seat, "respond_trade")
    everyone = len(offer["answers"]) == len(offer["to"])
    if everyone and all(a["answer"] == "decline" for a in offer["answers"].values()):
        _close_offer(state)


def _trade_made(state: State, data: dict[str, Any]) -> None:
    seat, partner = data["seat"], data["with"]
    give, get = counts_of(data["give"]), counts_of(data["get"])
    for i in range(5):
        state.hands[seat][i] += get[i] - give[i]
        state.hands[partner][i] += give[i] - get[i]
    _close_offer(state)


def _trade_cancelled(state: State, data: dict[str, Any]) -> None:
    """The active seat withdrew its offer, or declined a proposal."""
    _close_offer(state)


def _close_offer(state: State) -> None:
    """The offer is over: whoever has not answered need not, and the turn goes on."""
    for decision in list(state.agenda.open):
        if decision.kind in TRADE_DECISIONS:
            state.agenda.close(decision)
    state.offer = None


def _longest_road(state: State, data: dict[str, Any]) -> None:
    holder = data["seat"]
    state.longest = NOBODY if holder is None else holder


def _largest_army(state: State, data: dict[str, Any]) -> None:
    state.army = data["seat"]


def _turn_ended(state: State, data: dict[str, Any]) -> None:
    seat, following = data["seat"], data["next"]
    new = state.new_devs[seat]
    if any(new):
        devs = state.devs[seat]
        for i, n in enumerate(new):
            devs[i] += n
        state.new_devs[seat] = [0] * 5
    state.current = following
    state.turn += 1
    state.rolled = False
    state.dev_played = False
    if state.new_ships:  # Seafarers
        state.new_ships = []
    state.ship_moved = False
    # the turn and the proposals not made close; the next roll opens
    state.agenda.close_open_then(_roll_of(following))


def _seat_resigned(state: State, data: dict[str, Any]) -> None:
    """The seat leaves the game; its pieces and hand stay. A trade it is part of lapses.
    In its own turn (after the set-up) the turn is over: the decider's ``turn_ended``
    follows. In the set-up its placements are dropped and what the game cannot go on
    without (the board to set, the first roll) passes to the next seat."""
    seat = data["seat"]
    offer = state.offer
    if offer is not None and (seat == offer["seat"] or seat in offer["to"]):
        _close_offer(state)
    agenda = state.agenda
    heir = next_seated(seat, state.seats, agenda.absent | {seat})
    if state.phase == MAIN and state.current == seat:
        agenda.close_all()
    elif state.current == seat:
        state.current = heir
    agenda.leave(seat, heir, passed=("set_board", "roll"))


def _game_ended(state: State, data: dict[str, Any]) -> None:
    state.winners = list(data["winners"])
    state.final = list(data["points"])
    state.phase = OVER
    state.agenda.close_all()


EVOLVERS: dict[str, Callable[[State, dict[str, Any]], None]] = {
    "game_started": _game_started,
    "board_set": _board_set,
    "settlement_built": _settlement_built,
    "road_built": _road_built,
    "ship_built": _ship_built,
    "ship_moved": _ship_moved,
    "pirate_moved": _pirate_moved,
    "gold_chosen": _gold_chosen,
    "hex_revealed": _hex_revealed,
    "harbour_placed": _harbour_placed,
    "wonder_started": _wonder_started,
    "wonder_built": _wonder_built,
    "free_roads_ended": _free_roads_ended,
    "city_built": _city_built,
    "starting_resources": _resources_taken,
    "resources_produced": _resources_taken,
    "dice_rolled": _dice_rolled,
    "discarded": _discarded,
    "robber_moved": _robber_moved,
    "card_stolen": _card_stolen,
    "development_bought": _development_bought,
    "knight_played": _knight_played,
    "road_building_played": _road_building_played,
    "year_of_plenty_played": _year_of_plenty_played,
    "monopoly_played": _monopoly_played,
    "maritime_traded": _maritime_traded,
    "trade_proposed": _trade_proposed,
    "trade_passed": _trade_passed,
    "trade_offered": _trade_offered,
    "trade_answered": _trade_answered,
    "trade_made": _trade_made,
    "trade_cancelled": _trade_cancelled,
    "longest_road": _longest_road,
    "largest_army": _largest_army,
    "turn_ended": _turn_ended,
    "game_ended": _game_ended,
    "seat_resigned": _seat_resigned,
    **cloth.EVOLVERS,
    **tribe.EVOLVERS,
    **pirate_islands.EVOLVERS,
}


def evolve(state: State, event: Event) -> State:
    """Fold one event into ``state`` (in place); the state."""
    EVOLVERS[event.type](state, event.data)
    state.events += 1
    return state

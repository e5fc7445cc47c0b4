"""The Catan decider (base game): commands in, events out.

A game opens with the board (drawn from the seed, the beginner layout, or, with
external randomness, sent as ``set_board``), then the set-up in snake order: each
seat places a settlement and a road beside it, the last seat first in the second
round, and takes one resource per terrain next to its second settlement. A turn is:
``roll`` (a knight may be played first), production, then building, buying and
playing development cards and trading in any order, until ``end_turn``. A 7 makes
every seat with more than ``discard_limit`` cards discard half at once, then the
roller moves the robber and steals. The first seat with ``victory_points`` during its
own turn wins.

Every decision is an entry of the state's agenda (see :mod:`service.rules.catan.state`);
each command answers one. The rules in words are in :data:`RULES`, the commands and
events in docs/rulesets/catan.md.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any, ClassVar

from service.rules.catan import (
    building,
    cloth,
    pirate_islands,
    scenarios,
    shapes,
    ships,
    tribe,
    wonders,
)
from service.rules.catan.awards import (
    cut_roads,
    largest_army_holder,
    longest_road_holder,
    road_length,
)
from service.rules.catan.board import (
    FOG,
    GOLD,
    HARBOUR_TYPES,
    RESOURCES,
    SEA,
    TERRAIN_RESOURCE,
    Board,
    base_data,
    beginner_board,
    frame_problem,
    random_board,
    variable_setup_problem,
)
from service.rules.catan.layout import layout_of
from service.rules.catan.pieces import (
    AWARD_POINTS,
    COSTS,
    DEVELOPMENT_CARDS,
    DEVELOPMENT_INDEX,
    KNIGHT,
    MONOPOLY,
    RESOURCE_INDEX,
    ROAD_BUILDING,
    YEAR_OF_PLENTY,
    can_pay,
    named,
    parse_resources,
)
from service.rules.catan.production import production_data, starting_gold, starting_resources
from service.rules.catan.state import (
    ALL_ANSWERS,
    EVOLVERS,
    MAIN,
    NOBODY,
    OVER,
    SETUP,
    State,
    copy_offer,
    evolve,
)
from service.rules.core import (
    JSON,
    RANDOMNESS_MODES,
    Event,
    InvalidOptions,
    Ruleset,
    Turn,
    checked_options,
    secret_salt,
)
from service.rules.decisions import Decision
from service.rules.hexes.geometry import corner_name, edge_corners, hex_name
from service.rules.seating import next_seated

#: the faces of a die
_DIE = (1, 2, 3, 4, 5, 6)

#: Event(type, data), made as Event.__new__ makes it, without its call: for the events
#: of every turn (``_event((type, data, None))``)
_event = partial(tuple.__new__, Event)
SCENARIOS = {info.number: info for info in scenarios.available()}
#: the least answer to a decision out of turn, for a seat that ran out of time
PASSES: dict[str, JSON] = {
    "respond_trade": {"type": "respond_trade", "answer": "decline"},
    "propose_trade": {"type": "pass_trade"},
    "consider_proposal": {"type": "decline_proposal"},
    "conclude_trade": {"type": "cancel_trade"},
}

OPTIONS: dict[str, dict[str, Any]] = {
    "scenario": {
        "type": "integer",
        "enum": [None, *SCENARIOS],
        "default": None,
        "description": "null: the base game. A Seafarers scenario: "
        + "; ".join(
            f"{n}: {info.title_en} ({info.title_fr}), {'/'.join(map(str, info.players))} "
            f"players, {info.victory_points} points"
            for n, info in SCENARIOS.items()
        )
        + ". Its victory points are the default target.",
        # what a form shows for each value (keys: the value as JSON)
        "labels": {
            "null": "none: the base game",
            **{
                str(n): f"{n}: {info.title_en} ({'/'.join(map(str, info.players))} players,"
                f" {info.victory_points} points)"
                for n, info in SCENARIOS.items()
            },
        },
        # the seat counts a value is played with (keys: the value as JSON), for a form to
        # offer enough seats; the base game's are the ruleset's own
        "seats": {str(n): list(info.players) for n, info in SCENARIOS.items()},
    },
    "layout": {
        "type": "string",
        "enum": ["random", "beginner"],
        "default": "random",
        "description": "random: the variable set-up (terrain shuffled from the seed, "
        "numbers laid in the rulebook's spiral from a corner, harbour types shuffled, the "
        "robber on the desert; a scenario: its own random set-up); beginner: the fixed "
        "starting set-up for beginners (a scenario: its map as illustrated).",
    },
    "numbers": {
        "type": "string",
        "enum": ["spiral", "shuffled"],
        "default": "spiral",
        "description": "How the random layout lays the number tokens: spiral (the "
        "rulebook's lettered order, inwards from a corner, skipping the desert) or "
        "shuffled (the almanac's fully random placement).",
    },
    "no_adjacent_red_numbers": {
        "type": "boolean",
        "default": False,
        "description": "Variant of the random layout: no 6 or 8 beside another 6 or 8 "
        "(the spiral never puts them side by side; this matters with shuffled numbers).",
    },
    "victory_points": {
        "type": "integer",
        "enum": list(range(3, 21)),
        "default": 10,
        "description": "Points that win, during one's own turn (the rules: 10; a "
        "scenario: its own target, unless this is given).",
        "default_label": "the game's own: 10, or the scenario's target",
    },
    "discard_limit": {
        "type": "integer",
        "enum": list(range(5, 21)),
        "default": 7,
        "description": "On a 7, a seat holding more cards than this discards half of "
        "them, rounded down (the rules: 7).",
    },
    "board": {
        "type": "object",
        "default": None,
        "description": "A whole board in game_started's shape, with the base game's "
        "components, to play instead of a drawn one (checked).",
    },
    "randomness": {
        "type": "string",
        "enum": list(RANDOMNESS_MODES),
        "default": "internal",
        "description": "internal: the server rolls the dice, lays the random board, draws "
        "development cards and stolen cards; external: they arrive in the commands "
        "(set_board, roll's dice, buy_development's card, move_robber's resource) and are "
        "checked against what is possible.",
    },
}

RULES = {
    "not_your_turn": "Players take turns clockwise; only an awaited seat may act (every "
    "seat with too many cards discards on a 7, seats choose gold and answer trade offers, "
    "outside their turn).",
    "unknown_command": "Commands are set_board, build_settlement, build_road, build_city, "
    "roll, discard, move_robber, buy_development, play_knight, play_road_building, "
    "play_year_of_plenty, play_monopoly, maritime_trade, offer_trade, respond_trade, "
    "confirm_trade, cancel_trade, propose_trade, pass_trade, accept_proposal, "
    "decline_proposal and end_turn; with Seafarers also build_ship, move_ship, "
    "move_pirate, choose_gold and place_harbour; with The Wonders of Catan also start_wonder and "
    "build_wonder (and no move_pirate).",
    "game_over": "The game ends as soon as a player has the winning points on their turn."
    " No move is made once it has ended, nor once it is abandoned or one seat is left.",
    "bad_command": "The command is missing a field or has one of the wrong type.",
    "unknown_intersection": "Intersections are named q,r,N or q,r,S (see the docs).",
    "unknown_path": "Paths are named q,r,NE, q,r,E or q,r,SE (see the docs).",
    "unknown_hex": "Hexes are named q,r (see the docs).",
    "intersection_occupied": "A settlement goes on a free intersection.",
    "distance_rule": "A settlement may only be built if the three adjacent intersections "
    "are free (the distance rule).",
    "settlement_not_connected": "After the set-up, a settlement must be joined to one of "
    "the player's roads.",
    "no_settlements_left": "Each player has 5 settlements.",
    "no_settlement_there": "A city replaces one of the player's own settlements.",
    "no_cities_left": "Each player has 4 cities.",
    "path_occupied": "A road or a ship goes on a free path.",
    "no_roads_left": "Each player has 15 roads.",
    "road_not_beside_settlement": "In the set-up, each road goes beside the settlement "
    "just placed.",
    "road_not_connected": "A road must join the player's own road, settlement or city, and "
    "may not pass through another player's settlement or city.",
    "cannot_afford": "Building costs: road = brick + lumber; settlement = brick + lumber + "
    "wool + grain; city = 2 grain + 3 ore; development card = wool + grain + ore.",
    "bad_dice": "Two dice, each 1 to 6.",
    "wrong_discard": "On a 7, a player with more than 7 cards returns half of them "
    "(rounded down) to the bank, chosen from the cards they hold.",
    "robber_must_move": "The robber must be moved to another hex.",
    "bad_victim": "The robber's mover steals from a player with a settlement or city on "
    "the robber's hex who holds a card (the pirate's: from one with a ship beside its hex).",
    "resource_not_held": "Only a card the player holds can be stolen.",
    "deck_empty": "No development cards are left.",
    "card_not_in_deck": "The drawn card must be one still in the deck.",
    "no_such_card": "A player plays a development card they hold.",
    "card_bought_this_turn": "A development card may not be played in the turn it was bought.",
    "development_card_played": "Only one development card may be played per turn.",
    "no_road_possible": "Road Building places up to 2 roads where roads could be built.",
    "bad_resources": "Resources are counted per type: brick, lumber, wool, grain, ore.",
    "year_of_plenty_takes_two": "Year of Plenty takes any 2 resources from the bank.",
    "bank_empty": "The bank must hold the resources taken.",
    "bad_maritime_trade": "Maritime trade gives 4 of one resource (3 at a generic "
    "harbour, 2 at that resource's harbour) for 1 other resource.",
    "not_enough_resources": "Nobody can trade or give what they do not hold.",
    "bad_offer": "An offer gives some resources for some others (none on both sides), to "
    "one or more other players.",
    "bad_answer": "An offer is answered accept, decline or counter (with a counter-offer).",
    "not_a_partner": "The active player trades with a player who accepted their offer or "
    "made a counter-offer.",
    "bad_board": "A board brings the base game's components: 19 terrain hexes, 18 number "
    "tokens, 9 harbours, the robber on the desert (a scenario: its own components on its "
    "own frame).",
    "settlement_at_sea": "A settlement goes on an intersection of a land tile.",
    "road_at_sea": "A road goes on a path beside land; at sea, ships.",
    "robber_on_land": "The robber goes on a land tile (the pirate on a sea tile).",
    "pirate_at_sea": "The pirate goes on another sea tile.",
    "not_a_start_area": "The scenario says where the first two settlements go.",
    "ship_on_land": "A ship goes at sea (between two sea tiles) or along a coast (between a "
    "sea tile and a land tile).",
    "no_ships_left": "Each player has 15 ships.",
    "ship_not_connected": "A ship goes beside the player's own settlement or city, or "
    "continues one of their ships; never straight after a road, nor through another "
    "player's settlement or city.",
    "pirate_blocks": "No ship is built or moved beside the pirate.",
    "one_ship_move_per_turn": "A player moves at most one ship per turn.",
    "no_ship_there": "A player moves one of their own ships.",
    "ship_built_this_turn": "A ship may not move in the turn it was built.",
    "ship_not_movable": "Only the last ship of an open line moves (a line joining two of "
    "the player's settlements or cities is closed and never moves).",
    "ship_must_move": "A ship moves to another path.",
    "wrong_gold": "A gold field gives 1 resource of the player's choice per settlement and 2 "
    "per city, from the bank.",
    "bad_reveal": "A fog space turned up takes the top tile of the pile (and, on land, the "
    "top number): one still in the piles.",
    "harbour_not_on_coast": "A harbour marker goes on a free coast beside a land tile.",
    "bad_harbour_types": "The harbour markers turned up are the scenario's, each once.",
    # The Wonders of Catan
    "marked_intersection": "No start settlement goes on an intersection marked with a "
    'coloured square or a yellow "!".',
    "unknown_wonder": "The wonders are the theater, great_bridge, monument, great_wall and "
    "cathedral.",
    "one_wonder_each": "Each player builds one wonder.",
    "wonder_taken": "A wonder another player has started is no longer free.",
    "no_ship_for_wonder": "Starting a wonder puts one of the player's ships from their "
    "supply on its card.",
    "wonder_conditions": "A wonder is started once its card's conditions are met: theater, 2 "
    "cities; great bridge, a settlement on the strait; monument, a city at a harbour and a "
    "trade route of 5; great wall, a settlement at the desert's edge; cathedral, a city and "
    "6 victory points.",
    "no_wonder_started": "A player builds the levels of the wonder they have started.",
    "cannot_afford_wonder": "Each level of a wonder costs the 5 resources on its card: "
    "theater brick, lumber, 3 wool; great bridge 3 lumber, wool, grain; monument 3 grain, 2 "
    "ore; great wall 3 brick, lumber, grain; cathedral brick, grain, 3 ore.",
    "small_island": "Cloth for Catan: nobody builds a settlement or city on the 4 small "
    "islands of the villages.",
    **tribe.RULES,
    **pirate_islands.RULES,
}

#: how many points each kind of source is worth at the end
_BUILDING_POINTS = {"settlement": 1, "city": 2}


class Catan(Ruleset[State]):
    name: ClassVar[str] = "catan"
    title: ClassVar[str] = "Catan (base game, 2-4 players; Seafarers scenarios 1-9)"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 4
    bots: ClassVar[tuple[str, ...]] = ("random", "value")
    bots_module: ClassVar[str | None] = "service.rules.catan.bots"
    #: the dice, a drawn development card, a stolen card, a fog tile: a Catan bot does
    #: not make up what only the client knows
    bots_play_external: ClassVar[bool] = False
    #: a seat's chance to propose a trade to the active seat holds nobody up
    optional_decisions: ClassVar[frozenset[str]] = frozenset({"propose_trade"})
    parts: ClassVar = shapes.PARTS
    view_shape: ClassVar = shapes.VIEW
    answers: ClassVar[Mapping[str, tuple[str, ...]]] = ALL_ANSWERS
    rules: ClassVar[Mapping[str, str]] = RULES
    secrets: ClassVar = {
        # The thief and the victim see the card; everyone sees who stole from whom. Each
        # secret comes with a salt (core.secret_salt) that only those who see it see.
        "card_stolen": lambda data, seat: {"thief": data["thief"], "victim": data["victim"]},
        # the buyer sees the card; everyone sees that a card was bought
        "development_bought": lambda data, seat: {"seat": data["seat"]},
        # The Forgotten Tribe: a development card taken from an island, as if bought
        "gift_taken": lambda data, seat: {
            k: v for k, v in data.items() if k != "card" and k != "salt"
        },
    }

    # -- catalogue -------------------------------------------------------------

    def describe(self) -> JSON:
        return self.description(OPTIONS)

    def normalize_options(self, options: Mapping[str, Any]) -> JSON:
        result = checked_options(OPTIONS, options)
        scenario = result["scenario"]
        if scenario is not None:
            if result["board"] is not None:
                raise InvalidOptions("board", "a scenario plays its own map")
            if "victory_points" not in options:
                result["victory_points"] = SCENARIOS[scenario].victory_points
            if SCENARIOS[scenario].drawn:  # no map to lay as printed: a random one
                result["layout"] = "random"
        elif result["board"] is not None:
            try:
                check_base_board(result["board"])
            except ValueError as error:
                raise InvalidOptions("board", str(error)) from error
        return result

    # -- the decider -----------------------------------------------------------

    def setup(self, options: JSON, seats: int, rng: random.Random) -> list[Event]:
        if not isinstance(seats, int) or not self.min_seats <= seats <= self.max_seats:
            raise InvalidOptions("seats", f"Catan is for 2 to 4 players, not {seats}")
        if options["scenario"] is not None:
            return [self._scenario_started(options, seats, rng)]
        if options["board"] is not None:
            board: JSON | None = options["board"]
        elif options["layout"] == "beginner":
            board = beginner_board().to_json()
        elif options["randomness"] == "external":
            board = None  # it arrives as set_board
        else:
            drawn = random_board(
                rng, options["no_adjacent_red_numbers"], numbers=options["numbers"]
            )
            board = drawn.to_json()
        data = {
            "ruleset": self.name,
            "rules_version": self.rules_version,
            "options": dict(options),
            "seats": seats,
            "board": board,
        }
        return [Event("game_started", data)]

    def _scenario_started(self, options: JSON, seats: int, rng: random.Random) -> Event:
        number = options["scenario"]
        if seats not in SCENARIOS[number].players:
            counts = " or ".join(map(str, SCENARIOS[number].players))
            raise InvalidOptions("seats", f"scenario {number} is for {counts} players")
        dealt = scenarios.deal(number, seats, rng, shuffle=options["layout"] == "random")
        board = dealt["board"]
        if options["randomness"] == "external" and options["layout"] == "random":
            board = None  # it arrives as set_board
        data = {
            "ruleset": self.name,
            "rules_version": self.rules_version,
            "options": dict(options),
            "seats": seats,
            "board": board,
            "scenario": dealt["scenario"],
        }
        return Event("game_started", data)

    def initial_state(self) -> State:
        return State()

    # the state module's fold itself, without a call in between (it runs on every event)
    evolve = staticmethod(evolve)  # type: ignore[assignment]

    def copy_state(self, state: State) -> State:
        return state.copy()

    def decisions(self, state: State) -> list[Decision]:
        return state.agenda.open

    def handle(
        self, state: State, decision: Decision, command: JSON, rng: random.Random
    ) -> list[Event]:
        handler = _HANDLERS[command["type"]]
        return handler(self, state, decision, command, rng)

    def apply(
        self,
        state: State,
        seat: int | None,  # (None for a command of the table, such as abandon)
        command: JSON,
        rng: random.Random,
        decision_id: str | None = None,
    ) -> list[Event]:
        # The core's apply, its usual case written out (it runs on every move): a dict
        # answering the seat's first open decision that takes its type. No command of
        # the table answers a decision, and a game over has none open; anything else
        # (an id named, an unknown or unexpected command) takes the core's path.
        if decision_id is None and type(command) is dict:
            kind = command.get("type")
            for decision in state.agenda.open:
                if decision.seat == seat and kind in decision.commands:
                    events = _HANDLERS[kind](self, state, decision, command, rng)
                    for event in events:  # evolve, written out
                        EVOLVERS[event.type](state, event.data)
                    state.events += len(events)
                    # (only a seat that resigned may be awaited past its resignation)
                    if state.agenda.absent and self.awaits_resigned(state):
                        events = [*events, *self.moved_on(state, rng)]
                    return events
        return super().apply(state, seat, command, rng, decision_id)

    # -- commands --------------------------------------------------------------

    def _set_board(self, state: State, decision: Decision, command: JSON, rng: random.Random):
        try:
            if state.scenario is None:
                board = check_base_board(command.get("board"))
                options = state.options
                numbers, apart = options["numbers"], options["no_adjacent_red_numbers"]
                problem = variable_setup_problem(board, numbers, apart)
                if problem is not None:
                    raise ValueError(problem)
            else:
                check_scenario_board(state, command.get("board"))
        except ValueError as error:
            raise self.illegal("bad_board", str(error)) from None
        return [Event("board_set", {"board": command["board"]})]

    def _build_settlement(self, state: State, decision: Decision, command: JSON, rng):
        seat, corner = decision.seat, self._corner(state, command)
        setup = decision.kind == "place_settlement"
        problem = building.settlement_problem(state, seat, corner, setup=setup)
        self._check(problem, state.hands[seat], "settlement")
        data: JSON = {"seat": seat, "corner": state.laid().corner_names[corner], "free": setup}
        cut = cut_roads(state, seat, corner)
        if cut:
            data["roads_cut"] = {str(other): length for other, length in cut.items()}
        special = 0
        if state.scenario is not None:
            touched = building.areas_touched(state, corner)
            data["areas"] = touched
            if not setup:  # a first settlement in a foreign area: its special points
                special = sum(
                    state.areas[a]["special_points"]
                    for a in touched
                    if a not in state.settled[seat]
                )
                if special:
                    data["special"] = special
        events = [Event("settlement_built", data)]
        if state.cloth is not None:  # Cloth for Catan: a line of ships may now reach a village
            events += cloth.connections(state, seat, building=corner)
        if setup:
            # the second set-up settlement (Cloth for Catan: the third) gives starting
            # resources (The Pirate Islands: a seat's pieces laid before do not count)
            if state.cloth is not None:
                last = len(state.buildings_of[seat]) == cloth.STARTING_SETTLEMENT - 1
            else:
                last = state.setup_corner[seat] != NOBODY
            if last:
                events += self._starting_resources(state, seat, corner)
            return events
        lengths = list(state.road_length)
        for other, length in cut.items():
            lengths[other] = length
        if state.ships_of and state.ships_of[seat]:  # a road and a ship may join here
            length = road_length(state, seat, new_building=corner)
            if length != lengths[seat]:
                data["length"] = lengths[seat] = length
        holder = self._longest_road(state, lengths, events)
        points = state.points(seat) + 1 + special
        return self._closing(state, events, seat, points, longest=holder)

    @staticmethod
    def _starting_resources(state: State, seat: int, corner: int) -> list[Event]:
        """One resource per producing terrain beside the second settlement (Cloth for
        Catan: the third; gold: one of the seat's choice per gold field)."""
        layout = state.laid()
        grid_corner = layout.grid.corners[corner]
        gains = starting_resources(layout.board, grid_corner)
        gold = starting_gold(layout.board, grid_corner)
        if not gains and not gold:
            return []
        data: JSON = {"gains": {str(seat): gains} if gains else {}}
        if gold:
            data["gold"] = {str(seat): gold}
        return [Event("starting_resources", data)]

    def _build_road(self, state: State, decision: Decision, command: JSON, rng):
        seat, edge = decision.seat, self._edge(state, command)
        setup, free = decision.kind == "place_road", decision.kind == "free_roads"
        problem = building.road_problem(state, seat, edge, setup=setup, free=free)
        self._check(problem, state.hands[seat], "road")
        length = road_length(state, seat, new_road=edge)
        return self._path_built(state, seat, edge, "road", length, decision, command, rng)

    def _build_ship(self, state: State, decision: Decision, command: JSON, rng):
        seat, edge = decision.seat, self._edge(state, command)
        setup, free = decision.kind == "place_road", decision.kind == "free_roads"
        problem = ships.ship_problem(state, seat, edge, setup=setup, free=free)
        self._check(problem, state.hands[seat], "ship")
        length = road_length(state, seat, ships=[*state.ships_of[seat], edge])
        return self._path_built(state, seat, edge, "ship", length, decision, command, rng)

    def _path_built(
        self,
        state: State,
        seat: int,
        edge: int,
        kind: str,
        length: int,
        decision: Decision,
        command: JSON,
        rng: random.Random,
    ) -> list[Event]:
        """A road or a ship on ``edge`` (already checked): its events, the fog it turns
        up, the longest road, and the end of the game if it wins."""
        setup, free = decision.kind == "place_road", decision.kind == "free_roads"
        data = {
            "seat": seat,
            "edge": state.laid().edge_names[edge],
            "free": setup or free,
            "length": length,
        }
        events = [Event(f"{kind}_built", data)]
        events += self._reveals(state, seat, [edge], command, rng)
        if state.cloth is not None and kind == "ship":  # Cloth for Catan: a village reached?
            events += cloth.connections(state, seat, ships=[*state.ships_of[seat], edge])
        if setup:
            return events
        if free and state.free_roads > 1 and not self._another_free_road(state, seat, edge, kind):
            events.append(Event("free_roads_ended", {"seat": seat, "reason": "no path left"}))
        lengths = list(state.road_length)
        lengths[seat] = length
        holder = self._longest_road(state, lengths, events)
        points = state.points(seat)
        if kind == "ship" and state.tribe is not None and edge in state.tribe.gifts:
            card = None
            if state.tribe.gifts[edge] == tribe.DEVELOPMENT:
                card = self._drawn_card(state, command, rng)
            events.append(tribe.gift_taken(state, seat, edge, card, rng))
            points += tribe.gift_points(events[-1])
        return self._closing(state, events, seat, points, longest=holder)

    def _move_ship(self, state: State, decision: Decision, command: JSON, rng):
        seat = decision.seat
        origin = self._edge(state, {"edge": command.get("from")})
        target = self._edge(state, {"edge": command.get("to")})
        self._check(ships.ship_move_problem(state, seat, origin, target))
        moved = [target if e == origin else e for e in state.ships_of[seat]]
        length = road_length(state, seat, ships=moved)
        names = state.laid().edge_names
        data = {"seat": seat, "from": names[origin], "to": names[target], "length": length}
        events = [Event("ship_moved", data)]
        events += self._reveals(state, seat, [target], command, rng)
        if state.cloth is not None:  # Cloth for Catan: the ship may reach a village
            events += cloth.connections(state, seat, ships=moved)
        lengths = list(state.road_length)
        lengths[seat] = length
        holder = self._longest_road(state, lengths, events)
        return self._closing(state, events, seat, state.points(seat), longest=holder)

    def _reveals(
        self, state: State, seat: int, edges: list[int], command: JSON, rng: random.Random
    ) -> list[Event]:
        """The Fog Islands: every fog space at an end of the new piece is turned up, in
        reading order: the top tile of the pile and, on land, the top number; a land
        tile gives the builder its resource (gold: one of its choice)."""
        layout = state.laid()
        fog = layout.fog
        if not fog:
            return []
        grid = layout.grid
        found = {
            h for e in edges for c in grid.edge_corners[e] for h in grid.corner_hexes[c] if h in fog
        }
        if not found:
            return []
        spaces = sorted(found, key=lambda h: (h[1], h[0]))
        tiles, numbers = dict(state.fog_tiles), dict(state.fog_numbers)
        given: Any = command.get("reveal")  # a client's value, checked next
        external = state.options["randomness"] == "external"
        if external and not (isinstance(given, list) and len(given) == len(spaces)):
            names = [hex_name(h) for h in spaces]
            raise self.illegal("bad_reveal", f"reveal must turn up {names}, in that order")
        bank = list(state.bank)
        events = []
        for i, h in enumerate(spaces):
            if external:
                terrain, number = self._revealed_tile(given[i], h, tiles, numbers)
            else:
                terrain = _draw(tiles, rng)
                number = None if terrain == SEA else _draw(numbers, rng)
            tiles[terrain] -= 1
            if number is not None:
                numbers[number] -= 1
            data: JSON = {
                "seat": seat,
                "hex": hex_name(h),
                "terrain": terrain,
                "number": number,
                "gains": {},
            }
            resource = TERRAIN_RESOURCE.get(terrain)
            if resource is not None and bank[RESOURCE_INDEX[resource]] > 0:
                bank[RESOURCE_INDEX[resource]] -= 1
                data["gains"] = {str(seat): {resource: 1}}
            elif terrain == GOLD:
                data["gold"] = {str(seat): 1}
            events.append(Event("hex_revealed", data))
        return events

    def _revealed_tile(
        self, entry: object, h: tuple[int, int], tiles: dict[str, int], numbers: dict[int, int]
    ) -> tuple[str, int | None]:
        """A tile turned up as an external-randomness command names it, checked against
        the piles."""
        if not isinstance(entry, dict) or entry.get("hex") != hex_name(h):
            raise self.illegal("bad_reveal", f"the next space turned up is {hex_name(h)}")
        terrain, number = entry.get("terrain"), entry.get("number")
        name = _text(terrain)
        if name is None or name not in tiles or tiles[name] < 1:
            raise self.illegal("bad_reveal", f"no {terrain!r} tile is left in the pile")
        if name == SEA:
            if number is not None:
                raise self.illegal("bad_reveal", "a sea tile takes no number")
        elif type(number) is not int or numbers.get(number, 0) < 1:
            raise self.illegal("bad_reveal", f"no number {number!r} is left in the pile")
        return name, number

    def _build_city(self, state: State, decision: Decision, command: JSON, rng):
        seat, corner = decision.seat, self._corner(state, command)
        self._check(building.city_problem(state, seat, corner), state.hands[seat], "city")
        events = [Event("city_built", {"seat": seat, "corner": state.laid().corner_names[corner]})]
        return self._closing(state, events, seat, state.points(seat) + 1)

    def _start_wonder(self, state: State, decision: Decision, command: JSON, rng):
        seat, wonder = decision.seat, command.get("wonder")
        self._check(wonders.start_problem(state, seat, wonder))
        return [Event("wonder_started", {"seat": seat, "wonder": wonder})]

    def _build_wonder(self, state: State, decision: Decision, command: JSON, rng):
        seat = decision.seat
        self._check(wonders.build_problem(state, seat))
        return self._won(state, [Event("wonder_built", wonders.level_data(state, seat))], seat)

    def _roll(self, state: State, decision: Decision, command: JSON, rng: random.Random):
        seat = decision.seat
        dice: Any  # (a command's value, checked below, with external randomness)
        if state.options["randomness"] == "internal":
            # (choice draws what randint(1, 6) draws, a call sooner)
            dice = [rng.choice(_DIE), rng.choice(_DIE)]
        else:
            dice = command.get("dice")
            if not (
                isinstance(dice, list)
                and len(dice) == 2
                and all(type(d) is int and 1 <= d <= 6 for d in dice)
            ):
                raise self.illegal("bad_dice", f"dice must be two ints from 1 to 6, not {dice!r}")
        total = dice[0] + dice[1]
        rolled = _event(("dice_rolled", {"seat": seat, "dice": dice, "total": total}, None))
        if state.fleet is not None and pirate_islands.sails(state):  # the fleet first
            events = self._fleet_sails(state, seat, dice, command, rng)
            after = self._after(state, events)
            events.append(rolled)
        else:
            events, after = [rolled], state
        if total != 7:  # (the layout narrowed here, not by laid(): this runs on every roll)
            layout = after.layout
            assert layout is not None
            data = production_data(layout, after.robber, after.owner, after.city, total, after.bank)
            if data is not None:
                events.append(_event(("resources_produced", data, None)))
        if state.cloth is not None and total != 7:  # Cloth for Catan: the villages trade
            events += cloth.roll_events(state, seat, total)
            return self._closing(state, events, seat, state.points(seat))
        return events

    def _fleet_sails(
        self, state: State, seat: int, dice: list[int], command: JSON, rng: random.Random
    ) -> list[Event]:
        """The Pirate Islands: the fleet's move and attacks; the cards it takes from a
        beaten seat are drawn at random, or (external randomness) named in the roll's
        ``plunder`` (seat -> resources)."""
        plunder = _plunderer(self, state, command.get("plunder"), rng)
        return pirate_islands.fleet_events(state, seat, dice, plunder)

    @staticmethod
    def _after(state: State, events: list[Event]) -> State:
        """``state`` with ``events`` folded (itself if there are none)."""
        if not events:
            return state
        after = state.copy()
        for event in events:
            evolve(after, event)
        return after

    def _choose_gold(self, state: State, decision: Decision, command: JSON, rng):
        seat = decision.seat
        count = min(decision.details["count"], sum(state.bank))
        counts = parse_resources(command.get("resources"), allow_empty=count == 0)
        if counts is None or sum(counts) != count or not can_pay(state.bank, counts):
            raise self.illegal("wrong_gold", f"choose {count} resources the bank holds")
        return [Event("gold_chosen", {"seat": seat, "resources": named(counts)})]

    def _discard(self, state: State, decision: Decision, command: JSON, rng):
        seat, count = decision.seat, decision.details["count"]
        counts = parse_resources(command.get("resources"))
        if counts is None or sum(counts) != count:
            raise self.illegal("wrong_discard", f"discard exactly {count} cards")
        if not can_pay(state.hands[seat], counts):
            raise self.illegal("not_enough_resources", "discard only cards you hold")
        return [Event("discarded", {"seat": seat, "resources": named(counts)})]

    def _move_robber(self, state: State, decision: Decision, command: JSON, rng):
        seat = decision.seat
        layout = state.laid()
        target = layout.hex_by_name.get(_text(command.get("hex")))
        if target is None:
            raise self.illegal("unknown_hex", f"no hex {command.get('hex')!r} on the board")
        if layout.board.hexes[target].terrain in (SEA, FOG):
            raise self.illegal("robber_on_land", f"{hex_name(target)} is not land")
        if target == state.robber:
            raise self.illegal("robber_must_move", "the robber is already there")
        if state.tribe is not None:
            self._check(tribe.robber_problem(state, target))
        return self._rob(state, seat, target, robber_victims(state, seat, target), command, rng)

    def _move_pirate(self, state: State, decision: Decision, command: JSON, rng):
        seat = decision.seat
        layout = state.laid()
        target = layout.hex_by_name.get(_text(command.get("hex")))
        if target is None:
            raise self.illegal("unknown_hex", f"no hex {command.get('hex')!r} on the board")
        if layout.board.hexes[target].terrain != SEA or target == state.pirate:
            raise self.illegal("pirate_at_sea", f"{hex_name(target)} is not another sea hex")
        victims = ships.pirate_victims(state, seat, target)
        return self._rob(state, seat, target, victims, command, rng, moved="pirate_moved")

    def _rob(
        self,
        state: State,
        seat: int,
        target: tuple[int, int],
        victims: list[int],
        command: JSON,
        rng: random.Random,
        moved: str = "robber_moved",
    ) -> list[Event]:
        """The robber or the pirate moved to ``target`` (the event ``moved``), and a card
        stolen from one of ``victims`` (the one the command names)."""
        victim = command.get("victim")
        if (victim is not None or victims) and victim not in victims:
            raise self.illegal("bad_victim", f"steal from one of {victims}")
        data = {"seat": seat, "hex": hex_name(target), "victim": victim}
        return [_event((moved, data, None)), *self._steal_card(state, seat, victim, command, rng)]

    def _steal_card(
        self, state: State, seat: int, victim: int | None, command: JSON, rng: random.Random
    ) -> list[Event]:
        """A card stolen from ``victim`` at random (the command names it with external
        randomness); nothing if no victim."""
        if victim is None:
            return []
        hand = state.hands[victim]
        resource: Any  # (a command's value, checked below, with external randomness)
        if state.options["randomness"] == "internal":
            card = rng.randrange(sum(hand))
            index = 0
            while card >= hand[index]:
                card -= hand[index]
                index += 1
            resource = RESOURCES[index]
        else:
            resource = command.get("resource")
            if resource is None:
                raise self.illegal(
                    "resource_not_held",
                    f"name the card stolen from seat {victim} as resource (external randomness)",
                )
            if _text(resource) not in RESOURCE_INDEX or hand[RESOURCE_INDEX[resource]] < 1:
                raise self.illegal("resource_not_held", f"seat {victim} holds no {resource!r}")
        stolen = {"thief": seat, "victim": victim, "resource": resource, "salt": secret_salt(rng)}
        return [_event(("card_stolen", stolen, (seat, victim)))]

    # -- The Pirate Islands (scenario 7; the rules in pirate_islands) ----------------

    def _steal(self, state: State, decision: Decision, command: JSON, rng):
        seat, victim = decision.seat, command.get("victim")
        victims = pirate_islands.steal_victims(state, seat)
        if victim is not None and victim not in victims:
            raise self.illegal("not_a_victim", f"steal from one of {victims}, or nobody")
        events = [Event("steal_chosen", {"seat": seat, "victim": victim})]
        return events + self._steal_card(state, seat, victim, command, rng)

    def _convert_warship(self, state: State, decision: Decision, command: JSON, rng):
        self._check(pirate_islands.conversion_problem(state, decision.seat))
        return [pirate_islands.warship_converted(state, decision.seat)]

    def _attack_fortress(self, state: State, decision: Decision, command: JSON, rng):
        """The attack, then the end of the turn (line 609), unless the conquest wins."""
        seat = decision.seat
        self._check(pirate_islands.attack_problem(state, seat))
        if state.options["randomness"] == "internal":
            die = rng.randint(1, 6)
        else:
            die = command.get("die")
            if type(die) is not int or not 1 <= die <= 6:
                raise self.illegal("bad_die", f"die must be an int from 1 to 6, not {die!r}")
        attack = pirate_islands.fortress_attacked(state, seat, die)
        events = self._closing(
            state, [attack], seat, state.points(seat) + ("conquered" in attack.data)
        )
        if events[-1].type == "game_ended":
            return events
        return events + self._end_turn(self._after(state, events), decision, command, rng)

    def _drawn_card(self, state: State, command: JSON, rng: random.Random) -> str:
        """A development card drawn from the cards nobody has seen (the command's
        ``card`` with external randomness, checked)."""
        if state.options["randomness"] == "internal":
            pick = rng.randrange(sum(state.deck))
            index = 0
            while pick >= state.deck[index]:
                pick -= state.deck[index]
                index += 1
            return DEVELOPMENT_CARDS[index]
        card = command.get("card")
        name = _text(card)
        if name is None or name not in DEVELOPMENT_INDEX:
            raise self.illegal(
                "card_not_in_deck",
                f"name the card drawn as card, one of {', '.join(DEVELOPMENT_CARDS)}"
                f" (external randomness), not {card!r}",
            )
        if state.deck[DEVELOPMENT_INDEX[name]] < 1:
            raise self.illegal("card_not_in_deck", f"no {name} is left in the deck")
        return name

    def _buy_development(self, state: State, decision: Decision, command: JSON, rng):
        seat = decision.seat
        problem = development_purchase_problem(state, seat)
        self._check(problem, state.hands[seat], "development")
        card = self._drawn_card(state, command, rng)
        bought = {"seat": seat, "card": card, "salt": secret_salt(rng)}
        events = [Event("development_bought", bought, (seat,))]
        points = state.points(seat) + (card == "victory_point")
        return self._closing(state, events, seat, points)

    def _play_knight(self, state: State, decision: Decision, command: JSON, rng):
        seat = decision.seat
        self._check(development_play_problem(state, seat, KNIGHT))
        knights = list(state.knights)
        knights[seat] += 1
        events = [Event("knight_played", {"seat": seat, "knights": knights[seat]})]
        holder = largest_army_holder(state.army, knights)
        if holder != state.army:
            events.append(Event("largest_army", {"seat": holder, "knights": knights[holder]}))
        return self._closing(state, events, seat, state.points(seat), army=holder)

    def _play_road_building(self, state: State, decision: Decision, command: JSON, rng):
        seat = decision.seat
        self._check(development_play_problem(state, seat, ROAD_BUILDING))
        if not _free_path_possible(state, seat):
            raise self.illegal("no_road_possible", "no road can be built now")
        roads = min(2, state.pieces[seat]["road"] + state.pieces[seat].get("ship", 0))
        return [Event("road_building_played", {"seat": seat, "roads": roads})]

    def _play_year_of_plenty(self, state: State, decision: Decision, command: JSON, rng):
        seat = decision.seat
        self._check(development_play_problem(state, seat, YEAR_OF_PLENTY))
        counts = parse_resources(command.get("resources"))
        if counts is None:
            raise self.illegal("bad_resources", f"not resources: {command.get('resources')!r}")
        if sum(counts) != 2:
            raise self.illegal("year_of_plenty_takes_two", "take exactly 2 resources")
        if not can_pay(state.bank, counts):
            raise self.illegal("bank_empty", "the bank does not hold them")
        data = {"seat": seat, "resources": named(counts)}
        return [Event("year_of_plenty_played", data)]

    def _play_monopoly(self, state: State, decision: Decision, command: JSON, rng):
        seat = decision.seat
        self._check(development_play_problem(state, seat, MONOPOLY))
        resource: Any = command.get("resource")  # a client's value, checked next
        if _text(resource) not in RESOURCE_INDEX:
            raise self.illegal("bad_resources", f"not a resource: {resource!r}")
        index = RESOURCE_INDEX[resource]
        taken = {
            str(other): state.hands[other][index]
            for other in range(state.seats)
            if other != seat and state.hands[other][index] > 0
        }
        data = {"seat": seat, "resource": resource, "taken": taken}
        return [Event("monopoly_played", data)]

    def _maritime_trade(self, state: State, decision: Decision, command: JSON, rng):
        seat = decision.seat
        give: Any = command.get("give")  # a client's values, checked next
        get: Any = command.get("get")
        problem = maritime_problem(state, seat, give, get)
        if problem == "bad_maritime_trade":
            raise self.illegal(
                problem,
                f"give and get each name one resource ({', '.join(RESOURCES)}), two different"
                f" ones, not {give!r} and {get!r}: the seat's own rate says how many it gives",
            )
        if problem == "not_enough_resources":
            rate = state.rates[seat][RESOURCE_INDEX[give]]
            raise self.illegal(
                problem,
                f"{rate} {give} buy 1 {get} at your rate; you hold"
                f" {state.hands[seat][RESOURCE_INDEX[give]]}",
            )
        self._check(problem)
        rate = state.rates[seat][RESOURCE_INDEX[give]]
        data = {"seat": seat, "give": {give: rate}, "get": {get: 1}, "rate": rate}
        return [_event(("maritime_traded", data, None))]

    def _offer_trade(self, state: State, decision: Decision, command: JSON, rng):
        seat = decision.seat
        give, get = parse_resources(command.get("give")), parse_resources(command.get("get"))
        others = [s for s in range(state.seats) if s != seat and s not in state.agenda.absent]
        to = command.get("to", others)
        self._check_offer(state, seat, give, get, to)
        assert give is not None and get is not None  # (offer_problem refuses None)
        data = {"seat": seat, "give": named(give), "get": named(get), "to": sorted(set(to))}
        return [Event("trade_offered", data)]

    def _respond_trade(self, state: State, decision: Decision, command: JSON, rng):
        seat, offer, answer = decision.seat, state.trade_offer(), command.get("answer")
        data: JSON = {"seat": seat, "answer": answer}
        if answer == "accept":
            if not can_pay(state.hands[seat], _counts(offer["get"])):
                raise self.illegal("not_enough_resources", "you do not hold what is asked")
        elif answer == "counter":
            give, get = parse_resources(command.get("give")), parse_resources(command.get("get"))
            self._check_offer(state, seat, give, get, [offer["seat"]])
            assert give is not None and get is not None  # (offer_problem refuses None)
            data.update(give=named(give), get=named(get))
        elif answer != "decline":
            raise self.illegal("bad_answer", f"answer accept, decline or counter, not {answer!r}")
        return [Event("trade_answered", data)]

    def _confirm_trade(self, state: State, decision: Decision, command: JSON, rng):
        seat, offer = decision.seat, state.trade_offer()
        partner: Any = command.get("with")  # a client's value, checked next
        answer = offer["answers"].get(str(partner)) if type(partner) is int else None
        if answer is None or answer["answer"] == "decline":
            raise self.illegal("not_a_partner", f"seat {partner!r} did not accept")
        give, get = _terms(offer, answer)
        if not _both_hold(state, seat, partner, give, get):
            raise self.illegal("not_enough_resources", "both sides must hold what they give")
        return [Event("trade_made", {"seat": seat, "with": partner, "give": give, "get": get})]

    def _cancel_trade(self, state: State, decision: Decision, command: JSON, rng):
        return [Event("trade_cancelled", {"seat": decision.seat})]

    def _propose_trade(self, state: State, decision: Decision, command: JSON, rng):
        seat, active = decision.seat, decision.details["to"]
        give, get = parse_resources(command.get("give")), parse_resources(command.get("get"))
        self._check_offer(state, seat, give, get, [active])
        assert give is not None and get is not None  # (offer_problem refuses None)
        data = {"seat": seat, "to": active, "give": named(give), "get": named(get)}
        return [Event("trade_proposed", data)]

    def _pass_trade(self, state: State, decision: Decision, command: JSON, rng):
        return [Event("trade_passed", {"seat": decision.seat})]

    def _accept_proposal(self, state: State, decision: Decision, command: JSON, rng):
        seat, proposal = decision.seat, state.trade_offer()
        give, get = proposal["get"], proposal["give"]  # seen from the active seat
        if not can_pay(state.hands[seat], _counts(give)) or not can_pay(
            state.hands[proposal["seat"]], _counts(get)
        ):
            raise self.illegal("not_enough_resources", "both sides must hold what they give")
        data = {"seat": seat, "with": proposal["seat"], "give": give, "get": get}
        return [Event("trade_made", data)]

    def _decline_proposal(self, state: State, decision: Decision, command: JSON, rng):
        return [Event("trade_cancelled", {"seat": decision.seat})]

    def _end_turn(self, state: State, decision: Decision, command: JSON, rng):
        return self._turn_over(state, decision.seat)

    def _turn_over(self, state: State, seat: int) -> list[Event]:
        """The end of ``seat``'s turn; the next seat still in the game plays."""
        absent = state.agenda.absent
        following = next_seated(seat, state.seats, absent) if absent else (seat + 1) % state.seats
        events = [_event(("turn_ended", {"seat": seat, "next": following}, None))]
        if state.wonders is not None and state.phase == MAIN and wonders.out_of_reach(state):
            return self._out_of_reach(state, events)
        # A seat may reach the target outside its turn (an award passed on to it); it
        # wins when its turn comes. (_closing's usual answer first, without its call.)
        points = state.points(following)
        target = state.options["victory_points"]
        if state.cloth is None and (state.phase != MAIN or points < target):
            return events
        return self._closing(state, events, following, points)

    def _out_of_reach(self, state: State, events: list[Event]) -> list[Event]:
        """The end of a Wonders of Catan game that nobody can win any more: the seats
        still in the game with the most points win (all of them on a tie)."""
        points = [final_points(state, s) for s in range(state.seats)]
        playing = [p for p in points if p["seat"] not in state.agenda.absent]
        best = max(p["total"] for p in playing)
        won = [p["seat"] for p in playing if p["total"] == best]
        data = {"winners": won, "points": points, "reason": wonders.OUT_OF_REACH}
        return [*events, Event("game_ended", data)]

    # -- helpers -----------------------------------------------------------------

    def _check(self, problem: str | None, hand: Sequence[int] = (), piece: str = "") -> None:
        """Refuse the command if there is a ``problem``; a seat that cannot afford the
        ``piece`` from its ``hand`` is told what it lacks."""
        if problem == "cannot_afford" and piece:
            cost = COSTS[piece]
            lacking = named([max(0, need - held) for need, held in zip(cost, hand, strict=True)])
            raise self.illegal(
                problem,
                f"a {PIECE_NAMES[piece]} costs {_cards_words(named(cost))}: you lack"
                f" {_cards_words(lacking)}",
            )
        if problem is not None:
            raise self.illegal(problem, RULES[problem])

    def _check_offer(
        self, state: State, seat: int, give: list[int] | None, get: list[int] | None, to: object
    ) -> None:
        """Refuse an offer, a counter or a proposal the rules forbid, saying which part
        is wrong."""
        problem = offer_problem(state, seat, give, get, to)
        if problem is None:
            return
        if problem == "not_enough_resources":
            assert give is not None  # (offer_problem refuses None first)
            held = named(state.hands[seat]) or {"cards": 0}
            detail = f"it gives {_cards_words(named(give))}; you hold {_cards_words(held)}"
        elif give is None or get is None:
            detail = 'give and get each name some resources, e.g. {"brick": 1, "ore": 2}'
        elif both := [RESOURCES[i] for i in range(5) if give[i] and get[i]]:
            detail = f"{' and '.join(both)} on both sides: a trade gives some kinds for others"
        else:
            detail = f"to names other seats still in the game, not {to!r}"
        raise self.illegal(problem, detail)

    def _corner(self, state: State, command: JSON) -> int:
        corner = state.laid().corner_by_name.get(_text(command.get("corner")))
        if corner is None:
            raise self.illegal("unknown_intersection", f"no intersection {command.get('corner')!r}")
        return corner

    def _edge(self, state: State, command: JSON) -> int:
        edge = state.laid().edge_by_name.get(_text(command.get("edge")))
        if edge is None:
            raise self.illegal("unknown_path", f"no path {command.get('edge')!r}")
        return edge

    @staticmethod
    def _another_free_road(state: State, seat: int, built: int, kind: str) -> bool:
        """Whether a second free road (or ship) could follow one on ``built``."""
        after = state.copy()
        if kind == "road":
            after.road[built] = seat
            after.roads_of[seat].append(built)
        else:
            after.ship[built] = seat
            after.ships_of[seat].append(built)
        after.pieces[seat][kind] -= 1
        return _free_path_possible(after, seat)

    def _place_harbour(self, state: State, decision: Decision, command: JSON, rng):
        seat, edge = decision.seat, self._edge(state, command)
        if state.tribe is not None:  # a harbour marker taken from a small island
            self._check(tribe.harbour_problem(state, seat, edge))
            return [tribe.harbour_placed(state, seat, edge)]
        if edge not in harbour_places(state):
            raise self.illegal("harbour_not_on_coast", RULES["harbour_not_on_coast"])
        name = state.laid().edge_names[edge]
        data: JSON = {"seat": seat, "edge": name}
        if len(state.harbours_left) == 1:  # the last marker: all are turned up
            placed = [*state.harbours_placed, name]
            markers = sorted(state.seafarers()["harbours_to_place"])
            if state.options["randomness"] == "internal":
                rng.shuffle(markers)
            else:
                given = command.get("types")
                if not isinstance(given, list) or sorted(map(str, given)) != markers:
                    raise self.illegal("bad_harbour_types", f"types must order {markers}")
                markers = list(given)
            data["harbours"] = [
                {"type": kind, "corners": _edge_corners(state, e)}
                for kind, e in zip(markers, placed, strict=True)
            ]
        return [Event("harbour_placed", data)]

    @staticmethod
    def _longest_road(state: State, lengths: list[int], events: list[Event]) -> int:
        """Who holds the longest road with these lengths; an event if it changes hands."""
        if state.cloth is not None or state.fleet is not None:
            return NOBODY  # no longest route award: Cloth for Catan (l.513), Pirate Islands (l.553)
        holder = longest_road_holder(state.longest, lengths)
        if holder != state.longest:
            length = None if holder == NOBODY else lengths[holder]
            seat = None if holder == NOBODY else holder
            events.append(Event("longest_road", {"seat": seat, "length": length}))
        return holder

    def _closing(
        self,
        state: State,
        events: list[Event],
        seat: int,
        points: int,
        *,
        longest: int | None = None,
        army: int | None = None,
    ) -> list[Event]:
        """The command's ``events``, and the end of the game if ``seat`` (whose turn it
        is) then has the winning points: ``points`` before the awards, which go to
        ``longest`` and ``army`` (unchanged if ``None``)."""
        if state.phase != MAIN:
            return events
        if longest is not None:
            points += AWARD_POINTS * ((longest == seat) - (state.longest == seat))
        if army is not None:
            points += AWARD_POINTS * ((army == seat) - (state.army == seat))
        if state.cloth is not None:  # Cloth for Catan: cloth points; 3 empty villages end it
            points += cloth.points_gained(state.cloth, events, seat)
            if cloth.villages_emptied(state.cloth, events):
                return self._ended(state, events, cloth.winners)
        if points < state.options["victory_points"]:
            return events
        return self._won(state, events, seat)

    def _won(self, state: State, events: list[Event], seat: int) -> list[Event]:
        """``events``, and the end of the game if ``seat`` has won once they are folded
        (the points are checked; The Wonders of Catan and The Pirate Islands add their
        own conditions)."""
        return self._ended(state, events, _winners_if(seat))

    def _ended(
        self, state: State, events: list[Event], winners: Callable[[State], list[int]]
    ) -> list[Event]:
        """``events`` and, if the state they lead to has ``winners``, the end of the
        game."""
        final = self._after(state, events)
        won = winners(final)
        if not won:
            return events
        points_by_seat = [final_points(final, s) for s in range(final.seats)]
        data = {"winners": won, "points": points_by_seat}
        return [*events, Event("game_ended", data)]

    # -- the table: a seat resigns, the game is abandoned ------------------------

    def seat_count(self, state: State) -> int:
        return state.seats

    def resigned_seats(self, state: State) -> frozenset[int]:
        return state.agenda.absent

    def seat_left(self, turn: Turn[State], seat: int, rng: random.Random) -> None:
        """The seat's pieces stay on the board, its hand with it (the robber and a
        monopoly may still take from it); it is never awaited again (no discard, no
        trade, no turn: the agenda opens nothing for it). If it was playing its turn,
        the turn ends now."""
        state = turn.state
        if state.phase == MAIN and state.current == seat:
            turn.emit(*self._turn_over(state, seat))

    def skip(self, turn: Turn[State], seat: int, rng: random.Random) -> None:
        """A seat out of time: in its turn (to roll or to play) the turn ends at once;
        a decision out of turn is answered as little as the rules allow (a trade
        declined, not proposed, cancelled); what must be done (a discard, the robber,
        a set-up placement, gold, a harbour) is done as the random bot does it."""
        for _ in range(16):
            mine = [d for d in self.decisions(turn.state) if d.seat == seat]
            if not mine:
                return
            decision = mine[0]
            if decision.kind in ("roll", "turn") and turn.state.phase == MAIN:
                turn.emit(*self._turn_over(turn.state, seat))
                return
            command = PASSES.get(decision.kind)
            if command is None:
                command = self.bot_command(turn.state, seat, "random", rng)
            turn.emit(*self.handle(turn.state, decision, command, rng))
            if decision.kind == "place_road":
                return  # one set-up placement, a settlement and its road (or ship), a skip

    def end_game(self, turn: Turn[State], winners: list[int], reason: str) -> None:
        """The game ends now with its points as they stand; the seat left wins, or, when
        abandoned, nobody."""
        state = turn.state
        points = [final_points(state, s) for s in range(state.seats)]
        turn.emit(Event("game_ended", {"winners": winners, "points": points, "reason": reason}))

    # -- questions -------------------------------------------------------------

    def menu(self, state: State, decision: Decision) -> JSON:
        return _MENUS[decision.kind](state, decision)

    def view(self, state: State, seat: int | None) -> JSON:
        layout = state.layout
        players = []
        for s in range(state.seats):
            player: JSON = {
                "seat": s,
                "cards": state.cards(s),
                "development_cards": state.dev_count(s),
                "knights": state.knights[s],
                "points": state.public_points(s),
                "pieces": dict(state.pieces[s]),
            }
            if s == seat:
                player["resources"] = named(state.hands[s])
                player["development"] = _dev_named(state.devs[s])
                player["development_new"] = _dev_named(state.new_devs[s])
                player["total_points"] = state.points(s)
            players.append(player)
        return {
            "ruleset": self.name,
            "options": {k: v for k, v in state.options.items() if k != "board"},
            "seats": state.seats,
            "phase": state.phase,
            "turn": state.turn,
            "current": state.current,
            "rolled": state.rolled,
            "last_roll": state.last_roll,
            "board": None if layout is None else layout.board.to_json(),
            "robber": None if state.robber is None else hex_name(state.robber),
            # (no building and no road before the board is laid)
            "buildings": []
            if layout is None
            else [
                {
                    "corner": layout.corner_names[c],
                    "seat": state.owner[c],
                    "kind": "city" if state.city[c] else "settlement",
                }
                for s in range(state.seats)
                for c in state.buildings_of[s]
            ],
            "roads": []
            if layout is None
            else [
                {"edge": layout.edge_names[e], "seat": s}
                for s in range(state.seats)
                for e in state.roads_of[s]
            ],
            "players": players,
            "bank": {r: state.bank[i] for i, r in enumerate(RESOURCES)},
            "development_deck": state.deck_left,
            "longest_road": None if state.longest == NOBODY else state.longest,
            "road_lengths": list(state.road_length),
            "largest_army": None if state.army == NOBODY else state.army,
            **(_seafarers_view(state) if state.scenario is not None else {}),
            # a copy: the answers are written into the state's offer in place
            "offer": None if state.offer is None else copy_offer(state.offer),
            "awaiting": self.awaiting(state),
            "over": state.phase == OVER,
            "winners": list(state.winners),
            "final": state.final,
        }

    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def result(self, state: State) -> JSON:
        over = state.phase == OVER
        if over:
            scores = [entry["total"] for entry in state.final]
        else:
            scores = [state.public_points(s) for s in range(state.seats)]
        return {"scores": scores, "over": over, "winners": list(state.winners)}


# -- rules shared by the decider, the menus and the bots --------------------------------------


def check_base_board(value: object) -> Board:
    """A board sent by a client: well formed, with the base game's components on the
    base game's frame."""
    board = Board.from_json(value)
    data = base_data()
    terrains: dict[str, int] = {}
    for terrain, _ in board.hexes.values():
        terrains[terrain] = terrains.get(terrain, 0) + 1
    if terrains != data["terrain_counts"]:
        raise ValueError(f"terrains {terrains} are not the base game's")
    numbers = sorted(tile.number for tile in board.hexes.values() if tile.number is not None)
    if numbers != sorted(data["number_spiral"]):
        raise ValueError("the number tokens are not the base game's 18")
    harbours = {kind: 0 for kind in HARBOUR_TYPES}
    for harbour in board.harbours:
        harbours[harbour.type] += 1
    if harbours != data["harbour_counts"]:
        raise ValueError(f"harbours {harbours} are not the base game's")
    if board.robber is None or board.hexes[board.robber].terrain != "desert":
        raise ValueError("the robber starts on the desert")
    problem = frame_problem(board)
    if problem is not None:
        raise ValueError(problem)
    layout_of(board.to_json())  # the same validation a replay does
    return board


def _seafarers_view(state: State) -> JSON:
    """What a scenario adds to the view: ships, the pirate, areas and special points,
    the fog piles' sizes (never their order) and the harbour markers placed face down."""
    layout = state.layout
    scenario = state.seafarers()
    return {
        "scenario": {
            "number": scenario["number"],
            "name": scenario["name"],
            "victory_points": state.options["victory_points"],
        },
        "ships": []
        if layout is None
        else [
            {"edge": layout.edge_names[e], "seat": s}
            for s in range(state.seats)
            for e in state.ships_of[s]
        ],
        "pirate": None if state.pirate is None else hex_name(state.pirate),
        "areas": [
            {
                "name": area["name"],
                "hexes": area["hexes"],
                "start": area["start"],
                "special_points": area["special_points"],
                "settled_by": [s for s in range(state.seats) if i in state.settled[s]],
            }
            for i, area in enumerate(state.areas)
        ],
        "special_points": list(state.special),
        "ship_moved": state.ship_moved,
        "fog_piles": {
            "tiles": sum(state.fog_tiles.values()),
            "numbers": sum(state.fog_numbers.values()),
        },
        "harbours_placed": list(state.harbours_placed),
        "harbours_to_place": len(state.harbours_left),
        **({} if state.wonders is None else {"wonders": wonders.view(state.wonders)}),
        **({} if state.cloth is None else {"cloth": cloth.view(state.cloth)}),
        **({} if state.tribe is None else {"tribe": tribe.view(state)}),
        **({} if state.fleet is None else {"pirate_islands": pirate_islands.view(state)}),
    }


def check_scenario_board(state: State, value: object) -> Board:
    """A scenario board sent by a client (external randomness): well formed, on the
    scenario's frame, with its components (terrains, numbers, harbours) and pirate, laid
    as its random set-up could."""
    board = Board.from_json(value)
    scenario = state.seafarers()
    number, seats = scenario["number"], state.seats
    printed_json = scenarios.deal(number, seats, random.Random(0), shuffle=False)["board"]
    printed = Board.from_json(printed_json)
    if set(board.hexes) != set(printed.hexes):
        raise ValueError(f"the hexes are not scenario {number}'s")

    def counts(b: Board) -> tuple[list, list, list]:
        return (
            sorted(t.terrain for t in b.hexes.values()),
            sorted(t.number for t in b.hexes.values() if t.number is not None),
            sorted(h.type for h in b.harbours),
        )

    if counts(board) != counts(printed):
        raise ValueError(f"the terrains, numbers or harbours are not scenario {number}'s")
    if board.unnumbered != printed.unnumbered:
        raise ValueError(f"the hexes without a number are not scenario {number}'s")
    problem = scenarios.layout_problem(number, seats, board.hexes)
    if problem is not None:
        raise ValueError(problem)
    if {h.edge for h in board.harbours} != {h.edge for h in printed.harbours}:
        raise ValueError(f"the harbours are not on scenario {number}'s harbour places")
    if board.pirate != printed.pirate:
        raise ValueError(f"the pirate starts on {printed.pirate}")
    if (board.robber is None) != (printed.robber is None):
        raise ValueError("the robber starts as the scenario says")
    if "cloth" in scenario:  # Cloth for Catan: the central islands stay as printed
        cloth.check_islands(board, printed, scenario["cloth"])
    if printed.robber is not None and printed.hexes[printed.robber].terrain == "desert":
        assert board.robber is not None  # (a robber where the scenario has one: above)
        if board.hexes[board.robber].terrain != "desert":
            raise ValueError("the robber starts on a desert")
    layout_of(board.to_json())
    return board


def harbour_places(state: State) -> list[int]:
    """The New World: the free coast paths beside land where a harbour marker may go."""
    layout, placed = state.laid(), set(state.harbours_placed)
    board = layout.board
    return [
        e
        for e in range(len(layout.edge_names))
        if board.is_coast(e) and layout.edge_names[e] not in placed
    ]


def _edge_corners(state: State, name: str) -> list[str]:
    layout = state.laid()
    edge = layout.grid.edges[layout.edge_by_name[name]]
    return [corner_name(c) for c in edge_corners(edge)]


def _draw(pile: dict[Any, int], rng: random.Random) -> Any:
    """The top of a face-down pile of ``pile`` (kind -> count), drawn from ``rng``."""
    kinds = sorted(k for k, n in pile.items() if n > 0)
    pick = rng.randrange(sum(pile[k] for k in kinds))
    for kind in kinds:
        if pick < pile[kind]:
            return kind
        pick -= pile[kind]
    raise AssertionError("unreachable: the pick is below the pile's size")


def _free_path_possible(state: State, seat: int) -> bool:
    """Whether Road Building can place a road (or, with Seafarers, a ship) now."""
    if building.road_spots(state, seat, free=True):
        return True
    return state.scenario is not None and bool(ships.ship_spots(state, seat, free=True))


#: a piece's cost as a refusal names it
PIECE_NAMES = {"development": "development card"} | {p: p for p in COSTS if p != "development"}


def _cards_words(cards: Mapping[str, int]) -> str:
    """``{"brick": 1, "ore": 3}`` -> ``"1 brick and 3 ore"``."""
    words = [f"{n} {name}" for name, n in cards.items()]
    return " and ".join([", ".join(words[:-1]), words[-1]] if len(words) > 1 else words)


def named_bank(state: State) -> dict[str, int]:
    return {r: state.bank[i] for i, r in enumerate(RESOURCES)}


def robber_victims(state: State, seat: int, target: tuple[int, int]) -> list[int]:
    """The seats the mover may steal from with the robber on ``target``: those with a
    building on it who hold a card."""
    owner = state.owner
    found = {owner[c] for c in state.laid().grid.hex_corners[target]} - {NOBODY, seat}
    return sorted(other for other in found if state.cards(other))


def robber_choices(state: State, seat: int) -> list[tuple[tuple[int, int], list[int]]]:
    """Where the robber may go (land hexes in reading order, the one it stands on
    excepted), each with the seats the mover may then steal from."""
    return [(h, victims or []) for h, victims in _robber_hexes(state, seat)]


def robber_spots(state: State, seat: int) -> list[tuple[tuple[int, int], int | None]]:
    """:func:`robber_choices` as single choices: each hex with each of its victims, or
    with nobody to steal from."""
    nobody = (None,)
    return [(h, v) for h, victims in _robber_hexes(state, seat) for v in victims or nobody]


def _robber_hexes(state: State, seat: int) -> list[tuple[tuple[int, int], list[int] | None]]:
    """Where the robber may go, each with the seats the mover may steal from there
    (:func:`robber_victims` of every hex at once, None for nobody), gathered from the
    seats' buildings rather than from each hex's six corners."""
    layout = state.laid()
    corner_land = layout.corner_land
    victims: list[list[int] | None] = [None] * len(layout.land)  # (in layout.land's order)
    for other in range(state.seats):
        if other == seat or not state.cards(other):
            continue
        for corner in state.buildings_of[other]:
            for i in corner_land[corner]:
                found = victims[i]
                if found is None:
                    victims[i] = [other]
                elif found[-1] != other:  # seats come in order, each once per hex
                    found.append(other)
    robber, places = state.robber, zip(layout.land, victims, strict=True)
    if state.tribe is None:
        return [place for place in places if place[0] != robber]
    return [p for p in places if p[0] != robber and tribe.robber_problem(state, p[0]) is None]


def development_purchase_problem(state: State, seat: int) -> str | None:
    if state.deck_left < 1:
        return "deck_empty"
    if not can_pay(state.hands[seat], COSTS["development"]):
        return "cannot_afford"
    return None


def development_play_problem(state: State, seat: int, card: int) -> str | None:
    if card == KNIGHT and state.fleet is not None:  # The Pirate Islands: warships only
        return "knight_is_a_warship"
    if state.dev_played:
        return "development_card_played"
    if state.devs[seat][card] < 1:
        return "card_bought_this_turn" if state.new_devs[seat][card] else "no_such_card"
    return None


def maritime_problem(state: State, seat: int, give: object, get: object) -> str | None:
    given = RESOURCE_INDEX.get(give) if isinstance(give, str) else None
    got = RESOURCE_INDEX.get(get) if isinstance(get, str) else None
    if given is None or got is None or given == got:
        return "bad_maritime_trade"
    return maritime_trade_problem(state, seat, given, got)


def maritime_trade_problem(state: State, seat: int, give: int, get: int) -> str | None:
    """A maritime trade of ``give`` for ``get`` (two different resource indices)."""
    if state.hands[seat][give] < state.rates[seat][give]:
        return "not_enough_resources"
    if state.bank[get] < 1:
        return "bank_empty"
    return None


def offer_problem(
    state: State, seat: int, give: list[int] | None, get: list[int] | None, to: object
) -> str | None:
    if give is None or get is None or any(g and w for g, w in zip(give, get, strict=True)):
        return "bad_offer"
    if not (
        isinstance(to, list)
        and to
        and all(type(s) is int and 0 <= s < state.seats and s != seat for s in to)
        and not state.agenda.absent.intersection(to)
    ):
        return "bad_offer"
    if not can_pay(state.hands[seat], give):
        return "not_enough_resources"
    return None


def final_points(state: State, seat: int) -> JSON:
    """A seat's points with their sources, victory point cards included."""
    settlements = sum(1 for c in state.buildings_of[seat] if not state.city[c])
    cities = len(state.buildings_of[seat]) - settlements
    sources = {
        "settlements": settlements * _BUILDING_POINTS["settlement"],
        "cities": cities * _BUILDING_POINTS["city"],
        "longest_road": AWARD_POINTS if state.longest == seat else 0,
        "largest_army": AWARD_POINTS if state.army == seat else 0,
        "victory_point_cards": state.hidden_points(seat),
    }
    if state.scenario is not None:
        sources["special_points"] = state.special[seat]
    if state.cloth is not None:
        sources["cloth"] = cloth.points(state.cloth, seat)
    if state.tribe is not None:
        sources["chits"] = state.tribe.chits[seat]
    return {"seat": seat, "total": sum(sources.values()), "sources": sources}


def _winners_if(seat: int) -> Callable[[State], list[int]]:
    """:meth:`Catan._won`'s test, for ``seat``, of the state the events lead to."""

    def winners(final: State) -> list[int]:
        if final.wonders is not None and not wonders.has_won(final, seat):
            return []
        if final.fleet is not None and not pirate_islands.may_win(final, seat):
            return []
        return [seat]

    return winners


def _plunderer(
    ruleset: Catan, state: State, given: object, rng: random.Random
) -> Callable[[int, int], list[int]]:
    """The Pirate Islands: what the fleet takes from a beaten seat."""
    external = state.options["randomness"] == "external"

    def plunder(victim: int, count: int) -> list[int]:
        if not external:
            return pirate_islands.drawn(state.hands[victim], count, rng)
        counts = parse_resources(given.get(str(victim))) if isinstance(given, dict) else None
        if counts is None or sum(counts) != count or not can_pay(state.hands[victim], counts):
            raise ruleset.illegal("bad_plunder", f"plunder must take {count} of seat {victim}'s")
        return counts

    return plunder


def _text(value: object) -> str | None:
    """A command's name field, or ``None`` if it is not a string (a list or an object
    there would not be a name, and could not be looked up)."""
    return value if isinstance(value, str) else None


def _counts(resources: Mapping[str, int]) -> list[int]:
    counts = [0] * 5
    for name, n in resources.items():
        counts[RESOURCE_INDEX[name]] = n
    return counts


def _dev_named(counts: list[int]) -> dict[str, int]:
    return {DEVELOPMENT_CARDS[i]: n for i, n in enumerate(counts) if n}


# -- menus: what each decision accepts now, through the same rule functions ----------------


def _set_board_menu(state: State, decision: Decision) -> JSON:
    return {"set_board": {"board": "a board in game_started's shape (base components)"}}


def _place_settlement_menu(state: State, decision: Decision) -> JSON:
    names = state.laid().corner_names
    spots = building.setup_settlements(state, decision.seat)
    return {"build_settlement": {"corners": [names[c] for c in spots]}}


def _road_menu(state: State, decision: Decision) -> JSON:
    setup, free = decision.kind == "place_road", decision.kind == "free_roads"
    names = state.laid().edge_names
    spots = building.road_spots(state, decision.seat, setup=setup, free=free)
    menu: JSON = {}
    if spots:
        menu["build_road"] = {"edges": [names[e] for e in spots]}
    if state.scenario is not None:
        afloat = ships.ship_spots(state, decision.seat, setup=setup, free=free)
        if afloat:
            menu["build_ship"] = {"edges": [names[e] for e in afloat]}
    return menu


def _roll_menu(state: State, decision: Decision) -> JSON:
    menu: JSON = {"roll": {} if state.options["randomness"] == "internal" else {"dice": "[a, b]"}}
    if development_play_problem(state, decision.seat, KNIGHT) is None:
        menu["play_knight"] = {}
    return menu


def _discard_menu(state: State, decision: Decision) -> JSON:
    hand = named(state.hands[decision.seat])
    return {"discard": {"count": decision.details["count"], "hand": hand}}


def _robber_menu(state: State, decision: Decision) -> JSON:
    seat = decision.seat
    hexes = [{"hex": hex_name(h), "victims": victims} for h, victims in robber_choices(state, seat)]
    menu: JSON = {"move_robber": {"hexes": hexes}}
    if "move_pirate" in decision.commands:
        menu["move_pirate"] = {
            "hexes": [
                {"hex": hex_name(h), "victims": ships.pirate_victims(state, seat, h)}
                for h in state.laid().sea
                if h != state.pirate
            ]
        }
    return menu


def _gold_menu(state: State, decision: Decision) -> JSON:
    count = min(decision.details["count"], sum(state.bank))
    return {"choose_gold": {"count": count, "bank": named_bank(state)}}


def _harbour_menu(state: State, decision: Decision) -> JSON:
    names = state.laid().edge_names
    if state.tribe is not None:
        edges = tribe.harbour_places(state, decision.seat)
        return {"place_harbour": {"edges": [names[e] for e in edges], **decision.details}}
    left = len(state.harbours_left)
    return {"place_harbour": {"edges": [names[e] for e in harbour_places(state)], "left": left}}


def turn_choices(state: State, seat: int) -> list[tuple[str, Any]]:
    """Every concrete command of the main turn but trade offers, at the level of board
    indices: ``(type, argument)``. The menu names them for clients and the bots pick
    among them; each passes the rule function the decider uses (cheap checks first:
    most of a turn's time a seat can afford nothing)."""
    hand, pieces = state.hands[seat], state.pieces[seat]
    found: list[tuple[str, Any]] = []
    # The spots ask their costs again; asked here first, most turns look no further (a
    # settlement costs a road's cards and more). The costs (COSTS) are written out
    # rather than asked of can_pay: this runs on every turn decision.
    brick, lumber, wool, grain, ore = hand
    if brick >= 1 and lumber >= 1:  # a road's cost
        found += [("build_road", e) for e in building.road_spots(state, seat)]
        if wool >= 1 and grain >= 1:  # a settlement's
            found += [("build_settlement", c) for c in building.settlement_spots(state, seat)]
    if pieces["city"] and grain >= 2 and ore >= 3:  # a city's
        found += [("build_city", c) for c in building.city_spots(state, seat)]
    if state.scenario is not None:
        if pieces["ship"] and can_pay(hand, _SHIP):
            found += [("build_ship", e) for e in ships.ship_spots(state, seat)]
        found += [("move_ship", move) for move in ships.ship_moves(state, seat)]
    if state.wonders is not None:
        found += wonders.choices(state, seat)
    if state.fleet is not None:
        found += pirate_islands.turn_choices(state, seat)
    # development_purchase_problem: a card left, and a development card's cost
    if state.deck_left and wool >= 1 and grain >= 1 and ore >= 1:
        found.append(_BUY_DEVELOPMENT)
    if not state.dev_played and any(state.devs[seat]):
        found += _development_choices(state, seat)
    # maritime_trade_problem's two rules, written out: the seat's rate, a card in the bank
    bank = state.bank
    rates = state.rates[seat]
    for give in range(5):
        if hand[give] >= rates[give]:
            trades = _MARITIME_TRADES[give]
            found += trades if all(bank) else [t for t in trades if bank[t[1][1]]]
    found.append(_END_TURN)
    return found


_SHIP = COSTS["ship"]
_END_TURN, _BUY_DEVELOPMENT = ("end_turn", None), ("buy_development", None)
#: per resource given: the maritime trades of it, one per resource to get (made once)
_MARITIME_TRADES = tuple(
    tuple(("maritime_trade", (give, get)) for get in range(5) if get != give) for give in range(5)
)


def _development_choices(state: State, seat: int) -> list[tuple[str, Any]]:
    # only the cards the seat holds are asked about (most of the time, knights)
    held = state.devs[seat]
    found: list[tuple[str, Any]] = []
    if held[KNIGHT] and development_play_problem(state, seat, KNIGHT) is None:
        found.append(("play_knight", None))
    if (
        held[ROAD_BUILDING]
        and development_play_problem(state, seat, ROAD_BUILDING) is None
        and _free_path_possible(state, seat)
    ):
        found.append(("play_road_building", None))
    if held[YEAR_OF_PLENTY] and development_play_problem(state, seat, YEAR_OF_PLENTY) is None:
        bank = state.bank
        found += [
            ("play_year_of_plenty", (a, b))
            for a in range(5)
            for b in range(a, 5)
            if bank[a] >= 1 + (a == b) and bank[b] >= 1
        ]
    if held[MONOPOLY] and development_play_problem(state, seat, MONOPOLY) is None:
        found += [("play_monopoly", r) for r in range(5)]
    return found


def choice_command(state: State, kind: str, argument: Any) -> JSON:
    """The command a choice of :func:`turn_choices` stands for."""
    if argument is None:  # end_turn, buy_development...: the commonest choices
        return {"type": kind}
    if kind in ("build_road", "build_ship"):
        return {"type": kind, "edge": state.laid().edge_names[argument]}
    if kind == "move_ship":
        names = state.laid().edge_names
        return {"type": kind, "from": names[argument[0]], "to": names[argument[1]]}
    if kind in ("build_settlement", "build_city"):
        return {"type": kind, "corner": state.laid().corner_names[argument]}
    if kind == "maritime_trade":
        return {"type": kind, "give": RESOURCES[argument[0]], "get": RESOURCES[argument[1]]}
    if kind == "play_year_of_plenty":
        a, b = argument
        return {
            "type": kind,
            "resources": {RESOURCES[a]: 2} if a == b else {RESOURCES[a]: 1, RESOURCES[b]: 1},
        }
    if kind == "play_monopoly":
        return {"type": kind, "resource": RESOURCES[argument]}
    if kind == "start_wonder":
        return {"type": kind, "wonder": argument}
    return {"type": kind}


def _turn_menu(state: State, decision: Decision) -> JSON:
    seat, layout = decision.seat, state.laid()
    menu: JSON = {}
    for kind, argument in turn_choices(state, seat):
        if kind in ("build_road", "build_ship"):
            menu.setdefault(kind, {"edges": []})["edges"].append(layout.edge_names[argument])
        elif kind == "move_ship":
            move = {"from": layout.edge_names[argument[0]], "to": layout.edge_names[argument[1]]}
            menu.setdefault(kind, {"moves": []})["moves"].append(move)
        elif kind in ("build_settlement", "build_city"):
            entry = menu.setdefault(kind, {"corners": []})
            entry["corners"].append(layout.corner_names[argument])
        elif kind == "maritime_trade":
            give, get = argument
            trade = {
                "give": RESOURCES[give],
                "get": RESOURCES[get],
                "rate": state.rates[seat][give],
            }
            menu.setdefault(kind, {"trades": []})["trades"].append(trade)
        elif kind == "play_year_of_plenty":
            menu[kind] = {"bank": named_bank(state)}
        elif kind == "play_monopoly":
            menu[kind] = {"resources": list(RESOURCES)}
        elif kind == "start_wonder":
            menu.setdefault(kind, {"wonders": []})["wonders"].append(argument)
        else:
            menu[kind] = {}
    if any(state.hands[seat]):
        menu["offer_trade"] = {
            "may_give": named(state.hands[seat]),
            "to": [s for s in range(state.seats) if s != seat and s not in state.agenda.absent],
            "rule": "give some of what you hold for any other resources",
        }
    menu["end_turn"] = menu.pop("end_turn")  # always offered, listed last
    return menu


def _respond_menu(state: State, decision: Decision) -> JSON:
    offer = state.trade_offer()
    hand = state.hands[decision.seat]
    answers = ["decline", "counter"] if any(hand) else ["decline"]  # a counter gives a card
    if can_pay(hand, _counts(offer["get"])):
        answers.insert(0, "accept")
    return {
        "respond_trade": {
            "answers": answers,
            "offer": {"seat": offer["seat"], "give": offer["give"], "get": offer["get"]},
            "may_give": named(state.hands[decision.seat]),
        }
    }


def _terms(offer: JSON, answer: JSON) -> tuple[JSON, JSON]:
    """What the offering seat gives and gets if it confirms with the seat that gave
    ``answer``: its offer, or the counter-offer seen from its side."""
    if answer["answer"] == "counter":
        return answer["get"], answer["give"]
    return offer["give"], offer["get"]


def _both_hold(state: State, seat: int, partner: int, give: JSON, get: JSON) -> bool:
    return can_pay(state.hands[seat], _counts(give)) and can_pay(state.hands[partner], _counts(get))


def _conclude_menu(state: State, decision: Decision) -> JSON:
    offer = state.trade_offer()
    partners = [
        int(s)
        for s, answer in offer["answers"].items()
        if answer["answer"] != "decline"
        and _both_hold(state, decision.seat, int(s), *_terms(offer, answer))
    ]
    menu: JSON = {"cancel_trade": {}}
    if partners:
        menu["confirm_trade"] = {"with": sorted(partners)}
    return menu


def _propose_menu(state: State, decision: Decision) -> JSON:
    menu: JSON = {"pass_trade": {}}
    if any(state.hands[decision.seat]):
        menu["propose_trade"] = {
            "may_give": named(state.hands[decision.seat]),
            "to": decision.details["to"],
            "rule": "give some of what you hold for any other resources",
        }
    return menu


def _consider_menu(state: State, decision: Decision) -> JSON:
    proposal = state.trade_offer()
    menu: JSON = {"decline_proposal": {}}
    if can_pay(state.hands[decision.seat], _counts(proposal["get"])):
        menu["accept_proposal"] = {}
    return menu


_MENUS: dict[str, Callable[[State, Decision], JSON]] = {
    "set_board": _set_board_menu,
    "place_settlement": _place_settlement_menu,
    "place_road": _road_menu,
    "roll": _roll_menu,
    "discard": _discard_menu,
    "move_robber": _robber_menu,
    "turn": _turn_menu,
    "free_roads": _road_menu,
    "respond_trade": _respond_menu,
    "conclude_trade": _conclude_menu,
    "propose_trade": _propose_menu,
    "consider_proposal": _consider_menu,
    "choose_gold": _gold_menu,
    "place_harbour": _harbour_menu,
    "steal": pirate_islands.steal_menu,
}

_HANDLERS: dict[str, Callable[..., list[Event]]] = {
    command: getattr(Catan, "_" + command)
    for commands in ALL_ANSWERS.values()
    for command in commands
}

CATAN = Catan()

__all__ = ["CATAN", "SETUP", "Catan"]

"""The Carcassonne South Seas decider: commands in, events out.

A turn (rulebook "Playing the game") is: draw and place a sea tile; place one islander
on it, or retrieve one from the board, or neither; evaluate what the tile completed
(and a fishing boat's sea region); optionally deliver wares to one face-up ship.
Commands, each answering the one pending decision that :meth:`SouthSeas.awaiting`
names (see docs/rulesets/carcassonne-south-seas.md):

- ``reveal_ship {ship}`` and ``draw_tile {tile}``: only with ``randomness: "external"``;
- ``place_tile {x, y, rotation}``;
- ``place_islander {spot}``, ``retrieve_islander {x, y, spot}`` or ``skip``;
- ``choose_ship {ship}``: the merchant of a completed market picks among tied ships
  (possibly outside their own turn);
- ``deliver {ship, wares: {"shell": 2, ...}}`` or ``pass``.

After each command the decider plays out every automatic consequence (ship awards,
refilling the display, ending the turn, the next draw, the end of the game) until a
seat must decide again.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from service.rules.core import (
    JSON,
    RANDOMNESS_MODES,
    Event,
    IllegalMove,
    InvalidOptions,
    Ruleset,
    checked_options,
)
from service.rules.south_seas import evaluation
from service.rules.south_seas.content import ContentError, content_for
from service.rules.south_seas.ships import WARES, Ship
from service.rules.south_seas.state import (
    DISPLAY,
    FISHING_BOAT_TOKENS,
    ISLANDER,
    ISLANDERS,
    STEP_AWARDS,
    STEP_DELIVER,
    STEP_DRAW,
    STEP_END,
    STEP_ISLANDER,
    STEP_OVER,
    STEP_PLACE,
    State,
    evolve,
    evolve_light,
)
from service.rules.tiling.features import Figure
from service.rules.tiling.geometry import ROTATIONS
from service.rules.tiling.turns import (
    TileStepError,
    draw_random,
    drawn,
    named_draw,
    placement,
)

RETRIEVE_EMPTY_SUPPLY = "empty_supply"
RETRIEVE_INSTEAD = "instead_of_placing"

OPTIONS: dict[str, dict[str, Any]] = {
    "randomness": {
        "type": "string",
        "enum": list(RANDOMNESS_MODES),
        "default": "internal",
        "description": "internal: the server draws tiles and reveals ships; external: the "
        "active seat sends each drawn tile (draw_tile) and revealed ship (reveal_ship).",
    },
    "retrieve": {
        "type": "string",
        "enum": [RETRIEVE_EMPTY_SUPPLY, RETRIEVE_INSTEAD],
        "default": RETRIEVE_EMPTY_SUPPLY,
        "description": "empty_supply (English and French rulebooks): an islander may be "
        "retrieved only by a seat with none in its supply; instead_of_placing (German "
        "rulebook): whenever the seat does not place one this turn.",
    },
    "tiles": {
        "type": "object",
        "default": None,
        "description": "A tile catalogue in the package's tiles.json format, to play with "
        "the publisher's real list instead of the provisional one. Validated.",
    },
    "ships": {
        "type": "object",
        "default": None,
        "description": "A ship list in the package's ships.json format. Validated.",
    },
}

RULES = {
    "not_your_turn": "Players take turns clockwise; only the awaited seat may act (the "
    "merchant of a completed market chooses among tied ships even outside their turn).",
    "unexpected_command": "A turn is: place a tile; place or retrieve an islander or "
    "neither; evaluations; then deliver to one ship or not.",
    "unknown_command": "Commands are reveal_ship, draw_tile, place_tile, place_islander, "
    "retrieve_islander, skip, choose_ship, deliver and pass.",
    "game_over": "The game ends after the turn in which the last tile was placed or the "
    "last ship was taken.",
    "bad_command": "The command is missing a field or has one of the wrong type.",
    "bad_rotation": "A tile is turned by 0, 90, 180 or 270 degrees clockwise.",
    "position_occupied": "A tile is placed on an empty space.",
    "no_neighbour": "The new tile must touch a placed tile with at least one whole side; "
    "touching only at a corner is not allowed.",
    "tile_does_not_fit": "New tiles must continue pre-existing bridges, islands and sea regions.",
    "unknown_tile": "Tiles are named by their id in the catalogue.",
    "tile_not_in_stack": "The drawn tile must be one still in the stack.",
    "unknown_ship": "Ships are named by their id in the catalogue.",
    "ship_not_in_stack": "The revealed ship must be one still face down.",
    "unknown_spot": "An islander is placed on a bridge, island, sea region or market of "
    "the tile just placed.",
    "no_islanders_left": "The islander must come from the player's supply.",
    "feature_occupied": "An islander may not be placed on a bridge, island or sea region "
    "connected to one that already holds an islander, whoever owns it.",
    "supply_not_empty": "A player may retrieve an islander only when her supply is empty.",
    "no_islander_there": "A player retrieves one of her own islanders from the board.",
    "ship_not_offered": "A merchant takes one of the highest-valued face-up ships.",
    "ship_not_face_up": "Wares are delivered to one of the face-up ships.",
    "bad_wares": "Wares are counted per type: shell, banana and fish.",
    "not_enough_wares": "A player delivers wares she holds.",
    "demand_not_met": "The wares delivered must be exactly those the ship's sail shows.",
}

#: the commands that answer each decision
ANSWERS = {
    "reveal_ship": ("reveal_ship",),
    "draw_tile": ("draw_tile",),
    "place_tile": ("place_tile",),
    "place_islander": ("place_islander", "retrieve_islander", "skip"),
    "choose_ship": ("choose_ship",),
    "deliver": ("deliver", "pass"),
}
ALL_COMMANDS = {c for answers in ANSWERS.values() for c in answers}


def illegal(code: str, message: str) -> IllegalMove:
    return IllegalMove(code, message, RULES.get(code))


class SouthSeas(Ruleset[State]):
    name: ClassVar[str] = "carcassonne-south-seas"
    title: ClassVar[str] = "Carcassonne South Seas"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 5
    bots: ClassVar[tuple[str, ...]] = ("random", "greedy")

    # -- catalogue -------------------------------------------------------------

    def describe(self) -> JSON:
        return self.description(
            OPTIONS,
            commands={
                "reveal_ship": {"ship": "ship id (external randomness only)"},
                "draw_tile": {"tile": "tile id (external randomness only)"},
                "place_tile": {"x": "int", "y": "int (north is y-1)", "rotation": list(ROTATIONS)},
                "place_islander": {"spot": "e.g. bridge:N,S island:N sea:EL,ER market"},
                "retrieve_islander": {"x": "int", "y": "int", "spot": "the islander's spot"},
                "skip": {},
                "choose_ship": {"ship": "one of the tied highest-valued face-up ships"},
                "deliver": {"ship": "face-up ship id", "wares": {w: "int" for w in WARES}},
                "pass": {},
            },
        )

    def normalize_options(self, options: Mapping[str, Any]) -> JSON:
        result = checked_options(OPTIONS, options)
        try:
            content_for(result["tiles"], result["ships"])
        except ContentError as error:
            raise InvalidOptions(error.field, str(error)) from error
        return result

    # -- the decider -----------------------------------------------------------

    def setup(self, options: JSON, seats: int, rng: random.Random) -> list[Event]:
        if not isinstance(seats, int) or not self.min_seats <= seats <= self.max_seats:
            raise InvalidOptions("seats", f"South Seas is for 2 to 5 players, not {seats}")
        content = content_for(options.get("tiles"), options.get("ships"))
        start = content.start
        started = Event(
            "game_started",
            {
                "ruleset": self.name,
                "options": dict(options),
                "seats": seats,
                "islanders": ISLANDERS,
                "fishing_boats": FISHING_BOAT_TOKENS,
                "start": {"tile": start.id, "x": 0, "y": 0, "rotation": 0},
                "stack": {t.id: t.count - t.start for t in content.catalogue.tiles},
                "ships": [ship.id for ship in content.ships],
            },
        )
        state = self.evolve(self.initial_state(), started)
        return [started, *self._advance(state, [], rng)]

    def initial_state(self) -> State:
        return State()

    def evolve(self, state: State, event: Event) -> State:
        evolve(state, event.type, event.data)
        return state

    def copy_state(self, state: State) -> State:
        return state.copy()

    def decide(self, state: State, seat: int, command: JSON, rng: random.Random) -> list[Event]:
        if state.step == STEP_OVER:
            raise illegal("game_over", "the game is over")
        kind = command.get("type") if isinstance(command, Mapping) else None
        if kind not in ALL_COMMANDS:
            raise illegal("unknown_command", f"unknown command type {kind!r}")
        (pending,) = self.awaiting(state)
        if seat != pending["seat"]:
            raise illegal("not_your_turn", f"seat {pending['seat']} is awaited, not seat {seat}")
        if kind not in ANSWERS[pending["decision"]]:
            raise illegal("unexpected_command", f"awaiting {pending['decision']}, not {kind}")
        return getattr(self, "_" + kind)(state, seat, command, rng)

    # -- commands --------------------------------------------------------------

    def _reveal_ship(self, state: State, seat: int, command: JSON, rng: random.Random):
        ship = state.content.ship_by_id.get(command.get("ship"))
        if ship is None:
            raise illegal("unknown_ship", f"no ship named {command.get('ship')!r}")
        if ship.id not in state.ship_stack:
            raise illegal("ship_not_in_stack", f"{ship.id} is not face down")
        revealed = [_revealed(ship)]
        return revealed + self._advance(state, revealed, rng)

    def _draw_tile(self, state: State, seat: int, command: JSON, rng: random.Random):
        try:
            tile = named_draw(state.catalogue, state.stack, command.get("tile"))
        except TileStepError as error:
            raise error.illegal(RULES) from None
        events = drawn(seat, tile, state.board.fits_anywhere(tile))
        return events + self._advance(state, events, rng)

    def _place_tile(self, state: State, seat: int, command: JSON, rng: random.Random):
        try:
            (x, y), q = placement(state.board, state.tile, command)
        except TileStepError as error:
            raise error.illegal(RULES) from None
        data = {"seat": seat, "tile": state.tile.id, "x": x, "y": y, "rotation": ROTATIONS[q]}
        return [Event("tile_placed", data)]

    def _place_islander(self, state: State, seat: int, command: JSON, rng: random.Random):
        spot = command.get("spot")
        placed = state.board.tiles[state.placed]
        index = placed.tile.spot_segment[placed.q].get(spot) if isinstance(spot, str) else None
        if index is None:
            raise illegal("unknown_spot", f"the tile just placed has no spot {spot!r}")
        if state.supply[seat] < 1:
            raise illegal("no_islanders_left", f"seat {seat} has no islander in its supply")
        root = state.graph.find(placed.node + index)
        feature = state.graph.features[root]
        if feature.figures:
            raise illegal("feature_occupied", f"the {feature.kind.name} at {spot} is occupied")
        kind = feature.kind.name
        x, y = state.placed
        data = {"seat": seat, "x": x, "y": y, "spot": spot, "kind": kind}
        data["role"] = evaluation.ROLES[kind]
        new = (root, Figure(seat, ISLANDER, 1, state.placed, spot))
        return self._evaluate(state, rng, Event("islander_placed", data), new, None)

    def _retrieve_islander(self, state: State, seat: int, command: JSON, rng: random.Random):
        if state.options["retrieve"] == RETRIEVE_EMPTY_SUPPLY and state.supply[seat]:
            raise illegal("supply_not_empty", f"seat {seat} still has an islander in supply")
        x, y, spot = command.get("x"), command.get("y"), command.get("spot")
        node = state.graph.node_at(state.board, (x, y), spot) if isinstance(spot, str) else None
        if node is None or not isinstance(x, int) or not isinstance(y, int):
            raise illegal("no_islander_there", f"no islander of seat {seat} at {x},{y} {spot}")
        root = state.graph.find(node)
        mine = [
            f
            for f in state.graph.features[root].figures
            if f.seat == seat and f.pos == (x, y) and f.spot == spot
        ]
        if not mine:
            raise illegal("no_islander_there", f"no islander of seat {seat} at {x},{y} {spot}")
        kind = state.graph.features[root].kind.name
        data = {"seat": seat, "x": x, "y": y, "spot": spot, "kind": kind}
        return self._evaluate(state, rng, Event("islander_retrieved", data), None, (root, mine[0]))

    def _skip(self, state: State, seat: int, command: JSON, rng: random.Random):
        return self._evaluate(state, rng, None, None, None)

    def _evaluate(
        self,
        state: State,
        rng: random.Random,
        step: Event | None,
        new: evaluation.Placement | None,
        removed: evaluation.Placement | None,
    ) -> list[Event]:
        """Step 3: the evaluations after the islander step (``step``), then onwards."""
        events = [] if step is None else [step]
        data = evaluation.turn_evaluations(state, new, removed)
        events += [Event("feature_evaluated", d) for d in data]
        return events + self._advance(state, events, rng, STEP_AWARDS)

    def _choose_ship(self, state: State, seat: int, command: JSON, rng: random.Random):
        offered = _highest(state)
        if command.get("ship") not in offered:
            raise illegal("ship_not_offered", f"choose one of {offered}")
        awarded = [_awarded(state, state.owed[0], command["ship"], offered)]
        return awarded + self._advance(state, awarded, rng)

    def _deliver(self, state: State, seat: int, command: JSON, rng: random.Random):
        ship_id, wares = command.get("ship"), command.get("wares")
        if ship_id not in state.display:
            raise illegal("ship_not_face_up", f"{ship_id!r} is not a face-up ship")
        if not isinstance(wares, Mapping) or not all(
            w in WARES and isinstance(n, int) and not isinstance(n, bool) and n >= 0
            for w, n in wares.items()
        ):
            raise illegal("bad_wares", f"wares must map {', '.join(WARES)} to counts")
        short = [w for w, n in wares.items() if n > state.wares[seat][w]]
        if short:
            raise illegal(
                "not_enough_wares", f"seat {seat} has only {state.wares[seat][short[0]]} {short[0]}"
            )
        ship = state.content.ship_by_id[ship_id]
        problem = ship.problem(wares)
        if problem:
            raise illegal("demand_not_met", problem)
        data = {
            "seat": seat,
            "ship": ship_id,
            "points": ship.points,
            "demand": ship.describe()["demand"],
            "wares": {w: n for w, n in wares.items() if n},
        }
        delivered = [Event("wares_delivered", data)]
        return delivered + self._advance(state, delivered, rng)

    def _pass(self, state: State, seat: int, command: JSON, rng: random.Random):
        return self._advance(state, [], rng, STEP_END)

    # -- what follows by itself ------------------------------------------------

    def _advance(
        self, state: State, pending: list[Event], rng: random.Random, step: str | None = None
    ) -> list[Event]:
        """Every automatic event after ``pending`` (this command's events so far), until
        a seat must decide. Works on a light copy; ``step`` overrides the step reached
        when the command's own events leave it implicit (skip, pass)."""
        light = state.light_copy()
        for event in pending:
            evolve_light(light, event.type, event.data)
        if step is not None:
            light.step = step
        internal = state.options["randomness"] == "internal"
        out: list[Event] = []

        def emit(*events: Event) -> None:
            for event in events:
                out.append(event)
                evolve_light(light, event.type, event.data)

        while True:
            if len(light.display) < DISPLAY and light.ship_stack:
                if not internal:
                    return out
                ship_id = light.ship_stack[rng.randrange(len(light.ship_stack))]
                emit(_revealed(light.content.ship_by_id[ship_id]))
            elif light.step == STEP_AWARDS:
                if light.owed and len(_highest(light)) > 1:
                    return out
                if light.owed:
                    offered = _highest(light)
                    emit(_awarded(light, light.owed[0], offered[0] if offered else None, offered))
                    continue
                offer = deliverable(light, light.seat)
                if offer:
                    emit(Event("delivery_offered", {"seat": light.seat, "ships": offer}))
                    return out
                light.step = STEP_END
            elif light.step == STEP_END:
                following = (light.seat + 1) % light.seats
                emit(Event("turn_ended", {"seat": light.seat, "next": following}))
                if not light.ships_left():
                    return out + self._game_end(state, pending + out, "ships_exhausted")
            elif light.step == STEP_DRAW:
                if light.remaining == 0:
                    return out + self._game_end(state, pending + out, "tiles_exhausted")
                if not internal:
                    return out
                tiles = light.catalogue.tiles
                tile = draw_random(tiles, light.stack, light.remaining, rng)
                emit(*drawn(light.seat, tile, light.board.fits_anywhere(tile)))
            else:
                return out

    def _game_end(self, state: State, pending: list[Event], because: str) -> list[Event]:
        """Final evaluation and scores, on the state this command's events lead to."""
        final = state.copy()
        for event in pending:
            self.evolve(final, event)
        events = []
        for data in evaluation.final_evaluations(final):
            events.append(Event("feature_evaluated", data))
            self.evolve(final, events[-1])
        scores = [final.score(s) for s in range(final.seats)]
        best = max(scores)
        events.append(
            Event(
                "game_ended",
                {
                    "because": because,
                    "scores": scores,
                    "ship_points": [final.ship_points(s) for s in range(final.seats)],
                    "wares": [sum(w.values()) for w in final.wares],
                    "reason": "ship points + 1 point per 3 remaining wares of any type",
                    "winners": [s for s, points in enumerate(scores) if points == best],
                },
            )
        )
        return events

    # -- questions -------------------------------------------------------------

    def awaiting(self, state: State) -> list[JSON]:
        step, seat = state.step, state.seat
        if step == STEP_OVER or state.content is None:
            return []
        if len(state.display) < DISPLAY and state.ship_stack:
            return [{"seat": seat, "decision": "reveal_ship"}]
        if state.owed:
            merchant = state.owed[0]
            market = {"x": merchant["x"], "y": merchant["y"]}
            ships = _highest(state)
            return [
                {
                    "seat": merchant["seat"],
                    "decision": "choose_ship",
                    "ships": ships,
                    "market": market,
                }
            ]
        if step == STEP_DRAW:
            return [{"seat": seat, "decision": "draw_tile"}]
        if step == STEP_PLACE:
            return [{"seat": seat, "decision": "place_tile", "tile": state.tile.id}]
        if step == STEP_ISLANDER:
            x, y = state.placed
            return [{"seat": seat, "decision": "place_islander", "x": x, "y": y}]
        if step == STEP_DELIVER:
            return [{"seat": seat, "decision": "deliver", "ships": deliverable(state, seat)}]
        raise AssertionError(f"no decision is pending at step {step}")

    def legal_commands(self, state: State, seat: int) -> JSON:
        pending = self.awaiting(state)
        if not pending or pending[0]["seat"] != seat:
            return {"seat": seat, "decision": None}
        decision = pending[0]["decision"]
        menu: JSON = {"seat": seat, "decision": decision}
        if decision == "reveal_ship":
            menu["ships"] = list(state.ship_stack)
        elif decision == "draw_tile":
            menu["tiles"] = {tile: n for tile, n in state.stack.items() if n}
        elif decision == "place_tile":
            menu["tile"] = state.tile.id
            menu["placements"] = [
                {"x": x, "y": y, "rotation": ROTATIONS[q]}
                for (x, y), q in state.board.placements(state.tile)
            ]
        elif decision == "place_islander":
            menu["spots"] = free_spots(state, seat)
            menu["retrieve"] = retrievable(state, seat)
            menu["skip"] = True
        elif decision == "choose_ship":
            menu["ships"] = pending[0]["ships"]
        else:
            ships = state.content.ship_by_id
            menu["ships"] = [
                {"ship": s, "wares": ships[s].payable(state.wares[seat])}
                for s in pending[0]["ships"]
            ]
            menu["pass"] = True
        return menu

    def view(self, state: State, seat: int | None) -> JSON:
        ships = state.content.ship_by_id
        islanders = [
            {
                "seat": f.seat,
                "x": f.pos[0],
                "y": f.pos[1],
                "spot": f.spot,
                "kind": feature.kind.name,
            }
            for _, feature in sorted(state.graph.features.items())
            for f in feature.figures
        ]
        awaiting = self.awaiting(state)
        return {
            "ruleset": self.name,
            "options": {k: v for k, v in state.options.items() if k not in ("tiles", "ships")},
            "custom_catalogue": {
                "tiles": state.options.get("tiles") is not None,
                "ships": state.options.get("ships") is not None,
            },
            "seats": state.seats,
            "turn": state.turn,
            "seat": state.seat,
            "decision": awaiting[0]["decision"] if awaiting else None,
            "tile": state.tile.id if state.tile else None,
            "placed": list(state.placed) if state.placed else None,
            "board": [
                {"x": x, "y": y, "tile": p.tile.id, "rotation": ROTATIONS[p.q]}
                for (x, y), p in state.board.tiles.items()
            ],
            "islanders": islanders,
            "supply": list(state.supply),
            "wares": [dict(w) for w in state.wares],
            "display": [ships[s].describe() for s in state.display],
            "ships_face_down": len(state.ship_stack),
            "held": [[ships[s].describe() for s in held] for held in state.held],
            "owed": list(state.owed),
            "fishing_boats_left": state.boats,
            "covered": [
                {"x": x, "y": y, "spot": spot, **groups}
                for (x, y, spot), groups in sorted(state.covered.items())
            ],
            "stack": {tile: n for tile, n in state.stack.items() if n},
            "remaining": state.remaining,
            "set_aside": list(state.set_aside),
            "scores": [state.score(s) for s in range(state.seats)],
            "awaiting": awaiting,
            "over": state.step == STEP_OVER,
            "ended_because": state.ended_because,
            "winners": list(state.winners),
        }

    def is_over(self, state: State) -> bool:
        return state.step == STEP_OVER

    def result(self, state: State) -> JSON:
        over = state.step == STEP_OVER
        scores = [state.score(s) for s in range(state.seats)]
        return {"scores": scores, "over": over, "winners": list(state.winners)}

    # -- bots ------------------------------------------------------------------

    def bot_command(self, state: State, seat: int, bot: str, rng: random.Random) -> JSON:
        from service.rules.south_seas.bots import BOTS

        if bot not in BOTS:
            return super().bot_command(state, seat, bot, rng)
        return BOTS[bot](self, state, seat, rng)


# -- helpers shared by the decider and the bots ---------------------------------------


def _revealed(ship: Ship) -> Event:
    return Event("ship_revealed", ship.describe() | {"ship": ship.id})


def _highest(state: State) -> list[str]:
    """The face-up ships a merchant may take: those of the highest value."""
    ships = state.content.ship_by_id
    best = max((ships[s].points for s in state.display), default=0)
    return [s for s in state.display if ships[s].points == best]


def _awarded(
    state: State, merchant: Mapping[str, int], ship: str | None, offered: list[str]
) -> Event:
    data: JSON = {
        "seat": merchant["seat"],
        "market": {"x": merchant["x"], "y": merchant["y"]},
        "ship": ship,
        "highest": offered,
    }
    if ship is None:
        data["points"] = 0
        data["reason"] = "no face-up ship is left for this market's merchant"
    else:
        data["points"] = state.content.ship_by_id[ship].points
        data["reason"] = (
            "the merchant chose among the tied highest-valued ships"
            if len(offered) > 1
            else "the highest-valued face-up ship"
        )
    return Event("ship_awarded", data)


def deliverable(state: State, seat: int) -> list[str]:
    """The face-up ships ``seat`` holds the wares for."""
    ships = state.content.ship_by_id
    return [s for s in state.display if ships[s].payable(state.wares[seat]) is not None]


def free_spots(state: State, seat: int) -> list[JSON]:
    """The spots of the tile just placed where ``seat`` may place an islander."""
    if state.supply[seat] < 1:
        return []
    placed = state.board.tiles[state.placed]
    spots = []
    for i, name in enumerate(placed.tile.spots[placed.q]):
        feature = state.graph.feature(placed.node + i)
        if not feature.figures:
            kind = feature.kind.name
            spots.append({"spot": name, "kind": kind, "role": evaluation.ROLES[kind]})
    return spots


def retrievable(state: State, seat: int) -> list[JSON]:
    """The islanders ``seat`` may take back now (see the ``retrieve`` option)."""
    if state.options["retrieve"] == RETRIEVE_EMPTY_SUPPLY and state.supply[seat]:
        return []
    return [
        {"x": f.pos[0], "y": f.pos[1], "spot": f.spot}
        for _, feature in sorted(state.graph.features.items())
        for f in feature.figures
        if f.seat == seat
    ]


SOUTH_SEAS = SouthSeas()

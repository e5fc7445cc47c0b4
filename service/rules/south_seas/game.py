"""The Carcassonne South Seas decider: commands in, events out.

A turn (rulebook "Playing the game") is: draw and place a sea tile; place one islander
on it, or retrieve one from the board, or neither; evaluate what the tile completed
(and a fishing boat's sea region); optionally deliver wares to one face-up ship.
One decision is open at a time (:meth:`SouthSeas.decisions`), and these commands answer
it (see docs/rulesets/carcassonne-south-seas.md):

- ``reveal_ship {ship}`` and ``draw_tile {tile}``: only with ``randomness: "external"``;
- ``place_tile {x, y, rotation}``;
- ``place_islander {spot}``, ``retrieve_islander {x, y, spot}`` or ``skip``;
- ``choose_ship {ship}``: the merchant of a completed market picks among tied ships
  (possibly outside their own turn);
- ``deliver {ship, wares: {"shell": 2, ...}}`` or ``pass``.

After each command the decider plays out every automatic consequence (ship awards,
refilling the display, ending the turn, the next draw, the end of the game) until a
seat must decide again, folding each event as it is emitted (:class:`~service.rules.core.Turn`)
into a light copy of the state that leaves the board alone, or, when it applies a
command (:meth:`SouthSeas.apply`), into the state itself.

Each rule that can refuse a command has one check (``*_problem``: the IllegalMove code
and message, or ``None``), used both by the command's handler and to draw the menu from
its candidates, so the menu never lists a command that ``decide`` refuses.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any, ClassVar

from service.rules.core import (
    JSON,
    RANDOMNESS_MODES,
    Event,
    InvalidOptions,
    Ruleset,
    Turn,
    checked_options,
    illegal,
)
from service.rules.decisions import Decision, single
from service.rules.seating import next_seated
from service.rules.south_seas import evaluation, shapes
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
)
from service.rules.tiling.features import Feature, Figure
from service.rules.tiling.geometry import ROTATIONS
from service.rules.tiling.turns import (
    FoldingInPlace,
    SeatsLeaving,
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
    "last ship was taken. No move is made once it has ended, nor once it is abandoned or one"
    " seat is left.",
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
ANSWERS: dict[str, tuple[str, ...]] = {
    "reveal_ship": ("reveal_ship",),
    "draw_tile": ("draw_tile",),
    "place_tile": ("place_tile",),
    "place_islander": ("place_islander", "retrieve_islander", "skip"),
    "choose_ship": ("choose_ship",),
    "deliver": ("deliver", "pass"),
}

#: why a command is refused: an IllegalMove code and a message (an IllegalMove is built
#: only to be raised, not for each choice a menu leaves out)
Refusal = tuple[str, str]
#: why ``seat`` may not send a command now, or ``None``
Check = Callable[[State, int, JSON], Refusal | None]


class SouthSeas(FoldingInPlace, SeatsLeaving, Ruleset[State]):
    name: ClassVar[str] = "carcassonne-south-seas"
    title: ClassVar[str] = "Carcassonne South Seas"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 5
    bots: ClassVar[tuple[str, ...]] = ("random", "greedy")
    bots_module: ClassVar[str | None] = "service.rules.south_seas.bots"
    parts: ClassVar = shapes.PARTS
    view_shape: ClassVar = shapes.VIEW
    answers: ClassVar[Mapping[str, tuple[str, ...]]] = ANSWERS
    rules: ClassVar[Mapping[str, str]] = RULES

    # -- catalogue -------------------------------------------------------------

    def describe(self) -> JSON:
        return self.description(OPTIONS)

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
                "rules_version": self.rules_version,
                "options": dict(options),
                "seats": seats,
                "islanders": ISLANDERS,
                "fishing_boats": FISHING_BOAT_TOKENS,
                "start": {"tile": start.id, "x": 0, "y": 0, "rotation": 0},
                "stack": {t.id: t.count - t.start for t in content.catalogue.tiles},
                "ships": [ship.id for ship in content.ships],
            },
        )
        return [started, *self._then(self.evolve(self.initial_state(), started), rng, [])]

    def initial_state(self) -> State:
        return State()

    #: (the state module's function itself: it is called for every event)
    evolve = staticmethod(evolve)

    def copy_state(self, state: State) -> State:
        return state.copy()

    def scratch_copy(self, state: State) -> State:
        """The light copy: working a command out changes nothing on the board, and the
        table parts of its own events are folded only once it is decided. While
        :meth:`apply` works out a command, the state itself."""
        return state if state.in_place else state.light_copy()

    def decisions(self, state: State) -> list[Decision]:
        """The one open decision. The core asks for it several times per command, so the
        state keeps the list for as long as no event is folded (see
        :meth:`_open_decision`): callers must not change it."""
        folded, found = state.decisions
        if folded != state.folded:
            decision = self._open_decision(state)
            found = [] if decision is None else [decision]
            state.decisions = (state.folded, found)
        return found

    @staticmethod
    def _open_decision(state: State) -> Decision | None:
        """The open decision, computed from the state: refilling the display comes first,
        then the merchant's ship choice (whoever's turn it is), then the active seat's
        step. Its id is the count of events folded, which every event changes."""
        if state.step == STEP_OVER or state.content is None:
            return None
        details: JSON
        seat, details = state.seat, {}
        if len(state.display) < DISPLAY and state.ship_stack:
            kind = "reveal_ship"
        elif state.owed:
            merchant = state.owed[0]
            seat, kind = merchant["seat"], "choose_ship"
            details = {"ships": _highest(state), "market": {"x": merchant["x"], "y": merchant["y"]}}
        elif state.step == STEP_DRAW:
            kind = "draw_tile"
        elif state.step == STEP_PLACE:
            assert state.tile is not None
            kind, details = "place_tile", {"tile": state.tile.id}
        elif state.step == STEP_ISLANDER:
            assert state.placed is not None
            kind, details = "place_islander", {"x": state.placed[0], "y": state.placed[1]}
        elif state.step == STEP_DELIVER:
            kind, details = "deliver", {"ships": list(state.offered)}
        else:  # between the events of one command (a state read at any seq): nobody
            return None
        return single(seat, kind, state.folded, ANSWERS[kind], **details)

    def handle(
        self, state: State, decision: Decision, command: JSON, rng: random.Random
    ) -> list[Event]:
        return self._handlers[command["type"]](self, state, decision.seat, command, rng)

    def menu(self, state: State, decision: Decision) -> JSON:
        return {command: MENUS[command](state, decision.seat) for command in decision.commands}

    # -- commands: each checks its rule, then gives its events and what follows ---

    def _reveal_ship(self, state: State, seat: int, command: JSON, rng: random.Random):
        _refuse(reveal_problem(state, seat, command))
        assert state.content is not None
        return self._then(state, rng, [_revealed(state.content.ship_by_id[command["ship"]])])

    def _draw_tile(self, state: State, seat: int, command: JSON, rng: random.Random):
        _refuse(draw_problem(state, seat, command))
        assert state.catalogue is not None
        tile = state.catalogue.get(command["tile"])
        assert tile is not None and state.board is not None  # (draw_problem checked it)
        return self._then(state, rng, drawn(seat, tile, state.board.fits_anywhere(tile)))

    def _place_tile(self, state: State, seat: int, command: JSON, rng: random.Random):
        try:
            assert state.board is not None
            assert state.tile is not None
            (x, y), q = placement(state.board, state.tile, command)
        except TileStepError as error:
            raise error.illegal(RULES) from None
        assert state.tile is not None
        data = {"seat": seat, "tile": state.tile.id, "x": x, "y": y, "rotation": ROTATIONS[q]}
        return [Event("tile_placed", data)]  # the islander step follows: nothing else

    def _place_islander(self, state: State, seat: int, command: JSON, rng: random.Random):
        _refuse(islander_problem(state, seat, command))
        spot, graph = command["spot"], state.graph
        assert state.placed is not None
        root = graph.find(state.tile_node(state.placed, spot))
        kind = graph.features[root].kind.name
        x, y = placed = state.placed
        data = {"seat": seat, "x": x, "y": y, "spot": spot, "kind": kind}
        data["role"] = evaluation.ROLES[kind]
        new = (root, Figure(seat, ISLANDER, 1, placed, spot))
        return self._evaluate(state, rng, [Event("islander_placed", data)], new, None)

    def _retrieve_islander(self, state: State, seat: int, command: JSON, rng: random.Random):
        _refuse(retrieve_problem(state, seat, command))
        found = _own_islander(state, seat, _where(command))
        assert found is not None  # (retrieve_problem checked it)
        root, figure = found
        (x, y), kind = figure.pos, state.graph.features[root].kind.name
        data = {"seat": seat, "x": x, "y": y, "spot": figure.spot, "kind": kind}
        return self._evaluate(state, rng, [Event("islander_retrieved", data)], None, (root, figure))

    def _skip(self, state: State, seat: int, command: JSON, rng: random.Random):
        return self._evaluate(state, rng, [], None, None)

    def _evaluate(
        self,
        state: State,
        rng: random.Random,
        step: list[Event],
        new: evaluation.Placement | None,
        removed: evaluation.Placement | None,
    ) -> list[Event]:
        """Step 3: the evaluations after the islander step (``step``'s events; worked
        out on the state before them), then onwards."""
        evaluated = evaluation.turn_evaluations(state, new, removed)
        if evaluated:  # (mostly not: the tile completed nothing)
            step += [Event("feature_evaluated", data) for data in evaluated]
        return self._then(state, rng, step, STEP_AWARDS)

    def _choose_ship(self, state: State, seat: int, command: JSON, rng: random.Random):
        _refuse(choice_problem(state, seat, command))
        awarded = _awarded(state, state.owed[0], command["ship"], _highest(state))
        return self._then(state, rng, [awarded])

    def _deliver(self, state: State, seat: int, command: JSON, rng: random.Random):
        _refuse(delivery_problem(state, seat, command))
        assert state.content is not None
        ship = state.content.ship_by_id[command["ship"]]
        data = {
            "seat": seat,
            "ship": ship.id,
            "points": ship.points,
            "demand": ship.describe()["demand"],
            "wares": {w: n for w, n in command["wares"].items() if n},
        }
        return self._then(state, rng, [Event("wares_delivered", data)])

    def _pass(self, state: State, seat: int, command: JSON, rng: random.Random):
        return self._then(state, rng, [], STEP_END)

    #: command type -> its handler: the events the command causes
    _handlers: ClassVar[Mapping[str, Callable[..., list[Event]]]] = {
        "reveal_ship": _reveal_ship,
        "draw_tile": _draw_tile,
        "place_tile": _place_tile,
        "place_islander": _place_islander,
        "retrieve_islander": _retrieve_islander,
        "skip": _skip,
        "choose_ship": _choose_ship,
        "deliver": _deliver,
        "pass": _pass,
    }

    # -- what follows by itself ------------------------------------------------

    def _then(
        self, state: State, rng: random.Random, events: list[Event], step: str | None = None
    ) -> list[Event]:
        """``events`` and every automatic event that follows them until a seat must
        decide, each folded as it is emitted (see :meth:`scratch_copy`)."""
        turn = Turn(self, state)
        turn.emit(*events)
        self._continue(turn, rng, step)
        return turn.events

    def _continue(self, turn: Turn[State], rng: random.Random, step: str | None = None) -> None:
        """Every automatic event from ``step`` on (default: the step the state has
        reached; a skip or a pass moves the turn on without an event of its own): refill
        the display, award the ships owed, offer the delivery, end the turn, draw, end
        the game."""
        # (``turn.state`` is read again after each emit: a light copy is made at the first)
        state = turn.state
        step = step or state.step
        if len(state.display) < DISPLAY and not self._refilled(turn, rng):
            return  # (the display is mostly full: no refill to try)
        if step == STEP_AWARDS:
            state = turn.state
            while state.owed:
                offered = _highest(state)
                if len(offered) > 1:
                    return  # the merchant chooses
                turn.emit(_awarded(state, state.owed[0], offered[0] if offered else None, offered))
                if not self._refilled(turn, rng):
                    return
                state = turn.state
            offers = deliveries(state, state.seat)
            if offers:  # (mostly none: the ships' list is made only for an offer)
                ships = [offer["ship"] for offer in offers]
                turn.emit(Event("delivery_offered", {"seat": state.seat, "ships": ships}))
                return
            step = STEP_END
        if step == STEP_END:
            state = turn.state
            seat = state.seat
            following = next_seated(seat, state.seats, state.resigned)
            turn.emit(Event("turn_ended", {"seat": seat, "next": following}))
            if not turn.state.ships_left():
                self._game_end(turn, "ships_exhausted")
                return
        state = turn.state
        internal = state.options["randomness"] == "internal"
        while state.step == STEP_DRAW:
            if state.remaining == 0:
                self._game_end(turn, "tiles_exhausted")
                return
            if not internal:
                return
            assert state.catalogue is not None
            tile = draw_random(state.catalogue.tiles, state.stack, state.remaining, rng)
            assert state.board is not None
            turn.emit(*drawn(state.seat, tile, state.board.fits_anywhere(tile)))
            state = turn.state

    @staticmethod
    def _refilled(turn: Turn[State], rng: random.Random) -> bool:
        """Refill the display to 4 while ships are face down; False when a seat must
        reveal one (external randomness)."""
        state = turn.state
        while len(state.display) < DISPLAY and state.ship_stack:
            if state.options["randomness"] != "internal":
                return False
            ship_id = state.ship_stack[rng.randrange(len(state.ship_stack))]
            assert state.content is not None
            turn.emit(_revealed(state.content.ship_by_id[ship_id]))
            state = turn.state
        return True

    def _game_end(self, turn: Turn[State], because: str, winners: list[int] | None = None) -> None:
        """Final evaluation and scores; the best score of the seats still playing wins
        (a resigned seat's islanders count, but it cannot win), unless the game ended
        early (``because`` a seat resigned) naming its ``winners``. The evaluation reads
        the table as this command's events leave it: the state they are folded into, or,
        from a light copy, a whole copy with them folded in."""
        final = turn.state
        if final.shares_table:  # a light copy: the table as the command's events leave it
            final = self.copy_state(turn.origin)
            for event in turn.events:
                self.evolve(final, event)
        turn.emit(*(Event("feature_evaluated", d) for d in evaluation.final_evaluations(final)))
        state = turn.state
        scores = [state.score(s) for s in range(state.seats)]
        playing = [s for s in range(state.seats) if s not in state.resigned]
        best = max(scores[s] for s in playing)
        turn.emit(
            Event(
                "game_ended",
                {
                    "because": because,
                    "scores": scores,
                    "ship_points": [state.ship_points(s) for s in range(state.seats)],
                    "wares": [sum(w.values()) for w in state.wares],
                    "reason": "ship points + 1 point per 3 remaining wares of any type",
                    "winners": (
                        [s for s in playing if scores[s] == best] if winners is None else winners
                    ),
                },
            )
        )

    # -- the table: a seat resigns, the game is abandoned ------------------------

    def pass_decision(
        self, turn: Turn[State], decision: Decision, reason: str, rng: random.Random
    ) -> None:
        """Move past ``decision`` with the seat doing nothing: a tile drawn and not
        placed leaves the game (as one that fits nowhere, for ``reason``) and the turn
        ends; the islander step is skipped and a delivery passed; a ship owed to the
        seat (its islanders stay and are evaluated) or a ship to reveal is chosen as the
        random bot chooses."""
        state, seat = turn.state, decision.seat
        if decision.kind in ("draw_tile", "place_tile"):
            if state.tile is not None:
                aside = {"seat": seat, "tile": state.tile.id, "reason": reason}
                turn.emit(Event("tile_set_aside", aside))
            self._continue(turn, rng, STEP_END)
            return
        if decision.kind == "place_islander":
            command: JSON = {"type": "skip"}
        elif decision.kind == "deliver":
            command = {"type": "pass"}
        else:
            command = self.bot_command(state, seat, "random", rng)
        turn.emit(*self.handle(state, decision, command, rng))

    def end_game(self, turn: Turn[State], winners: list[int], reason: str) -> None:
        """Abandoned: the game ends as it stands, no winner. One seat left: a tile drawn
        and not placed leaves the game, then the final evaluation, as at the normal end
        (the resigned seats' islanders count too), and the seat left wins."""
        if reason != "abandoned":
            state = turn.state
            if state.tile is not None:
                why = "its seat resigned" if state.seat in state.resigned else "the game ended"
                aside = {"seat": state.seat, "tile": state.tile.id, "reason": why}
                turn.emit(Event("tile_set_aside", aside))
            self._game_end(turn, reason, winners)
            return
        state = turn.state
        data = {
            "because": reason,
            "scores": [state.score(s) for s in range(state.seats)],
            "ship_points": [state.ship_points(s) for s in range(state.seats)],
            "wares": [sum(w.values()) for w in state.wares],
            "reason": "abandoned by the game's owner: no winner",
            "winners": [],
        }
        turn.emit(Event("game_ended", data))

    # -- questions -------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> JSON:
        assert state.content is not None
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
        assert state.board is not None
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
            "decision": awaiting[0]["kind"] if awaiting else None,
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


# -- the checks: one per rule that can refuse a command, for handlers and menus ------


def _refuse(problem: Refusal | None) -> None:
    if problem is not None:
        raise illegal(RULES, *problem)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def reveal_problem(state: State, seat: int, command: JSON) -> Refusal | None:
    """A revealed ship must be one still face down."""
    name = command.get("ship")
    assert state.content is not None
    ship = state.content.ship_by_id.get(name) if isinstance(name, str) else None
    if ship is None:
        return "unknown_ship", f"no ship named {name!r}"
    if ship.id not in state.ship_stack:
        return "ship_not_in_stack", f"{ship.id} is not face down"
    return None


def draw_problem(state: State, seat: int, command: JSON) -> Refusal | None:
    """A drawn tile must be one still in the stack (the tiling's check)."""
    try:
        assert state.catalogue is not None
        named_draw(state.catalogue, state.stack, command.get("tile"))
    except TileStepError as error:
        return error.code, error.message
    return None


def islander_problem(state: State, seat: int, command: JSON) -> Refusal | None:
    """An islander comes from the supply onto a spot of the tile just placed whose
    feature holds no islander."""
    spot: Any  # (a str once its segment is found)
    spot = command.get("spot")
    assert state.board is not None
    assert state.placed is not None
    placed = state.board.tiles[state.placed]
    index = placed.tile.spot_segment[placed.q].get(spot) if isinstance(spot, str) else None
    if index is None:
        return "unknown_spot", f"the tile just placed has no spot {spot!r}"
    refused = placing_refused(state, seat)
    if refused is not None:
        return refused
    return occupied_problem(state.graph.feature(placed.node + index), spot)


def occupied_problem(feature: Feature, spot: str) -> Refusal | None:
    """An islander may not join a feature that already holds one."""
    if feature.figures:
        return "feature_occupied", f"the {feature.kind.name} at {spot} is occupied"
    return None


def placing_refused(state: State, seat: int) -> Refusal | None:
    """Whether ``seat`` may place an islander at all: it comes from the supply."""
    if state.supply[seat] < 1:
        return "no_islanders_left", f"seat {seat} has no islander in its supply"
    return None


def retrieval_refused(state: State, seat: int) -> Refusal | None:
    """Whether ``seat`` may retrieve an islander at all now (the ``retrieve`` option)."""
    if state.options["retrieve"] == RETRIEVE_EMPTY_SUPPLY and state.supply[seat]:
        return "supply_not_empty", f"seat {seat} still has an islander in supply"
    return None


def retrieve_problem(state: State, seat: int, command: JSON) -> Refusal | None:
    """A seat retrieves one of its own islanders, when :func:`retrieval_refused` allows."""
    refused = retrieval_refused(state, seat)
    if refused is not None:
        return refused
    if _own_islander(state, seat, _where(command)) is None:
        where = f"{command.get('x')},{command.get('y')} {command.get('spot')}"
        return "no_islander_there", f"no islander of seat {seat} at {where}"
    return None


def choice_problem(state: State, seat: int, command: JSON) -> Refusal | None:
    """A merchant takes one of the highest-valued face-up ships."""
    offered = _highest(state)
    if command.get("ship") not in offered:
        return "ship_not_offered", f"choose one of {offered}"
    return None


def delivery_problem(state: State, seat: int, command: JSON) -> Refusal | None:
    """Wares the seat holds, exactly as a face-up ship's sail demands."""
    ship_id, wares = command.get("ship"), command.get("wares")
    if ship_id not in state.display:
        return "ship_not_face_up", f"{ship_id!r} is not a face-up ship"
    if not isinstance(wares, Mapping) or not all(
        w in WARES and _is_int(n) and n >= 0 for w, n in wares.items()
    ):
        return "bad_wares", f"wares must map {', '.join(WARES)} to counts"
    short = [w for w, n in wares.items() if n > state.wares[seat][w]]
    if short:
        held = state.wares[seat][short[0]]
        return "not_enough_wares", f"seat {seat} has only {held} {short[0]}"
    assert state.content is not None
    problem = state.content.ship_by_id[ship_id].problem(wares)
    return None if problem is None else ("demand_not_met", problem)


# -- the menus: each command's candidates that its check allows ----------------------


def _legal(check: Check, state: State, seat: int, choices: Iterable[JSON]) -> list[JSON]:
    return [choice for choice in choices if check(state, seat, choice) is None]


def ship_reveals(state: State, seat: int) -> list[JSON]:
    assert state.content is not None
    return _legal(reveal_problem, state, seat, ({"ship": s} for s in state.content.ship_by_id))


def tile_draws(state: State, seat: int) -> list[JSON]:
    """The tiles that may be drawn, with how many are ``left`` (the odds of a draw)."""
    assert state.catalogue is not None
    tiles = ({"tile": t.id, "left": state.stack[t.id]} for t in state.catalogue.tiles)
    return _legal(draw_problem, state, seat, tiles)


def placements(state: State, seat: int) -> list[JSON]:
    """The place_tile menu: where the drawn tile fits (the tiling's placement check
    enumerated: the board's ``placements`` and ``problem`` both answer from its fitting
    rotations), as commands list them."""
    assert state.board is not None
    assert state.tile is not None
    return [
        {"x": x, "y": y, "rotation": ROTATIONS[q]}
        for (x, y), q in state.board.placements(state.tile)
    ]


def _open_spot_features(state: State, seat: int) -> list[tuple[str, Feature]]:
    """The spots of the tile just placed where ``seat`` may place an islander, each
    with its feature."""
    if placing_refused(state, seat) is not None:
        return []  # whatever the spot
    assert state.board is not None
    assert state.placed is not None
    placed = state.board.tiles[state.placed]
    features, find = state.graph.features, state.graph.find  # (graph.feature, unwrapped)
    found = []
    # islander_problem's checks, the spot's and the supply's being met here already
    for node, spot in enumerate(placed.tile.spots[placed.q], placed.node):
        feature = features[find(node)]
        if occupied_problem(feature, spot) is None:
            found.append((spot, feature))
    return found


def open_spots(state: State, seat: int) -> list[str]:
    """The spots :func:`free_spots` lists, without the details (for the random bot)."""
    return [spot for spot, _ in _open_spot_features(state, seat)]


def free_spots(state: State, seat: int) -> list[JSON]:
    """The spots of the tile just placed where ``seat`` may place an islander, with the
    feature's kind and the islander's role there."""
    roles = evaluation.ROLES
    return [
        {"spot": spot, "kind": feature.kind.name, "role": roles[feature.kind.name]}
        for spot, feature in _open_spot_features(state, seat)
    ]


def retrievable_islanders(state: State, seat: int) -> Collection[tuple[int, int, str]]:
    """The islanders ``seat`` may take back now, as ``(x, y, spot)``."""
    if retrieval_refused(state, seat) is not None:
        return []
    return _own_islanders(state, seat)


def retrievable(state: State, seat: int) -> list[JSON]:
    """The islanders ``seat`` may take back now."""
    return [{"x": x, "y": y, "spot": spot} for x, y, spot in retrievable_islanders(state, seat)]


def ship_choices(state: State, seat: int) -> list[JSON]:
    return _legal(choice_problem, state, seat, ({"ship": s} for s in state.display))


def deliveries(state: State, seat: int) -> list[JSON]:
    """For each face-up ship ``seat`` can pay, one delivery that would do."""
    assert state.content is not None
    ships, held = state.content.ship_by_id, state.wares[seat]
    total = sum(held.values())
    offers = []
    for ship in state.display:
        if ships[ship].size > total:  # the usual answer: the seat holds too few wares
            continue
        wares = ships[ship].payable(held)
        if wares is not None:
            offer = {"ship": ship, "wares": wares}
            if delivery_problem(state, seat, offer) is None:
                offers.append(offer)
    return offers


def _no_arguments(state: State, seat: int) -> JSON:
    return {}


#: command type -> its options for ``seat`` now: the legal choices, or ``{}`` for a
#: command without arguments
MENUS: dict[str, Callable[[State, int], list[JSON] | JSON]] = {
    "reveal_ship": ship_reveals,
    "draw_tile": tile_draws,
    "place_tile": placements,
    "place_islander": free_spots,
    "retrieve_islander": retrievable,
    "skip": _no_arguments,
    "choose_ship": ship_choices,
    "deliver": deliveries,
    "pass": _no_arguments,
}


# -- helpers ------------------------------------------------------------------------


def _own_islanders(state: State, seat: int) -> dict[tuple[int, int, str], evaluation.Placement]:
    """``seat``'s islanders on the board by ``(x, y, spot)``, each with the root of the
    feature it stands on; in the order of the features' roots."""
    own = [
        (root, figure)
        for root, feature in state.graph.features.items()
        if feature.figures  # few features hold islanders: most are passed over here
        for figure in feature.figures
        if figure.seat == seat
    ]
    own.sort(key=lambda placement: placement[0])  # stable: a feature's islanders in order
    return {(f.pos[0], f.pos[1], f.spot): (root, f) for root, f in own}


def _own_islander(
    state: State, seat: int, where: tuple[int, int, str] | None
) -> evaluation.Placement | None:
    """``seat``'s islander at ``where``, ``(x, y, spot)``, with the root of the feature
    it stands on (what :func:`_own_islanders` lists there), or ``None``: read on the
    feature of that spot, not found by a scan of the board."""
    assert state.board is not None
    node = None if where is None else state.graph.node_at(state.board, where[:2], where[2])
    if node is None:
        return None
    assert where is not None
    root = state.graph.find(node)
    pos, spot = where[:2], where[2]
    for figure in state.graph.features[root].figures:
        if figure.seat == seat and figure.pos == pos and figure.spot == spot:
            return root, figure
    return None


def _where(command: JSON) -> tuple[int, int, str] | None:
    """A retrieve command's ``(x, y, spot)``, if those are integers and a string."""
    x: Any  # (ints once checked)
    y: Any
    x, y, spot = command.get("x"), command.get("y"), command.get("spot")
    return (x, y, spot) if _is_int(x) and _is_int(y) and isinstance(spot, str) else None


def _revealed(ship: Ship) -> Event:
    return Event("ship_revealed", ship.describe() | {"ship": ship.id})


def _highest(state: State) -> list[str]:
    """The face-up ships a merchant may take: those of the highest value."""
    assert state.content is not None
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
        assert state.content is not None
        data["points"] = state.content.ship_by_id[ship].points
        data["reason"] = (
            "the merchant chose among the tied highest-valued ships"
            if len(offered) > 1
            else "the highest-valued face-up ship"
        )
    return Event("ship_awarded", data)


SOUTH_SEAS = SouthSeas()

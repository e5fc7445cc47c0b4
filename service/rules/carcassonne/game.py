"""The Carcassonne decider: commands in, events out.

A turn (rulebook "Déroulement de la partie") is: draw a tile, place it, optionally
place one follower on it, then score what the tile completed. As commands:

- ``{"type": "draw_tile", "tile": "BA/RCr"}`` only with ``randomness: "external"``
  (otherwise the server draws uniformly from the remaining tiles);
- ``{"type": "place_tile", "x": 1, "y": 0, "rotation": 90}``;
- ``{"type": "place_follower", "spot": "city:N"}`` (optional ``"figure"``, default
  ``"follower"``) or ``{"type": "skip"}``.

Events: ``game_started``, ``tile_drawn``, ``tile_set_aside``, ``tile_placed``,
``follower_placed``, ``feature_scored``, ``turn_ended``, ``game_ended``; their data
is described in docs/rulesets/carcassonne.md.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any, ClassVar

from service.rules.carcassonne import scoring
from service.rules.carcassonne.base import modules_for
from service.rules.carcassonne.expansions import EXPANSIONS
from service.rules.carcassonne.figures import occupied
from service.rules.carcassonne.state import (
    EVOLVERS,
    PHASE_DRAW,
    PHASE_FIGURE,
    PHASE_OVER,
    PHASE_TILE,
    State,
    copy_json,
    game_rules,
)
from service.rules.core import (
    JSON,
    RANDOMNESS_MODES,
    Event,
    IllegalMove,
    InvalidOptions,
    Ruleset,
    checked_options,
)
from service.rules.tiling.features import Feature, Figure
from service.rules.tiling.geometry import ROTATIONS, Pos
from service.rules.tiling.tiles import TileType
from service.rules.tiling.turns import TileStepError, draw_random, drawn, named_draw, placement

OPTIONS: dict[str, dict[str, Any]] = {
    "farmers": {
        "type": "boolean",
        "default": True,
        "description": "Followers may be placed in fields as farmers and fields are scored at "
        "the end. The rulebook suggests a first game without them.",
    },
    "small_cities": {
        "type": "boolean",
        "default": False,
        "description": "Variant: a completed city of two tiles scores 1 per tile and shield "
        "(2 instead of 4 without a shield).",
    },
    "expansions": {
        "type": "array",
        "items": list(EXPANSIONS),
        "default": [],
        "description": "The expansions played on top of the base game, in any combination: "
        + "; ".join(f"{name}: {m.title}" for name, m in EXPANSIONS.items())
        + ".",
    },
    "randomness": {
        "type": "string",
        "enum": list(RANDOMNESS_MODES),
        "default": "internal",
        "description": "internal: the server draws tiles; external: the active seat sends "
        "each drawn tile as a draw_tile command, checked against the stack.",
    },
}

RULES = {
    "not_your_turn": "Players take turns in clockwise order; only the awaited seat may act.",
    "unexpected_command": "A turn is: draw a tile, place it, then place a follower or not.",
    "unknown_command": "Commands are draw_tile, place_tile, place_follower and skip.",
    "game_over": "The game ends after the turn in which the last tile is placed.",
    "bad_command": "The command is missing a field or has one of the wrong type.",
    "bad_rotation": "A tile is turned by 0, 90, 180 or 270 degrees clockwise.",
    "position_occupied": "A tile is placed on an empty space.",
    "no_neighbour": "The new tile must touch at least one previously placed tile with a whole "
    "side; touching only at a corner is not enough.",
    "tile_does_not_fit": "Each side of the new tile that touches a tile must continue it: "
    "fields, roads and cities must match.",
    "unknown_spot": "A follower is placed on a road, city, cloister or field of the tile just "
    "placed.",
    "farmers_disabled": "In this game (without farmers) followers may not be placed in fields.",
    "unknown_figure": "Only figures of the game's expansions may be placed.",
    "no_followers_left": "The follower must come from the player's supply.",
    "feature_occupied": "A follower may not be placed on a road, city or field connected to a "
    "segment that already holds a follower, however far away and whoever owns it.",
    "unknown_tile": "Tiles are named by id (BA/RCr) or rulebook letter (D).",
    "tile_not_in_stack": "The drawn tile must be one still in the stack.",
    "hidden_tile_required": "A tile drawn blind goes under a hill as soon as the hill is "
    "drawn, unless the hill is the last tile; with external randomness, name it in "
    "'under'.",
    "figure_not_allowed": "Figures stand on roads, cities, cloisters and fields, never on the "
    "river itself.",
}
for _expansion in EXPANSIONS.values():
    RULES.update(_expansion.module.rules)
    OPTIONS.update(_expansion.module.options)
OPTIONS["randomness"] = OPTIONS.pop("randomness")  # keep it last


def illegal(code: str, message: str) -> IllegalMove:
    return IllegalMove(code, message, RULES.get(code))


class Carcassonne(Ruleset[State]):
    name: ClassVar[str] = "carcassonne"
    title: ClassVar[str] = "Carcassonne (base game, first edition)"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 8
    bots: ClassVar[tuple[str, ...]] = ("random", "greedy")

    # -- catalogue -------------------------------------------------------------

    def describe(self) -> JSON:
        return self.description(
            OPTIONS,
            expansions=[expansion.describe() for expansion in EXPANSIONS.values()],
            commands={
                "draw_tile": {"tile": "tile id or letter (external randomness only)"},
                "place_tile": {"x": "int", "y": "int (north is y-1)", "rotation": list(ROTATIONS)},
                "place_follower": {
                    "spot": "e.g. city:N,E road:W field:NL,NR cloister",
                    "figure": "optional, default follower; the expansions' big_follower, "
                    "builder, pig",
                },
                "skip": {},
            },
        )

    def normalize_options(self, options: Mapping[str, Any]) -> JSON:
        result = checked_options(OPTIONS, options)
        for expansion in EXPANSIONS.values():
            if expansion.check:
                expansion.check(result)
        return result

    # -- the decider -----------------------------------------------------------

    def setup(self, options: JSON, seats: int, rng: random.Random) -> list[Event]:
        if not isinstance(seats, int) or not self.min_seats <= seats <= self.max_seats:
            raise InvalidOptions("seats", f"Carcassonne is for 2 to 8 players, not {seats}")
        rules = game_rules(modules_for(options))
        start, *layout = rules.start_placements()
        stack = {t.id: t.count - t.start for t in rules.catalogue.tiles}
        data = {
            "ruleset": self.name,
            "options": dict(options),
            "seats": seats,
            "figures": {name: f.count for name, f in rules.figures.items()},
            "start": start,
            "stack": stack,
        }
        if layout:
            data["layout"] = layout
        started = Event("game_started", data)
        state = self.evolve(self.initial_state(), started)
        return [started, *self._open_turn(state, [], 0, rng)]

    def initial_state(self) -> State:
        return State()

    def evolve(self, state: State, event: Event) -> State:
        (EVOLVERS.get(event.type) or state.rules.evolvers[event.type])(state, event.data)
        for observer in state.rules.observers.get(event.type, ()):
            observer(state, event.data)
        return state

    def copy_state(self, state: State) -> State:
        return state.copy()

    def decide(self, state: State, seat: int, command: JSON, rng: random.Random) -> list[Event]:
        if state.phase == PHASE_OVER:
            raise illegal("game_over", "the game is over")
        kind = command.get("type") if isinstance(command, Mapping) else None
        step = state.rules.steps.get(state.phase)
        if step is not None:
            if seat not in [wait["seat"] for wait in step.awaiting(state)]:
                raise illegal("not_your_turn", f"seat {seat} is not awaited now")
            if kind not in step.commands:
                raise illegal("unexpected_command", f"awaiting {state.phase}, not {kind}")
            return step.commands[kind](self, state, seat, command, rng)
        if seat != state.seat:
            raise illegal("not_your_turn", f"it is seat {state.seat}'s turn, not seat {seat}'s")
        handlers = {
            PHASE_DRAW: {"draw_tile": self._draw_tile},
            PHASE_TILE: {"place_tile": self._place_tile},
            PHASE_FIGURE: {"place_follower": self._place_follower, "skip": self._skip},
        }[state.phase]
        handler = handlers.get(kind)
        if handler is None and state.phase == PHASE_FIGURE and kind in state.rules.figure_commands:
            return state.rules.figure_commands[kind](self, state, seat, command, rng)
        if handler is None:
            if kind not in ("draw_tile", "place_tile", "place_follower", "skip"):
                raise illegal("unknown_command", f"unknown command type {kind!r}")
            raise illegal("unexpected_command", f"awaiting {state.phase}, not {kind}")
        return handler(state, seat, command, rng)

    # -- commands --------------------------------------------------------------

    def _draw_tile(self, state: State, seat: int, command: JSON, rng: random.Random) -> list[Event]:
        try:
            tile = named_draw(state.catalogue, state.stack, command.get("tile"))
        except TileStepError as error:
            raise error.illegal(RULES) from None
        pool, _ = state.rules.draw_pool(state.stack, state.remaining)
        if tile not in pool:
            raise illegal("tile_not_drawable_yet", f"{tile.name} is not in the stack drawn now")
        events = self._drawn(state, seat, tile, [], rng, command)
        if len(events) == 2 and state.remaining == 1:
            events += self.final_scoring(state, events)
        elif len(events) == 1:
            if state.rules.hides_under(tile) and state.remaining > 1:
                stack = {**state.stack, tile.id: state.stack[tile.id] - 1}
                under = state.catalogue.get(command.get("under"))
                pool, _ = state.rules.draw_pool(stack, state.remaining - 1)
                if under is None or under not in pool or stack[under.id] < 1:
                    raise illegal("hidden_tile_required", f"name the tile drawn under {tile.name}")
                events.append(self._hidden(seat, under, tile, rng))
            for hook in state.rules.after_draw:
                events += hook(self, state, seat, events[0].data, list(events), rng)
        return events

    def _place_tile(
        self, state: State, seat: int, command: JSON, rng: random.Random
    ) -> list[Event]:
        tile = state.tile
        modules_check = partial(state.rules.tile_problem, state)
        try:
            pos, q = placement(state.board, tile, command, modules_check)
        except TileStepError as error:
            raise error.illegal(RULES) from None
        data = {"seat": seat, "tile": tile.id, "x": pos[0], "y": pos[1], "rotation": ROTATIONS[q]}
        events = [Event("tile_placed", data)]
        for hook in state.rules.after_tile:
            events += hook(state, seat, tile, pos, q)
        return events

    def _place_follower(
        self, state: State, seat: int, command: JSON, rng: random.Random
    ) -> list[Event]:
        figure, spot = command.get("figure", "follower"), command.get("spot")
        node = self._figure_node(state, seat, figure, spot)
        pos = state.placed
        feature = state.graph.feature(node)
        placed = Event(
            "follower_placed",
            {
                "seat": seat,
                "figure": figure,
                "x": pos[0],
                "y": pos[1],
                "spot": spot,
                "kind": feature.kind.name,
            },
        )
        weight = state.rules.figures[figure].weight
        new = (state.graph.find(node), Figure(seat, figure, weight, pos, spot))
        return self._figure_step_done(state, seat, rng, new, [placed], figure, node)

    def _skip(self, state: State, seat: int, command: JSON, rng: random.Random) -> list[Event]:
        return self._figure_step_done(state, seat, rng, None, [], None, None)

    def _figure_step_done(
        self,
        state: State,
        seat: int,
        rng: random.Random,
        new: tuple[int, Figure] | None,
        events: list[Event],
        figure: str | None,
        node: int | None,
    ) -> list[Event]:
        """After the figure step (``figure`` placed on ``node``, or none): the modules'
        hooks (a shepherd draws a sheep, a flock to tend), then the end of the turn,
        unless a module awaits a decision first (its command then ends the turn)."""
        for hook in state.rules.after_figure:
            more, paused = hook(self, state, seat, figure, node, rng)
            events = events + more
            if paused:
                return events
        return events + self.end_turn(state, seat, rng, new, events)

    def _figure_node(self, state: State, seat: int, figure: Any, spot: Any) -> int:
        """The node a figure command targets, or the IllegalMove that forbids it."""
        placed = state.board.tiles[state.placed]
        index = placed.tile.spot_segment[placed.q].get(spot) if isinstance(spot, str) else None
        if index is None:
            raise illegal("unknown_spot", f"the tile just placed has no spot {spot!r}")
        node = placed.node + index
        feature = state.graph.feature(node)
        if not feature.kind.figures:
            raise illegal("figure_not_allowed", f"no figure may stand on the {feature.kind.name}")
        if feature.kind.name == "field" and not state.options["farmers"]:
            raise illegal("farmers_disabled", "this game is played without farmers")
        kind = state.rules.figures.get(figure) if isinstance(figure, str) else None
        if kind is None:
            raise illegal("unknown_figure", f"no figure {figure!r} in this game")
        if state.supply[seat][figure] < 1:
            raise illegal("no_followers_left", f"seat {seat} has no {figure} left")
        problem = kind.rule(state, seat, feature)
        if problem:
            raise illegal(problem, f"no {figure} may go on the {feature.kind.name} at {spot}")
        for check in state.rules.figure_checks:
            problem = check(state, seat, figure, node)
            if problem:
                raise illegal(problem, f"{figure} may not go at {spot}")
        return node

    # -- turn flow -------------------------------------------------------------

    def turn_scorings(self, state: State, new: tuple[int, Figure] | None) -> list[JSON]:
        """The ``feature_scored`` data for the features this turn's tile completed,
        counting ``new`` (the root and figure just placed, if any)."""
        found = []
        for root in state.completed:
            feature = state.graph.features[state.graph.find(root)]
            if new is not None and state.graph.find(new[0]) == state.graph.find(root):
                feature = feature.copy()
                feature.figures.append(new[1])
            if feature.figures:
                found.append(scoring.scoring_data(state, feature, returned=True))
        return found

    def end_turn(
        self,
        state: State,
        seat: int,
        rng: random.Random,
        new: tuple[int, Figure] | None,
        pending: list[Event],
    ) -> list[Event]:
        events = [Event("feature_scored", data) for data in self.turn_scorings(state, new)]
        for hook in state.rules.after_scoring:
            events += hook(state, seat)
        ended = {"seat": seat, "next": (seat + 1) % state.seats}
        for extra_turn in state.rules.extra_turns:
            reason = extra_turn(state, seat, new)
            if reason:
                ended.update(next=seat, extra=reason)
                break
        events.append(Event("turn_ended", ended))
        return events + self._open_turn(state, pending + events, ended["next"], rng)

    def _open_turn(
        self, state: State, pending: list[Event], seat: int, rng: random.Random
    ) -> list[Event]:
        """Draws for ``seat`` (internal randomness) until a tile fits, and the tile that
        goes under it if it is a hill; ends the game when the stack is empty.
        ``pending`` are this command's events not yet folded."""
        stack, remaining = dict(state.stack), state.remaining
        events: list[Event] = []
        if state.options["randomness"] == "internal":
            while remaining:
                tiles, pool = state.rules.draw_pool(stack, remaining)
                tile = draw_random(tiles, stack, pool, rng)
                stack[tile.id] -= 1
                remaining -= 1
                this_draw = self._drawn(state, seat, tile, pending + events, rng, None)
                events += this_draw
                if len(this_draw) == 1:  # it fits somewhere: the turn goes on
                    if remaining and state.rules.hides_under(tile):
                        tiles, pool = state.rules.draw_pool(stack, remaining)
                        under = draw_random(tiles, stack, pool, rng)
                        stack[under.id] -= 1
                        events.append(self._hidden(seat, under, tile, rng))
                    for hook in state.rules.after_draw:
                        events += hook(self, state, seat, this_draw[0].data, pending + events, rng)
                    return events
        if remaining == 0:
            events += self.final_scoring(state, pending + events)
        return events

    @staticmethod
    def _hidden(seat: int, tile: TileType, over: TileType, rng: random.Random) -> Event:
        """``tile_hidden``: nobody may see which tile went under the hill (``visible_to``
        is empty; :meth:`redact` leaves ``tile: null``). The ``salt``, unpredictable
        without the game's seed and redacted too, keeps the event's published hash from
        telling the tile: without it, hashing each tile id would find it."""
        salt = f"{rng.getrandbits(128):032x}"
        data = {"seat": seat, "tile": tile.id, "under": over.id, "salt": salt}
        return Event("tile_hidden", data, visible_to=())

    @staticmethod
    def _drawn(
        state: State,
        seat: int,
        tile: TileType,
        pending: list[Event],
        rng: random.Random,
        command: JSON | None,
    ) -> list[Event]:
        """``tile_drawn`` (with the modules' details: a wheel icon), and
        ``tile_set_aside`` if the tile fits nowhere."""
        details: JSON = {}
        for detail in state.rules.draw_details:
            details.update(detail(state, tile, pending, rng, command))
        return drawn(seat, tile, state.rules.fits_anywhere(state, tile), details)

    def final_scoring(self, state: State, pending: Sequence[Event] = ()) -> list[Event]:
        """The final scoring and ``game_ended`` events if the game ended after
        ``pending`` (events not yet folded into ``state``). The decider calls it once,
        when the stack runs out; clients may call it for projected final scores."""
        final = state.copy()
        for event in pending:
            self.evolve(final, event)
        events = []
        for hook in final.rules.end_of_game:
            for data in hook(final):
                events.append(Event("feature_scored", data))
                self.evolve(final, events[-1])
        best = max(final.scores)
        winners = [s for s, points in enumerate(final.scores) if points == best]
        events.append(Event("game_ended", {"scores": final.scores, "winners": winners}))
        return events

    # -- questions -------------------------------------------------------------

    def awaiting(self, state: State) -> list[JSON]:
        step = state.rules.steps.get(state.phase) if state.rules else None
        if step is not None:
            return step.awaiting(state)
        if state.phase == PHASE_TILE:
            return [{"seat": state.seat, "decision": "place_tile", "tile": state.tile.id}]
        if state.phase == PHASE_FIGURE:
            x, y = state.placed
            return [{"seat": state.seat, "decision": "place_follower", "x": x, "y": y}]
        if state.phase == PHASE_DRAW:
            return [{"seat": state.seat, "decision": "draw_tile"}]
        return []

    def legal_commands(self, state: State, seat: int) -> JSON:
        step = state.rules.steps.get(state.phase) if state.rules else None
        if step is not None:
            return step.legal(state, seat)
        if seat != state.seat or state.phase not in (PHASE_DRAW, PHASE_TILE, PHASE_FIGURE):
            return {"seat": seat, "decision": None}
        if state.phase == PHASE_DRAW:  # external randomness only
            # The true stack: the tiles under hills cannot be drawn (see the docs' "The
            # tile under a hill" for why that is acceptable with external randomness).
            pool, _ = state.rules.draw_pool(state.stack, state.remaining)
            tiles = {tile.id: state.stack[tile.id] for tile in pool if state.stack[tile.id]}
            return {"seat": seat, "decision": "draw_tile", "tiles": tiles}
        if state.phase == PHASE_TILE:
            tile = state.tile
            placements = [
                {
                    "x": pos[0],
                    "y": pos[1],
                    "rotation": ROTATIONS[q],
                    "spots": _spot_menu(tile, q, self.free_segments(state, seat, tile, pos, q)),
                }
                for pos, q in state.rules.placements(state, tile)
            ]
            return {
                "seat": seat,
                "decision": "place_tile",
                "tile": tile.id,
                "placements": placements,
            }
        placed = state.board.tiles[state.placed]
        features = [state.graph.feature(placed.node + i) for i in range(len(placed.tile.segments))]
        by_figure = None
        if len(state.rules.figures) > 1:
            by_figure = {
                name: _spot_menu(
                    placed.tile,
                    placed.q,
                    [
                        i
                        for i, feature in enumerate(features)
                        if self._may_put(state, seat, name, placed.node + i, feature)
                    ]
                    if state.supply[seat][name]
                    else [],
                )
                for name in state.rules.figures
            }
            spots = by_figure["follower"]  # the same tests as _may_take's
        else:
            free = [
                i
                for i, feature in enumerate(features)
                if self._may_take(state, seat, feature.kind.name, occupied(feature))
            ]
            spots = _spot_menu(placed.tile, placed.q, free)
        menu = {
            "seat": seat,
            "decision": "place_follower",
            "x": state.placed[0],
            "y": state.placed[1],
            "spots": spots,
            "skip": True,
        }
        commands = [c for menus in state.rules.figure_menus for c in menus(state, seat)]
        if commands:
            menu["commands"] = commands
        if by_figure is not None:
            menu["figures"] = by_figure
        return menu

    @staticmethod
    def _may_take(state: State, seat: int, kind: str, occupied: bool) -> bool:
        """Whether ``seat`` may put a follower on a segment of ``kind`` (menus only; the
        command itself is checked by ``_figure_node`` with a reason for each refusal)."""
        if occupied or state.supply[seat]["follower"] < 1 or kind in state.rules.closed_kinds:
            return False
        return kind != "field" or state.options["farmers"]

    @staticmethod
    def _may_put(state: State, seat: int, figure: str, node: int, feature: Feature) -> bool:
        """Whether ``seat`` may put a ``figure`` on the segment ``node`` (of ``feature``)
        of the tile just placed (the menus of games with several figure types; the same
        tests as ``_figure_node``, without the reasons)."""
        if state.supply[seat][figure] < 1 or not feature.kind.figures:
            return False
        if feature.kind.name == "field" and not state.options["farmers"]:
            return False
        rules = state.rules
        if rules.figures[figure].rule(state, seat, feature):
            return False
        return not any(check(state, seat, figure, node) for check in rules.figure_checks)

    def free_segments(self, state: State, seat: int, tile: TileType, pos: Pos, q: int) -> list[int]:
        """The segments of ``tile`` a follower could take if it went at ``pos`` turned
        ``q`` times, worked out before placing: a segment is taken when any neighbour
        feature it would join holds a figure."""
        if state.supply[seat]["follower"] < 1:
            return []  # the common case late in a game, so skip the neighbour checks
        graph = state.graph
        taken = {
            link.segment
            for link, other in state.board.connections(pos, tile, q)
            if graph.feature(other).figures
        }
        return [
            i
            for i, segment in enumerate(tile.segments)
            if self._may_take(state, seat, segment.kind.name, i in taken)
        ]

    def view(self, state: State, seat: int | None) -> JSON:
        figures = [
            {
                "seat": f.seat,
                "figure": f.kind,
                "x": f.pos[0],
                "y": f.pos[1],
                "spot": f.spot,
                "kind": feature.kind.name,
            }
            for _, feature in sorted(state.graph.features.items())
            for f in feature.figures
        ]
        return {
            "ruleset": self.name,
            "options": dict(state.options),
            "seats": state.seats,
            "turn": state.turn,
            "seat": state.seat,
            "phase": state.phase,
            "tile": state.tile.id if state.tile else None,
            "placed": list(state.placed) if state.placed else None,
            "board": [
                {"x": x, "y": y, "tile": p.tile.id, "rotation": ROTATIONS[p.q]}
                for (x, y), p in state.board.tiles.items()
            ],
            "followers": figures,
            "scores": list(state.scores),
            "supply": [dict(s) for s in state.supply],
            # What anyone may know: the tiles not seen yet (in the stack or under a hill,
            # which nobody may tell apart), how many can still be drawn, how many are hidden.
            "stack": {tile: n for tile, n in state.unseen().items() if n},
            "remaining": state.remaining,
            "set_aside": list(state.set_aside),
            "hidden": len(state.hidden) + state.blind,
            "awaiting": self.awaiting(state),
            "over": state.phase == PHASE_OVER,
            "winners": list(state.winners),
            "extra_turn": state.extra,
            "expansions": copy_json(state.ext),
        }

    def redact(self, event: Event, seat: int | None) -> JSON:
        """The only secret is the tile under a hill: the others see that a tile went under
        it, not which (nor the salt that guards the hash)."""
        if event.is_visible_to(seat):
            return event.data
        if event.type == "tile_hidden":
            return {"seat": event.data["seat"], "tile": None, "under": event.data["under"]}
        return super().redact(event, seat)

    def is_over(self, state: State) -> bool:
        return state.phase == PHASE_OVER

    def result(self, state: State) -> JSON:
        over = state.phase == PHASE_OVER
        return {"scores": list(state.scores), "over": over, "winners": list(state.winners)}

    # -- bots ------------------------------------------------------------------

    def bot_command(self, state: State, seat: int, bot: str, rng: random.Random) -> JSON:
        from service.rules.carcassonne.bots import BOTS

        if bot not in BOTS:
            return super().bot_command(state, seat, bot, rng)
        return BOTS[bot](self, state, seat, rng)


def _spot_menu(tile: TileType, q: int, segments: list[int]) -> list[JSON]:
    spots = tile.spots[q]
    menu = []
    for i in segments:
        kind, _, sides = spots[i].partition(":")
        menu.append({"spot": spots[i], "kind": kind, "sides": sides.split(",") if sides else []})
    return menu


CARCASSONNE = Carcassonne()

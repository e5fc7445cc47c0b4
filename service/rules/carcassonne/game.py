"""The Carcassonne decider: commands in, events out.

A turn (rulebook "Déroulement de la partie") is: draw a tile, place it, optionally
place one follower on it, then score what the tile completed. Each of these is a
decision (a :class:`~service.rules.carcassonne.modules.Step` named by the phase), one
seat at a time; the expansions add their own (tend a flock, draw a sheep, the plague)
and pause the turn for them (``State.pause``). As commands:

- ``{"type": "draw_tile", "tile": "BA/RCr"}`` only with ``randomness: "external"``
  (otherwise the server draws uniformly from the remaining tiles);
- ``{"type": "place_tile", "x": 1, "y": 0, "rotation": 90}``;
- ``{"type": "place_follower", "spot": "city:N"}`` (optional ``"figure"``, default
  ``"follower"``) or ``{"type": "skip"}``.

Each rule has one function saying why a command breaks it (:func:`figure_problem`,
:func:`drawable`, ``GameRules.tile_problem`` with the board's fit table), which both
the command's handler and its menu ask.

Events: ``game_started``, ``tile_drawn``, ``tile_set_aside``, ``tile_placed``,
``follower_placed``, ``feature_scored``, ``turn_ended``, ``game_ended``; their data
is described in docs/rulesets/carcassonne.md.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from functools import cache
from typing import Any, ClassVar

from service.rules.carcassonne import scoring, shapes
from service.rules.carcassonne.base import modules_for
from service.rules.carcassonne.expansions import EXPANSIONS, hills_sheep
from service.rules.carcassonne.figures import Prospect
from service.rules.carcassonne.modules import PHASE_END, Module, Step
from service.rules.carcassonne.state import (
    EVOLVERS,
    PHASE_DRAW,
    PHASE_FIGURE,
    PHASE_OVER,
    PHASE_TILE,
    GameRules,
    State,
    copy_json,
    game_rules,
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
from service.rules.decisions import Decision, single
from service.rules.seating import next_seated
from service.rules.tiling.board import Border
from service.rules.tiling.features import Feature, Figure
from service.rules.tiling.geometry import ROTATIONS, Pos
from service.rules.tiling.tiles import FeatureKind, TileType
from service.rules.tiling.turns import (
    FoldingInPlace,
    SeatsLeaving,
    TileStepError,
    draw_random,
    drawn,
    named_draw,
    placement,
)

OPTIONS: dict[str, Mapping[str, Any]] = {
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
    "unexpected_command": "A command answers a decision open now: a turn is draw a tile,"
    " place it, then place a follower or not, with the steps the expansions add (awaiting"
    " lists them).",
    "unknown_command": "Commands are those GET /v1/rulesets lists for the ruleset.",
    "game_over": "The game ends after the turn in which the last tile is placed."
    " No move is made once it has ended, nor once it is abandoned or one seat is left.",
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
    "nothing_under": "Only a hill drawn while tiles are left, and that fits, has a tile put"
    " under it.",
    "figure_not_allowed": "Figures stand on roads, cities, cloisters and fields, never on the "
    "river itself.",
}
for _expansion in EXPANSIONS.values():
    RULES.update(_expansion.module.rules)
    OPTIONS.update(_expansion.module.options)
OPTIONS["randomness"] = OPTIONS.pop("randomness")  # keep it last


# -- the one check of each rule: handlers refuse with it, menus list what it allows -------


def drawable(rules: GameRules, stack: Mapping[str, int], remaining: int) -> dict[str, int]:
    """The tiles a draw may take now, by id, with how many of each are left: those of
    the first drawing group (the River) that still has tiles, else of the main stack."""
    pool, _ = rules.draw_pool(stack, remaining)
    return {tile.id: stack[tile.id] for tile in pool if stack[tile.id]}


def figure_problem(state: State, seat: int, figure: Any, feature: Feature | Prospect) -> str | None:
    """Why ``seat`` may not put a ``figure`` on ``feature`` (that of a segment of the tile
    just placed, or what a segment would join), or ``None``: the one check behind
    ``place_follower``, its menu and the place_tile menu's follower spots."""
    assert state.rules is not None
    return (
        kind_problem(state, feature.kind)
        or supply_problem(state, seat, figure)
        or state.rules.figures[figure].rule(state, seat, feature)
    )


def kind_problem(state: State, kind: FeatureKind) -> str | None:
    """Why no figure may stand on a feature of ``kind`` in this game, or ``None``."""
    return _kind_problem(kind, state.options["farmers"])


def _kind_problem(kind: FeatureKind, farmers: bool) -> str | None:
    if not kind.figures:
        return "figure_not_allowed"
    if kind.name == "field" and not farmers:
        return "farmers_disabled"
    return None


def supply_problem(state: State, seat: int, figure: Any) -> str | None:
    """Why ``seat`` has no ``figure`` to place (not one of the game's, or none left)."""
    assert state.rules is not None
    if not isinstance(figure, str) or figure not in state.rules.figures:
        return "unknown_figure"
    if state.supply[seat][figure] < 1:
        return "no_followers_left"
    return None


# -- the base game's steps: handlers and menus ------------------------------------------


def _draw_tile(
    ruleset: Carcassonne, state: State, seat: int, command: JSON, rng: random.Random
) -> list[Event]:
    try:
        tile = named_draw(state.catalogue, state.stack, command.get("tile"))
    except TileStepError as error:
        raise error.illegal(RULES) from None
    assert state.rules is not None
    if tile.id not in drawable(state.rules, state.stack, state.remaining):
        raise ruleset.illegal("tile_not_drawable_yet", f"{tile.name} is not in the stack drawn now")
    turn = Turn(ruleset, state)
    ruleset.draw(turn, seat, tile, rng, command)
    ruleset.end_if_empty(turn)
    return turn.events


def _draw_menu(state: State, seat: int) -> JSON:
    # The true stack: the tiles under hills cannot be drawn (see the docs' "The tile
    # under a hill" for why that is acceptable with external randomness).
    rules = state.rules
    assert rules is not None
    tiles = drawable(rules, state.stack, state.remaining)
    menu: JSON = {"tiles": tiles}
    if state.remaining > 1:  # (the last tile hides nothing)
        drawn = (state.catalogue.by_name[t] for t in tiles)
        under = [t.id for t in drawn if rules.hides_under(t) and rules.fits_anywhere(state, t)]
        if under:
            menu["under"] = under
    for added in rules.draw_menus:
        menu.update(added(state, tiles))
    return {"draw_tile": menu}


def _place_tile(
    ruleset: Carcassonne, state: State, seat: int, command: JSON, rng: random.Random
) -> list[Event]:
    """``tile_placed`` and what the modules make of it, worked out before it is folded
    (placing needs no scratch copy of the board)."""
    tile = state.tile
    assert tile is not None  # (the place_tile step: a tile is drawn)
    try:
        assert state.board is not None
        assert state.rules is not None
        pos, q = placement(state.board, tile, command, state.rules.placement_check(state, tile))
    except TileStepError as error:
        raise error.illegal(RULES) from None
    data = {"seat": seat, "tile": tile.id, "x": pos[0], "y": pos[1], "rotation": ROTATIONS[q]}
    events = [Event("tile_placed", data)]
    assert state.rules is not None
    for hook in state.rules.after_tile:
        events += hook(state, seat, tile, pos, q)
    return events


def _tile_menu(state: State, seat: int) -> JSON:
    tile = state.tile
    assert tile is not None and state.rules is not None
    fitting = state.rules.fitting(state, tile)
    if state.supply[seat]["follower"] < 1:  # common late in a game: no neighbour matters
        placements: list[JSON] = [
            {"x": x, "y": y, "rotation": ROTATIONS[q], "spots": []}
            for (x, y), turns in fitting
            for q in turns
        ]
    else:
        placements = FollowerSpots(state, seat, tile).menu(fitting)
    return {"place_tile": {"tile": tile.id, "placements": placements}}


#: what an open position meets that may matter to a follower's spots: each placed
#: feature met at two ports or more or with figures on it (its root), with the ports of
#: the position facing it (a bit each, board frame) and whether it has figures, in the
#: order first met (sides, then ports, in order)
Beside = list[tuple[int, int, bool]]


class FollowerSpots:
    """For one menu of ``tile``'s placements: the spots a follower of ``seat`` could
    take if the tile went at a position turned ``q`` times, worked out before placing
    (:func:`figure_problem` on what each segment would join).

    A segment that joins no feature with figures on it depends only on its kind, and a
    position beside no such feature joins none whatever the turn; so most placements
    are answered from one list per turn for the whole menu, and only those beside
    figures look at what each segment would join (:meth:`_beside`, once per position,
    then :meth:`_free` per turn). Each spot's JSON is made once per menu."""

    __slots__ = (
        "state",
        "seat",
        "tile",
        "alone",
        "_kinds",
        "_turned",
        "_alone",
        "_joining",
    )

    def __init__(self, state: State, seat: int, tile: TileType) -> None:
        self.state, self.seat, self.tile = state, seat, tile
        #: each segment's kind's name
        self._kinds = [segment.kind.name for segment in tile.segments]
        #: kind's name -> whether a follower may stand on a segment of it that joins no
        #: figure (asked once per kind)
        by_kind: dict[str, bool] = {}
        for segment in tile.segments:
            if segment.kind.name not in by_kind:
                prospect = Prospect(segment.kind, ())
                by_kind[segment.kind.name] = not figure_problem(state, seat, "follower", prospect)
        #: per segment: whether a follower may stand on it when it joins no figure
        self.alone = [by_kind[name] for name in self._kinds]
        #: quarter turns -> each segment's spot as the menu lists it, and the segments
        #: reaching each set of ports (:func:`_reach`)
        self._turned: dict[int, tuple[list[JSON], _Reach]] = {}
        #: quarter turns -> the spot menu of a placement beside no figure (one list,
        #: listed by every such placement of this menu with these turns)
        self._alone: dict[int, list[JSON]] = {}
        #: (kind's name, placed features joined) -> whether a follower may go there
        self._joining: dict[tuple[str, tuple[int, ...]], bool] = {}

    def menu(self, fitting: list[tuple[Pos, tuple[int, ...]]]) -> list[JSON]:
        """The placements (each position with the quarter turns it takes, as
        ``GameRules.fitting`` lists them) with their spots, as the menu lists them."""
        menu = []
        alone = self._alone
        for pos, turns in fitting:
            beside = self._beside(pos)
            x, y = pos
            for q in turns:
                if beside is None:
                    spots = alone.get(q)
                    if spots is None:
                        fits = zip(self._turn(q)[0], self.alone, strict=True)
                        spots = alone[q] = [spot for spot, ok in fits if ok]
                else:
                    spots = self._free(q, beside)
                menu.append({"x": x, "y": y, "rotation": ROTATIONS[q], "spots": spots})
        return menu

    def _turn(self, q: int) -> tuple[list[JSON], _Reach]:
        """Each segment's spot turned ``q`` times, as the menu lists it, and the
        segments reaching each set of ports."""
        turned = self._turned.get(q)
        if turned is None:
            every = _spot_menu(self.tile, q, range(len(self.tile.segments)))
            turned = self._turned[q] = (every, _reach(self.tile, q))
        return turned

    def _beside(self, pos: Pos) -> Beside | None:
        """What the open position ``pos`` meets (see :data:`Beside`), or ``None`` if it
        meets no figure. Features merge and figures come and go from one menu to the
        next, but a position's neighbours rarely change: so the answer is kept on the
        board (``Board.readings``) with the border, roots and figures it was worked out
        from, and reused while the border is the same, those roots are still roots
        (then every node found under one still is) and have figures on the same ones."""
        graph, board = self.state.graph, self.state.board
        assert board is not None
        features, parent, find = graph.features, graph.parent, graph.find
        constraint = board.frontier[pos]
        kept = board.readings.get(pos)
        if kept is not None and kept[0] == constraint:
            _, border, roots, with_figures, beside = kept
            for root in roots:
                if parent[root] != root or bool(features[root].figures) != (root in with_figures):
                    break
            else:
                return beside
        else:
            border = board.border(pos)
        roots, with_figures = [], []  # (a root is mostly its node's parent: find if not)
        for node, _ in border:
            root = parent[node]
            if parent[root] != root:
                root = find(root)
            roots.append(root)
            if features[root].figures:
                with_figures.append(root)
        beside = self._read(border, roots, with_figures) if with_figures else None
        board.readings[pos] = (constraint, border, roots, with_figures, beside)
        return beside

    @staticmethod
    def _read(border: Border, roots: list[int], with_figures: list[int]) -> Beside:
        #: root -> the ports meeting it (a bit each)
        ports: dict[int, int] = {}
        for root, (_, at) in zip(roots, border, strict=True):
            ports[root] = ports.get(root, 0) | at
        # A feature met at one port only, without figures, joins nothing to anything
        return [
            (root, mask, root in with_figures)
            for root, mask in ports.items()
            if root in with_figures or mask & (mask - 1)
        ]

    def _free(self, q: int, beside: Beside) -> list[JSON]:
        """The spots a follower may take at a position beside figures, turned ``q``
        times. Segments that meet the same placed feature become one feature with it (a
        field reaching one neighbour's field on two sides), so each gets the figures of
        every feature any of them meets."""
        every, reach = self._turned.get(q) or self._turn(q)
        #: segment -> the segment whose feature it joins (itself unless merged), made
        #: only when two segments meet one placed feature
        into: list[int] | None = None
        #: segment (its top) -> the features with figures it would join
        joined: dict[int, tuple[int, ...]] = {}
        if len(beside) == 1:
            # The usual case (three in four): one feature, with figures, which every
            # segment meeting it joins
            ((root, mask, _),) = beside
            joined = dict.fromkeys(reach[mask], (root,))
        else:
            #: (a segment meeting it, root) for each feature with figures
            hot = []
            for root, mask, figures in beside:
                segments = reach[mask]
                if len(segments) > 1:
                    if into is None:
                        into = list(range(len(self.tile.segments)))
                    top = _top(into, segments[0])
                    for segment in segments[1:]:
                        other = _top(into, segment)
                        if other != top:
                            top, other = min(top, other), max(top, other)
                            into[other] = top
                if figures:
                    hot.append((segments[0], root))
            for segment, root in hot:
                top = segment if into is None else _top(into, segment)
                joined[top] = (*joined.get(top, ()), root)
        free = []
        alone, kinds, joining = self.alone, self._kinds, self._joining
        for i, spot in enumerate(every):
            roots = joined.get(i if into is None else _top(into, i))
            ok: bool | None
            if roots is None:
                ok = alone[i]
            else:
                ok = joining.get((kinds[i], roots))
                if ok is None:
                    ok = self._allowed(i, roots)
            if ok:
                free.append(spot)
        return free

    def _allowed(self, segment: int, roots: tuple[int, ...]) -> bool:
        """Whether a follower may stand on ``segment`` joining the placed features
        ``roots``, kept by its kind and those features (asked once per menu: a field
        with a farmer borders many of the open positions)."""
        kind = self.tile.segments[segment].kind
        features = self.state.graph.features
        prospect = Prospect(kind, [f for root in roots for f in features[root].figures])
        ok = self._joining[kind.name, roots] = not figure_problem(
            self.state, self.seat, "follower", prospect
        )
        return ok


class _Reach(dict[int, tuple[int, ...]]):
    """Ports (a bit each, board frame) -> the segments of one tile turned one way that
    reach them, in order; filled as asked."""

    __slots__ = ("at_port",)

    def __init__(self, at_port: tuple[int, ...]) -> None:
        super().__init__()
        self.at_port = at_port

    def __missing__(self, mask: int) -> tuple[int, ...]:
        at_port = self.at_port
        found = self[mask] = tuple(
            dict.fromkeys(at_port[p] for p in range(len(at_port)) if mask >> p & 1)
        )
        return found


@cache
def _reach(tile: TileType, q: int) -> _Reach:
    return _Reach(tile.port_segment[q])


def _top(into: list[int], segment: int) -> int:
    while into[segment] != segment:
        segment = into[segment]
    return segment


def _place_follower(
    ruleset: Carcassonne, state: State, seat: int, command: JSON, rng: random.Random
) -> list[Event]:
    figure, spot = command.get("figure", "follower"), command.get("spot")
    assert state.board is not None
    assert state.placed is not None
    placed = state.board.tiles[state.placed]
    index = placed.tile.spot_segment[placed.q].get(spot) if isinstance(spot, str) else None
    if index is None:
        raise ruleset.illegal("unknown_spot", f"the tile just placed has no spot {spot!r}")
    node = placed.node + index
    feature = state.graph.feature(node)
    problem = figure_problem(state, seat, figure, feature)
    if problem:
        where = f"the {feature.kind.name} at {spot}"
        raise ruleset.illegal(problem, f"no {figure!r} of seat {seat} may go on {where}")
    data = {"seat": seat, "figure": figure, "x": state.placed[0], "y": state.placed[1]}
    turn = Turn(ruleset, state)
    turn.emit(Event("follower_placed", {**data, "spot": spot, "kind": feature.kind.name}))
    return ruleset.figure_step_done(turn, seat, figure, node, rng)


def _skip(
    ruleset: Carcassonne, state: State, seat: int, command: JSON, rng: random.Random
) -> list[Event]:
    return ruleset.figure_step_done(Turn(ruleset, state), seat, None, None, rng)


def figure_segments(state: State, seat: int) -> dict[str, list[int]]:
    """For each figure of the game, the segments of the tile just placed on which
    ``seat`` may put it: :func:`figure_problem` on each, its parts asked once where
    they do not depend on the segment (none is asked for a figure not in the seat's
    supply). The figure step's menu and the bots' choices."""
    assert state.board is not None
    assert state.placed is not None
    placed = state.board.tiles[state.placed]
    #: the segments whose kind takes figures, with their features
    allowed: list[tuple[int, Feature]] | None = None
    found: dict[str, list[int]] = {}
    assert state.rules is not None
    supply = state.supply[seat]
    for name, figure_type in state.rules.figures.items():
        if supply[name] < 1:  # supply_problem (of one of the game's figures)
            found[name] = []
            continue
        if allowed is None:
            feature, node = state.graph.feature, placed.node
            spots = _figure_spots(placed.tile, state.options["farmers"])
            allowed = [(i, feature(node + i)) for i in spots]
        rule = figure_type.rule
        found[name] = [i for i, feature in allowed if not rule(state, seat, feature)]
    return found


@cache
def _figure_spots(tile: TileType, farmers: bool) -> tuple[int, ...]:
    """The segments of ``tile`` whose kind takes figures (:func:`kind_problem` allows
    them), once per tile type: the figure step asks it on every turn."""
    return tuple(i for i, s in enumerate(tile.segments) if not _kind_problem(s.kind, farmers))


def _figure_menu(state: State, seat: int) -> JSON:
    assert state.board is not None
    assert state.placed is not None
    placed = state.board.tiles[state.placed]
    by_figure = {
        name: _spot_menu(placed.tile, placed.q, segments)
        for name, segments in figure_segments(state, seat).items()
    }
    x, y = state.placed
    options: JSON = {"x": x, "y": y, "spots": by_figure["follower"]}
    if len(by_figure) > 1:
        options["figures"] = by_figure
    menu: JSON = {"place_follower": options, "skip": {}}
    assert state.rules is not None
    for figure_menu in state.rules.figure_menus:
        menu.update(figure_menu(state, seat))
    return menu


def _spot_menu(tile: TileType, q: int, segments: Iterable[int]) -> list[JSON]:
    spots = _spot_parts(tile, q)
    menu = []
    for i in segments:
        spot, kind, sides = spots[i]
        menu.append({"spot": spot, "kind": kind, "sides": list(sides)})
    return menu


@cache
def _spot_parts(tile: TileType, q: int) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """Each segment's spot name, kind and sides, as the menus list them (``city:N,E``:
    ``city``, ``[N, E]``), split once per tile and turn."""
    parts = []
    for spot in tile.spots[q]:
        kind, _, sides = spot.partition(":")
        parts.append((spot, kind, tuple(sides.split(",")) if sides else ()))
    return tuple(parts)


def _tile_details(state: State) -> JSON:
    assert state.tile is not None
    return {"tile": state.tile.id}


def _figure_details(state: State) -> JSON:
    assert state.placed is not None
    x, y = state.placed
    return {"x": x, "y": y}


BASE_STEPS = {
    PHASE_DRAW: Step({"draw_tile": _draw_tile}, _draw_menu),
    PHASE_TILE: Step({"place_tile": _place_tile}, _tile_menu, _tile_details),
    PHASE_FIGURE: Step(
        {"place_follower": _place_follower, "skip": _skip}, _figure_menu, _figure_details
    ),
}


def steps_for(modules: Sequence[Module]) -> dict[str, Step]:
    """Decision kind -> the steps' handlers, the base game's and ``modules``': the
    figure step answers the modules' figure commands too (a crown space)."""
    figure = BASE_STEPS[PHASE_FIGURE]
    extra = {name: h for module in modules for name, h in module.figure_commands.items()}
    steps = {**BASE_STEPS, PHASE_FIGURE: replace(figure, commands={**figure.commands, **extra})}
    for module in modules:
        steps.update(module.steps)
    return steps


@cache
def steps_of(rules: GameRules) -> dict[str, Step]:
    """The steps of one combination of modules (rules are built once per combination)."""
    return steps_for(rules.modules)


@cache
def kinds_of(rules: GameRules) -> dict[str, tuple[Step, tuple[str, ...]]]:
    """Each step of :func:`steps_of` with the commands that answer its decision."""
    return {kind: (step, tuple(step.commands)) for kind, step in steps_of(rules).items()}


class Carcassonne(FoldingInPlace, SeatsLeaving, Ruleset[State]):
    name: ClassVar[str] = "carcassonne"
    title: ClassVar[str] = "Carcassonne (base game, first edition)"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 8
    bots: ClassVar[tuple[str, ...]] = ("random", "greedy")
    bots_module: ClassVar[str | None] = "service.rules.carcassonne.bots"
    parts: ClassVar = shapes.PARTS
    view_shape: ClassVar = shapes.VIEW
    #: every decision any combination of expansions opens, with every command that may
    #: answer it; a game's own decisions list the commands of its expansions only
    answers: ClassVar[Mapping[str, tuple[str, ...]]] = {
        kind: tuple(step.commands)
        for kind, step in steps_for([e.module for e in EXPANSIONS.values()]).items()
    }
    rules: ClassVar[Mapping[str, str]] = RULES
    #: the tile under a hill: the others see that a tile went under it, not which (nor
    #: the salt that guards the event's hash)
    secrets: ClassVar = {
        "tile_hidden": lambda data, seat: {
            "seat": data["seat"],
            "tile": None,
            "under": data["under"],
        }
    }
    #: 2: ``flock_to_tend`` and ``sheep_due`` no longer carry ``then`` (what follows them
    #: is folded into the state)
    rules_version: ClassVar[int] = 2
    upcasters: ClassVar = hills_sheep.UPCASTERS

    # -- catalogue -------------------------------------------------------------

    def describe(self) -> JSON:
        return self.description(
            OPTIONS,
            expansions=[expansion.describe() for expansion in EXPANSIONS.values()],
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
            "rules_version": self.rules_version,
            "options": dict(options),
            "seats": seats,
            "figures": {name: f.count for name, f in rules.figures.items()},
            "start": start,
            "stack": stack,
        }
        if layout:
            data["layout"] = layout
        started = Event("game_started", data)
        turn = Turn(self, self.evolve(self.initial_state(), started))
        self.open_turn(turn, 0, rng)
        return [started, *turn.events]

    def initial_state(self) -> State:
        return State()

    def evolve(self, state: State, event: Event) -> State:
        kind, data, _ = event
        if state.rules is None:  # the first event, game_started, chooses the rules
            EVOLVERS[kind](state, data)
        else:
            for fold in state.rules.folds[kind]:
                fold(state, data)
        state.folded += 1
        return state

    def copy_state(self, state: State) -> State:
        return state.copy()

    def scratch_copy(self, state: State) -> State:
        """The light copy whose features are copied as the turn's events change them: a
        command's events after ``tile_placed`` move figures and counts, never tiles.
        While :meth:`apply` works out a command, the state itself."""
        return state if state.in_place else state.scratch()

    def step(self, state: State) -> Step | None:
        """The step awaited now, if any."""
        return steps_of(state.rules).get(state.phase) if state.rules else None

    def decisions(self, state: State) -> list[Decision]:
        """The one decision of the phase, numbered by the events folded (any event
        closes it), remembered until the next event: callers must not change the list."""
        decided = state.decided
        if decided[0] == state.folded:
            return decided[1]
        found = []
        kind = kinds_of(state.rules).get(state.phase) if state.rules else None
        if kind is not None:
            step, commands = kind
            details = step.details(state)
            found.append(single(step.seat(state), state.phase, state.folded, commands, **details))
        state.decided = (state.folded, found)
        return found

    def handle(
        self, state: State, decision: Decision, command: JSON, rng: random.Random
    ) -> list[Event]:
        handler = steps_of(state.rules)[decision.kind].commands[command["type"]]
        return handler(self, state, decision.seat, command, rng)

    def menu(self, state: State, decision: Decision) -> JSON:
        return steps_of(state.rules)[decision.kind].menu(state, decision.seat)

    # -- turn flow -------------------------------------------------------------

    def figure_step_done(
        self, turn: Turn[State], seat: int, figure: str | None, node: int | None, rng: random.Random
    ) -> list[Event]:
        """After the figure step (``figure`` placed on ``node``, or none): the modules'
        hooks (a shepherd draws a sheep, a flock to tend), then the end of the turn,
        unless a hook paused it for a module's decision (whose command ends it)."""
        assert turn.state.rules is not None
        for hook in turn.state.rules.after_figure:
            hook(self, turn, seat, figure, node, rng)
            if turn.state.phase != PHASE_FIGURE:
                return turn.events
        return self.end_turn(turn, seat, rng)

    def go_on(self, turn: Turn[State], seat: int, rng: random.Random) -> list[Event]:
        """After a module's step: the end of the turn if that is where the turn goes on
        (``State.go_on``); the command's events."""
        if turn.state.phase == PHASE_END:
            self.end_turn(turn, seat, rng)
        return turn.events

    def turn_scorings(self, state: State, new: tuple[int, Figure] | None = None) -> list[JSON]:
        """The ``feature_scored`` data for the features this turn's tile completed,
        counting ``new`` (a root and a figure not placed yet, for a bot's trial)."""
        found = []
        for root in state.completed:
            feature = state.graph.features[state.graph.find(root)]
            if new is not None and state.graph.find(new[0]) == state.graph.find(root):
                feature = feature.copy()
                feature.figures.append(new[1])
            if feature.figures:
                found.append(scoring.scoring_data(state, feature, returned=True))
        return found

    def end_turn(self, turn: Turn[State], seat: int, rng: random.Random) -> list[Event]:
        """The turn's scoring, what the modules add (goods, gathered flocks), whose turn
        is next (an extra turn for a builder), all read before the scoring is folded;
        then the next turn's draw. The command's events."""
        state = turn.state
        scorings = self.turn_scorings(state) if state.completed else ()
        events = [Event("feature_scored", data) for data in scorings]
        assert state.rules is not None
        for hook in state.rules.after_scoring:
            events += hook(state, seat)
        ended: JSON = {"seat": seat, "next": next_seated(seat, state.seats, state.resigned)}
        for extra_turn in state.rules.extra_turns if seat not in state.resigned else ():
            reason = extra_turn(state, seat)
            if reason:
                ended.update(next=seat, extra=reason)
                break
        turn.emit(*events, Event("turn_ended", ended))
        self.open_turn(turn, ended["next"], rng)
        return turn.events

    def open_turn(self, turn: Turn[State], seat: int, rng: random.Random) -> None:
        """Draws for ``seat`` (internal randomness) until a tile fits; ends the game when
        the stack is empty."""
        if turn.state.options["randomness"] == "internal":
            while turn.state.remaining and not self.draw(turn, seat, None, rng, None):
                pass
        self.end_if_empty(turn)

    def end_if_empty(self, turn: Turn[State]) -> None:
        """The final scoring, once no tile is left to place."""
        if turn.state.phase == PHASE_DRAW and not turn.state.remaining:
            self._final_scoring(turn)

    def draw(
        self,
        turn: Turn[State],
        seat: int,
        tile: TileType | None,
        rng: random.Random,
        command: JSON | None,
    ) -> bool:
        """Emit the draw of ``tile`` (``None``: drawn from ``rng``; ``command``: the
        client's ``draw_tile`` in external mode): ``tile_drawn`` with the modules'
        details (a wheel icon), and ``tile_set_aside`` if it fits nowhere; for a tile
        that fits, the tile that goes under it if it is a hill and what the modules
        make of the draw (the wheel turns). Whether it fits."""
        state = turn.state
        if tile is None:
            tile = self._random_tile(state, rng)
        details: JSON = {}
        assert state.rules is not None
        for detail in state.rules.draw_details:
            details.update(detail(state, tile, rng, command))
        fits = state.rules.fits_anywhere(state, tile)
        hides = fits and state.remaining > 1 and state.rules.hides_under(tile)
        # a client's tile under the hill is checked before anything is emitted
        under = None
        if command is not None and hides:
            under = self._under(state, tile, command)
        elif command is not None and command.get("under") is not None:
            raise self.illegal(
                "nothing_under",
                f"{tile.name} takes no tile under it: only a hill that fits, with tiles left",
            )
        events = drawn(seat, tile, fits, details)
        turn.emit(*events)
        if not fits:
            return False
        if hides:
            if under is None:  # drawn blind from what is left once the hill is drawn
                under = self._random_tile(turn.state, rng)
            turn.emit(_hidden(seat, under, tile, rng))
        for hook in state.rules.after_draw:
            hook(self, turn, seat, events[0].data, rng)
        return True

    @staticmethod
    def _random_tile(state: State, rng: random.Random) -> TileType:
        assert state.rules is not None
        tiles, pool = state.rules.draw_pool(state.stack, state.remaining)
        return draw_random(tiles, state.stack, pool, rng)

    def _under(self, state: State, hill: TileType, command: JSON) -> TileType:
        """The tile a client says went under ``hill``, which it draws now (external
        mode): one that may be drawn once the hill has left the stack."""
        named = command.get("under")
        if named is None:
            raise self.illegal("hidden_tile_required", f"name the tile drawn under {hill.name}")
        under = state.catalogue.get(named)
        if under is None:
            raise self.illegal("unknown_tile", f"no tile {named!r} to put under {hill.name}")
        stack = {**state.stack, hill.id: state.stack[hill.id] - 1}
        assert state.rules is not None
        if under.id not in drawable(state.rules, stack, state.remaining - 1):
            raise self.illegal(
                "tile_not_in_stack", f"no {under.name} is left to put under {hill.name}"
            )
        return under

    def final_scoring(self, state: State) -> list[Event]:
        """The final scoring and ``game_ended`` events if the game ended now. The decider
        emits them once, when the stack runs out; clients may ask for projected final
        scores."""
        turn = Turn(self, state)
        self._final_scoring(turn)
        return turn.events

    def _final_scoring(
        self, turn: Turn[State], winners: list[int] | None = None, reason: str | None = None
    ) -> None:
        """The end-of-game scoring, then ``game_ended``: the best scores of the seats
        still playing win (a resigned seat's figures score, but it cannot win), unless
        the game ended early for a ``reason`` that names its ``winners``."""
        assert turn.state.rules is not None
        for hook in turn.state.rules.end_of_game:
            for data in hook(turn.state):
                turn.emit(Event("feature_scored", data))
        scores = list(turn.state.scores)
        ended: JSON = {"scores": scores, "winners": winners}
        if winners is None:  # the best of the seats still playing
            playing = [s for s in range(len(scores)) if s not in turn.state.resigned]
            best = max(scores[s] for s in playing)
            ended["winners"] = [s for s in playing if scores[s] == best]
        if reason is not None:
            ended["reason"] = reason
        turn.emit(Event("game_ended", ended))

    # -- the table: a seat resigns, the game is abandoned ------------------------

    def pass_decision(
        self, turn: Turn[State], decision: Decision, reason: str, rng: random.Random
    ) -> None:
        """Move past ``decision`` with the seat doing nothing: a turn it was playing
        ends (a tile drawn and not placed leaves the game, as one that fits nowhere,
        for ``reason``; a tile placed is scored with no figure added, as after a skip);
        a module's decision (the plague, a flock) is answered as the module's random bot
        answers it."""
        state, seat = turn.state, decision.seat
        if decision.kind == PHASE_TILE:
            assert state.tile is not None
            aside = {"seat": seat, "tile": state.tile.id, "reason": reason}
            turn.emit(Event("tile_set_aside", aside))
            self._pass_turn(turn, seat, rng)
        elif decision.kind == PHASE_DRAW:
            self._pass_turn(turn, seat, rng)
        elif decision.kind == PHASE_FIGURE:
            self.figure_step_done(turn, seat, None, None, rng)
        else:
            assert state.rules is not None
            bot = steps_of(state.rules)[decision.kind].bot
            assert bot is not None  # (every module step has its bot)
            command = bot(state, seat, rng)
            turn.emit(*self.handle(state, decision, command, rng))

    def _pass_turn(self, turn: Turn[State], seat: int, rng: random.Random) -> None:
        """``seat``'s turn ends with nothing more done; the next seat's begins."""
        following = next_seated(seat, turn.state.seats, turn.state.resigned)
        turn.emit(Event("turn_ended", {"seat": seat, "next": following}))
        self.open_turn(turn, following, rng)

    def end_game(self, turn: Turn[State], winners: list[int], reason: str) -> None:
        """Abandoned: the game ends as it stands, no winner. One seat left: a tile drawn
        and not placed leaves the game, then the final scoring, as when the stack runs
        out (the resigned seats' figures score too), and the seat left wins."""
        state = turn.state
        if reason == "abandoned":
            ended = {"scores": list(state.scores), "winners": [], "reason": reason}
            turn.emit(Event("game_ended", ended))
            return
        if state.phase == PHASE_TILE:
            assert state.tile is not None
            why = "its seat resigned" if state.seat in state.resigned else "the game ended"
            aside = {"seat": state.seat, "tile": state.tile.id, "reason": why}
            turn.emit(Event("tile_set_aside", aside))
        self._final_scoring(turn, winners, reason)

    # -- questions -------------------------------------------------------------

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
        assert state.board is not None
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

    def is_over(self, state: State) -> bool:
        return state.phase == PHASE_OVER

    def result(self, state: State) -> JSON:
        over = state.phase == PHASE_OVER
        return {"scores": list(state.scores), "over": over, "winners": list(state.winners)}


def _hidden(seat: int, tile: TileType, over: TileType, rng: random.Random) -> Event:
    """``tile_hidden``: nobody may see which tile went under the hill (``visible_to``
    is empty; :attr:`Carcassonne.secrets` leaves ``tile: null``), and its
    :func:`~service.rules.core.secret_salt` hidden too."""
    data = {"seat": seat, "tile": tile.id, "under": over.id, "salt": secret_salt(rng)}
    return Event("tile_hidden", data, visible_to=())


CARCASSONNE = Carcassonne()

"""The state of a Carcassonne game and how each event changes it (``evolve``).

The state is only ever built by folding events; every field below follows from the
log. Events carry every outcome (drawn tiles, points), so folding needs no randomness
and no rule decisions beyond joining features, which is geometry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache, partial
from pathlib import Path
from typing import Any

from service.rules.carcassonne.base import modules_for
from service.rules.carcassonne.modules import (
    PHASE_DRAW,
    PHASE_FIGURE,
    PHASE_NEW,
    PHASE_OVER,
    PHASE_TILE,
    AfterScoring,
    Evolver,
    ExtraTurn,
    FigureType,
    Module,
    Score,
    Scorer,
    Scoring,
)
from service.rules.tiling.board import Board
from service.rules.tiling.features import Feature, Figure
from service.rules.tiling.geometry import Pos, quarter_turns
from service.rules.tiling.scoring import majority
from service.rules.tiling.state import TileGameState
from service.rules.tiling.tiles import Catalogue, TileType
from service.rules.tiling.turns import PlacementCheck

DATA = Path(__file__).parent / "data"


class GameRules:
    """The rules of one combination of modules: tiles, figures, scorers, hooks."""

    def __init__(self, modules: tuple[Module, ...]) -> None:
        self.modules = modules
        self.catalogue = Catalogue()
        #: the start tiles that go beside a layout (the spring beside the wheel)
        attaching: list[TileType] = []
        for module in modules:
            first = len(self.catalogue.tiles)
            for name in module.tile_files:
                self.catalogue.load(DATA / name)
            for data in module.tile_data:
                self.catalogue.add_set(data, source=module.name)
            if module.start_attaches:
                attaching += [t for t in self.catalogue.tiles[first:] if t.start]
        layouts = [m for m in modules if m.layout]
        self._layout = layouts[-1] if layouts else None
        self._attaching = attaching
        self.figures: dict[str, FigureType] = {}
        self.scorers: dict[str, Scoring] = {}
        for module in modules:
            self.figures.update(module.figures)
            for kind, scorer in module.scorers.items():
                replaced = self.scorers.get(kind)
                self.scorers[kind] = partial(_chained, scorer, replaced)
        self.tile_checks = tuple(c for m in modules for c in m.tile_checks)
        #: per tile index: the checks that concern that tile type
        self._checks = [
            tuple(rule.check for rule in self.tile_checks if rule.concerns(tile))
            for tile in self.catalogue.tiles
        ]
        self.end_of_game = tuple(c for m in modules for c in m.end_of_game)
        self.after_scoring: tuple[AfterScoring, ...] = tuple(
            h for m in modules for h in m.after_scoring
        )
        self.extra_turns: tuple[ExtraTurn, ...] = tuple(h for m in modules for h in m.extra_turns)
        evolvers: dict[str, Evolver] = {}
        for module in modules:
            evolvers.update(module.evolvers)
        self.after_tile = tuple(h for m in modules for h in m.after_tile)
        self.after_figure = tuple(h for m in modules for h in m.after_figure)
        hides = [m.hides_under for m in modules if m.hides_under]
        #: per tile index: whether a tile drawn blind goes under it (asked at every draw)
        self._hides = [any(h(tile) for h in hides) for tile in self.catalogue.tiles]
        self.draw_details = tuple(m.draw_detail for m in modules if m.draw_detail)
        self.draw_menus = tuple(m.draw_menu for m in modules if m.draw_menu)
        self.after_draw = tuple(h for m in modules for h in m.after_draw)
        observers: dict[str, list[Evolver]] = {}
        for module in modules:
            for kind, observer in module.observers.items():
                observers.setdefault(kind, []).append(observer)
        if "game_started" in observers:  # folded before the rules are known
            raise ValueError("a module's state at the start comes from its initial()")
        #: event type -> what folds it, in order: the base game's evolver (else the
        #: module's that defines the type), then the modules' observers of it
        self.folds: dict[str, tuple[Evolver, ...]] = {
            kind: (evolver, *observers.get(kind, ()))
            for kind, evolver in {**evolvers, **EVOLVERS}.items()
        }
        self.figure_menus = tuple(m.figure_menu for m in modules if m.figure_menu)
        self._tie_breaks = tuple(m.tie_break for m in modules if m.tie_break)
        #: tile groups drawn apart, in order, before the main stack (tiles without a group)
        groups = [g for m in modules for g in m.draw_first]
        self.draw_groups = [[t for t in self.catalogue.tiles if t.group == g] for g in groups]
        #: the ids of each group's tiles, to count what is left of it in C at every draw
        self._group_ids = [[t.id for t in tiles] for tiles in self.draw_groups]
        self.main_stack = [t for t in self.catalogue.tiles if t.group not in groups]

    def hides_under(self, tile: TileType) -> bool:
        """Whether a tile drawn blind goes under ``tile`` when it is drawn (a hill)."""
        return self._hides[tile.index]

    def winners(self, state: State, figures: list[Figure]) -> list[int]:
        """The seats that win a feature: the most figure weight, ties narrowed by the
        modules' tie-breaks (a follower on a hill)."""
        found = majority(figures)
        for tie_break in self._tie_breaks:
            if len(found) > 1:
                found = tie_break(state, figures, found)
        return found

    def score(self, state: State, feature: Feature) -> Score:
        return self.scorers[feature.kind.name](state, feature)

    def start_tile(self) -> TileType:
        """The start tile of the last module that brings one (the River's spring replaces
        the base game's D); the copies marked ``start`` of the others stay in the box."""
        return [t for t in self.catalogue.tiles if t.start][-1]

    def start_placements(self) -> list[dict[str, Any]]:
        """Where the game starts: the start tile at (0, 0), or a module's layout (the
        wheel board) with the start tiles that go beside it (the spring)."""
        if self._layout is None:
            return [{"tile": self.start_tile().id, "x": 0, "y": 0, "rotation": 0}]
        placements = [dict(p) for p in self._layout.layout]
        attach = self._layout.attach
        placements += [{"tile": t.id, **attach} for t in self._attaching if attach]
        return placements

    def draw_pool(self, stack: Mapping[str, int], remaining: int) -> tuple[Sequence[TileType], int]:
        """The tiles the next draw takes from, and how many are left among them: the
        first drawing group (the River) that still has tiles, else the main stack."""
        if not self.draw_groups:
            return self.catalogue.tiles, remaining
        for tiles, ids in zip(self.draw_groups, self._group_ids, strict=True):
            left = sum(map(stack.__getitem__, ids))
            if left:
                return tiles, left
        return self.main_stack, remaining  # the groups are empty: all that is left is main

    def placements(self, state: State, tile: TileType) -> list[tuple[Pos, int]]:
        """Every legal ``(position, quarter turns)`` for ``tile``: the places the board's
        fit table allows (``Board.problem`` asks the same table) that :meth:`tile_problem`
        does not refuse, the checks ``place_tile`` makes."""
        return [(pos, q) for pos, turns in self.fitting(state, tile) for q in turns]

    def fitting(self, state: State, tile: TileType) -> list[tuple[Pos, tuple[int, ...]]]:
        """:meth:`placements` by position: each position where ``tile`` may go, with
        the quarter turns it may take there."""
        assert state.board is not None  # (every menu is asked after game_started)
        found = state.board.fitting(tile)
        if self._checks[tile.index]:
            problem = self.tile_problem
            found = [
                (pos, allowed)
                for pos, turns in found
                if (allowed := tuple([q for q in turns if not problem(state, tile, pos, q)]))
            ]
        return found

    def pick_placement(
        self, state: State, tile: TileType, pick: Callable[[int], int]
    ) -> tuple[Pos, int]:
        """``placements(state, tile)[pick(len(placements(state, tile)))]``, listing
        them only where a module's check may refuse some (see ``Board.pick_placement``)."""
        if self._checks[tile.index]:
            found = self.placements(state, tile)
            return found[pick(len(found))]
        assert state.board is not None
        return state.board.pick_placement(tile, pick)

    def fits_anywhere(self, state: State, tile: TileType) -> bool:
        assert state.board is not None
        if self._checks[tile.index]:
            fit = self.catalogue.fitting_rotations
            return any(
                not self.tile_problem(state, tile, pos, q)
                for pos, constraint in state.board.frontier.items()
                for q in fit(tile, constraint)
            )
        return state.board.fits_anywhere(tile)

    def placement_check(self, state: State, tile: TileType) -> PlacementCheck | None:
        """:meth:`tile_problem` on ``state`` for ``place_tile``'s check, or ``None`` if no
        module's condition concerns ``tile`` (most tiles: nothing to call)."""
        return partial(self.tile_problem, state) if self._checks[tile.index] else None

    def tile_problem(self, state: State, tile: TileType, pos: Pos, q: int) -> str | None:
        """Why the modules' extra conditions refuse ``tile`` at ``pos`` (board legality
        already checked), or ``None``."""
        for check in self._checks[tile.index]:
            problem = check(state, tile, pos, q)
            if problem:
                return problem
        return None


def copy_json(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, scalars): modules' state. Much
    cheaper than ``copy.deepcopy``, which a wheel's turn or a bot's trial pays often."""
    if isinstance(value, dict):
        return {k: copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_json(v) for v in value]
    return value


def _chained(scorer: Scorer, replaced: Scoring | None, state: State, feature: Feature) -> Score:
    return scorer(state, feature, replaced)


@cache
def game_rules(modules: tuple[Module, ...]) -> GameRules:
    """Rules are immutable once built, so one instance serves every game that uses them."""
    return GameRules(modules)


class State(TileGameState):
    """Everything the log has established so far. Mutated in place by :func:`evolve`."""

    __slots__ = (
        "rules",
        "scores",
        "supply",
        "phase",
        "resume",
        "hidden",
        "blind",
        "extra",
        "ext",
        "folded",
        "decided",
        "in_place",
    )

    def __init__(self) -> None:
        super().__init__()
        self.rules: GameRules | None = None
        self.scores: list[int] = []
        self.supply: list[dict[str, int]] = []
        #: the decision awaited now (its kind), or PHASE_NEW, PHASE_END, PHASE_OVER
        self.phase = PHASE_NEW
        #: where the turn goes on once the module steps open now are done, innermost
        #: last: a phase, or PHASE_END (see :meth:`pause`)
        self.resume: list[str] = []
        #: tiles put face down under another (a hill), out of play, whose identity this
        #: fold knows (the server's fold of the whole log knows them all)
        self.hidden: list[str] = []
        #: tiles put face down under a hill whose identity this fold does not know (it
        #: folded the redacted ``tile_hidden``): they left the stack, but ``stack`` still
        #: counts them, since nobody knows which ids to take them from. So ``stack`` is the
        #: true stack plus these, ``remaining`` the true count, and
        #: ``sum(stack.values()) == remaining + blind``.
        self.blind = 0
        #: whether the current turn is an extra one (the builder's second tile)
        self.extra = False
        #: each expansion module's own state (JSON-like), by module name
        self.ext: dict[str, Any] = {}
        #: events folded so far: names the decision open now, which every event closes
        self.folded = 0
        #: ``(folded, decisions)``: the open decisions as last worked out, good while no
        #: event is folded (the core asks for them several times per command)
        self.decided: tuple[int, list[Any]] = (-1, [])
        #: whether the command being applied folds its events straight into this state
        #: as the decider emits them (see ``Carcassonne.apply``)
        self.in_place = False

    def pause(self, phase: str, then: str) -> None:
        """A module's step (``phase``) interrupts the turn, which goes on at ``then``
        once it is done (see :meth:`go_on`). Called by the evolver of the event that
        opens the step, with ``then`` worked out from the state, so that what follows a
        decision is folded from the log and never written into an event."""
        self.resume.append(then)
        self.phase = phase

    def go_on(self) -> None:
        """The module's step open now is done: back to where it interrupted the turn
        (PHASE_END: the decider ends the turn in the same command)."""
        self.phase = self.resume.pop()

    def light_copy(self) -> State:
        other = super().light_copy()
        other.resume = list(self.resume)
        other.scores = list(self.scores)
        other.supply = [dict(s) for s in self.supply]
        other.hidden = list(self.hidden)
        other.ext = copy_json(self.ext)
        return other

    @property
    def catalogue(self) -> Catalogue:
        assert self.rules is not None  # (set by game_started, before any tile is named)
        return self.rules.catalogue

    def unseen(self) -> dict[str, int]:
        """The tiles nobody has seen, by id: the stack and the tiles under hills. The
        public composition of what is left, the same whether this state was folded from
        the whole log or from the redacted one."""
        counts = dict(self.stack)
        for tile in self.hidden:
            counts[tile] += 1
        return counts


def _game_started(state: State, data: dict[str, Any]) -> None:
    rules = state.rules = game_rules(modules_for(data["options"]))
    state.options = data["options"]
    state.seats = data["seats"]
    state.board = Board(state.catalogue)
    state.stack = dict(data["stack"])
    state.remaining = sum(state.stack.values())
    state.scores = [0] * state.seats
    state.supply = [dict(data["figures"]) for _ in range(state.seats)]
    state.ext = {m.name: m.initial(state.seats) for m in rules.modules if m.initial}
    for start in (data["start"], *data.get("layout", ())):
        tile = state.catalogue.get(start["tile"])
        q = quarter_turns(start["rotation"])
        assert tile is not None and q is not None  # (the setup's own tiles and turns)
        state.put_tile(tile, (start["x"], start["y"]), q)
    state.phase = PHASE_DRAW


def _tile_drawn(state: State, data: dict[str, Any]) -> None:
    state.take_drawn(data["tile"])
    state.phase = PHASE_TILE


def _tile_set_aside(state: State, data: dict[str, Any]) -> None:
    state.put_aside(data["tile"])
    state.phase = PHASE_DRAW


def _tile_hidden(state: State, data: dict[str, Any]) -> None:
    state.remaining -= 1
    tile = data.get("tile")
    if tile is None:  # redacted: one tile nobody may know left the stack
        state.blind += 1
    else:
        state.stack[tile] -= 1
        state.hidden.append(tile)


def _tile_placed(state: State, data: dict[str, Any]) -> None:
    pos = (data["x"], data["y"])
    tile, q = state.tile, quarter_turns(data["rotation"])
    assert tile is not None and q is not None  # (a tile drawn, a valid event's turns)
    state.completed = state.put_tile(tile, pos, q)
    state.placed = pos
    state.tile = None
    state.phase = PHASE_FIGURE


def _follower_placed(state: State, data: dict[str, Any]) -> None:
    pos = (data["x"], data["y"])
    seat, figure = data["seat"], data["figure"]
    assert state.rules is not None
    weight = state.rules.figures[figure].weight
    feature = state.feature_to_change(state.tile_node(pos, data["spot"]))
    feature.figures.append(Figure(seat, figure, weight, pos, data["spot"]))
    state.supply[seat][figure] -= 1


def _feature_scored(state: State, data: dict[str, Any]) -> None:
    for seat in data["winners"]:
        state.scores[seat] += data["points"]
    if data["returned"]:
        at = data["at"]
        feature = state.feature_to_change(state.tile_node((at["x"], at["y"]), at["spot"]))
        for figure in feature.figures:
            state.supply[figure.seat][figure.kind] += 1
        feature.figures = []


def _turn_ended(state: State, data: dict[str, Any]) -> None:
    state.seat = data["next"]
    state.extra = "extra" in data
    state.phase = PHASE_DRAW
    state.placed = None
    state.completed = []
    state.turn += 1


def _game_ended(state: State, data: dict[str, Any]) -> None:
    state.winners = list(data["winners"])
    state.phase = PHASE_OVER
    assert state.board is not None
    state.board.readings.clear()  # no menu is asked of a game over: its memos can go


EVOLVERS: dict[str, Callable[[State, dict[str, Any]], None]] = {
    "game_started": _game_started,
    "tile_drawn": _tile_drawn,
    "tile_set_aside": _tile_set_aside,
    "tile_hidden": _tile_hidden,
    "tile_placed": _tile_placed,
    "follower_placed": _follower_placed,
    "feature_scored": _feature_scored,
    "turn_ended": _turn_ended,
    "game_ended": _game_ended,
    "seat_resigned": State.resign,
}

"""Hook points through which the base game and, later, each expansion plug in.

A game is the base :class:`Module` plus the enabled expansion modules, in order. The
rules consult every enabled module at four named points:

- **tile placement** (``tile_checks``): extra conditions on where the tiles they concern
  may go (the River's "continue the river"); each returns an IllegalMove code or
  ``None``;
- **figure placement** (``figures``, ``figure_checks``): the figure types a seat owns
  (name, weight for majorities, count, and the rule saying where one may stand: a big
  follower like a follower, a builder only beside one's own follower) and extra
  conditions on placing any figure;
- **feature scoring** (``scorers``): points for a feature of a given kind. A later
  module's scorer receives the one it replaces, so an inn can double a road's points
  or a cathedral zero an unfinished city without copying the base rules;
- **turn end** (``after_scoring``, ``extra_turns``): events after the turn's scoring
  (trade goods taken) and a reason to give the same seat another turn (the builder);
- **drawing** (``draw_first``): tile groups drawn, in order, before the main stack
  (the River);
- **end of game** (``end_of_game``): the final scoring steps (unfinished features,
  farmers, trade goods).

A module may keep its own state (``initial``: its part of ``State.ext`` when the game
starts), fold its own events (``evolvers``), add steps to a turn (``steps``: a phase
with its commands, who is awaited, the menu and a bot), react to a tile placed
(``after_tile``) or a figure placed (``after_figure``: the shepherd's first draw), hide
a tile under another (``hides_under``: the hills), offer options (``options``), lay
out a large start board (``layout``, ``attach``: the wheel, with the spring beside it),
add details to a drawn tile and react to it (``draw_detail``, ``after_draw``: a wheel
icon turns the wheel), observe base events (``observers``) and add commands to the
figure step (``figure_commands``, ``figure_menu``: a crown space instead of a tile).

South Seas reuses :mod:`service.rules.tiling` with its own kinds (bridges, islands,
seas, markets) and its own modules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from service.rules.core import Event
from service.rules.tiling.features import Feature, Figure
from service.rules.tiling.geometry import Pos
from service.rules.tiling.tiles import TileType

if TYPE_CHECKING:
    import random

    from service.rules.carcassonne.game import Carcassonne
    from service.rules.carcassonne.state import State


#: figure_rule(state, seat, feature) -> IllegalMove code or None: may ``seat`` put a
#: figure of this type on ``feature`` (the feature of a segment of the tile just placed)
FigureRule = Callable[["State", int, Feature], "str | None"]


@dataclass(frozen=True, slots=True)
class FigureType:
    """A kind of figure each seat owns: how much it weighs in majorities (0 for special
    figures such as the builder and the pig, which never count), how many, and where it
    may stand."""

    weight: int
    count: int
    rule: FigureRule


@dataclass(frozen=True, slots=True)
class Score:
    """Points for a feature, the reason in words a player can check, and the facts
    behind them (``{"shields": 1}``, a field's cities...) for the scoring event."""

    points: int
    reason: str
    details: Mapping[str, Any] = field(default_factory=dict)


#: scoring(state, feature) -> Score: how a feature kind scores once modules are chained
Scoring = Callable[["State", Feature], Score]
#: scorer(state, feature, replaced) -> Score; ``replaced`` is the scoring this one
#: overrides (``None`` for the first), so expansions can wrap the base rule.
Scorer = Callable[["State", Feature, "Scoring | None"], Score]
#: tile_check(state, tile, pos, quarter_turns) -> IllegalMove code or None
TileCheck = Callable[["State", TileType, Pos, int], "str | None"]


@dataclass(frozen=True, slots=True)
class TileRule:
    """An extra placement condition and the tiles it concerns (asked once per tile type,
    so that placing every other tile costs nothing)."""

    concerns: Callable[[TileType], bool]
    check: TileCheck


#: figure_check(state, seat, figure, node) -> IllegalMove code or None
FigureCheck = Callable[["State", int, str, int], "str | None"]
#: end_of_game(state) -> the data of the feature_scored events of the final scoring
EndOfGame = Callable[["State"], "list[dict[str, Any]]"]
#: after_scoring(state, seat) -> events once this turn's features are scored (the turn's
#: tile placed and its completed features in ``state.completed``, scoring not yet folded)
AfterScoring = Callable[["State", int], "list[Event]"]
#: extra_turn(state, seat, new) -> why ``seat`` plays again, or None; ``new`` is the
#: (root, figure) placed this turn, if any
ExtraTurn = Callable[["State", int, "tuple[int, Figure] | None"], "str | None"]
#: evolver(state, data): folds one event of a module's own type
Evolver = Callable[["State", dict[str, Any]], None]
#: after_tile(state, seat, tile, pos, quarter_turns) -> events after ``tile_placed`` (the
#: tile is not on the board yet)
AfterTile = Callable[["State", int, TileType, Pos, int], "list[Event]"]
#: after_figure(ruleset, state, seat, figure, node, rng) -> (events after the figure
#: step: ``follower_placed`` of ``figure`` on ``node``, or both ``None`` for a skip;
#: whether the turn pauses for a decision the module awaits)
AfterFigure = Callable[
    ["Carcassonne", "State", int, "str | None", "int | None", "random.Random"],
    "tuple[list[Event], bool]",
]
#: draw_detail(state, tile, pending, rng, command) -> extra data for ``tile_drawn`` (which
#: copy was drawn); ``command`` is the client's ``draw_tile`` in external randomness
#: mode, else ``None`` and the detail is drawn from ``rng``; ``pending`` are this
#: command's events not yet folded
DrawDetail = Callable[
    ["State", TileType, "list[Event]", "random.Random", "dict[str, Any] | None"], "dict[str, Any]"
]
#: after_draw(ruleset, state, seat, drawn, pending, rng) -> events once a tile that fits
#: is drawn (``drawn``: the ``tile_drawn`` data), before it is placed
AfterDraw = Callable[
    ["Carcassonne", "State", int, "dict[str, Any]", "list[Event]", "random.Random"],
    "list[Event]",
]
#: command handler(ruleset, state, seat, command, rng) -> events
Handler = Callable[["Carcassonne", "State", int, "dict[str, Any]", "random.Random"], "list[Event]"]


@dataclass(frozen=True, slots=True)
class Step:
    """A step a module adds to a turn, under its own phase name: the commands it takes,
    who is awaited (``[{"seat", "decision", ...}]``), each seat's menu and a random bot."""

    commands: Mapping[str, Handler]
    awaiting: Callable[[State], list[dict[str, Any]]]
    legal: Callable[[State, int], dict[str, Any]]
    bot: Callable[[State, int, random.Random], dict[str, Any]]


@dataclass(frozen=True, slots=True, eq=False)
class Module:
    """One switchable part of the rules; compared by identity (modules are singletons)."""

    name: str
    tile_files: tuple[str, ...] = ()
    figures: Mapping[str, FigureType] = field(default_factory=dict)
    scorers: Mapping[str, Scorer] = field(default_factory=dict)
    tile_checks: tuple[TileRule, ...] = ()
    figure_checks: tuple[FigureCheck, ...] = ()
    end_of_game: tuple[EndOfGame, ...] = ()
    after_scoring: tuple[AfterScoring, ...] = ()
    extra_turns: tuple[ExtraTurn, ...] = ()
    draw_first: tuple[str, ...] = ()
    evolvers: Mapping[str, Evolver] = field(default_factory=dict)
    steps: Mapping[str, Step] = field(default_factory=dict)
    after_tile: tuple[AfterTile, ...] = ()
    after_figure: tuple[AfterFigure, ...] = ()
    #: hides_under(tile) -> whether a tile drawn blind goes under it (a hill)
    hides_under: Callable[[TileType], bool] | None = None
    #: tie_break(state, figures, tied seats) -> the seats that win a tied majority
    tie_break: Callable[[State, list[Figure], list[int]], list[int]] | None = None
    #: option name -> spec (type, enum, default, description), as in the game's OPTIONS
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    #: tile sets given inline (generated from data, like the wheel board's parts)
    tile_data: tuple[Mapping[str, Any], ...] = ()
    #: start placements ``{"tile", "x", "y", "rotation"}`` replacing the start tile
    layout: tuple[Mapping[str, Any], ...] = ()
    #: where another module's start tile goes beside the layout (``{x, y, rotation}``)
    attach: Mapping[str, Any] | None = None
    #: whether this module's start tile goes at a layout's ``attach`` (the spring)
    start_attaches: bool = False
    draw_detail: DrawDetail | None = None
    after_draw: tuple[AfterDraw, ...] = ()
    #: base event type -> evolver run after the base one (a drawn wheel icon)
    observers: Mapping[str, Evolver] = field(default_factory=dict)
    figure_commands: Mapping[str, Handler] = field(default_factory=dict)
    #: figure_menu(state, seat) -> the module's commands for the figure step's menu
    figure_menu: Callable[[State, int], list[dict[str, Any]]] | None = None
    #: IllegalMove code -> the rule in plain words, for the codes this module raises
    rules: Mapping[str, str] = field(default_factory=dict)
    #: initial(seats) -> this module's part of ``State.ext`` (JSON-like), if it keeps any
    initial: Callable[[int], Any] | None = None

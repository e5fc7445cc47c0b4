"""Hook points through which the base game and, later, each expansion plug in.

A game is the base :class:`Module` plus the enabled expansion modules, in order. The
rules consult every enabled module at four named points:

- **tile placement** (``tile_checks``): extra conditions on where the tiles they concern
  may go (the River's "continue the river"); each returns an IllegalMove code or
  ``None``;
- **figure placement** (``figures``): the figure types a seat owns (name, weight for
  majorities, count, and the rule saying where one may stand: a big follower like a
  follower, a builder only beside one's own follower);
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
starts), fold its own events (``evolvers``), add decisions to a turn (``steps``: a
phase with the commands that answer it, who is awaited, the menu and a bot; the events
that open one pause the turn and the state holds where it goes on, see
``State.pause``), react to a tile placed
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

    from service.rules.carcassonne.figures import Prospect
    from service.rules.carcassonne.game import Carcassonne
    from service.rules.carcassonne.state import State
    from service.rules.core import Turn


#: The phases of a turn: each names the decision awaited in it (a step's kind).
PHASE_NEW = "new"
PHASE_DRAW = "draw_tile"
PHASE_TILE = "place_tile"
PHASE_FIGURE = "place_follower"
#: the figure step is done and the turn's scoring and end follow, worked out by the
#: decider in the same command: never the phase between two commands
PHASE_END = "end_turn"
PHASE_OVER = "over"

#: figure_rule(state, seat, feature) -> IllegalMove code or None: may ``seat`` put a
#: figure of this type on ``feature`` (the feature of a segment of the tile just placed,
#: or the :class:`~service.rules.carcassonne.figures.Prospect` of one not placed yet)
FigureRule = Callable[["State", int, "Feature | Prospect"], "str | None"]


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


#: end_of_game(state) -> the data of the feature_scored events of the final scoring
EndOfGame = Callable[["State"], "list[dict[str, Any]]"]
#: after_scoring(state, seat) -> events once this turn's features are scored (the turn's
#: tile placed and its completed features in ``state.completed``, scoring not yet folded)
AfterScoring = Callable[["State", int], "list[Event]"]
#: extra_turn(state, seat) -> why ``seat`` plays again, or None (asked with the turn's
#: figure placed and its scoring not yet folded)
ExtraTurn = Callable[["State", int], "str | None"]
#: evolver(state, data): folds one event of a module's own type
Evolver = Callable[["State", dict[str, Any]], None]
#: after_tile(state, seat, tile, pos, quarter_turns) -> events after ``tile_placed`` (the
#: tile is not on the board yet)
AfterTile = Callable[["State", int, TileType, Pos, int], "list[Event]"]
#: after_figure(ruleset, turn, seat, figure, node, rng): emits into ``turn`` what follows
#: the figure step (``follower_placed`` of ``figure`` on ``node``, or both ``None`` for a
#: skip); an event that opens a module's step pauses the turn there (``State.pause``)
AfterFigure = Callable[
    ["Carcassonne", "Turn[State]", int, "str | None", "int | None", "random.Random"], None
]
#: draw_detail(state, tile, rng, command) -> extra data for ``tile_drawn`` (which copy was
#: drawn); ``command`` is the client's ``draw_tile`` in external randomness mode, else
#: ``None`` and the detail is drawn from ``rng``
DrawDetail = Callable[
    ["State", TileType, "random.Random", "dict[str, Any] | None"], "dict[str, Any]"
]
#: after_draw(ruleset, turn, seat, drawn, rng): emits into ``turn`` what a tile that fits
#: causes once drawn (``drawn``: the ``tile_drawn`` data), before it is placed
AfterDraw = Callable[["Carcassonne", "Turn[State]", int, "dict[str, Any]", "random.Random"], None]
#: command handler(ruleset, state, seat, command, rng) -> events
Handler = Callable[["Carcassonne", "State", int, "dict[str, Any]", "random.Random"], "list[Event]"]


def active_seat(state: State) -> int:
    return state.seat


def no_details(state: State) -> dict[str, Any]:
    return {}


@dataclass(frozen=True, slots=True)
class Step:
    """One decision of a turn, named by its phase (the decision's kind): the handler of
    each command that answers it, their menu for the awaited seat (``{command type:
    options}``), what the seat needs to know to decide (the decision's details), who is
    awaited, and a random bot's choice (``None`` for the base game's steps, which the
    bots play themselves)."""

    commands: Mapping[str, Handler]
    menu: Callable[[State, int], dict[str, Any]]
    details: Callable[[State], dict[str, Any]] = no_details
    seat: Callable[[State], int] = active_seat
    bot: Callable[[State, int, random.Random], dict[str, Any]] | None = None


@dataclass(frozen=True, slots=True, eq=False)
class Module:
    """One switchable part of the rules; compared by identity (modules are singletons)."""

    name: str
    tile_files: tuple[str, ...] = ()
    figures: Mapping[str, FigureType] = field(default_factory=dict)
    scorers: Mapping[str, Scorer] = field(default_factory=dict)
    tile_checks: tuple[TileRule, ...] = ()
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
    #: draw_menu(state, tiles that may be drawn) -> what the external draw's menu adds of
    #: this module's (the wheel icons left)
    draw_menu: Callable[[State, Mapping[str, int]], dict[str, Any]] | None = None
    after_draw: tuple[AfterDraw, ...] = ()
    #: base event type -> evolver run after the base one (a drawn wheel icon)
    observers: Mapping[str, Evolver] = field(default_factory=dict)
    #: commands that answer the base game's ``place_follower`` decision instead of a
    #: figure on the tile (a crown space), and their menu: figure_menu(state, seat) ->
    #: ``{command type: options}``, leaving out a command that has no option now
    figure_commands: Mapping[str, Handler] = field(default_factory=dict)
    figure_menu: Callable[[State, int], dict[str, Any]] | None = None
    #: IllegalMove code -> the rule in plain words, for the codes this module raises
    rules: Mapping[str, str] = field(default_factory=dict)
    #: initial(seats) -> this module's part of ``State.ext`` (JSON-like), if it keeps any
    initial: Callable[[int], Any] | None = None

"""The state of a South Seas game and how each event changes it (``evolve``).

The state has two parts. The *table* (board, feature graph with the islanders standing
on it) is costly to copy; everything else (stacks, ship display, wares, supplies, whose
turn and which step) is small. Each event type has a table part and a light part.
``evolve`` runs both on a state that owns its table, and only the light part on a *light
copy*, which shares the table: the decider works a command out (evaluations, ship
awards, refills, end of turn, draws) on a light copy, so a command never copies the
board and never touches the table it shares; when it applies a command to a state, it
folds the events into that state as they are emitted, table parts too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from service.rules.core import Event
from service.rules.decisions import Decision
from service.rules.south_seas.content import Content, content_for
from service.rules.south_seas.ships import WARES
from service.rules.tiling.board import Board
from service.rules.tiling.features import Figure
from service.rules.tiling.geometry import Pos, quarter_turns
from service.rules.tiling.state import TileGameState
from service.rules.tiling.tiles import Catalogue

#: the figure every seat owns; the feature it stands on gives its role
ISLANDER = "islander"
ISLANDERS = 4
DISPLAY = 4
FISHING_BOAT_TOKENS = 19

STEP_NEW = "new"
STEP_DRAW = "draw_tile"
STEP_PLACE = "place_tile"
STEP_ISLANDER = "islander"
#: the islander step is done; completed markets' ships are being awarded
STEP_AWARDS = "awards"
STEP_DELIVER = "deliver"
#: the delivery step is done; the turn ends once the display is refilled
STEP_END = "end"
STEP_OVER = "over"


class State(TileGameState):
    """Everything the log has established so far. Mutated in place by ``evolve``."""

    __slots__ = (
        "content",
        "catalogue",
        "ship_stack",
        "display",
        "held",
        "owed",
        "offered",
        "wares",
        "supply",
        "boats",
        "covered",
        "step",
        "ended_because",
        "folded",
        "decisions",
        "shares_table",
        "in_place",
    )

    def __init__(self) -> None:
        super().__init__()
        self.content: Content | None = None
        #: the content's tiles (a slot, not a property: asked at every draw and placement)
        # (a slot where the base has a property: None until game_started, as mypy cannot
        # express; every reader asserts it)
        self.catalogue: Catalogue | None = None  # type: ignore[assignment]
        #: ship ids still face down
        self.ship_stack: list[str] = []
        #: face-up ship ids, in the order they were revealed
        self.display: list[str] = []
        #: the ship ids each seat holds
        self.held: list[list[str]] = []
        #: merchants of completed markets still to be given a ship, in award order
        self.owed: list[dict[str, int]] = []
        #: the face-up ships the active seat was offered to deliver to (never changed in
        #: place: a light copy shares it)
        self.offered: list[str] = []
        self.wares: list[dict[str, int]] = []
        #: islanders in each seat's supply
        self.supply: list[int] = []
        #: fishing-boat tokens left
        self.boats = 0
        #: tokens on the board, keyed by (x, y, spot) of the sea segment: groups covered
        self.covered: dict[tuple[int, int, str], dict[str, int]] = {}
        self.step = STEP_NEW
        self.ended_because: str | None = None
        #: events folded so far: names the decision open now (see ``decisions.single``)
        self.folded = 0
        #: the decisions open after ``folded`` events (a cache for ``decisions``)
        self.decisions: tuple[int, list[Decision]] = (-1, [])
        #: a light copy: folding leaves the board and graph it shares alone
        self.shares_table = False
        #: whether the command being applied folds its events straight into this state
        #: as the decider emits them (see ``SouthSeas.apply``)
        self.in_place = False

    def light_copy(self) -> State:
        """A copy that shares the board and graph (see the module docstring)."""
        other = super().light_copy()
        other.shares_table = True
        other.ship_stack = list(self.ship_stack)
        other.display = list(self.display)
        other.held = [list(h) for h in self.held]
        other.owed = list(self.owed)
        other.wares = [dict(w) for w in self.wares]
        other.supply = list(self.supply)
        other.covered = {k: dict(v) for k, v in self.covered.items()}
        return other

    def copy(self) -> State:
        other = super().copy()
        other.shares_table = False
        return other

    def ships_left(self) -> bool:
        return bool(self.display or self.ship_stack)

    def ship_points(self, seat: int) -> int:
        assert self.content is not None
        ships = self.content.ship_by_id
        return sum(ships[ship].points for ship in self.held[seat])

    def score(self, seat: int) -> int:
        """Ship points plus 1 per 3 wares, whatever their types."""
        return self.ship_points(seat) + sum(self.wares[seat].values()) // 3


Data = dict[str, Any]
Evolver = Callable[[State, Data], None]


# -- table parts ------------------------------------------------------------------


def _start_table(state: State, data: Data) -> None:
    assert state.catalogue is not None  # (set by game_started before the table)
    state.board = Board(state.catalogue)
    start = data["start"]
    _put_tile(state, start["tile"], (start["x"], start["y"]), start["rotation"])


def _put_tile(state: State, tile_id: str, pos: Pos, rotation: int) -> list[int]:
    assert state.catalogue is not None
    tile, q = state.catalogue.get(tile_id), quarter_turns(rotation)
    assert tile is not None and q is not None  # (those of a valid event)
    return state.put_tile(tile, pos, q)


def _tile_placed_table(state: State, data: Data) -> None:
    state.completed = _put_tile(state, data["tile"], (data["x"], data["y"]), data["rotation"])


def _islander_placed_table(state: State, data: Data) -> None:
    pos = (data["x"], data["y"])
    feature = state.graph.feature(state.tile_node(pos, data["spot"]))
    feature.figures.append(Figure(data["seat"], ISLANDER, 1, pos, data["spot"]))


def _islander_retrieved_table(state: State, data: Data) -> None:
    pos = (data["x"], data["y"])
    feature = state.graph.feature(state.tile_node(pos, data["spot"]))
    feature.figures = [f for f in feature.figures if (f.pos, f.spot) != (pos, data["spot"])]


def _feature_evaluated_table(state: State, data: Data) -> None:
    at = data["at"]
    feature = state.graph.feature(state.tile_node((at["x"], at["y"]), at["spot"]))
    if data["returned"]:
        feature.figures = []
    cover = data.get("cover")
    if cover:
        key = f"fish{cover['group']}"
        feature.attrs[key] -= 1


# -- light parts ------------------------------------------------------------------


def _game_started(state: State, data: Data) -> None:
    options = data["options"]
    state.content = content_for(options.get("tiles"), options.get("ships"))
    state.catalogue = state.content.catalogue
    state.options = options
    state.seats = data["seats"]
    state.stack = dict(data["stack"])
    state.remaining = sum(state.stack.values())
    state.ship_stack = list(data["ships"])
    state.held = [[] for _ in range(state.seats)]
    state.wares = [dict.fromkeys(WARES, 0) for _ in range(state.seats)]
    state.supply = [data["islanders"]] * state.seats
    state.boats = data["fishing_boats"]
    state.step = STEP_DRAW


def _ship_revealed(state: State, data: Data) -> None:
    state.ship_stack.remove(data["ship"])
    state.display.append(data["ship"])


def _tile_drawn(state: State, data: Data) -> None:
    state.take_drawn(data["tile"])
    state.step = STEP_PLACE


def _tile_set_aside(state: State, data: Data) -> None:
    state.put_aside(data["tile"])
    state.step = STEP_DRAW


def _tile_placed(state: State, data: Data) -> None:
    state.placed = (data["x"], data["y"])
    state.tile = None
    state.step = STEP_ISLANDER


def _islander_placed(state: State, data: Data) -> None:
    state.supply[data["seat"]] -= 1
    state.step = STEP_AWARDS


def _islander_retrieved(state: State, data: Data) -> None:
    state.supply[data["seat"]] += 1
    state.step = STEP_AWARDS


def _feature_evaluated(state: State, data: Data) -> None:
    if data["ware"]:
        for seat in data["winners"]:
            state.wares[seat][data["ware"]] += data["wares"]
    if data["returned"]:
        for islander in data["islanders"]:
            state.supply[islander["seat"]] += 1
    if data.get("ship_owed"):
        at = data["at"]
        state.owed += [{"seat": s, "x": at["x"], "y": at["y"]} for s in data["winners"]]
    cover = data.get("cover")
    if cover:
        state.boats -= 1
        covered = state.covered.setdefault((cover["x"], cover["y"], cover["spot"]), {})
        covered[f"fish{cover['group']}"] = covered.get(f"fish{cover['group']}", 0) + 1
    if data["trigger"] != "end_of_game":
        state.step = STEP_AWARDS


def _ship_awarded(state: State, data: Data) -> None:
    state.owed.pop(0)
    if data["ship"] is not None:
        state.display.remove(data["ship"])
        state.held[data["seat"]].append(data["ship"])


def _delivery_offered(state: State, data: Data) -> None:
    state.offered = data["ships"]
    state.step = STEP_DELIVER


def _wares_delivered(state: State, data: Data) -> None:
    seat = data["seat"]
    for ware, n in data["wares"].items():
        state.wares[seat][ware] -= n
    state.display.remove(data["ship"])
    state.held[seat].append(data["ship"])
    state.step = STEP_END


def _turn_ended(state: State, data: Data) -> None:
    state.seat = data["next"]
    state.step = STEP_DRAW
    state.placed = None
    state.completed = []
    state.turn += 1


def _game_ended(state: State, data: Data) -> None:
    state.winners = list(data["winners"])
    state.ended_because = data["because"]
    state.step = STEP_OVER


#: per event type: (table part or None, light part)
EVOLVERS: dict[str, tuple[Evolver | None, Evolver]] = {
    "game_started": (_start_table, _game_started),
    "ship_revealed": (None, _ship_revealed),
    "tile_drawn": (None, _tile_drawn),
    "tile_set_aside": (None, _tile_set_aside),
    "tile_placed": (_tile_placed_table, _tile_placed),
    "islander_placed": (_islander_placed_table, _islander_placed),
    "islander_retrieved": (_islander_retrieved_table, _islander_retrieved),
    "feature_evaluated": (_feature_evaluated_table, _feature_evaluated),
    "ship_awarded": (None, _ship_awarded),
    "delivery_offered": (None, _delivery_offered),
    "wares_delivered": (None, _wares_delivered),
    "turn_ended": (None, _turn_ended),
    "game_ended": (None, _game_ended),
    "seat_resigned": (None, State.resign),
}


def evolve(state: State, event: Event) -> State:
    """Fold one event: its light part, and its table part unless ``state`` is a light
    copy (see the module docstring). Returns ``state``, changed in place."""
    table, light = EVOLVERS[event.type]
    data = event.data
    light(state, data)
    if table is not None and not state.shares_table:
        table(state, data)
    state.folded += 1
    return state

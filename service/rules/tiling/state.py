"""The state every tile-laying game of the family keeps, whatever else it adds.

A game's ``State`` subclasses :class:`TileGameState` and adds its own slots (scores,
supplies, ships...) and its step or phase. The fields here change alike in every game
when a tile is drawn, set aside or placed, so those steps live here too; each game's
event folding calls them and then moves its own turn structure on.
"""

from __future__ import annotations

from typing import Any, ClassVar, Self

from service.rules.tiling.board import Board
from service.rules.tiling.features import Feature, FeatureGraph
from service.rules.tiling.geometry import Pos
from service.rules.tiling.tiles import Catalogue, TileType


class TileGameState:
    """The table (board and feature graph), the hidden stack and the turn's tile."""

    __slots__ = (
        "options",
        "seats",
        "board",
        "graph",
        "stack",
        "remaining",
        "seat",
        "tile",
        "placed",
        "completed",
        "set_aside",
        "turn",
        "winners",
        "borrows",
        "resigned",
    )

    #: every slot of the concrete class, its own and its bases' (set per subclass)
    fields: ClassVar[tuple[str, ...]] = __slots__

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.fields = tuple(
            name for klass in reversed(cls.__mro__) for name in klass.__dict__.get("__slots__", ())
        )

    def __init__(self) -> None:
        self.options: dict[str, Any] = {}
        self.seats = 0
        self.board: Board | None = None
        self.graph = FeatureGraph()
        #: tiles still in the hidden stack, by id, in data order
        self.stack: dict[str, int] = {}
        self.remaining = 0
        #: whose turn it is
        self.seat = 0
        #: the tile drawn and not yet placed
        self.tile: TileType | None = None
        #: where this turn's tile went, once placed
        self.placed: Pos | None = None
        #: roots of the features this turn's tile completed
        self.completed: list[int] = []
        self.set_aside: list[str] = []
        self.turn = 0
        self.winners: list[int] = []
        #: whether ``graph`` is still the one of the state this scratch copy was made of
        #: (see :meth:`scratch`)
        self.borrows = False
        #: the seats that have resigned, in the order they did (a tuple: copies share it)
        self.resigned: tuple[int, ...] = ()

    @property
    def catalogue(self) -> Catalogue:
        raise NotImplementedError

    def light_copy(self) -> Self:
        """A copy that shares the board and feature graph (costly to copy) but owns
        every other container; subclasses extend it with their own containers."""
        other = type(self).__new__(type(self))
        for name in self.fields:
            setattr(other, name, getattr(self, name))
        other.stack = dict(self.stack)
        other.completed = list(self.completed)
        other.set_aside = list(self.set_aside)
        other.winners = list(self.winners)
        return other

    def scratch(self) -> Self:
        """A light copy that a decider folds a command's events into as it works out
        what follows. It reads the original's feature graph until an event changes a
        feature (:meth:`feature_to_change`: then the graph is lightly copied, see
        :meth:`FeatureGraph.light_copy`); placing a tile on it copies the table first."""
        other = self.light_copy()
        other.borrows = True
        return other

    def feature_to_change(self, node: int) -> Feature:
        """The feature of ``node``, for an evolver to change: its own, on a scratch copy."""
        if self.borrows:
            self.graph = self.graph.light_copy()
            self.borrows = False
        return self.graph.own(node)

    def copy(self) -> Self:
        other = self.light_copy()
        other.board = self.board.copy() if self.board else None
        other.graph = self.graph.copy()
        return other

    def tile_node(self, pos: Pos, spot: str) -> int:
        """The feature-graph node of a spot named in a (valid) event."""
        assert self.board is not None  # (set by game_started, before any spot is named)
        node = self.graph.node_at(self.board, pos, spot)
        if node is None:
            raise ValueError(f"no spot {spot} at {pos}")
        return node

    def put_tile(self, tile: TileType, pos: Pos, q: int) -> list[int]:
        """Put ``tile`` down and join its features; returns the features it completed."""
        board = self.board
        assert board is not None  # (game_started makes it before it puts the first tile)
        if self.borrows or self.graph.lender is not None:  # a scratch copy: own the table
            board = self.board = board.copy()
            self.graph = self.graph.placing_copy()
            self.borrows = False
        beside = board.place(pos, tile, q, len(self.graph.parent))
        return self.graph.add_tile(board, pos, beside)

    def take_drawn(self, tile_id: str) -> None:
        """A ``tile_drawn``: the tile leaves the stack and waits to be placed."""
        self.stack[tile_id] -= 1
        self.remaining -= 1
        self.tile = self.catalogue.get(tile_id)

    def resign(self, data: dict[str, Any]) -> None:
        """A ``seat_resigned``: the seat is out of turn order; its figures stay."""
        self.resigned = (*self.resigned, data["seat"])

    def put_aside(self, tile_id: str) -> None:
        """A ``tile_set_aside``: the drawn tile fits nowhere and leaves the game."""
        self.set_aside.append(tile_id)
        self.tile = None

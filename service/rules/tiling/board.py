"""The board: placed tiles, the frontier of open positions, and placement legality.

Only positions next to a placed tile can take a tile, so the board keeps that frontier,
each position with its packed side constraint (see :meth:`Catalogue.fitting_rotations`).
Legal placements are then a memoised lookup per frontier position instead of a scan.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterator
from itertools import accumulate, islice
from typing import Any, NamedTuple

from service.rules.tiling.geometry import OFFSETS, Pos
from service.rules.tiling.tiles import Catalogue, Link, TileType


class Placed(NamedTuple):
    """A tile on the board: its type, quarter turns, and its first feature-graph node.
    (A named tuple: one is made per tile placed, and a tuple is the cheapest to make,
    by ``tuple.__new__`` rather than the named tuple's Python ``__new__``.)"""

    tile: TileType
    q: int
    node: int


_tuple_new = tuple.__new__


#: what the placed tiles beside an open position show it: per segment of a neighbour
#: reaching the facing side, its feature-graph node and the ports of the open position
#: it meets (a bit each, board frame), in side order
Border = tuple[tuple[int, int], ...]


class Board:
    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue
        self.tiles: dict[Pos, Placed] = {}
        #: empty positions next to a tile, with the packed codes their sides must show
        self.frontier: dict[Pos, int] = {}
        #: open position -> what a game's menu last made of its :meth:`border`, with the
        #: frontier constraint it was read at and whatever else it was made from,
        #: for the game to check before it reuses it (Carcassonne's follower spots). A
        #: tile placed beside the position always changes its constraint (every edge
        #: code is at least 1, put where there was 0) and placed tiles never move, so an
        #: equal constraint means the same border. Kept on the board so that a copy of
        #: it starts without.
        self.readings: dict[Pos, Any] = {}

    def copy(self) -> Board:
        other = Board(self.catalogue)
        other.tiles = dict(self.tiles)
        other.frontier = dict(self.frontier)
        return other

    def place(self, pos: Pos, tile: TileType, q: int, node: int) -> list[tuple[int, Placed]]:
        """Put a tile down (legality is the caller's business: see :meth:`problem`);
        returns its placed neighbours, each with the side of the tile it is beyond (for
        ``FeatureGraph.add_tile``, which joins them)."""
        tiles, frontier = self.tiles, self.frontier
        tiles[pos] = _tuple_new(Placed, (tile, q, node))
        frontier.pop(pos, None)
        self.readings.pop(pos, None)
        x, y = pos
        north, east, south, west = tile.needs[q]
        beside = []
        # Each neighbour's facing side must show what this side needs: the position to
        # the north shows it on its south side (byte 2 of its constraint), and so on.
        for side, other, code in (
            (0, (x, y - 1), north << 16),
            (1, (x + 1, y), east << 24),
            (2, (x, y + 1), south),
            (3, (x - 1, y), west << 8),
        ):
            placed = tiles.get(other)
            if placed is None:
                frontier[other] = frontier.get(other, 0) | code
            else:
                beside.append((side, placed))
        return beside

    def connections(self, pos: Pos, tile: TileType, q: int) -> Iterator[tuple[Link, int]]:
        """Each port of ``tile`` (at ``pos``, turned ``q`` times) that meets a placed
        neighbour, with the feature-graph node of the neighbour's segment there."""
        x, y = pos
        for side, (dx, dy) in enumerate(OFFSETS):
            other = self.tiles.get((x + dx, y + dy))
            if other is not None:
                their = other.tile.port_segment[other.q]
                for link in tile.links[q][side]:
                    yield link, other.node + their[link.facing]

    def border(self, pos: Pos) -> Border:
        """What the neighbours of the open position ``pos`` show it (see :data:`Border`)."""
        tiles = self.tiles
        x, y = pos
        found: list[tuple[int, int]] = []
        for side, (dx, dy) in enumerate(OFFSETS):
            other = tiles.get((x + dx, y + dy))
            if other is not None:
                node = other.node
                for segment, bits in other.tile.shown[other.q][side]:
                    found.append((node + segment, bits))
        return tuple(found)

    def rotations(self, tile: TileType, pos: Pos) -> tuple[int, ...]:
        """The quarter turns at which ``tile`` may go at ``pos`` (empty if none)."""
        constraint = self.frontier.get(pos)
        if constraint is None:
            return ()
        return self.catalogue.fitting_rotations(tile, constraint)

    def placements(self, tile: TileType) -> list[tuple[Pos, int]]:
        """Every legal ``(position, quarter turns)`` for ``tile``, in a stable order."""
        return [(pos, q) for pos, turns in self.fitting(tile) for q in turns]

    def fitting(self, tile: TileType) -> list[tuple[Pos, tuple[int, ...]]]:
        """Each open position where ``tile`` fits, with the quarter turns it may take
        there: :meth:`placements` by position (a menu reads each position once)."""
        fits = self.catalogue.fit_table(tile)
        return [(pos, turns) for pos, code in self.frontier.items() if (turns := fits[code])]

    def pick_placement(self, tile: TileType, pick: Callable[[int], int]) -> tuple[Pos, int]:
        """The placement ``placements(tile)[pick(len(placements(tile)))]``, found without
        listing them: how many each open position takes, summed as it goes, and the
        position where the running sum passes the pick (the counting and the search
        run in C, which a random bot's choice on every turn is worth)."""
        fits = self.catalogue.fit_table(tile)
        frontier = self.frontier
        sums = list(accumulate(map(len, map(fits.__getitem__, frontier.values()))))
        k = pick(sums[-1])
        at = bisect_right(sums, k)
        pos = next(islice(frontier, at, None))
        return pos, fits[frontier[pos]][k - sums[at - 1] if at else k]

    def fits_anywhere(self, tile: TileType) -> bool:
        return any(map(self.catalogue.fit_table(tile).__getitem__, self.frontier.values()))

    def problem(self, tile: TileType, pos: Pos, q: int) -> str | None:
        """Why ``tile`` may not go at ``pos`` turned ``q`` times, or ``None`` if it may.

        The answer is a stable code: ``position_occupied``, ``no_neighbour`` (no side
        touches a tile; touching only at a corner does not count) or
        ``tile_does_not_fit`` (a touching side does not continue its neighbour).
        """
        if pos in self.tiles:
            return "position_occupied"
        constraint = self.frontier.get(pos)
        if constraint is None:
            return "no_neighbour"
        if q not in self.catalogue.fit_table(tile)[constraint]:
            return "tile_does_not_fit"
        return None

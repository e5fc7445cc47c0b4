"""Incremental tracking of connected features (roads, cities, fields, cloisters...).

Every segment of every placed tile is a node of a union-find (path halving, union by
size). The root of each set holds a :class:`Feature`: its kind, the positions of its
tiles (a set, so a tile counts once even when a feature crosses it twice), how many
sides are still open, the figures on it, its summed attributes (shields, and later
inns, cathedrals, goods...) and the nodes it borders (a field's cities). Placing a tile
costs a handful of unions, so nothing is ever re-flooded.
"""

from __future__ import annotations

from dataclasses import dataclass

from service.rules.tiling.board import Board
from service.rules.tiling.geometry import AROUND, OFFSETS, Pos
from service.rules.tiling.tiles import FeatureKind


@dataclass(frozen=True, slots=True)
class Figure:
    """A figure standing on a feature. ``weight`` is what it counts for majorities
    (a big follower counts 2)."""

    seat: int
    kind: str
    weight: int
    pos: Pos
    spot: str


#: the tile's own position and the eight around it
HERE_AND_AROUND = ((0, 0), *AROUND)


class Feature:
    __slots__ = ("kind", "tiles", "open", "figures", "attrs", "touches", "complete")

    def __init__(self, kind: FeatureKind, pos: Pos, open_sides: int) -> None:
        self.kind = kind
        self.tiles: set[Pos] = {pos}
        self.open = open_sides
        self.figures: list[Figure] = []
        self.attrs: dict[str, int] = {}
        self.touches: list[int] = []
        self.complete = False

    def copy(self) -> Feature:
        other = Feature.__new__(Feature)
        other.kind = self.kind
        other.tiles = set(self.tiles)
        other.open = self.open
        other.figures = list(self.figures)
        other.attrs = dict(self.attrs)
        other.touches = list(self.touches)
        other.complete = self.complete
        return other

    def absorb(self, other: Feature) -> None:
        self.tiles |= other.tiles
        self.open += other.open
        self.figures += other.figures
        for name, value in other.attrs.items():
            self.attrs[name] = self.attrs.get(name, 0) + value
        self.touches += other.touches


class FeatureGraph:
    """The features of one board. Call :meth:`add_tile` right after ``Board.place``."""

    def __init__(self) -> None:
        self.parent: list[int] = []
        self.size: list[int] = []
        self.features: dict[int, Feature] = {}
        #: cloister-like features by position, checked when a neighbour is placed
        self.surrounded: dict[Pos, list[int]] = {}
        #: the features of the graph this one is a light copy of, whose objects it still
        #: shares until :meth:`own` copies them (``None``: it owns every feature)
        self.lender: dict[int, Feature] | None = None

    def light_copy(self) -> FeatureGraph:
        """A copy for working out one command's events, which move figures but place no
        tile: it shares the union-find and borrows each feature until :meth:`own` copies
        it, so a turn pays for the features it changes, not for the whole board."""
        other = FeatureGraph.__new__(FeatureGraph)
        other.parent, other.size, other.surrounded = self.parent, self.size, self.surrounded
        other.features = dict(self.features)
        other.lender = self.features
        return other

    def own(self, node: int) -> Feature:
        """The feature of ``node``, to be changed: a borrowed one is copied first."""
        root = self.find(node)
        feature = self.features[root]
        if self.lender is not None and self.lender.get(root) is feature:
            feature = self.features[root] = feature.copy()
        return feature

    def copy(self) -> FeatureGraph:
        other = FeatureGraph()
        other.parent = list(self.parent)
        other.size = list(self.size)
        other.features = {root: f.copy() for root, f in self.features.items()}
        other.surrounded = {pos: list(nodes) for pos, nodes in self.surrounded.items()}
        return other

    def find(self, node: int) -> int:
        parent = self.parent
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    def feature(self, node: int) -> Feature:
        return self.features[self.find(node)]

    def _union(self, a: int, b: int) -> int:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return ra
        if self.size[ra] < self.size[rb]:
            ra, rb = rb, ra
        self.parent[rb] = ra
        self.size[ra] += self.size[rb]
        self.features[ra].absorb(self.features.pop(rb))
        return ra

    def add_tile(self, board: Board, pos: Pos) -> list[int]:
        """Create the nodes of the tile just placed at ``pos``, join them to their
        neighbours, and return the roots of the features this placement completed."""
        placed = board.tiles[pos]
        tile, q, base = placed.tile, placed.q, placed.node
        parent, size, features = self.parent, self.size, self.features
        segments = tile.segments
        for i, segment in enumerate(segments):
            parent.append(base + i)
            size.append(1)
            feature = Feature(segment.kind, pos, segment.side_count)
            if segment.attrs:
                feature.attrs.update(segment.attrs)
            if segment.touches:
                feature.touches.extend(base + t for t in segment.touches)
            features[base + i] = feature
            if segment.kind.completion == "surrounded":
                self.surrounded.setdefault(pos, []).append(base + i)
        # A side closes once for each segment reaching it, on both tiles. Counting per
        # segment (not per port) keeps half-side features right where the two tiles
        # split a side differently (a South Seas sea on one tile, cut by a bridge's
        # dead end on the other). Open counts add up as features join, so each is taken
        # off the feature its node belongs to once every join is made.
        closing: list[int] = []
        x, y = pos
        tiles = board.tiles
        links, side_segments = tile.links[q], tile.side_segments[q]
        for side, (dx, dy) in enumerate(OFFSETS):
            other = tiles.get((x + dx, y + dy))
            if other is None:
                continue
            their, node = other.tile.port_segment[other.q], other.node
            for link in links[side]:
                self._union(base + link.segment, node + their[link.facing])
            closing += [base + i for i in side_segments[side]]
            closing += [node + i for i in other.tile.side_segments[other.q][(side + 2) % 4]]
        find = self.find
        for node in closing:
            features[find(node)].open -= 1
        completed = []
        for node in range(base, base + len(segments)):
            root = find(node)
            feature = features[root]
            if feature.kind.completion == "sides" and feature.open == 0 and not feature.complete:
                feature.complete = True
                completed.append(root)
        surrounded = self.surrounded
        if surrounded:
            for dx, dy in HERE_AND_AROUND:
                spot = (x + dx, y + dy)
                for node in surrounded.get(spot, ()):
                    feature = features[find(node)]
                    if not feature.complete and self.neighbours(board, spot) == 8:
                        feature.complete = True
                        completed.append(find(node))
        return completed

    @staticmethod
    def neighbours(board: Board, pos: Pos) -> int:
        """How many of the eight positions around ``pos`` hold a tile."""
        x, y = pos
        return sum((x + dx, y + dy) in board.tiles for dx, dy in AROUND)

    def node_at(self, board: Board, pos: Pos, spot: str) -> int | None:
        """The node of the segment named ``spot`` on the tile at ``pos``."""
        placed = board.tiles.get(pos)
        if placed is None:
            return None
        index = placed.tile.spot_segment[placed.q].get(spot)
        return None if index is None else placed.node + index

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

from service.rules.tiling.board import Board, Placed
from service.rules.tiling.geometry import AROUND, Pos
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
#: the offset of a position from a tile just placed -> its rank in HERE_AND_AROUND
AROUND_ORDER = {offset: rank for rank, offset in enumerate(HERE_AND_AROUND)}
#: the union-find sizes of a tile's new nodes, by how many segments it has
_ONES = tuple((1,) * n for n in range(64))


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
        #: the cloister-like features not surrounded yet, by position (their nodes),
        #: checked when a tile is placed near
        self.surrounded: dict[Pos, list[int]] = {}
        #: for each position in :attr:`surrounded`, how many of the eight around it hold
        #: a tile (counted once, then one more for each tile placed near)
        self.around: dict[Pos, int] = {}
        #: each empty position around one in :attr:`surrounded` -> those it is around: a
        #: tile placed there counts for them (one lookup a tile, however many wait)
        self.watching: dict[Pos, list[Pos]] = {}
        #: the features of the graph this one is a light copy of, whose objects it still
        #: shares until :meth:`own` copies them (``None``: it owns every feature)
        self.lender: dict[int, Feature] | None = None

    def light_copy(self) -> FeatureGraph:
        """A copy for working out one command's events, which move figures but place no
        tile: it shares the union-find and borrows each feature until :meth:`own` copies
        it, so a turn pays for the features it changes, not for the whole board."""
        other = FeatureGraph.__new__(FeatureGraph)
        other.parent, other.size, other.surrounded = self.parent, self.size, self.surrounded
        other.around, other.watching = self.around, self.watching
        other.features = dict(self.features)
        other.lender = self.features
        return other

    def placing_copy(self) -> FeatureGraph:
        """A copy to place tiles on while the original stays as it is (a scratch state:
        a bot's trial placement, a command worked out): the union-find and the
        cloisters' watch are its own, and each feature is borrowed until :meth:`own`
        copies it, so a placement pays for the features it touches, not the board."""
        other = self.light_copy()
        other.parent, other.size = list(self.parent), list(self.size)
        other.surrounded = {pos: list(nodes) for pos, nodes in self.surrounded.items()}
        other.around = dict(self.around)
        other.watching = {pos: list(spots) for pos, spots in self.watching.items()}
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
        other.around = dict(self.around)
        other.watching = {pos: list(spots) for pos, spots in self.watching.items()}
        return other

    def find(self, node: int) -> int:
        parent = self.parent
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    def feature(self, node: int) -> Feature:
        parent = self.parent
        root = parent[node]  # the root itself, mostly: then find is not called
        if parent[root] != root:
            root = self.find(root)
        return self.features[root]

    def _join(self, node: int, other: int) -> None:
        """Join a segment of the tile being placed (``node``) to a placed one. The
        surviving root keeps a feature if either side had one: the new tile's segments
        get theirs only once every join is made (see :meth:`add_tile`)."""
        parent, size = self.parent, self.size
        ra, rb = parent[node], parent[other]  # mostly roots already: find only if not
        if parent[ra] != ra:
            ra = self.find(ra)
        if parent[rb] != rb:
            rb = self.find(rb)
        if ra == rb:
            return
        if size[ra] < size[rb]:
            ra, rb = rb, ra
        parent[rb] = ra
        size[ra] += size[rb]
        features = self.features
        absorbed = features.pop(rb, None)
        if absorbed is not None:
            kept = features.get(ra)
            if kept is None:
                features[ra] = absorbed
            else:
                kept.absorb(absorbed)

    def add_tile(self, board: Board, pos: Pos, beside: list[tuple[int, Placed]]) -> list[int]:
        """Create the nodes of the tile just placed at ``pos`` (whose placed neighbours
        ``Board.place`` returned as ``beside``), join them to their neighbours, and
        return the roots of the features this placement completed.

        The joins come first, on the union-find alone; then each segment adds itself
        to the feature its node ended in, which is a new one only for a segment that
        joined nothing. (Making a feature per segment and absorbing it at once cost a
        third of placing a tile.)"""
        tile, q, base = board.tiles[pos]
        if self.lender is not None:
            self._own_near(pos, beside)
        parent, features = self.parent, self.features
        segments = tile.segments
        count = len(segments)
        parent.extend(range(base, base + count))
        self.size.extend(_ONES[count])
        # A side closes once for each segment reaching it, on both tiles. Counting per
        # segment (not per port) keeps half-side features right where the two tiles
        # split a side differently (a South Seas sea on one tile, cut by a bridge's
        # dead end on the other). Open counts add up as features join, so the
        # neighbour's are taken off its features as they are, and the new tile's
        # segments bring only their sides left open (``TileType.open_sides``).
        find = self.find
        links, reaching = tile.links[q], tile.side_segments[q]
        sides = 0
        for side, (their_tile, their_q, node) in beside:
            sides |= 1 << side
            their = their_tile.port_segment[their_q]
            theirs = their_tile.side_segments[their_q][(side + 2) % 4]
            side_links = links[side]
            if len(theirs) == 1 and len(reaching[side]) == 1:  # one segment each side:
                side_links = side_links[:1]  # its three ports make one join
            for _, own, facing in side_links:
                self._join(base + own, node + their[facing])
            for i in theirs:
                root = parent[node + i]
                if parent[root] != root:
                    root = find(root)
                features[root].open -= 1
        open_sides = tile.open_sides[q][sides]
        roots = []
        for i, segment in enumerate(segments):
            root = parent[base + i]  # itself, or the root it was joined under (mostly)
            if parent[root] != root:
                root = find(root)
            roots.append(root)
            feature = features.get(root)
            if feature is None:
                feature = features[root] = Feature(segment.kind, pos, open_sides[i])
                if segment.attrs:
                    feature.attrs.update(segment.attrs)
            else:
                feature.tiles.add(pos)
                feature.open += open_sides[i]
                if segment.attrs:
                    attrs = feature.attrs
                    for name, value in segment.attrs.items():
                        attrs[name] = attrs.get(name, 0) + value
            if segment.touches:
                touches = feature.touches  # (a loop: a comprehension costs a frame)
                for t in segment.touches:
                    touches.append(base + t)
            if segment.kind.completion == "surrounded":
                waiting = self.surrounded.get(pos)
                if waiting is None:
                    waiting = self.surrounded[pos] = []
                    self.around[pos] = self._watch(board, pos)
                waiting.append(base + i)
        completed = []
        for root in roots:  # every join is made: these are the roots
            feature = features[root]
            if feature.open == 0 and feature.kind.completion == "sides" and not feature.complete:
                feature.complete = True
                completed.append(root)
        if pos in self.watching or pos in self.surrounded:
            completed += self._surrounded_now(pos)
        return completed

    def _own_near(self, pos: Pos, beside: list[tuple[int, Placed]]) -> None:
        """On a copy that borrows features: owns every feature placing a tile at ``pos``
        may change (those of its neighbours' segments, which it joins or closes, and
        those waiting around it to be surrounded) before any join moves one to another
        root, where :meth:`own` could not tell it was borrowed."""
        for _, (their_tile, _, node) in beside:
            for i in range(len(their_tile.segments)):
                self.own(node + i)
        for spot in self.watching.get(pos, ()):
            for node in self.surrounded[spot]:
                self.own(node)

    def _watch(self, board: Board, pos: Pos) -> int:
        """Registers a position starting to wait to be surrounded with the empty
        positions around it (:attr:`watching`); how many of the eight hold a tile."""
        x, y = pos
        tiles, watching = board.tiles, self.watching
        count = 0
        for dx, dy in AROUND:
            other = (x + dx, y + dy)
            if other in tiles:
                count += 1
            else:
                watching.setdefault(other, []).append(pos)
        return count

    def _surrounded_now(self, pos: Pos) -> list[int]:
        """The roots of the features waiting to be surrounded (cloisters) that the tile
        just placed at ``pos`` completes, by position in :data:`HERE_AND_AROUND` order;
        each leaves :attr:`surrounded` as it completes. Those around ``pos`` count the
        tile (:attr:`around`) instead of counting their eight neighbours."""
        x, y = pos
        # (the tile's own position, if it waits, counted its neighbours as it began)
        near = [(0, pos)] if pos in self.surrounded else []
        around = self.around
        for spot in self.watching.pop(pos, ()):
            around[spot] += 1
            near.append((AROUND_ORDER[spot[0] - x, spot[1] - y], spot))
        completed = []
        for _, spot in sorted(near) if len(near) > 1 else near:
            if around[spot] == 8:
                del around[spot]
                for node in self.surrounded.pop(spot):
                    root = self.find(node)
                    self.features[root].complete = True
                    completed.append(root)
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

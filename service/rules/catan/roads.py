"""The longest road (and Seafarers' longest trade route) of one seat.

A road's length is its longest *trail*: consecutive segments, none used twice, where
a corner may be passed more than once (so a loop counts whole, and a fork counts only
one branch). An opponent's settlement or city cuts the road at its corner. With
Seafarers, ships count too, but a road and a ship only join at a corner holding the
seat's own settlement or city.

How it stays fast: the segments become a small multigraph whose vertices are
"corner as seen from a segment". A corner is one vertex where segments may join,
and is split where they may not (one vertex per segment at an opponent's building;
one for the roads and one for the ships at an empty corner). In that graph a longest
trail either starts at a vertex of odd degree (an unused segment at an even-degree
start could always be prepended), or, in a component where every degree is even,
covers the whole component (an Euler circuit). So the depth-first search over
used-segment bitmasks only starts at odd-degree vertices.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable

from service.rules.hexes.geometry import HexGrid

_ROAD, _SHIP = 0, 1


def longest_road(
    grid: HexGrid,
    roads: Iterable[int],
    blocked_corners: Collection[int] = (),
    *,
    ships: Iterable[int] = (),
    own_corners: Collection[int] = (),
) -> int:
    """The number of segments in the seat's longest continuous road.

    ``roads`` and ``ships`` are the seat's edges and ``blocked_corners`` the corners
    holding an opponent's settlement or city, all as :class:`HexGrid` indices.
    ``own_corners`` (the seat's own settlements and cities) matter only with ships:
    they are where a road and a ship join.
    """
    incident, _ = _trails_graph(grid, roads, blocked_corners, ships, own_corners)
    best = 0
    seen = [False] * len(incident)
    for root in range(len(incident)):
        if seen[root]:
            continue
        component, stack = [], [root]
        seen[root] = True
        while stack:
            v = stack.pop()
            component.append(v)
            for _, w in incident[v]:
                if not seen[w]:
                    seen[w] = True
                    stack.append(w)
        odd = [v for v in component if len(incident[v]) % 2]
        if odd:
            length = max(_walk(incident, v, 0) for v in odd)
        else:
            length = sum(len(incident[v]) for v in component) // 2
        best = max(best, length)
    return best


def longest_road_after(
    grid: HexGrid, roads: list[int], blocked_corners: Collection[int], before: int
) -> int:
    """:func:`longest_road` of ``roads`` (no ships), whose last road is new and the
    longest road of the others ``before``. A new road adds trails and takes none away, so
    the longest is the one before or one through the new road; where the new road ends
    the road (nothing else of the seat's goes on past one of its ends, or an opponent
    has built there), those trails are the new road followed by the longest trail from
    its other end: one search over the board's own tables, where a whole network needs
    its graph and one search from every dead end."""
    new, corner_edges = roads[-1], grid.corner_edges
    own = set(roads)
    a, b = grid.edge_corners[new]
    for end, other in ((a, b), (b, a)):
        if end in blocked_corners or not any(e in own for e in corner_edges[end] if e != new):
            return max(before, 1 + _trail(grid, other, own, {new}, blocked_corners))
    return longest_road(grid, roads, blocked_corners)


def _trail(
    grid: HexGrid, corner: int, roads: set[int], used: set[int], blocked_corners: Collection[int]
) -> int:
    """The longest trail from ``corner`` over ``roads`` not in ``used`` (which it leaves
    as it found it), stopping at ``blocked_corners``."""
    if corner in blocked_corners:
        return 0
    best = 0
    for edge in grid.corner_edges[corner]:
        if edge in roads and edge not in used:
            used.add(edge)
            a, b = grid.edge_corners[edge]
            length = 1 + _trail(grid, b if a == corner else a, roads, used, blocked_corners)
            used.discard(edge)
            if length > best:
                best = length
    return best


def _trails_graph(
    grid: HexGrid,
    roads: Iterable[int],
    blocked_corners: Collection[int],
    ships: Iterable[int],
    own_corners: Collection[int],
) -> tuple[list[list[tuple[int, int]]], list[tuple[int, int]]]:
    """The multigraph of the module's docstring: per vertex, its ``(segment bit, other
    end)`` pairs; and per segment (roads in order, then ships), its two end vertices."""
    segments = [(e, _ROAD) for e in dict.fromkeys(roads)]
    afloat = [(e, _SHIP) for e in dict.fromkeys(ships)]
    segments += afloat
    vertex: dict[Hashable, int] = {}
    incident: list[list[tuple[int, int]]] = []
    ends: list[tuple[int, int]] = []
    edge_corners = grid.edge_corners
    for i, (edge, kind) in enumerate(segments):
        pair = []
        for corner in edge_corners[edge]:
            if corner in blocked_corners:
                key: Hashable = (corner, -1 - i)  # a dead end of its own
            elif not afloat or corner in own_corners:
                key = corner  # roads and ships join here (or roads alone: the same graph)
            else:
                key = (corner, kind)  # roads join roads, ships join ships
            v = vertex.get(key)
            if v is None:
                v = vertex[key] = len(incident)
                incident.append([])
            pair.append(v)
        a, b = pair
        incident[a].append((1 << i, b))
        incident[b].append((1 << i, a))
        ends.append((a, b))
    return incident, ends


def _walk(incident: list[list[tuple[int, int]]], v: int, used: int) -> int:
    """The longest trail from ``v`` over the segments not in ``used`` (a bitmask)."""
    best = 0
    for bit, w in incident[v]:
        if not used & bit:
            length = _walk(incident, w, used | bit) + 1
            if length > best:
                best = length
    return best

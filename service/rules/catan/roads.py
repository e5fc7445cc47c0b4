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
    segments = [(e, _ROAD) for e in dict.fromkeys(roads)]
    segments += [(e, _SHIP) for e in dict.fromkeys(ships)]
    vertex: dict[Hashable, int] = {}
    incident: list[list[tuple[int, int]]] = []

    def vertex_of(key: Hashable) -> int:
        if key not in vertex:
            vertex[key] = len(incident)
            incident.append([])
        return vertex[key]

    def end(corner: int, segment: int, kind: int) -> int:
        if corner in blocked_corners:
            return vertex_of((corner, -1 - segment))  # a dead end of its own
        if corner in own_corners:
            return vertex_of(corner)  # roads and ships join here
        return vertex_of((corner, kind))  # roads join roads, ships join ships

    for i, (edge, kind) in enumerate(segments):
        a, b = (end(corner, i, kind) for corner in grid.edge_corners[edge])
        incident[a].append((1 << i, b))
        incident[b].append((1 << i, a))

    def walk(v: int, used: int) -> int:
        best = 0
        for bit, w in incident[v]:
            if not used & bit:
                length = walk(w, used | bit) + 1
                if length > best:
                    best = length
        return best

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
            length = max(walk(v, 0) for v in odd)
        else:
            length = sum(len(incident[v]) for v in component) // 2
        best = max(best, length)
    return best

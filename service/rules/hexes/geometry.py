r"""Pointy-top hex geometry with one canonical name per corner and per edge.

Hexes use axial coordinates ``(q, r)``: ``q`` grows to the east, ``r`` to the
south-east, so the six neighbours of ``(q, r)`` sit like this::

          (q, r-1)   (q+1, r-1)
    (q-1, r)    (q, r)    (q+1, r)
          (q-1, r+1)  (q, r+1)

A corner (Catan's *intersection*) touches up to three hexes and an edge (a *path*)
two, so naming them by "hex + direction" gives several names for one place. To keep
exactly one name, each hex **owns** its ``N`` and ``S`` corners and its ``NE``, ``E``
and ``SE`` edges; every other corner or edge of a hex is owned by a neighbour::

                         N corner: (q, r, N)
                                 /\
        NW side: (q, r-1, SE)  /    \  NE side: (q, r, NE)
                             /        \
    NW corner: (q, r-1, S)  +          +  NE corner: (q+1, r-1, S)
                            |          |
       W side: (q-1, r, E)  |  (q, r)  |  E side: (q, r, E)
                            |          |
  SW corner: (q-1, r+1, N)  +          +  SE corner: (q, r+1, N)
                             \        /
      SW side: (q-1, r+1, NE)  \    /  SE side: (q, r, SE)
                                 \/
                         S corner: (q, r, S)

String forms (for JSON and commands): a hex is ``"q,r"``, a corner ``"q,r,N"``, an
edge ``"q,r,NE"``. Parsing accepts only the canonical spelling (no spaces, no ``+``,
no leading zeros), so a name round-trips and two different strings never name the
same place.

The free functions work on the infinite plane. :class:`HexGrid` restricts them to one
board and numbers its corners and edges ``0..n-1`` with precomputed adjacency tuples,
because legal-move generation and the longest road run in hot loops.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Final, NamedTuple

Hex = tuple[int, int]


class Corner(NamedTuple):
    """An intersection: the ``N`` or ``S`` corner of hex ``(q, r)``."""

    q: int
    r: int
    d: str


class Edge(NamedTuple):
    """A path: the ``NE``, ``E`` or ``SE`` side of hex ``(q, r)``."""

    q: int
    r: int
    d: str


#: neighbour offsets, counter-clockwise from east: E, NE, NW, W, SW, SE
DIRECTIONS: Final = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

_INT = r"(0|-?[1-9][0-9]*)"
_HEX_RE: Final = re.compile(rf"{_INT},{_INT}")
_CORNER_RE: Final = re.compile(rf"{_INT},{_INT},(N|S)")
_EDGE_RE: Final = re.compile(rf"{_INT},{_INT},(NE|E|SE)")


# --- names ----------------------------------------------------------------------------


def hex_name(h: Hex) -> str:
    return f"{h[0]},{h[1]}"


def corner_name(c: Corner) -> str:
    return f"{c.q},{c.r},{c.d}"


def edge_name(e: Edge) -> str:
    return f"{e.q},{e.r},{e.d}"


def _match(pattern: re.Pattern[str], text: object, what: str) -> re.Match[str]:
    match = pattern.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise ValueError(f"{text!r} is not a {what} name")
    return match


def parse_hex(text: object) -> Hex:
    """``"q,r"`` -> ``(q, r)``; raises ``ValueError`` on anything else."""
    m = _match(_HEX_RE, text, 'hex ("q,r")')
    return (int(m[1]), int(m[2]))


def parse_corner(text: object) -> Corner:
    """``"q,r,N"`` or ``"q,r,S"`` -> :class:`Corner`; raises ``ValueError`` otherwise."""
    m = _match(_CORNER_RE, text, 'corner ("q,r,N" or "q,r,S")')
    return Corner(int(m[1]), int(m[2]), m[3])


def parse_edge(text: object) -> Edge:
    """``"q,r,NE"``, ``"q,r,E"`` or ``"q,r,SE"`` -> :class:`Edge`; raises ``ValueError``."""
    m = _match(_EDGE_RE, text, 'edge ("q,r,NE", "q,r,E" or "q,r,SE")')
    return Edge(int(m[1]), int(m[2]), m[3])


# --- adjacency on the infinite plane --------------------------------------------------


def neighbours(h: Hex) -> tuple[Hex, ...]:
    """The six neighbours, counter-clockwise from east (``DIRECTIONS`` order)."""
    q, r = h
    return tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)


def hex_corners(h: Hex) -> tuple[Corner, ...]:
    """The six corners, clockwise from north: N, NE, SE, S, SW, NW."""
    q, r = h
    return (
        Corner(q, r, "N"),
        Corner(q + 1, r - 1, "S"),
        Corner(q, r + 1, "N"),
        Corner(q, r, "S"),
        Corner(q - 1, r + 1, "N"),
        Corner(q, r - 1, "S"),
    )


def hex_edges(h: Hex) -> tuple[Edge, ...]:
    """The six sides, clockwise from north-east: NE, E, SE, SW, W, NW."""
    q, r = h
    return (
        Edge(q, r, "NE"),
        Edge(q, r, "E"),
        Edge(q, r, "SE"),
        Edge(q - 1, r + 1, "NE"),
        Edge(q - 1, r, "E"),
        Edge(q, r - 1, "SE"),
    )


def corner_hexes(c: Corner) -> tuple[Hex, Hex, Hex]:
    """The three hexes meeting at a corner (on or off any board)."""
    q, r = c.q, c.r
    if c.d == "N":
        return ((q, r), (q, r - 1), (q + 1, r - 1))
    return ((q, r), (q - 1, r + 1), (q, r + 1))


def corner_edges(c: Corner) -> tuple[Edge, Edge, Edge]:
    """The three edges ending at a corner."""
    q, r = c.q, c.r
    if c.d == "N":
        return (Edge(q, r, "NE"), Edge(q, r - 1, "SE"), Edge(q, r - 1, "E"))
    return (Edge(q, r, "SE"), Edge(q - 1, r + 1, "NE"), Edge(q - 1, r + 1, "E"))


def edge_corners(e: Edge) -> tuple[Corner, Corner]:
    """The two ends of an edge."""
    q, r = e.q, e.r
    if e.d == "NE":
        return (Corner(q, r, "N"), Corner(q + 1, r - 1, "S"))
    if e.d == "E":
        return (Corner(q + 1, r - 1, "S"), Corner(q, r + 1, "N"))
    return (Corner(q, r + 1, "N"), Corner(q, r, "S"))


def edge_hexes(e: Edge) -> tuple[Hex, Hex]:
    """The two hexes an edge separates: its owner first."""
    q, r = e.q, e.r
    dq, dr = {"NE": (1, -1), "E": (1, 0), "SE": (0, 1)}[e.d]
    return ((q, r), (q + dq, r + dr))


def corner_corners(c: Corner) -> tuple[Corner, Corner, Corner]:
    """The three corners one edge away."""
    a, b, d = (_other_end(e, c) for e in corner_edges(c))
    return (a, b, d)


def edge_edges(e: Edge) -> tuple[Edge, ...]:
    """The four edges sharing an end with ``e``."""
    return tuple(f for c in edge_corners(e) for f in corner_edges(c) if f != e)


def edge_between(a: Corner, b: Corner) -> Edge:
    """The edge joining two adjacent corners; ``ValueError`` if they are not adjacent."""
    for e in corner_edges(a):
        if b in edge_corners(e):
            return e
    raise ValueError(f"corners {corner_name(a)} and {corner_name(b)} are not adjacent")


def _other_end(e: Edge, c: Corner) -> Corner:
    a, b = edge_corners(e)
    return b if a == c else a


# --- sets of hexes --------------------------------------------------------------------


def corners_of(hexes: Iterable[Hex]) -> frozenset[Corner]:
    """Every corner of the given hexes."""
    return frozenset(c for h in hexes for c in hex_corners(h))


def edges_of(hexes: Iterable[Hex]) -> frozenset[Edge]:
    """Every edge of the given hexes."""
    return frozenset(e for h in hexes for e in hex_edges(h))


def hexes_within(radius: int, centre: Hex = (0, 0)) -> tuple[Hex, ...]:
    """The hexagon of hexes at most ``radius`` steps from ``centre``, in reading order."""
    cq, cr = centre
    return tuple(
        (cq + dq, cr + dr)
        for dr in range(-radius, radius + 1)
        for dq in range(max(-radius, -dr - radius), min(radius, -dr + radius) + 1)
    )


def spiral(radius: int, start: int, centre: Hex = (0, 0)) -> tuple[Hex, ...]:
    """The hexes of a radius-``radius`` hexagon as a counter-clockwise spiral inwards.

    It starts at the corner hex in direction ``DIRECTIONS[start]`` (0..5), walks each
    ring counter-clockwise, steps in to the next ring's corner hex in the same
    direction, and ends at the centre: the order in which Catan's number tokens are
    laid.
    """
    cq, cr = centre
    order: list[Hex] = []
    for k in range(radius, 0, -1):
        q, r = cq + k * DIRECTIONS[start][0], cr + k * DIRECTIONS[start][1]
        for side in range(6):
            dq, dr = DIRECTIONS[(start + side + 2) % 6]
            for _ in range(k):
                order.append((q, r))
                q, r = q + dq, r + dr
    order.append(centre)
    return tuple(order)


# --- one board's tables ---------------------------------------------------------------


class HexGrid:
    """Integer-indexed adjacency for one set of hexes, built once per board.

    Corners and edges are those of the given hexes, numbered in reading order;
    ``corners[i]`` / ``edges[i]`` name them and ``corner_index`` / ``edge_index`` map
    back. Every table only lists things on this grid: a coastal corner has fewer than
    three neighbouring corners, and ``corner_hexes`` only lists hexes of the grid.
    Seafarers builds its grid from land and sea hexes together.
    """

    __slots__ = (
        "hexes",
        "corners",
        "edges",
        "corner_index",
        "edge_index",
        "hex_corners",
        "hex_edges",
        "corner_hexes",
        "corner_corners",
        "corner_edges",
        "edge_corners",
        "edge_hexes",
        "edge_edges",
        "coastal_corners",
        "coastal_edges",
    )

    def __init__(self, hexes: Iterable[Hex]) -> None:
        on_grid = frozenset(hexes)
        self.hexes: tuple[Hex, ...] = tuple(sorted(on_grid, key=lambda h: (h[1], h[0])))
        self.corners: tuple[Corner, ...] = tuple(
            sorted(corners_of(on_grid), key=lambda c: (c.r, c.q, c.d))
        )
        self.edges: tuple[Edge, ...] = tuple(
            sorted(edges_of(on_grid), key=lambda e: (e.r, e.q, e.d))
        )
        self.corner_index: dict[Corner, int] = {c: i for i, c in enumerate(self.corners)}
        self.edge_index: dict[Edge, int] = {e: i for i, e in enumerate(self.edges)}
        ci, ei = self.corner_index, self.edge_index

        self.hex_corners: dict[Hex, tuple[int, ...]] = {
            h: tuple(ci[c] for c in hex_corners(h)) for h in self.hexes
        }
        self.hex_edges: dict[Hex, tuple[int, ...]] = {
            h: tuple(ei[e] for e in hex_edges(h)) for h in self.hexes
        }
        self.corner_hexes: tuple[tuple[Hex, ...], ...] = tuple(
            tuple(h for h in corner_hexes(c) if h in on_grid) for c in self.corners
        )
        self.corner_edges: tuple[tuple[int, ...], ...] = tuple(
            tuple(ei[e] for e in corner_edges(c) if e in ei) for c in self.corners
        )
        self.edge_corners: tuple[tuple[int, int], ...] = tuple(
            (ci[a], ci[b]) for a, b in map(edge_corners, self.edges)
        )
        self.edge_hexes: tuple[tuple[Hex, ...], ...] = tuple(
            tuple(h for h in edge_hexes(e) if h in on_grid) for e in self.edges
        )
        self.corner_corners: tuple[tuple[int, ...], ...] = tuple(
            tuple(
                b if a == c else a for a, b in (self.edge_corners[e] for e in self.corner_edges[c])
            )
            for c in range(len(self.corners))
        )
        self.edge_edges: tuple[tuple[int, ...], ...] = tuple(
            tuple(f for c in self.edge_corners[e] for f in self.corner_edges[c] if f != e)
            for e in range(len(self.edges))
        )
        self.coastal_corners: frozenset[int] = frozenset(
            i for i, hs in enumerate(self.corner_hexes) if len(hs) < 3
        )
        self.coastal_edges: frozenset[int] = frozenset(
            i for i, hs in enumerate(self.edge_hexes) if len(hs) < 2
        )


@lru_cache(maxsize=32)
def grid_of(hexes: frozenset[Hex]) -> HexGrid:
    """The shared :class:`HexGrid` of a set of hexes (boards with one shape share it)."""
    return HexGrid(hexes)

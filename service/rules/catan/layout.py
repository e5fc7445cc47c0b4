"""The tables the rules read on every move, worked out once per board.

A :class:`Layout` turns a :class:`~service.rules.catan.board.Board` into integer
tables over its :class:`~service.rules.hexes.geometry.HexGrid`: corners and edges by
index and by name, which hexes each number token makes produce, what each corner
yields, and each corner's harbour. Boards with the same JSON share one layout.
"""

from __future__ import annotations

import json
from functools import lru_cache

from service.rules.catan.board import FOG, GOLD, SEA, TERRAIN_RESOURCE, Board
from service.rules.catan.pieces import RESOURCE_INDEX
from service.rules.hexes.geometry import Hex, HexGrid, corner_name, edge_name, hex_name, neighbours

#: a harbour's rate for one resource, by harbour type
GENERIC = "generic"


#: the "resource" of a gold field in the production tables: any, at its owner's choice
GOLD_YIELD = len(RESOURCE_INDEX)


class Layout:
    """One board's tables (immutable once built)."""

    __slots__ = (
        "board",
        "grid",
        "corner_names",
        "edge_names",
        "hex_names",
        "corner_by_name",
        "edge_by_name",
        "hex_by_name",
        "producing",
        "harbours",
        "land",
        "sea",
        "fog",
        "land_corner",
        "corner_land",
        "road_edge",
        "ship_edge",
        "island_of",
    )

    def __init__(self, board: Board) -> None:
        grid = board.grid
        self.board = board
        self.grid = grid
        # What depends only on the hexes' places and kinds is shared between boards
        # (every random base board has the same ones): only numbers and harbours differ.
        names = _names(grid)
        self.corner_names, self.edge_names, self.hex_names = names[:3]
        self.corner_by_name, self.edge_by_name, self.hex_by_name = names[3:]
        hexes = board.hexes
        kinds = _kinds(grid, tuple(_KIND.get(hexes[h].terrain, LAND) for h in grid.hexes))
        self.land, self.sea, self.fog, self.land_corner = kinds[:4]
        self.road_edge, self.ship_edge, self.island_of, self.corner_land = kinds[4:]
        #: number -> ((hex, resource index or GOLD_YIELD, corners of the hex), ...)
        producing: dict[int, list[tuple[Hex, int, tuple[int, ...]]]] = {}
        for h in self.land:
            terrain, number = board.hexes[h]
            if number is None:
                continue
            resource = GOLD_YIELD if terrain == GOLD else RESOURCE_INDEX[TERRAIN_RESOURCE[terrain]]
            producing.setdefault(number, []).append((h, resource, grid.hex_corners[h]))
        self.producing = {n: tuple(found) for n, found in producing.items()}
        #: corner -> harbour type (``"generic"`` or a resource name)
        self.harbours: dict[int, str] = {}
        for harbour in board.harbours:
            for corner in harbour.corners:
                self.harbours[grid.corner_index[corner]] = harbour.type

    def rates_with(self, rates: list[int], corner: int) -> list[int]:
        """The maritime rates (per resource) of a seat that has ``rates`` and settles
        ``corner``: 3 for any resource at a generic harbour, 2 for the harbour's own."""
        kind = self.harbours.get(corner)
        if kind is None:
            return rates
        if kind == GENERIC:
            return [min(rate, 3) for rate in rates]
        better = list(rates)
        better[RESOURCE_INDEX[kind]] = 2
        return better


def _islands(ordered: tuple[Hex, ...], land: frozenset[Hex]) -> dict[Hex, int]:
    island_of: dict[Hex, int] = {}
    for start in ordered:
        if start in island_of:
            continue
        number, stack = len(set(island_of.values())), [start]
        island_of[start] = number
        while stack:
            for other in neighbours(stack.pop()):
                if other in land and other not in island_of:
                    island_of[other] = number
                    stack.append(other)
    return island_of


@lru_cache(maxsize=64)
def _names(grid: HexGrid) -> tuple:
    """Corner, edge and hex names of a grid, and the indices (hexes) by name."""
    corner_names = tuple(corner_name(c) for c in grid.corners)
    edge_names = tuple(edge_name(e) for e in grid.edges)
    hex_names = {h: hex_name(h) for h in grid.hexes}
    return (
        corner_names,
        edge_names,
        hex_names,
        {name: i for i, name in enumerate(corner_names)},
        {name: i for i, name in enumerate(edge_names)},
        {name: h for h, name in hex_names.items()},
    )


#: what the tables below tell apart: land of any terrain, the sea, the fog
LAND = "land"
_KIND = {SEA: SEA, FOG: FOG}


@lru_cache(maxsize=256)
def _kinds(grid: HexGrid, kinds: tuple[str, ...]) -> tuple:
    """The tables that follow from which hex of ``grid`` is land, sea or fog (``kinds``
    in the grid's hex order): land, sea and fog hexes in reading order, land corners,
    road and ship paths, islands."""
    terrain_of = dict(zip(grid.hexes, kinds, strict=True))
    land = tuple(h for h in grid.hexes if terrain_of[h] == LAND)
    sea = tuple(h for h in grid.hexes if terrain_of[h] == SEA)
    #: The Fog Islands: spaces whose tile is not turned up yet (neither land nor sea)
    fog = frozenset(h for h in grid.hexes if terrain_of[h] == FOG)
    on_land = frozenset(land)
    #: per corner: whether it touches land (settlements stand only there)
    land_corner = tuple(any(h in on_land for h in hs) for hs in grid.corner_hexes)
    #: per path: whether a road may go there (land on a side) or a ship: between two
    #: tiles, one of them sea ("en mer, entre deux tuiles Mer, ou le long de la côte,
    #: entre une tuile Mer et une tuile Terrain": never along the frame, never beside a
    #: fog space still face down)
    road_edge = tuple(any(h in on_land for h in hs) for hs in grid.edge_hexes)
    ship_edge = tuple(
        len(hs) == 2
        and SEA in (terrain_of[hs[0]], terrain_of[hs[1]])
        and FOG not in (terrain_of[hs[0]], terrain_of[hs[1]])
        for hs in grid.edge_hexes
    )
    #: per corner: the places in ``land`` of the land hexes it touches (the robber's
    #: victims are gathered by these, lists indexed rather than dicts keyed by hexes)
    place = {h: i for i, h in enumerate(land)}
    corner_land = tuple(tuple(place[h] for h in hs if h in place) for hs in grid.corner_hexes)
    #: land hex -> its island (land hexes joined side by side), numbered in order
    islands = _islands(land, on_land)
    return land, sea, fog, land_corner, road_edge, ship_edge, islands, corner_land


@lru_cache(maxsize=64)
def _layout(board_json: str) -> Layout:
    return Layout(Board.from_json(json.loads(board_json)))


def layout_of(board: dict) -> Layout:
    """The shared layout of a board given as JSON (validated; ``ValueError`` if bad)."""
    return _layout(json.dumps(board, sort_keys=True))

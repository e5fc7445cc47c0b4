"""The Catan board as plain, validated data, and the two ways to lay out the base game.

A :class:`Board` is written whole into the ``game_started`` event (``to_json``) and
read back when a log is replayed (``from_json``), so a game never depends on how the
layout was produced. Its JSON shape::

    {
      "hexes": [{"hex": "0,-2", "terrain": "mountains", "number": 10}, ...],
      "harbours": [{"type": "generic", "corners": ["0,-2,N", "0,-3,S"]}, ...],
      "robber": "0,0"
    }

Hexes, corners and edges use the names of :mod:`service.rules.hexes.geometry`. A
harbour's ``type`` is ``"generic"`` (3:1) or the resource it trades 2:1. ``robber`` is
a hex of the board, or ``null`` for boards without a desert (Seafarers keeps the
robber beside the board until the first 7). Two optional keys: ``pirate`` (Seafarers)
and ``unnumbered``, the land hexes laid without a number token (the small islands of
The Forgotten Tribe and of Cloth for Catan, which produce nothing).

Validation checks what holds on every Catan board (coordinates, known terrains, a
number 2..12 except 7 on each producing hex and none on the desert, harbours on a
coastal edge) but not the component counts, which differ between base game and
Seafarers scenarios; the base-game counts are checked by the tests against
``data/base.json``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any, Final, NamedTuple, TypeVar

from service.rules.hexes.geometry import (
    Corner,
    Edge,
    Hex,
    HexGrid,
    corner_name,
    edge_between,
    edge_corners,
    edge_name,
    grid_of,
    hex_name,
    neighbours,
    parse_corner,
    parse_edge,
    parse_hex,
    spiral,
)

T = TypeVar("T")

RESOURCES: Final = ("brick", "lumber", "wool", "grain", "ore")
TERRAIN_RESOURCE: Final = {
    "hills": "brick",
    "forest": "lumber",
    "pasture": "wool",
    "fields": "grain",
    "mountains": "ore",
}
#: Seafarers' terrains: the sea (no number), gold fields (a number; any resource) and
#: the fog (The Fog Islands: a space whose tile is still face down in the pile)
SEA, GOLD, FOG = "sea", "gold", "fog"
TERRAINS: Final = (*TERRAIN_RESOURCE, "desert", SEA, GOLD, FOG)
#: terrains that take no number token
BARREN: Final = frozenset({"desert", SEA, FOG})
HARBOUR_TYPES: Final = ("generic", *RESOURCES)
NUMBERS: Final = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)
#: the most frequent rolls, printed in red; the variant keeps them apart
RED_NUMBERS: Final = frozenset({6, 8})


class Tile(NamedTuple):
    """What lies on one hex: its terrain and number token (``None`` on the desert)."""

    terrain: str
    number: int | None


@dataclass(frozen=True, slots=True)
class Harbour:
    """A harbour on a coastal ``edge``; settling either end of it grants its rate."""

    type: str
    edge: Edge

    @property
    def corners(self) -> tuple[Corner, Corner]:
        return edge_corners(self.edge)

    @property
    def ratio(self) -> int:
        return 3 if self.type == "generic" else 2


@dataclass(frozen=True, slots=True)
class Board:
    """A laid-out board. Construction validates it and raises ``ValueError``."""

    hexes: Mapping[Hex, Tile]
    harbours: tuple[Harbour, ...]
    robber: Hex | None
    #: Seafarers: the pirate's sea hex (``None`` where no pirate is played)
    pirate: Hex | None = None
    #: land hexes laid without a number token, which produce nothing (The Forgotten
    #: Tribe's and Cloth for Catan's small islands, three hexes of The Pirate Islands)
    unnumbered: frozenset[Hex] = frozenset()
    #: :attr:`grid`, looked up once (the validation asks it of every harbour)
    _grid: HexGrid = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "hexes", MappingProxyType(dict(self.hexes)))
        object.__setattr__(self, "harbours", tuple(self.harbours))
        object.__setattr__(self, "unnumbered", frozenset(self.unnumbered))
        object.__setattr__(self, "_grid", grid_of(frozenset(self.hexes)))
        self._validate()

    @property
    def grid(self) -> HexGrid:
        """The adjacency tables of this board's land hexes (shared between boards)."""
        return self._grid

    def _validate(self) -> None:
        if not self.hexes:
            raise ValueError("a board needs at least one hex")
        # (what a client sent: tiles not yet known to hold a terrain and a number token)
        sent: Mapping[Hex, Any] = self.hexes
        for h, (terrain, number) in sent.items():  # (where: named only for an error)
            if terrain not in TERRAINS:
                raise ValueError(f"hex {hex_name(h)}: unknown terrain {terrain!r}")
            if terrain in BARREN or h in self.unnumbered:
                if number is not None:
                    raise ValueError(f"hex {hex_name(h)}: the {terrain} takes no number token")
            elif type(number) is not int or number not in NUMBERS:
                raise ValueError(f"hex {hex_name(h)}: {number!r} is not a number token (2-6, 8-12)")
        if any(self.hexes.get(h, Tile(SEA, None)).terrain in (SEA, FOG) for h in self.unnumbered):
            raise ValueError("unnumbered: only land hexes of the board go without a number")
        grid = self.grid
        seen: set[Edge] = set()
        for harbour in self.harbours:
            where = f"harbour on {edge_name(harbour.edge)}"
            if harbour.type not in HARBOUR_TYPES:
                raise ValueError(f"{where}: unknown type {harbour.type!r}")
            index = grid.edge_index.get(harbour.edge)
            if index is None or not self.is_coast(index):
                raise ValueError(f"{where}: not on the coast of the board")
            if harbour.edge in seen:
                raise ValueError(f"{where}: two harbours on one edge")
            seen.add(harbour.edge)
        if self.robber is not None and (
            self.robber not in self.hexes or self.hexes[self.robber].terrain in (SEA, FOG)
        ):
            raise ValueError(f"robber on {hex_name(self.robber)}, which is not land of the board")
        if self.pirate is not None and (
            self.pirate not in self.hexes or self.hexes[self.pirate].terrain != SEA
        ):
            raise ValueError(f"pirate on {hex_name(self.pirate)}, which is not sea of the board")

    def is_coast(self, edge: int) -> bool:
        """Whether a path (a grid index) has land on one side and sea on the other: the
        frame's sea beyond the board's last hexes, or a sea hex."""
        sides = [self.hexes[h].terrain for h in self.grid.edge_hexes[edge]]
        if FOG in sides:
            return False
        sea = [side == SEA for side in sides]
        return (len(sea) == 1 and not sea[0]) or (len(sea) == 2 and sea[0] != sea[1])

    def to_json(self) -> dict[str, Any]:
        return {
            "hexes": [
                {"hex": hex_name(h), "terrain": t.terrain, "number": t.number}
                for h, t in sorted(self.hexes.items(), key=lambda item: item[0][::-1])
            ],
            "harbours": [
                {"type": h.type, "corners": [corner_name(c) for c in h.corners]}
                for h in self.harbours
            ],
            "robber": None if self.robber is None else hex_name(self.robber),
            **({} if self.pirate is None else {"pirate": hex_name(self.pirate)}),
            **(
                {"unnumbered": sorted(hex_name(h) for h in self.unnumbered)}
                if self.unnumbered
                else {}
            ),
        }

    @classmethod
    def from_json(cls, data: object) -> Board:
        """Read and validate a board written by :meth:`to_json`; ``ValueError`` if bad."""
        doc = _object(
            data,
            "board",
            {"hexes", "harbours", "robber"},
            optional=frozenset({"pirate", "unnumbered"}),
        )
        hexes: dict[Hex, Tile] = {}
        for i, item in enumerate(_list(doc["hexes"], "board.hexes")):
            entry = _object(item, f"board.hexes[{i}]", {"hex", "terrain", "number"})
            h = _parse(parse_hex, entry["hex"], where=f"board.hexes[{i}].hex")
            if h in hexes:
                raise ValueError(f"board.hexes[{i}]: hex {hex_name(h)} appears twice")
            hexes[h] = Tile(entry["terrain"], entry["number"])
        harbours = []
        for i, item in enumerate(_list(doc["harbours"], "board.harbours")):
            entry = _object(item, f"board.harbours[{i}]", {"type", "corners"})
            corners = _list(entry["corners"], f"board.harbours[{i}].corners")
            if len(corners) != 2:
                raise ValueError(f"board.harbours[{i}].corners: a harbour touches 2 corners")
            where = f"board.harbours[{i}].corners"
            a, b = (_parse(parse_corner, c, where=where) for c in corners)
            edge = _parse(edge_between, a, b, where=where)
            harbours.append(Harbour(entry["type"], edge))
        robber, pirate = doc["robber"], doc.get("pirate")
        if robber is not None:
            robber = _parse(parse_hex, robber, where="board.robber")
        if pirate is not None:
            pirate = _parse(parse_hex, pirate, where="board.pirate")
        unnumbered = frozenset(
            _parse(parse_hex, h, where="board.unnumbered")
            for h in _list(doc.get("unnumbered", []), "board.unnumbered")
        )
        return cls(hexes, tuple(harbours), robber, pirate, unnumbered)


def _parse(parse: Callable[..., T], *args: Any, where: str) -> T:
    """``parse(*args)``, its ``ValueError`` prefixed with where the bad value was."""
    try:
        return parse(*args)
    except ValueError as error:
        raise ValueError(f"{where}: {error}") from None


def _object(
    value: object, where: str, keys: set[str], optional: frozenset[str] = frozenset()
) -> dict[str, Any]:
    if not isinstance(value, dict) or not keys <= set(value) <= keys | optional:
        raise ValueError(f"{where}: expected an object with keys {sorted(keys)}")
    return value


def _list(value: object, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"{where}: expected a list")
    return value


# --- the base game --------------------------------------------------------------------


@cache
def base_data() -> dict[str, Any]:
    """The base game's components and layouts (``data/base.json``)."""
    text = resources.files(__package__).joinpath("data/base.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@cache
def beginner_board() -> Board:
    """The fixed "starting set-up for beginners" of the base game.

    Terrains and numbers follow the rulebook's beginner map as transcribed, row by
    row and identically, by several independent open-source engines; the harbour
    frame follows one of them, with the cyclic order of harbour types confirmed by a
    second. Neither was checked against a printed rulebook (see ``data/base.json``).
    """
    return Board.from_json(base_data()["beginner"])


def adjacent_red_pairs(hexes: Mapping[Hex, Tile]) -> list[tuple[Hex, Hex]]:
    """Pairs of neighbouring hexes that both carry a red number (6 or 8)."""
    red = {h for h, tile in hexes.items() if tile.number in RED_NUMBERS}
    return [(a, b) for a in sorted(red) for b in neighbours(a) if b in red and a < b]


def _lay_numbers(
    terrains: Mapping[Hex, str], order: tuple[Hex, ...], tokens: list[int]
) -> dict[Hex, Tile]:
    """Lay ``tokens`` on the hexes in ``order``, skipping the desert."""
    remaining = iter(tokens)
    return {
        h: Tile(terrains[h], None if terrains[h] == "desert" else next(remaining)) for h in order
    }


def frame_problem(board: Board) -> str | None:
    """Why ``board`` does not lie on the base game's frame: its 19 land hexes, and the
    harbours on the frame's 9 places (None: it does)."""
    data = base_data()
    if set(board.hexes) != {parse_hex(entry["hex"]) for entry in data["beginner"]["hexes"]}:
        return "the land hexes are not the base game's 19 places"
    if {h.edge for h in board.harbours} != {parse_edge(n) for n in data["harbour_edges"]}:
        return "the harbours are not on the frame's 9 harbour places"
    return None


def variable_setup_problem(board: Board, numbers: str, no_adjacent_red_numbers: bool) -> str | None:
    """Why the variable set-up (:func:`random_board`) with these options could not have
    laid ``board``, already on the base frame with the base components (None: it could):
    along the spiral, the tokens follow it from one of the 6 corners; and with
    ``no_adjacent_red_numbers`` no 6 or 8 touches another."""
    if numbers == "spiral":
        terrains = {h: tile.terrain for h, tile in board.hexes.items()}
        tokens = list(base_data()["number_spiral"])
        laid = (_lay_numbers(terrains, spiral(2, corner), tokens) for corner in range(6))
        if all(hexes != board.hexes for hexes in laid):
            return "the numbers do not follow the spiral from a corner"
    if no_adjacent_red_numbers and adjacent_red_pairs(board.hexes):
        return "a red number touches another (no_adjacent_red_numbers)"
    return None


def random_board(
    rng: random.Random, no_adjacent_red_numbers: bool = False, *, numbers: str = "spiral"
) -> Board:
    """A variable set-up drawn from ``rng``.

    Terrains are shuffled over the 19 land hexes; harbour types are shuffled over the
    fixed frame positions; the robber starts on the desert. Number tokens:

    - ``numbers="spiral"`` (the rulebook's variable set-up): the letters A..R laid
      counter-clockwise inwards from a corner hex that ``rng`` picks, skipping the
      desert. This order never puts two red numbers side by side, wherever the
      desert lies, so ``no_adjacent_red_numbers`` never has to act;
    - ``numbers="shuffled"`` (the almanac's fully random alternative): the tokens in
      random order, where the almanac asks that no 6 or 8 touch another.

    With ``no_adjacent_red_numbers`` the terrains and tokens are drawn again from the
    same ``rng`` until no red numbers neighbour each other, so a seed always gives the
    same board.
    """
    if numbers not in ("spiral", "shuffled"):
        raise ValueError(f"numbers must be 'spiral' or 'shuffled', not {numbers!r}")
    data = base_data()
    land = tuple(parse_hex(entry["hex"]) for entry in data["beginner"]["hexes"])
    pool = [t for t, n in data["terrain_counts"].items() for _ in range(n)]
    tokens = list(data["number_spiral"])
    while True:
        rng.shuffle(pool)
        if numbers == "spiral":
            order = spiral(2, rng.randrange(6))
        else:
            order = land
            rng.shuffle(tokens)
        hexes = _lay_numbers(dict(zip(land, pool, strict=True)), order, tokens)
        if not (no_adjacent_red_numbers and adjacent_red_pairs(hexes)):
            break
    types = [t for t, n in data["harbour_counts"].items() for _ in range(n)]
    rng.shuffle(types)
    edges = [parse_edge(name) for name in data["harbour_edges"]]
    harbours = tuple(Harbour(t, e) for t, e in zip(types, edges, strict=True))
    desert = next(h for h, tile in hexes.items() if tile.terrain == "desert")
    return Board(hexes, harbours, desert)

"""Tile types: loading and validating tile data files, and per-rotation lookup tables.

A tile data file is JSON::

    {"format": 1, "set": "base",
     "kinds": {"city": {"edge": "C", "span": "side", "completion": "sides"}, ...},
     "feature_attributes": {"shield": ["city"]},
     "tiles": [{"id": "BA/RCr", "letter": "D", "count": 4, "start": 1, "edges": "CRFR",
                "features": [{"kind": "city", "at": "N"},
                             {"kind": "road", "at": "W E"},
                             {"kind": "field", "at": "EL WR", "touches": [0]},
                             {"kind": "field", "at": "ER SL SR WL"}]}]}

Feature kinds are data, so that later sets (rivers, South Seas bridges, islands, seas
and markets) add kinds without code. A kind's ``span`` says which ports a segment
fills on each side it names: ``side`` (all three, like a city; or one, named ``N:R``),
``centre`` (like a road), ``half`` (half-sides, like a field) or ``none`` (inside the
tile, like a cloister). A kind with ``"figures": false`` (a river) takes no figure.
``completion`` is ``sides`` (closed when no side is left open), ``surrounded`` (when
the eight neighbours are placed) or ``never``. ``touches`` lists the indices of the
features a field borders (farmers score the completed cities among them). Other keys
on a feature are numeric attributes (``shield``) that must be declared in
``feature_attributes``; they add up along a connected feature. A tile's
optional ``group`` names a drawing group (the River's tiles are drawn apart, before
the main stack).

Everything a placement needs is precomputed per rotation as small ints, because
placement checks run thousands of times per game.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from service.rules.tiling.geometry import (
    CENTRE,
    HALF_SIDE_PORT,
    LEFT,
    PORT_HALF_SIDE,
    PORTS,
    RIGHT,
    SIDES,
    facing_port,
    port,
    rotate_port,
    side_of,
)

SPANS = ("side", "centre", "half", "none")
#: the ports of a side, named in data as ``N:L``, ``N:C``, ``N:R``
PORT_NAMES = {"L": LEFT, "C": CENTRE, "R": RIGHT}
COMPLETIONS = ("sides", "surrounded", "never")


class TileDataError(ValueError):
    """A tile data file that contradicts itself."""


@dataclass(frozen=True, slots=True)
class FeatureKind:
    name: str
    edge: str | None
    span: str
    completion: str
    #: whether figures may stand on it (``false`` for a river, which only separates fields)
    figures: bool = True


@dataclass(frozen=True, slots=True)
class Segment:
    """One feature segment of a tile, in the tile's printed orientation."""

    kind: FeatureKind
    ports: frozenset[int]
    attrs: Mapping[str, int]
    touches: tuple[int, ...]


class Link(NamedTuple):
    """A port of a placed tile that connects to the neighbour beyond its side. (A named
    tuple: joining a placed tile unpacks thousands of them a game.)"""

    port: int
    segment: int
    facing: int


@dataclass(eq=False, slots=True)
class TileType:
    """A tile shape with its per-rotation tables (index ``q`` = quarter turns)."""

    index: int
    id: str
    letter: str | None
    count: int
    start: int
    edges: str
    segments: tuple[Segment, ...]
    wheel: tuple[int, ...]
    #: a drawing group (``"river"``...) that a game may draw apart from the main stack
    group: str | None = None
    #: per rotation: the segment index at each of the 12 board-frame ports (-1 if none)
    port_segment: list[tuple[int, ...]] = field(default_factory=list)
    #: per rotation: each board-frame side's edge code
    side_codes: list[tuple[int, ...]] = field(default_factory=list)
    #: per rotation: the code a neighbour beyond each side must show on its facing side
    needs: list[tuple[int, ...]] = field(default_factory=list)
    #: per rotation and side: the links to the neighbour beyond that side
    links: list[tuple[tuple[Link, ...], ...]] = field(default_factory=list)
    #: per rotation and side: the distinct segments reaching that side, in port order
    side_segments: list[tuple[tuple[int, ...], ...]] = field(default_factory=list)
    #: per rotation and side of an open position this tile is beyond: the segments
    #: reaching that open position, each with the position's ports it meets (bit ``p``
    #: for its port ``p``: see ``Board.border``), in the order met from that side's left
    shown: list[tuple[tuple[tuple[int, int], ...], ...]] = field(default_factory=list)
    #: per rotation and set of sides with a neighbour (a bit per side, N first): how
    #: many sides each segment leaves open
    open_sides: list[tuple[tuple[int, ...], ...]] = field(default_factory=list)
    #: per side, by edge code (0: no constraint): the quarter turns (a bit each) at
    #: which that side shows it
    side_fits: tuple[list[int], ...] = ()
    #: per rotation: the spot name of each segment, e.g. ``city:N,E``
    spots: list[tuple[str, ...]] = field(default_factory=list)
    spot_segment: list[dict[str, int]] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.id if self.letter is None else f"{self.id} ({self.letter})"


def spot_name(kind: FeatureKind, ports: Iterable[int]) -> str:
    """The figure spot of a segment occupying ``ports`` (board frame)."""
    ports = sorted(ports)
    if kind.span == "none":
        return kind.name
    if kind.span == "half":
        halves = [PORT_HALF_SIDE[p] for p in ports if p in PORT_HALF_SIDE]
        return f"{kind.name}:{','.join(halves) if halves else 'I'}"
    sides = sorted({side_of(p) for p in ports})
    return f"{kind.name}:{','.join(SIDES[s] for s in sides)}"


class Catalogue:
    """The tile types of one game (base set plus any expansion sets), by id and letter."""

    def __init__(self) -> None:
        self.kinds: dict[str, FeatureKind] = {}
        self.attributes: dict[str, frozenset[str]] = {}
        self.tiles: list[TileType] = []
        self.by_name: dict[str, TileType] = {}
        self._codes: dict[tuple[str, ...], int] = {}
        #: per tile index: packed side constraint -> the quarter turns that meet it
        self._fits: list[FitTable] = []

    # -- loading -------------------------------------------------------------------

    def load(self, path: Path) -> Catalogue:
        with path.open(encoding="utf-8") as handle:
            self.add_set(json.load(handle), source=path.name)
        return self

    def add_set(self, data: Mapping[str, Any], source: str = "<data>") -> None:
        if data.get("format") != 1:
            raise TileDataError(f"{source}: unsupported format {data.get('format')!r}")
        for name, spec in data.get("kinds", {}).items():
            kind = FeatureKind(
                name, spec.get("edge"), spec["span"], spec["completion"], spec.get("figures", True)
            )
            if kind.span not in SPANS or kind.completion not in COMPLETIONS:
                raise TileDataError(f"{source}: bad kind {name}: {spec}")
            if self.kinds.setdefault(name, kind) != kind:
                raise TileDataError(f"{source}: kind {name} redefined differently")
        for name, kinds in data.get("feature_attributes", {}).items():
            self.attributes[name] = self.attributes.get(name, frozenset()) | frozenset(kinds)
        for raw in data["tiles"]:
            tile = self._build_tile(raw, source)
            for key in (tile.id, tile.letter):
                if key is not None and key in self.by_name:
                    raise TileDataError(f"{source}: duplicate tile name {key}")
                if key is not None:
                    self.by_name[key] = tile
            self.tiles.append(tile)

    def _build_tile(self, raw: Mapping[str, Any], source: str) -> TileType:
        where = f"{source}: tile {raw.get('id')}"
        specs = [self._build_segment(spec, where) for spec in raw["features"]]
        owner = [-1] * PORTS
        for index, (_, ports, _, _) in enumerate(specs):
            for p in ports:
                if owner[p] != -1:
                    raise TileDataError(f"{where}: port {p} claimed twice")
                owner[p] = index
        # A field side's centre port belongs to the field holding both of its halves. On
        # a side split between two fields (Hills & Sheep's C!.v: a hedge down to the
        # edge) it is where the hedge meets the edge: it goes with the left field for the
        # side's pattern, but joins nothing, so that two such sides meeting keep the
        # fields on either side of the hedges apart, as the rulebook says.
        hedges = []
        for side in range(4):
            centre, left, right = port(side, CENTRE), port(side, LEFT), port(side, RIGHT)
            halves = owner[left] != -1 and owner[right] != -1
            if owner[centre] == -1 and halves and specs[owner[left]][0].span == "half":
                owner[centre] = owner[left]
                if owner[right] != owner[left]:
                    hedges.append(centre)
        if -1 in owner:
            raise TileDataError(f"{where}: ports {[p for p in range(PORTS) if owner[p] < 0]} empty")
        segments = []
        for i, (kind, _, attrs, touches) in enumerate(specs):
            ports = frozenset(p for p in range(PORTS) if owner[p] == i)
            segments.append(Segment(kind, ports, attrs, touches))
        for s in segments:
            if any(not 0 <= t < len(segments) for t in s.touches):
                raise TileDataError(f"{where}: touches out of range")
        edges = "".join(segments[owner[port(side, CENTRE)]].kind.edge or "?" for side in range(4))
        if edges != raw["edges"]:
            raise TileDataError(f"{where}: features give edges {edges}, data says {raw['edges']}")
        count, start = int(raw["count"]), int(raw.get("start", 0))
        wheel = tuple(raw.get("wheel", ()))
        if count < 1 or not 0 <= start <= count or len(wheel) > count - start:
            raise TileDataError(f"{where}: bad count/start/wheel")
        if any(n not in (1, 2, 3) for n in wheel):
            raise TileDataError(f"{where}: wheel icons are numbered 1 to 3")
        tile = TileType(
            index=len(self.tiles),
            id=raw["id"],
            letter=raw.get("letter"),
            count=count,
            start=start,
            edges=edges,
            segments=tuple(segments),
            wheel=wheel,
            group=raw.get("group"),
        )
        for q in range(4):
            self._add_rotation(tile, owner, frozenset(rotate_port(p, q) for p in hedges), q)
        side_fits = tuple([0b1111] + [0] * 255 for _ in range(4))
        for q, codes in enumerate(tile.side_codes):
            for side, code in enumerate(codes):
                side_fits[side][code] |= 1 << q
        tile.side_fits = side_fits
        return tile

    def _build_segment(
        self, spec: Mapping[str, Any], where: str
    ) -> tuple[FeatureKind, frozenset[int], dict[str, int], tuple[int, ...]]:
        """A feature spec's kind, named ports, attributes and touched features."""
        kind = self.kinds.get(spec.get("kind", ""))
        if kind is None:
            raise TileDataError(f"{where}: unknown kind {spec.get('kind')!r}")
        names = spec.get("at", "").split()
        if kind.span == "half":
            if any(n not in HALF_SIDE_PORT for n in names):
                raise TileDataError(f"{where}: bad half-sides {names}")
            ports = frozenset(HALF_SIDE_PORT[n] for n in names)
        else:
            # "N" is a whole side; "N:R" one port of it (side span only), for a city that
            # reaches a side only at a corner (the asymmetric Hills & Sheep city tiles).
            parts = [n.partition(":")[::2] for n in names]
            bad = [
                n
                for n, (side, k) in zip(names, parts, strict=True)
                if side not in SIDES or (k and (kind.span != "side" or k not in PORT_NAMES))
            ]
            if bad or (kind.span == "none") != (not names):
                raise TileDataError(f"{where}: bad sides {names} for {kind.name}")
            whole = (LEFT, CENTRE, RIGHT) if kind.span == "side" else (CENTRE,)
            ports = frozenset(
                port(SIDES.index(side), k)
                for side, named in parts
                for k in ((PORT_NAMES[named],) if named else whole)
            )
        attrs = {k: int(v) for k, v in spec.items() if k not in ("kind", "at", "touches")}
        for name in attrs:
            if kind.name not in self.attributes.get(name, ()):
                raise TileDataError(f"{where}: attribute {name} not declared for {kind.name}")
        return kind, ports, attrs, tuple(spec.get("touches", ()))

    def _add_rotation(
        self, tile: TileType, owner: list[int], hedges: frozenset[int], q: int
    ) -> None:
        """The tables of ``tile`` turned ``q`` times; ``hedges`` (board frame) are the
        ports that join nothing."""
        seg_at = [-1] * PORTS
        for p in range(PORTS):
            seg_at[rotate_port(p, q)] = owner[p]
        kinds = [tile.segments[i].kind.name for i in seg_at]
        sides, needs, links = [], [], []
        for side in range(4):
            triple = tuple(kinds[port(side, k)] for k in (LEFT, CENTRE, RIGHT))
            sides.append(self._code(triple))
            needs.append(self._code(triple[::-1]))
            side_links = []
            for k in (LEFT, CENTRE, RIGHT):
                p = port(side, k)
                if p not in hedges:
                    side_links.append(Link(p, seg_at[p], facing_port(p)))
            links.append(tuple(side_links))
        tile.port_segment.append(tuple(seg_at))
        tile.side_codes.append(tuple(sides))
        tile.needs.append(tuple(needs))
        tile.links.append(tuple(links))
        side_segments = tuple(
            tuple(dict.fromkeys(seg_at[port(side, k)] for k in (LEFT, CENTRE, RIGHT)))
            for side in range(4)
        )
        tile.side_segments.append(side_segments)
        shown = []
        for side in range(4):  # the open position's side, beyond which this tile lies
            met: dict[int, int] = {}  # segment -> the open position's ports it meets
            for bit, k in enumerate((RIGHT, CENTRE, LEFT)):
                p = port((side + 2) % 4, k)
                if p not in hedges:
                    met[seg_at[p]] = met.get(seg_at[p], 0) | 1 << (3 * side + bit)
            shown.append(tuple(met.items()))
        tile.shown.append(tuple(shown))
        tile.open_sides.append(
            tuple(
                tuple(
                    sum(1 for side in range(4) if not mask >> side & 1 and i in side_segments[side])
                    for i in range(len(tile.segments))
                )
                for mask in range(16)
            )
        )
        spots = tuple(
            spot_name(s.kind, (rotate_port(p, q) for p in s.ports)) for s in tile.segments
        )
        if len(set(spots)) != len(spots):
            raise TileDataError(f"tile {tile.id}: two segments share a spot name {spots}")
        tile.spots.append(spots)
        tile.spot_segment.append({name: i for i, name in enumerate(spots)})

    def _code(self, triple: tuple[str, ...]) -> int:
        code = self._codes.setdefault(triple, len(self._codes) + 1)
        if code > 255:
            raise TileDataError("more than 255 distinct edge patterns")
        return code

    # -- lookups -------------------------------------------------------------------

    def get(self, name: object) -> TileType | None:
        """A tile type by id or letter alias."""
        return self.by_name.get(name) if isinstance(name, str) else None

    def fitting_rotations(self, tile: TileType, constraint: int) -> tuple[int, ...]:
        """The quarter turns at which ``tile`` meets a packed side constraint.

        ``constraint`` packs, one byte per side, the code each side must show (0 where
        there is no neighbour). The answer depends only on the pair, so it is memoised.
        """
        return self.fit_table(tile)[constraint]

    def fit_table(self, tile: TileType) -> FitTable:
        """The memo of :meth:`fitting_rotations` for ``tile``, filled as it is asked:
        board scans index it directly, since a scan asks about every open position on
        every draw (three times a turn: the lookup is tried first)."""
        try:
            return self._fits[tile.index]
        except IndexError:
            while len(self._fits) <= tile.index:
                self._fits.append(FitTable(self.tiles[len(self._fits)]))
            return self._fits[tile.index]


class FitTable(dict[int, tuple[int, ...]]):
    """Packed side constraint -> the quarter turns at which one tile type meets it. A
    constraint not asked before is worked out side by side (``TileType.side_fits``) and
    kept."""

    __slots__ = ("tile",)

    def __init__(self, tile: TileType) -> None:
        super().__init__()
        self.tile = tile

    def __missing__(self, constraint: int) -> tuple[int, ...]:
        north, east, south, west = self.tile.side_fits
        turns = (
            north[constraint & 0xFF]
            & east[constraint >> 8 & 0xFF]
            & south[constraint >> 16 & 0xFF]
            & west[constraint >> 24 & 0xFF]
        )
        found = self[constraint] = TURNS[turns]
        return found


#: the quarter turns whose bits a mask sets, for each of the 16 masks
TURNS: tuple[tuple[int, ...], ...] = tuple(
    tuple(q for q in range(4) if mask >> q & 1) for mask in range(16)
)

"""Drawing a square tile of the Carcassonne family from its tile data.

A tile type (``service.rules.tiling.tiles.TileType``) says, for each of its segments,
its kind and the ports it occupies on the tile's rim (12 ports, 3 per side, clockwise
from the top-left corner; see ``service.rules.tiling.geometry``). This module turns that
into shapes on a 100 x 100 square (x east, y south, the board's frame), per rotation:

- *side* kinds (a city, an island, the wheel board's inside) fill the rim they occupy
  and close with Bézier curves bowing into the tile;
- *centre* kinds (a road, the river, a bridge) run from side to side through the
  middle; one that reaches a single side ends at the tile's cloister, hill or market,
  goes into its city or island, or stops at a crossing (a small house), and a river
  ends in a pond (the spring, the lake);
- *none* kinds (a cloister, a hill, a vineyard, a market) stand in the middle, or in
  the largest open area when the middle is taken;
- *half* kinds (fields, seas) are the ground. Which ground belongs to which segment is
  found on a 40 x 40 grid: each segment's rim cells flood the open ground, and where two
  segments' ground meets with nothing drawn between them a hedge is drawn, so two
  fields the rules keep apart always look apart.

Every segment also gets an anchor (where its figures stand) and an icon point (where
its shield, goods, wares or fish are shown). Everything is computed once per tile type
and rotation.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from service.pictures.svg import Point, el, num, path_d, pd, text
from service.rules.tiling.tiles import TileType

SIZE = 100.0
GRID = 40
CELL = SIZE / GRID
CENTRE: Point = (50.0, 50.0)
#: the kinds a single-sided road or bridge ends at
TERMINUS = ("cloister", "hill", "market")
#: how wide each centre kind is drawn
WIDTH = {"road": 9.0, "river": 14.0, "bridge": 12.0}
RADIUS = {"cloister": 15.0, "hill": 17.0, "vineyard": 13.0, "market": 15.0}


def rim_point(t: float) -> Point:
    """The point at perimeter position ``t`` (0..4, clockwise from the top-left)."""
    t %= 4.0
    side, f = int(t), t - int(t)
    if side == 0:
        return (SIZE * f, 0.0)
    if side == 1:
        return (SIZE, SIZE * f)
    if side == 2:
        return (SIZE * (1 - f), SIZE)
    return (0.0, SIZE * (1 - f))


def side_mid(side: int) -> Point:
    return rim_point(side + 0.5)


def turned(point: Point | None, q: int) -> Point:
    """``point`` of the upright tile, on the tile turned ``q`` quarter turns clockwise."""
    assert point is not None  # (a none kind's part always has its place)
    x, y = point[0] - CENTRE[0], point[1] - CENTRE[1]
    for _ in range(q):
        x, y = -y, x  # clockwise, with y pointing south
    return (CENTRE[0] + x, CENTRE[1] + y)


def lerp(a: Point, b: Point, f: float) -> Point:
    return (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f)


def cubic(a: Point, c1: Point, c2: Point, b: Point, steps: int = 16) -> list[Point]:
    out = []
    for i in range(1, steps + 1):
        t = i / steps
        u = 1 - t
        out.append(
            (
                u**3 * a[0] + 3 * u * u * t * c1[0] + 3 * u * t * t * c2[0] + t**3 * b[0],
                u**3 * a[1] + 3 * u * u * t * c1[1] + 3 * u * t * t * c2[1] + t**3 * b[1],
            )
        )
    return out


def quad(a: Point, c: Point, b: Point, steps: int = 16) -> list[Point]:
    out = [a]
    for i in range(1, steps + 1):
        t = i / steps
        u = 1 - t
        out.append(
            (
                u * u * a[0] + 2 * u * t * c[0] + t * t * b[0],
                u * u * a[1] + 2 * u * t * c[1] + t * t * b[1],
            )
        )
    return out


def inside(point: Point, poly: Sequence[Point]) -> bool:
    x, y = point
    found = False
    j = len(poly) - 1
    for i in range(len(poly)):
        xi, yi = poly[i]
        xj, yj = poly[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            found = not found
        j = i
    return found


def seg_distance(p: Point, a: Point, b: Point) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length))
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def line_distance(p: Point, line: Sequence[Point]) -> float:
    return min(seg_distance(p, line[i], line[i + 1]) for i in range(len(line) - 1))


def near_lines(polylines: Sequence[Sequence[Point]], half: float) -> list[int]:
    """The cells whose centre lies within ``half`` of any of the polylines."""
    found = set()
    for line in polylines:
        xs, ys = [p[0] for p in line], [p[1] for p in line]
        i0, i1 = max(0, int((min(xs) - half) / CELL)), min(GRID - 1, int((max(xs) + half) / CELL))
        j0, j1 = max(0, int((min(ys) - half) / CELL)), min(GRID - 1, int((max(ys) + half) / CELL))
        for j in range(j0, j1 + 1):
            for i in range(i0, i1 + 1):
                c = j * GRID + i
                if c not in found and line_distance(cell_centre(c), line) <= half:
                    found.add(c)
    return sorted(found)


def cell_centre(index: int) -> Point:
    return ((index % GRID + 0.5) * CELL, (index // GRID + 0.5) * CELL)


def cell_at(point: Point) -> int:
    i = min(GRID - 1, max(0, int(point[0] / CELL)))
    j = min(GRID - 1, max(0, int(point[1] / CELL)))
    return j * GRID + i


def _neighbours4(index: int) -> list[int]:
    i, j = index % GRID, index // GRID
    out = []
    if j > 0:
        out.append(index - GRID)
    if i < GRID - 1:
        out.append(index + 1)
    if j < GRID - 1:
        out.append(index + GRID)
    if i > 0:
        out.append(index - 1)
    return out


def _neighbours8(index: int) -> list[int]:
    i, j = index % GRID, index // GRID
    out = []
    for dj in (-1, 0, 1):
        for di in (-1, 0, 1):
            if (di or dj) and 0 <= i + di < GRID and 0 <= j + dj < GRID:
                out.append((j + dj) * GRID + i + di)
    return out


def _rim_port(index: int) -> int | None:
    """The rim port a border cell lies on (``None`` inside)."""
    i, j = index % GRID, index // GRID
    x, y = cell_centre(index)
    if j == 0:
        t = x / SIZE
    elif i == GRID - 1:
        t = 1 + y / SIZE
    elif j == GRID - 1:
        t = 2 + (SIZE - x) / SIZE
    elif i == 0:
        t = 3 + (SIZE - y) / SIZE
    else:
        return None
    return int(t * 3) % 12


NEIGHBOURS4 = [tuple(_neighbours4(c)) for c in range(GRID * GRID)]
NEIGHBOURS8 = [tuple(_neighbours8(c)) for c in range(GRID * GRID)]
BORDER_DISTANCE = [min(i, j, GRID - 1 - i, GRID - 1 - j) for j in range(GRID) for i in range(GRID)]
RIM_PORT = [_rim_port(c) for c in range(GRID * GRID)]


def distances(sources: Sequence[int], allowed: Sequence[bool] | None = None) -> list[int]:
    """Steps (8-neighbour) from the nearest source to every cell."""
    far = GRID * 4
    dist = [far] * (GRID * GRID)
    queue: deque[int] = deque()
    for s in sources:
        if dist[s] != 0:
            dist[s] = 0
            queue.append(s)
    while queue:
        c = queue.popleft()
        for n in NEIGHBOURS8[c]:
            if dist[n] > dist[c] + 1 and (allowed is None or allowed[n]):
                dist[n] = dist[c] + 1
                queue.append(n)
    return dist


# -- the drawing of one tile at one rotation ------------------------------------------------


@dataclass(frozen=True)
class Part:
    """One segment, drawn: ``area`` (a closed path, side kinds) or ``line`` (a polyline,
    centre kinds), ``at`` (a none kind's centre), its figure ``anchor`` and ``icon`` point."""

    index: int
    kind: str
    span: str
    spot: str
    attrs: tuple[tuple[str, int], ...]
    anchor: Point
    icon: Point
    area: str | None = None
    lines: tuple[tuple[Point, ...], ...] = ()
    at: Point | None = None


@dataclass(frozen=True)
class Drawing:
    parts: tuple[Part, ...]
    #: hedges between grounds that the rules keep apart: path data
    hedges: str
    #: small houses where roads stop at a crossing, and ponds where a river ends
    villages: tuple[Point, ...]
    ponds: tuple[Point, ...]
    ground: str
    anchors: dict[str, Point]
    icons: dict[str, Point]


def _runs(ports: Sequence[int]) -> list[tuple[int, int]]:
    """Cyclic runs of consecutive ports, as (first, last), in rim order."""
    have = set(ports)
    if len(have) == 12:
        return [(0, 11)]
    runs = []
    for p in sorted(have):
        if (p - 1) % 12 not in have:
            end = p
            while (end + 1) % 12 in have:
                end = (end + 1) % 12
            runs.append((p, end))
    return runs


def _side_area(
    ports: Sequence[int], owner: Sequence[int], index: int, side_kinds: set[int]
) -> tuple[str, list[Point]]:
    """A side kind's outline: along the rim over each run of its ports, then a curve
    into the tile to the next run. Returns the SVG path data and a flattened polygon."""
    runs = _runs(ports)
    if runs == [(0, 11)]:
        corners = [(0.0, 0.0), (SIZE, 0.0), (SIZE, SIZE), (0.0, SIZE)]
        return path_d(corners), corners
    d, poly = [], []
    for k, (first, last) in enumerate(runs):
        t0 = first / 3
        t1 = (last + 1) / 3
        if t1 <= t0:
            t1 += 4
        start = rim_point(t0)
        if k == 0:
            d.append(f"M{num(start[0])} {num(start[1])}")
        poly.append(start)
        corner = math.floor(t0) + 1
        while corner < t1 - 1e-9:
            point = rim_point(corner)
            d.append(f"L{num(point[0])} {num(point[1])}")
            poly.append(point)
            corner += 1
        end = rim_point(t1)
        d.append(f"L{num(end[0])} {num(end[1])}")
        poly.append(end)
        nxt = runs[(k + 1) % len(runs)][0]
        target = rim_point(nxt / 3)
        gap = [p % 12 for p in range(last + 1, nxt + (12 if nxt <= last else 0))]
        depth = 0.8
        # A band whose gap is one whole side held by another city bows deeper, so that
        # the two leave ground between them.
        if len(gap) == 3 and gap[0] % 3 == 0:
            others = {owner[p] for p in gap}
            if len(others) == 1 and others != {index} and others <= side_kinds:
                depth = 1.15
        c1 = lerp(end, CENTRE, depth)
        c2 = lerp(target, CENTRE, depth)
        d.append(pd("C", c1[0], c1[1], c2[0], c2[1], target[0], target[1]))
        poly += cubic(end, c1, c2, target)
    d.append("Z")
    return "".join(d), poly


def _through(sides: Sequence[int]) -> list[tuple[Point, ...]]:
    """A centre kind reaching two or more sides: one curve, or spokes from the middle."""
    if len(sides) == 2:
        a, b = side_mid(sides[0]), side_mid(sides[1])
        if (sides[1] - sides[0]) % 2 == 0:
            return [(a, CENTRE, b)]
        return [tuple(quad(a, CENTRE, b))]
    return [(side_mid(s), CENTRE) for s in sides]


def _best(
    cells: Sequence[int],
    clearance: Sequence[float],
    towards: Point,
    avoid: Sequence[Point] = (),
    weight: float = 0.0,
) -> int:
    """The cell with the most clearance (less for being near ``avoid``), nearest to
    ``towards``, then the first."""

    def score(c: int) -> tuple[float, float, int]:
        p = cell_centre(c)
        value = clearance[c]
        for q in avoid:
            value = min(value, weight * math.dist(p, q) / CELL)
        return (-value, math.dist(p, towards), c)

    return min(cells, key=score)


@lru_cache(maxsize=4096)
def draw(tile: TileType, q: int) -> Drawing:
    """The drawing of ``tile`` turned ``q`` quarter turns clockwise. What stands on the
    tile (a cloister, a hill, a market, a vineyard) is placed on the upright tile and
    turned with it: chosen afresh, a tie between two equal open areas could put it on
    the other side of a river at another rotation."""
    upright = draw(tile, 0) if q else None
    owner = tile.port_segment[q]
    segments = tile.segments
    spots = tile.spots[q]
    n = len(segments)
    ports_of = [[p for p in range(12) if owner[p] == i] for i in range(n)]
    kinds = [s.kind.name for s in segments]
    spans = [s.kind.span for s in segments]
    side_kinds = {i for i in range(n) if spans[i] == "side"}
    cells = range(GRID * GRID)
    centres = [cell_centre(c) for c in cells]

    # 1. Side kinds: areas.
    areas: dict[int, tuple[str, list[Point]]] = {}
    for i in sorted(side_kinds):
        areas[i] = _side_area(ports_of[i], owner, i, side_kinds)
    in_area = [-1] * (GRID * GRID)
    for i, (_, poly) in areas.items():
        for c in cells:
            if in_area[c] < 0 and inside(centres[c], poly):
                in_area[c] = i

    # 2. Centre kinds reaching two sides or more.
    lines: dict[int, list[tuple[Point, ...]]] = {}
    stubs = []
    for i in range(n):
        if spans[i] != "centre":
            continue
        sides = sorted({p // 3 for p in ports_of[i]})
        if len(sides) >= 2:
            lines[i] = _through(sides)
        else:
            stubs.append((i, sides[0]))
    blocked0 = [in_area[c] >= 0 for c in cells]
    for i, polylines in lines.items():
        for c in near_lines(polylines, WIDTH.get(kinds[i], 9.0) / 2 + 1):
            blocked0[c] = True

    # 3. None kinds: the middle if it is open, else the largest open area.
    free0 = [not b for b in blocked0]
    clear0 = distances([c for c in cells if blocked0[c]] or [], None)
    clear0 = [min(clear0[c], BORDER_DISTANCE[c] + 1) for c in cells]
    placed: dict[int, Point] = {}
    middle = cell_at(CENTRE)
    for i in range(n):
        if spans[i] != "none" or kinds[i] not in TERMINUS:
            continue
        if upright is not None:
            placed[i] = turned(upright.parts[i].at, q)
            continue
        radius_cells = RADIUS.get(kinds[i], 14.0) / CELL
        taken = list(placed.values())
        if (
            free0[middle]
            and clear0[middle] >= radius_cells + 1
            and all(math.dist(CENTRE, p) > 30 for p in taken)
        ):
            placed[i] = CENTRE
            continue
        component = _largest_component(free0)
        if not component:
            component = list(cells)
        choice = _best(component, clear0, CENTRE, avoid=taken, weight=0.5)
        placed[i] = cell_centre(choice)

    # 4. Centre kinds reaching one side: where each one ends.
    villages: list[Point] = []
    ponds: list[Point] = []
    terminus = next((placed[i] for i in placed if kinds[i] in TERMINUS), None)
    terminus_kind = next((kinds[i] for i in placed if kinds[i] in TERMINUS), None)
    walkers = [s for s in stubs if kinds[s[0]] != "river"]
    crossing_lines = [pl for j, pls in lines.items() if kinds[j] != "river" for pl in pls]
    for i, side in stubs:
        start = side_mid(side)
        if kinds[i] == "river":
            end = _walk(start, CENTRE, 0.0, areas, [], i)
            lines[i] = [(start, end)]
            ponds.append(end)
            continue
        if terminus is not None:
            stop = RADIUS.get(terminus_kind or "", 14.0) - 2
            end = _walk(start, terminus, stop, {}, [], i)
            lines[i] = [(start, end)]
            continue
        if len(walkers) == 1 and areas:
            # A lone road or bridge heads for the middle, then into the nearest city or
            # island.
            target_area = min(areas, key=lambda a: math.dist(CENTRE, _centroid(areas[a][1])))
            only = {target_area: areas[target_area]}
            end = _walk(start, CENTRE, 0.0, only, [], i, enter=4)
            line = [start, end]
            if not inside(end, only[target_area][1]):
                end = _walk(CENTRE, _centroid(only[target_area][1]), 0.0, only, [], i, enter=4)
                line.append(end)
            lines[i] = [tuple(line)]
            if not inside(end, only[target_area][1]):
                villages.append(end)
            continue
        end = _walk(start, CENTRE, 0.0, areas, crossing_lines, i)
        lines[i] = [(start, end)]
        in_city = any(inside(end, poly) for _, poly in areas.values())
        if not in_city and all(math.dist(end, v) > 4 for v in villages):
            villages.append(end)

    # 5. The ground: which cell belongs to which field or sea.
    blocked = list(blocked0)
    for i, polylines in lines.items():
        for c in near_lines(polylines, WIDTH.get(kinds[i], 9.0) / 2 + 1):
            blocked[c] = True
    for v in [*villages, *ponds]:
        for c in cells:
            if not blocked[c] and max(abs(centres[c][0] - v[0]), abs(centres[c][1] - v[1])) <= 7:
                blocked[c] = True

    # 5b. Other none kinds (a vineyard) go where nothing is drawn yet.
    for i in range(n):
        if spans[i] != "none" or i in placed:
            continue
        if upright is not None:
            placed[i] = turned(upright.parts[i].at, q)
            continue
        near = [c for c in cells if any(math.dist(centres[c], p) <= 16 for p in placed.values())]
        clear = distances([c for c in cells if blocked[c]] + near)
        clear = [min(clear[c], BORDER_DISTANCE[c] + 1) for c in cells]
        component = _largest_component([not b for b in blocked]) or list(cells)
        placed[i] = cell_centre(_best(component, clear, CENTRE))
    label = [-1] * (GRID * GRID)
    grounds = [i for i in range(n) if spans[i] == "half"]
    queue: deque[int] = deque()
    for i in grounds:
        for c in cells:
            port = RIM_PORT[c]
            if port is not None and owner[port] == i and not blocked[c] and label[c] < 0:
                label[c] = i
                queue.append(c)
    while queue:
        c = queue.popleft()
        for m in NEIGHBOURS4[c]:
            if not blocked[m] and label[m] < 0:
                label[m] = label[c]
                queue.append(m)
    inner = [i for i in grounds if not ports_of[i]]
    for c in cells:
        if not blocked[c] and label[c] < 0:
            if not inner:
                break
            fill = inner.pop(0)
            region = deque([c])
            label[c] = fill
            while region:
                d = region.popleft()
                for m in NEIGHBOURS4[d]:
                    if not blocked[m] and label[m] < 0:
                        label[m] = fill
                        region.append(m)

    # 6. Anchors: where figures stand, where icons go.
    features = [p for p in placed.values()]
    anchors: dict[int, Point] = {}
    icons: dict[int, Point] = {}
    for i in range(n):
        if spans[i] == "none":
            anchors[i] = placed[i]
            icons[i] = placed[i]
        elif spans[i] == "centre":
            anchors[i], icons[i] = _line_points(lines[i])
        else:
            member = (
                (lambda c, i=i: label[c] == i)
                if spans[i] == "half"
                else (lambda c, i=i: in_area[c] == i)
            )
            mine = [c for c in cells if member(c)]
            if not mine:
                anchors[i] = icons[i] = _fallback(ports_of[i])
                continue
            others = [c for c in cells if not member(c)]
            for p in features:
                others += [c for c in cells if math.dist(centres[c], p) <= 15]
            clearance = distances(others)
            clearance = [min(clearance[c], BORDER_DISTANCE[c] + 2) for c in cells]
            centroid = _mean([centres[c] for c in mine])
            first = _best(mine, clearance, centroid)
            anchors[i] = cell_centre(first)
            second = _best(mine, clearance, centroid, avoid=[anchors[i]], weight=0.8)
            icons[i] = cell_centre(second)

    parts = []
    for i in range(n):
        parts.append(
            Part(
                index=i,
                kind=kinds[i],
                span=spans[i],
                spot=spots[i],
                attrs=tuple(sorted(segments[i].attrs.items())),
                anchor=anchors[i],
                icon=icons[i],
                area=areas[i][0] if i in areas else None,
                lines=tuple(tuple(pl) for pl in lines.get(i, ())),
                at=placed.get(i),
            )
        )
    ground = next((kinds[i] for i in grounds), "field" if not areas else kinds[min(areas)])
    return Drawing(
        parts=tuple(parts),
        hedges=_hedges(label, blocked),
        villages=tuple(villages),
        ponds=tuple(ponds),
        ground=ground,
        anchors={spots[i]: anchors[i] for i in range(n)},
        icons={spots[i]: icons[i] for i in range(n)},
    )


def _mean(points: Sequence[Point]) -> Point:
    return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))


def _centroid(poly: Sequence[Point]) -> Point:
    """The centre of mass of a polygon (shoelace formula)."""
    area = cx = cy = 0.0
    for k in range(len(poly)):
        (x0, y0), (x1, y1) = poly[k], poly[(k + 1) % len(poly)]
        cross = x0 * y1 - x1 * y0
        area += cross
        cx += (x0 + x1) * cross
        cy += (y0 + y1) * cross
    if abs(area) < 1e-9:
        return _mean(poly)
    return (cx / (3 * area), cy / (3 * area))


def _fallback(ports: Sequence[int]) -> Point:
    if not ports:
        return CENTRE
    return lerp(_mean([rim_point((p + 0.5) / 3) for p in ports]), CENTRE, 0.3)


def _largest_component(free: Sequence[bool]) -> list[int]:
    seen = [False] * (GRID * GRID)
    best: list[int] = []
    for c in range(GRID * GRID):
        if free[c] and not seen[c]:
            component, queue = [], deque([c])
            seen[c] = True
            while queue:
                d = queue.popleft()
                component.append(d)
                for m in NEIGHBOURS4[d]:
                    if free[m] and not seen[m]:
                        seen[m] = True
                        queue.append(m)
            if len(component) > len(best):
                best = component
    return best


def _walk(
    start: Point,
    target: Point,
    stop: float,
    areas: dict[int, tuple[str, list[Point]]],
    crossing: Sequence[Sequence[Point]],
    index: int,
    enter: float = 0.0,
) -> Point:
    """From ``start`` towards ``target``: stop ``stop`` short of it, ``enter`` units
    into an area, or at a crossing line."""
    length = math.dist(start, target)
    if length <= stop:
        return start
    steps = int(length)
    for k in range(min(6, steps), steps + 1):
        point = lerp(start, target, k / length)
        if length - k <= stop:
            return point
        for _, poly in areas.values():
            if inside(point, poly):
                return lerp(start, target, min(1.0, (k + enter) / length))
        for pl in crossing:
            if line_distance(point, pl) <= 5.5:
                return point
    return target if stop == 0 else lerp(start, target, (length - stop) / length)


def _line_points(polylines: Sequence[Sequence[Point]]) -> tuple[Point, Point]:
    """A centre kind's figure point (halfway along) and icon point (beside its first
    quarter)."""
    line = polylines[0]
    lengths = [math.dist(line[k], line[k + 1]) for k in range(len(line) - 1)]
    total = sum(lengths)

    def at(f: float) -> tuple[Point, Point]:
        goal, run = total * f, 0.0
        for k, piece in enumerate(lengths):
            if run + piece >= goal and piece > 0:
                point = lerp(line[k], line[k + 1], (goal - run) / piece)
                dx, dy = line[k + 1][0] - line[k][0], line[k + 1][1] - line[k][1]
                return point, (dx / piece, dy / piece)
            run += piece
        return line[-1], (1.0, 0.0)

    anchor, _ = at(0.5)
    base, (dx, dy) = at(0.25)
    icon = (base[0] - dy * 13, base[1] + dx * 13)
    if not (8 <= icon[0] <= 92 and 8 <= icon[1] <= 92):
        icon = (base[0] + dy * 13, base[1] - dx * 13)
    return anchor, icon


def _hedges(label: Sequence[int], blocked: Sequence[bool]) -> str:
    """Lines between neighbouring ground cells of different segments."""
    pieces = []
    for c in range(GRID * GRID):
        if blocked[c] or label[c] < 0:
            continue
        i, j = c % GRID, c // GRID
        if i < GRID - 1 and not blocked[c + 1] and label[c + 1] >= 0 and label[c + 1] != label[c]:
            x = (i + 1) * CELL
            pieces.append(((x, j * CELL), (x, (j + 1) * CELL)))
        if j < GRID - 1:
            m = c + GRID
            if not blocked[m] and label[m] >= 0 and label[m] != label[c]:
                y = (j + 1) * CELL
                pieces.append(((i * CELL, y), ((i + 1) * CELL, y)))
    return "".join(f"M{num(a[0])} {num(a[1])}L{num(b[0])} {num(b[1])}" for a, b in pieces)


# -- SVG -------------------------------------------------------------------------------------


GROUND = {"field": "#9ccc65", "sea": "#7cc0ea"}
AREA = {
    "city": ("#d2a86a", "#6b4a1c"),
    "island": ("#ecd58e", "#8a6d1f"),
}
LINE = {
    "road": ("#5b4a3a", "#f6edd7"),
    "river": ("#1f6fb8", "#4aa3e8"),
    "bridge": ("#4a2f14", "#b07a45"),
}


def tile_svg(tile: TileType, q: int) -> str:
    """The tile's drawing on 0..100, without figures: ground, hedges, areas, lines,
    features and icons. Each drawn segment is a ``<g class="segment">`` naming its
    ``data-kind`` and ``data-spot``."""
    drawing = draw(tile, q)
    ground = GROUND.get(drawing.ground, "#d2a86a")
    out = [el("rect", {"width": "100", "height": "100", "fill": ground})]
    if drawing.hedges:
        hedge = "#2f5d1e" if drawing.ground == "field" else "#2a5f86"
        out.append(
            el(
                "path",
                {
                    "class": "hedge",
                    "d": drawing.hedges,
                    "stroke": hedge,
                    "stroke-width": "1.6",
                    "stroke-dasharray": "2 1.5",
                    "fill": "none",
                },
            )
        )
    for part in drawing.parts:
        if part.area is None or part.kind not in AREA:
            continue
        fill, stroke = AREA[part.kind]
        shapes = [el("path", {"d": part.area, "fill": fill, "stroke": stroke, "stroke-width": "2"})]
        if part.kind == "island":
            beach = {"stroke": "#4f9a3a", "stroke-width": "1", "stroke-dasharray": "3 3"}
            shapes.append(el("path", {"d": part.area, "fill": "none", **beach}))
        out.append(_segment(part, shapes))
    lined = sorted(
        (p for p in drawing.parts if p.lines), key=lambda p: (p.kind != "river", p.index)
    )
    for part in lined:
        dark, light = LINE.get(part.kind, LINE["road"])
        width = WIDTH.get(part.kind, 9.0)
        shapes = []
        for pl in part.lines:
            d = path_d(pl, closed=False)
            shapes.append(
                el("path", {"d": d, "stroke": dark, "stroke-width": num(width + 3), "fill": "none"})
            )
            shapes.append(
                el(
                    "path",
                    {"d": d, "stroke": light, "stroke-width": num(width - 1), "fill": "none"},
                )
            )
            if part.kind == "bridge":
                planks = {"stroke": dark, "stroke-width": num(width - 1), "stroke-dasharray": "1 3"}
                shapes.append(el("path", {"d": d, "fill": "none", **planks}))
        out.append(_segment(part, shapes))
    for pond in drawing.ponds:
        water = {"fill": "#4aa3e8", "stroke": "#1f6fb8", "stroke-width": "2"}
        out.append(el("circle", {"cx": pond[0], "cy": pond[1], "r": "9", **water}))
    for v in drawing.villages:
        out.append(house(v[0], v[1], 6.5, "#efe6d2", "#5b4a3a"))
    for part in drawing.parts:
        if part.at is not None:
            out.append(_segment(part, [feature_icon(part.kind, part.at)]))
    for part in drawing.parts:
        for name, count in part.attrs:
            if count:
                out.append(attribute_icon(name, count, part.icon))
    edge = {"fill": "none", "stroke": "#3d3d3d", "stroke-width": "1"}
    out.append(el("rect", {"width": "100", "height": "100", **edge}))
    return "".join(out)


def _segment(part: Part, shapes: list[str]) -> str:
    return el("g", {"class": "segment", "data-kind": part.kind, "data-spot": part.spot}, *shapes)


def house(x: float, y: float, r: float, fill: str, stroke: str) -> str:
    points = [
        (x - r, y + r),
        (x - r, y - r * 0.2),
        (x, y - r),
        (x + r, y - r * 0.2),
        (x + r, y + r),
    ]
    return el("path", {"d": path_d(points), "fill": fill, "stroke": stroke, "stroke-width": "1.5"})


def feature_icon(kind: str, at: Point) -> str:
    x, y = at
    if kind == "cloister":
        body = el(
            "rect",
            {
                "x": x - 11,
                "y": y - 6,
                "width": "22",
                "height": "17",
                "fill": "#c76b4b",
                "stroke": "#5a2a1a",
                "stroke-width": "1.5",
            },
        )
        roof = el(
            "path",
            {
                "d": path_d([(x - 13, y - 6), (x, y - 15), (x + 13, y - 6)]),
                "fill": "#8f3b22",
                "stroke": "#5a2a1a",
                "stroke-width": "1.5",
            },
        )
        cross = el(
            "path",
            {
                "d": f"M{num(x)} {num(y - 2)}V{num(y + 8)}M{num(x - 4)} {num(y + 1)}H{num(x + 4)}",
                "stroke": "#ffffff",
                "stroke-width": "2",
            },
        )
        return el("g", {"class": "feature", "data-kind": kind}, body, roof, cross)
    if kind == "hill":
        d = f"M{num(x - 17)} {num(y + 9)}Q{num(x)} {num(y - 22)} {num(x + 17)} {num(y + 9)}Z"
        mound = el("path", {"d": d, "fill": "#a7844f", "stroke": "#5c4526", "stroke-width": "1.5"})
        crest = el(
            "path",
            {
                "d": f"M{num(x - 8)} {num(y - 2)}Q{num(x)} {num(y - 9)} {num(x + 8)} {num(y - 2)}",
                "fill": "none",
                "stroke": "#5c4526",
                "stroke-width": "1.2",
            },
        )
        return el("g", {"class": "feature", "data-kind": kind}, mound, crest)
    if kind == "vineyard":
        grapes = []
        for dx in (-7, 7):
            for gx, gy in ((-2.5, -3), (2.5, -3), (0, 1.5), (-2.5, 1.5), (2.5, 1.5), (0, 5.5)):
                grapes.append(
                    el(
                        "circle",
                        {
                            "cx": x + dx + gx,
                            "cy": y + gy,
                            "r": "2.6",
                            "fill": "#6a2c70",
                            "stroke": "#3b1440",
                            "stroke-width": "0.6",
                        },
                    )
                )
        stem = el(
            "path",
            {
                "d": f"M{num(x - 11)} {num(y - 8)}H{num(x + 11)}",
                "stroke": "#3d6b21",
                "stroke-width": "2",
            },
        )
        return el("g", {"class": "feature", "data-kind": kind}, stem, *grapes)
    if kind == "market":
        stall = el(
            "rect",
            {
                "x": x - 11,
                "y": y - 4,
                "width": "22",
                "height": "14",
                "fill": "#f3e3c0",
                "stroke": "#6b4a1c",
                "stroke-width": "1.5",
            },
        )
        stripes = []
        for k in range(4):
            stripes.append(
                el(
                    "rect",
                    {
                        "x": x - 13 + k * 6.5,
                        "y": y - 11,
                        "width": "6.5",
                        "height": "7",
                        "fill": "#c0392b" if k % 2 == 0 else "#ffffff",
                        "stroke": "#6b4a1c",
                        "stroke-width": "0.8",
                    },
                )
            )
        return el("g", {"class": "feature", "data-kind": kind}, stall, *stripes)
    return el(
        "circle",
        {"class": "feature", "data-kind": kind, "cx": x, "cy": y, "r": "8", "fill": "#999999"},
    )


GOODS = {"wine": ("#7b2d8b", "W"), "grain": ("#d9a400", "G"), "cloth": ("#2f7fc1", "C")}


def attribute_icon(name: str, count: int, at: Point) -> str:
    x, y = at
    out = []
    label = None
    if name == "shield":
        d = pd("M", x - 6, y - 7, "H", x + 6, "V", y, "Q", x + 6, y + 6, x, y + 9)
        d += pd("Q", x - 6, y + 6, x - 6, y, "Z")
        out.append(
            el("path", {"d": d, "fill": "#2b5fad", "stroke": "#ffffff", "stroke-width": "1.5"})
        )
    elif name == "cathedral":
        out.append(
            el(
                "rect",
                {
                    "x": x - 9,
                    "y": y - 4,
                    "width": "18",
                    "height": "12",
                    "fill": "#eeeeee",
                    "stroke": "#333333",
                    "stroke-width": "1.2",
                },
            )
        )
        out.append(
            el(
                "path",
                {
                    "d": path_d([(x - 10, y - 4), (x, y - 12), (x + 10, y - 4)]),
                    "fill": "#777777",
                    "stroke": "#333333",
                    "stroke-width": "1.2",
                },
            )
        )
        out.append(
            el(
                "path",
                {
                    "d": pd("M", x, y - 18, "V", y - 11, "M", x - 3, y - 15, "H", x + 3),
                    "stroke": "#333333",
                    "stroke-width": "1.5",
                },
            )
        )
    elif name == "inn":
        out.append(house(x, y, 6, "#f6e7c1", "#7a2b1d"))
        out.append(
            el(
                "path",
                {
                    "d": path_d([(x - 7.5, y - 0.5), (x, y - 8), (x + 7.5, y - 0.5)], closed=False),
                    "fill": "none",
                    "stroke": "#b03a2e",
                    "stroke-width": "2.5",
                },
            )
        )
    elif name in GOODS:
        colour, letter = GOODS[name]
        out.append(
            el(
                "rect",
                {
                    "x": x - 7,
                    "y": y - 7,
                    "width": "14",
                    "height": "14",
                    "rx": "3",
                    "fill": colour,
                    "stroke": "#ffffff",
                    "stroke-width": "1.2",
                },
            )
        )
        out.append(
            text(
                x, y + 4, letter, size=10, font_weight="bold", text_anchor="middle", fill="#ffffff"
            )
        )
    elif name == "sheep":
        out.append(
            el(
                "ellipse",
                {
                    "cx": x,
                    "cy": y,
                    "rx": "8",
                    "ry": "5.5",
                    "fill": "#ffffff",
                    "stroke": "#444444",
                    "stroke-width": "1",
                },
            )
        )
        out.append(el("circle", {"cx": x + 8, "cy": y - 2, "r": "3", "fill": "#333333"}))
        label = str(count)
    elif name == "banana":
        for k in range(min(count, 3)):
            bx = x + (k - (min(count, 3) - 1) / 2) * 9
            d = pd(
                "M",
                bx - 3,
                y - 7,
                "Q",
                bx + 6,
                y,
                bx - 3,
                y + 7,
                "Q",
                bx + 2,
                y,
                bx - 3,
                y - 7,
                "Z",
            )
            out.append(
                el("path", {"d": d, "fill": "#f4d03f", "stroke": "#7d6608", "stroke-width": "1"})
            )
    elif name == "shell":
        for k in range(min(count, 3)):
            sx = x + (k - (min(count, 3) - 1) / 2) * 11
            d = pd("M", sx, y + 5, "L", sx - 6, y - 3, "Q", sx, y - 9, sx + 6, y - 3, "Z")
            out.append(
                el("path", {"d": d, "fill": "#fbe3d6", "stroke": "#a0522d", "stroke-width": "1"})
            )
            out.append(
                el(
                    "path",
                    {
                        "d": pd("M", sx, y + 5, "L", sx, y - 6, "M", sx, y + 5, "L", sx - 3, y - 5)
                        + pd("M", sx, y + 5, "L", sx + 3, y - 5),
                        "stroke": "#a0522d",
                        "stroke-width": "0.7",
                    },
                )
            )
    elif name in ("fish1", "fish2"):
        per = 1 if name == "fish1" else 2
        out.append(fish_group(x, y, per, count))
    elif name == "boat":
        out.append(boat(x, y))
    else:
        label = f"{name} {count}"
    if label is not None and (count > 1 or name == "sheep"):
        out.append(text(x, y + 15, label, size=8, text_anchor="middle"))
    elif count > 1 and name in ("shield", "cathedral", "inn", *GOODS):
        out.append(text(x + 9, y + 10, f"x{count}", size=8))
    return el("g", {"class": "icon", "data-icon": name, "data-count": count}, *out)


def fish_group(x: float, y: float, per: int, groups: int) -> str:
    out = []
    total = per * groups
    for k in range(total):
        fx = x + (k - (total - 1) / 2) * 8
        fy = y + (3 if k % 2 else -3) * (1 if per == 2 else 0)
        body = el(
            "ellipse",
            {
                "cx": fx,
                "cy": fy,
                "rx": "4.5",
                "ry": "2.6",
                "fill": "#f39c12",
                "stroke": "#7e4a06",
                "stroke-width": "0.8",
            },
        )
        tail = el(
            "path",
            {
                "d": path_d([(fx + 4, fy), (fx + 7, fy - 2.5), (fx + 7, fy + 2.5)]),
                "fill": "#f39c12",
                "stroke": "#7e4a06",
                "stroke-width": "0.8",
            },
        )
        out.append(body + tail)
    return "".join(out)


def boat(x: float, y: float, fill: str = "#8b5a2b") -> str:
    hull = el(
        "path",
        {
            "d": path_d([(x - 8, y + 1), (x + 8, y + 1), (x + 5, y + 6), (x - 5, y + 6)]),
            "fill": fill,
            "stroke": "#3b2410",
            "stroke-width": "1",
        },
    )
    mast = el(
        "path",
        {"d": f"M{num(x)} {num(y + 1)}V{num(y - 9)}", "stroke": "#3b2410", "stroke-width": "1"},
    )
    sail = el(
        "path",
        {
            "d": path_d([(x + 0.5, y - 9), (x + 7, y - 1), (x + 0.5, y - 1)]),
            "fill": "#ffffff",
            "stroke": "#3b2410",
            "stroke-width": "0.8",
        },
    )
    return hull + mast + sail

"""Catan and the Seafarers scenarios, drawn from the ruleset's view.

Pointy-top hexes in axial coordinates (``service.rules.hexes.geometry``: ``q`` east,
``r`` south-east); a corner ``"q,r,N"`` is the top of hex (q, r), ``"q,r,S"`` its bottom;
edges join two corners. The view's board lists every hex with its terrain and number
(a fog space reads ``fog`` and is drawn grey with the word "fog" only: what lies under
it is not in the view), the harbours by their two corners, the robber and the pirate;
buildings, roads and ships carry their seat. Each terrain is named on its hex and each seat's pieces
carry its letter, so nothing depends on telling colours apart. The scenarios with pieces
of their own have them drawn too, from their part of the view: Cloth for Catan's
villages, the Forgotten Tribe's gifts, the Pirate Islands' fleet loop, routes, fortresses
and warships, the Wonders' marked intersections (and, in the scores, what each seat
holds of them).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from service.pictures.svg import (
    INK,
    PanelRow,
    Point,
    clean,
    counted,
    document,
    el,
    group,
    midpoint,
    num,
    panel,
    path_d,
    pd,
    polygon,
    seat_badge,
    seat_label,
    seat_name,
    seat_style,
    text,
    winners_line,
)
from service.rules.catan.pirate_islands import CHITS
from service.rules.catan.scenarios import available
from service.rules.hexes.geometry import (
    edge_between,
    edge_corners,
    edge_hexes,
    hex_name,
    neighbours,
    parse_corner,
    parse_edge,
    parse_hex,
)

R = 60.0
#: each scenario's English title, by its number
SCENARIO_TITLES = {info.number: info.title_en for info in available()}
W = math.sqrt(3) * R
MARGIN = 50.0
PANEL_WIDTH = 360.0

#: fill, ink for its label, label
TERRAIN = {
    "forest": ("#2e7d32", "#ffffff", "forest"),
    "pasture": ("#a5d46a", "#1b3a0a", "pasture"),
    "fields": ("#f2c94c", "#4a3b00", "fields"),
    "hills": ("#c0603a", "#ffffff", "hills"),
    "mountains": ("#8d8d8d", "#ffffff", "mountains"),
    "desert": ("#e9dcae", "#5a4a1a", "desert"),
    "gold": ("#d4af37", "#3a2a00", "gold"),
    "sea": ("#5dade2", "#0b3954", ""),
    "fog": ("#b9b9b9", "#3b3b3b", "fog"),
}
RESOURCE_TERRAIN = {
    "brick": "hills",
    "lumber": "forest",
    "wool": "pasture",
    "grain": "fields",
    "ore": "mountains",
}
NUMBERS = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)
LAND = frozenset(t for t in TERRAIN if t not in ("sea", "fog"))


def centre(h: tuple[int, int]) -> Point:
    q, r = h
    return (W * (q + r / 2), 1.5 * R * r)


def corner_point(name: str) -> Point:
    c = parse_corner(name)
    x, y = centre((c.q, c.r))
    return (x, y - R) if c.d == "N" else (x, y + R)


def hex_points(h: tuple[int, int], size: float = R) -> list[Point]:
    x, y = centre(h)
    return [
        (x + size * math.cos(math.radians(a)), y + size * math.sin(math.radians(a)))
        for a in (-90, -30, 30, 90, 150, 210)
    ]


def edge_points(name: str) -> tuple[Point, Point]:
    e = parse_edge(name)
    a, b = edge_corners(e)
    return corner_point(_corner_name(a)), corner_point(_corner_name(b))


def _corner_name(c) -> str:
    return f"{c.q},{c.r},{c.d}"


# -- pieces ---------------------------------------------------------------------------------


def _moved(points: Sequence[Point], dx: float, dy: float) -> list[Point]:
    return [(x + dx, y + dy) for x, y in points]


def letter(x: float, y: float, seat: int, size: float) -> str:
    style = seat_style(seat)
    return text(
        x,
        y + size * 0.36,
        style.letter,
        size=size,
        fill=style.ink,
        text_anchor="middle",
        font_weight="bold",
    )


def settlement(x: float, y: float, seat: int) -> str:
    s = 12.0
    pts = [
        (x - s, y + s),
        (x - s, y - s * 0.3),
        (x, y - s * 1.25),
        (x + s, y - s * 0.3),
        (x + s, y + s),
    ]
    return polygon(pts, fill=seat_style(seat).colour, stroke=INK, stroke_width="2") + letter(
        x, y + 2, seat, 11
    )


def city(x: float, y: float, seat: int) -> str:
    pts = [
        (x - 17, y + 13), (x - 17, y - 4), (x - 7, y - 12), (x + 3, y - 4),
        (x + 3, y - 10), (x + 17, y - 10), (x + 17, y + 13),
    ]  # fmt: skip
    return polygon(pts, fill=seat_style(seat).colour, stroke=INK, stroke_width="2.5") + letter(
        x, y + 3, seat, 13
    )


def road(a: Point, b: Point, seat: int) -> str:
    p = (a[0] + (b[0] - a[0]) * 0.16, a[1] + (b[1] - a[1]) * 0.16)
    q = (a[0] + (b[0] - a[0]) * 0.84, a[1] + (b[1] - a[1]) * 0.84)
    d = f"M{num(p[0])} {num(p[1])}L{num(q[0])} {num(q[1])}"
    mx, my = midpoint(a, b)
    return (
        el("path", {"d": d, "stroke": INK, "stroke-width": "12", "stroke-linecap": "round"})
        + el(
            "path",
            {
                "d": d,
                "stroke": seat_style(seat).colour,
                "stroke-width": "8",
                "stroke-linecap": "round",
            },
        )
        + letter(mx, my, seat, 8)
    )


def ship(a: Point, b: Point, seat: int, warship: bool = False) -> str:
    """A ship, upright, on the middle of its edge; a warship (The Pirate Islands) flies a
    red pennant above a dark sail, so it reads apart from a trading ship."""
    x, y = midpoint(a, b)
    hull = [(x - 19, y - 1), (x + 19, y - 1), (x + 12, y + 12), (x - 12, y + 12)]
    sail = [(x - 2, y - 3), (x - 2, y - 25), (x + 15, y - 5)]
    sail_fill = "#ffffff"
    pennant = ""
    if warship:
        sail_fill = "#5a5a5a"
        pennant = polygon(
            [(x - 2, y - 25), (x - 18, y - 21), (x - 2, y - 17)],
            fill="#d62728",
            stroke=INK,
            stroke_width="1",
        )
    return (
        polygon(sail, fill=sail_fill, stroke=INK, stroke_width="1.5")
        + pennant
        + polygon(hull, fill=seat_style(seat).colour, stroke=INK, stroke_width="2")
        + letter(x, y + 5, seat, 10)
    )


def robber(x: float, y: float) -> str:
    return (
        el(
            "ellipse",
            {"cx": x, "cy": y + 12, "rx": "11", "ry": "5", "fill": "#3b3b3b", "stroke": "#000000"},
        )
        + el(
            "path",
            {
                "d": pd("M", x - 8, y + 12, "Q", x, y - 22, x + 8, y + 12, "Z"),
                "fill": "#4a4a4a",
                "stroke": "#000000",
                "stroke-width": "1.5",
            },
        )
        + el(
            "circle",
            {
                "cx": x,
                "cy": y - 10,
                "r": "6",
                "fill": "#4a4a4a",
                "stroke": "#000000",
                "stroke-width": "1.5",
            },
        )
    )


def pirate(x: float, y: float) -> str:
    hull = [(x - 20, y + 2), (x + 20, y + 2), (x + 13, y + 13), (x - 13, y + 13)]
    return (
        polygon(hull, fill="#111111", stroke="#000000")
        + el(
            "path",
            {
                "d": f"M{num(x)} {num(y + 2)}V{num(y - 22)}",
                "stroke": "#111111",
                "stroke-width": "2",
            },
        )
        + polygon([(x + 1, y - 22), (x + 16, y - 8), (x + 1, y - 4)], fill="#111111")
        + polygon([(x - 1, y - 20), (x - 14, y - 6), (x - 1, y - 4)], fill="#111111")
        + el("circle", {"cx": x + 7, "cy": y - 12, "r": "2.2", "fill": "#ffffff"})
    )


def number_token(x: float, y: float, number: int) -> str:
    red = number in (6, 8)
    pips = 6 - abs(7 - number)
    out = [
        el(
            "circle",
            {"cx": x, "cy": y, "r": "17", "fill": "#f8f1dc", "stroke": INK, "stroke-width": "1.5"},
        ),
        text(
            x,
            y + 5,
            str(number),
            size=16,
            fill="#b3261e" if red else INK,
            text_anchor="middle",
            font_weight="bold",
        ),
    ]
    for k in range(pips):
        out.append(
            el(
                "circle",
                {
                    "cx": x + (k - (pips - 1) / 2) * 4,
                    "cy": y + 11,
                    "r": "1.3",
                    "fill": "#b3261e" if red else INK,
                },
            )
        )
    return "".join(out)


def terrain_hex(h: tuple[int, int], terrain: str, number: int | None, extra=None) -> str:
    fill, ink, label = TERRAIN.get(terrain, ("#ffffff", INK, terrain))
    x, y = centre(h)
    out = [polygon(hex_points(h), fill=fill, stroke="#3b3b3b", stroke_width="2")]
    if terrain == "sea":
        for k in (-1, 1):
            out.append(
                el(
                    "path",
                    {
                        "d": f"M{num(x - 18)} {num(y + k * 24)}q6 -5 12 0t12 0t12 0",
                        "fill": "none",
                        "stroke": "#2e86c1",
                        "stroke-width": "1.5",
                    },
                )
            )
    if label:
        out.append(text(x, y - 30, label, size=11, fill=ink, text_anchor="middle"))
    if terrain == "gold":
        out.append(
            polygon(
                [(x - 24, y + 30), (x - 14, y + 22), (x + 14, y + 22), (x + 24, y + 30)],
                fill="#f5d76e",
                stroke="#7a5c00",
            )
        )
    if number is not None:
        out.append(number_token(x, y, number))
    items = {
        "class": "hex",
        "data-hex": hex_name(h),
        "data-terrain": terrain,
        "data-number": number,
        **(extra or {}),
    }
    return group(items, out)


# -- the board -------------------------------------------------------------------------------


def render(
    view: Mapping[str, Any],
    *,
    seat: int | None,
    names: Sequence[str],
    version: int,
    recent: Sequence[Mapping[str, Any]],
) -> str:
    board = view.get("board")
    hexes = [] if board is None else board["hexes"]
    terrain_at = {parse_hex(h["hex"]): h["terrain"] for h in hexes}
    frame_hexes: list[tuple[int, int]] = []
    if terrain_at and "sea" not in terrain_at.values():
        frame_hexes = sorted(
            {n for h in terrain_at for n in neighbours(h) if n not in terrain_at},
            key=lambda h: (h[1], h[0]),
        )
    everything = list(terrain_at) + frame_hexes or [(0, 0)]
    xs = [centre(h)[0] for h in everything]
    ys = [centre(h)[1] for h in everything]
    dx = MARGIN + W / 2 - min(xs)
    dy = MARGIN + R - min(ys)
    board_w = max(xs) - min(xs) + W + 2 * MARGIN
    board_h = max(ys) - min(ys) + 2 * R + 2 * MARGIN

    layers = []
    layers.append(
        group(
            {"class": "sea-frame"},
            [
                polygon(hex_points(h), fill="#5dade2", stroke="#4a9fd4", stroke_width="1")
                for h in frame_hexes
            ],
        )
    )
    layers.append(
        group(
            {"class": "hexes"},
            [terrain_hex(parse_hex(h["hex"]), h["terrain"], h["number"]) for h in hexes],
        )
    )
    if board is not None:
        layers.append(_harbours(board.get("harbours", []), terrain_at))
    if view.get("cloth"):  # Cloth for Catan: the villages' numbers and cloth left
        layers.append(_villages(view["cloth"]["villages"]))
    if view.get("tribe"):  # The Forgotten Tribe: the gifts still lying on their paths
        layers.append(_gifts(view["tribe"]["gifts"], terrain_at))
    if view.get("pirate_islands"):  # The Pirate Islands: the fleet's loop, the routes
        layers.append(_pirate_sea(view["pirate_islands"]))
    if view.get("wonders"):  # The Wonders of Catan: the marked intersections
        layers.append(_wonder_marks(view["wonders"]["intersections"]))
    # the view's own robber and pirate: the board keeps where they started (the fleet of
    # The Pirate Islands leaves the game when every fortress is conquered)
    robber_at = view.get("robber")
    if robber_at:
        x, y = centre(parse_hex(robber_at))
        layers.append(
            group(
                {"class": "robber", "data-hex": robber_at},
                ["<title>the robber</title>", robber(x - 30, y + 4)],
            )
        )
    pirate_at = view.get("pirate")
    if pirate_at:
        x, y = centre(parse_hex(pirate_at))
        layers.append(
            group(
                {"class": "pirate", "data-hex": pirate_at},
                [
                    f"<title>{'the pirate fleet' if view.get('pirate_islands') else 'the pirate'}"
                    "</title>",
                    pirate(x, y + 6),
                ],
            )
        )
    layers.append(
        group(
            {"class": "roads"},
            [
                group(
                    {"class": "road", "data-seat": p["seat"], "data-edge": p["edge"]},
                    [road(*edge_points(p["edge"]), p["seat"])],
                )
                for p in view.get("roads", [])
            ],
        )
    )
    warships = _warships(view.get("pirate_islands"))
    ships = []
    for p in view.get("ships", []):
        war = (p["seat"], p["edge"]) in warships
        items = {"class": "ship", "data-seat": p["seat"], "data-edge": p["edge"]}
        if war:
            items["data-warship"] = "true"
        caption = f"<title>{'warship' if war else 'ship'} of seat {p['seat']}</title>"
        ships.append(group(items, [caption, ship(*edge_points(p["edge"]), p["seat"], war)]))
    layers.append(group({"class": "ships"}, ships))
    buildings = []
    for b in view.get("buildings", []):
        x, y = corner_point(b["corner"])
        piece = city if b["kind"] == "city" else settlement
        buildings.append(
            group(
                {
                    "class": "building",
                    "data-seat": b["seat"],
                    "data-kind": b["kind"],
                    "data-corner": b["corner"],
                },
                [piece(x, y, b["seat"])],
            )
        )
    layers.append(group({"class": "buildings"}, buildings))
    if view.get("pirate_islands"):
        layers.append(_fortresses(view["pirate_islands"]["colours"]))
    marker = _last_move(recent)
    if marker is not None:
        layers.append(marker)
    if board is None:
        layers.append(text(MARGIN, MARGIN + 40, "The board is not set yet.", size=18))

    panel_svg, panel_height = _panel(view, seat, names, version, _last_move_words(recent, names))
    width = board_w + PANEL_WIDTH
    height = max(board_h, panel_height + 40)
    body = [
        group({"class": "board-area", "transform": f"translate({num(dx)} {num(dy)})"}, layers),
        group({"class": "panel", "transform": f"translate({num(board_w)} 0)"}, [panel_svg]),
    ]
    scenario = view.get("scenario")
    title = "Catan" if not scenario else f"Catan: Seafarers, scenario {scenario.get('number')}"
    scale = min(1.0, 1600.0 / max(width, height))
    # where hex (0, 0)'s centre lies and the hexes' size, for clients that draw on the
    # board (the /play/ page's marks where a piece may go)
    data = {
        "data-origin-x": num(dx),
        "data-origin-y": num(dy),
        "data-hex-size": num(R),
        "data-board-width": num(board_w),
    }
    return document(width, height, f"{title}, version {version}", body, scale, data=data)


def _villages(villages: Sequence[Mapping[str, Any]]) -> str:
    """Cloth for Catan: each village's number token on its intersection, and its cloth."""
    out = []
    for v in villages:
        x, y = corner_point(v["corner"])
        words = f"{v['cloth']} cloth"
        out.append(
            group(
                {"class": "village", "data-corner": v["corner"], "data-cloth": v["cloth"]},
                [
                    f"<title>village {v['number']}: {words}</title>",
                    number_token(x, y, v["number"]),
                    text(x, y + 30, words, size=11, text_anchor="middle", font_weight="bold"),
                ],
            )
        )
    return group({"class": "villages"}, out)


def _edge_middle(edge: str) -> Point:
    return midpoint(*edge_points(edge))


#: The Forgotten Tribe's gifts as the picture names them
GIFT_WORDS = {"chit": "a Catan chit (1 victory point)", "development": "a development card"}


def _gifts(gifts: Sequence[Mapping[str, Any]], terrain_at: Mapping) -> str:
    """The Forgotten Tribe: each gift still on its coast path, for the first ship built
    there: a Catan chit (a gold disc, "1 VP"), a development card (a card face down) or
    a harbour marker (a square, 3:1 or 2:1 with its resource, not yet a harbour); each a
    little out to sea from its path, clear of the land's names and numbers."""
    out = []
    for gift in gifts:
        mx, my = _edge_middle(gift["edge"])
        sea = [h for h in edge_hexes(parse_edge(gift["edge"])) if terrain_at.get(h) not in LAND]
        x, y = mx, my
        if sea:
            sx, sy = centre(sea[0])
            x, y = mx + (sx - mx) * 0.3, my + (sy - my) * 0.3
        kind = gift["gift"]
        if kind == "chit":
            shape = el(
                "circle",
                {
                    "cx": x,
                    "cy": y,
                    "r": "13",
                    "fill": "#f3d36b",
                    "stroke": INK,
                    "stroke-width": "1.5",
                },
            ) + text(x, y + 4, "1 VP", size=9, font_weight="bold", text_anchor="middle")
        elif kind == "development":
            shape = el(
                "rect",
                {
                    "x": x - 10,
                    "y": y - 13,
                    "width": "20",
                    "height": "26",
                    "rx": "3",
                    "fill": "#6a4c93",
                    "stroke": INK,
                    "stroke-width": "1.5",
                },
            ) + text(x, y + 3, "dev", size=8, fill="#ffffff", text_anchor="middle")
        else:  # a harbour marker
            fill, ratio, words = _harbour_terms(kind)
            shape = (
                el(
                    "rect",
                    {"x": x - 14, "y": y - 14, "width": "28", "height": "28", "rx": "3"}
                    | {"fill": fill, "stroke": INK, "stroke-width": "1.5"},
                )
                + el(
                    "rect",
                    {"x": x - 12, "y": y - 10, "width": "24", "height": "20", "rx": "3"}
                    | {"fill": "#ffffff", "opacity": "0.85"},
                )
                + text(x, y - 1, ratio, size=9, font_weight="bold", text_anchor="middle")
                + text(x, y + 8, words, size=7, text_anchor="middle")
            )
        named = GIFT_WORDS.get(kind) or f"a harbour marker, {_harbour_name(kind)}"
        title = f"<title>{clean('the tribe’s gift: ' + named)}</title>"
        out.append(
            group({"class": "gift", "data-edge": gift["edge"], "data-gift": kind}, [title, shape])
        )
    return group({"class": "gifts"}, out)


def _warships(pirate_islands: Mapping[str, Any] | None) -> set[tuple[int, str]]:
    """The Pirate Islands: ``(seat, edge)`` of every warship."""
    if not pirate_islands:
        return set()
    return {(c["seat"], edge) for c in pirate_islands["colours"] for edge in c["warships"]}


def _pirate_sea(data: Mapping[str, Any]) -> str:
    """The Pirate Islands, under the pieces: the fleet's clockwise loop (a dotted line
    through its sea hexes, an arrow at each step), each seat's sea route to its fortress
    (every path of its shortest ways, dashed in its colour) and the intersection marked
    with its colour on the way (a diamond with its letter)."""
    out = []
    loop = [centre(parse_hex(h)) for h in data["fleet_path"]]
    if data.get("fleet") is not None and loop:
        out.append(
            group(
                {"class": "fleet-path"},
                [
                    "<title>the pirate fleet’s loop, clockwise</title>",
                    el(
                        "path",
                        {
                            "d": path_d(loop),
                            "fill": "none",
                            "stroke": "#111111",
                            "stroke-width": "3",
                            "stroke-dasharray": "1 9",
                            "stroke-linecap": "round",
                            "opacity": "0.7",
                        },
                    ),
                    *(_arrow(a, b) for a, b in zip(loop, loop[1:] + loop[:1], strict=True)),
                ],
            )
        )
    for colour in data["colours"]:
        seat = colour["seat"]
        dashes = []
        # a conquered fortress's route has served: only the marked intersection stays
        for edge in [] if colour["conquered"] else colour["route"]:
            a, b = edge_points(edge)
            p = (a[0] + (b[0] - a[0]) * 0.2, a[1] + (b[1] - a[1]) * 0.2)
            q = (a[0] + (b[0] - a[0]) * 0.8, a[1] + (b[1] - a[1]) * 0.8)
            dashes.append(
                el(
                    "path",
                    {
                        "d": pd("M", p[0], p[1], "L", q[0], q[1]),
                        "stroke": seat_style(seat).colour,
                        "stroke-width": "4",
                        "stroke-dasharray": "6 4",
                    },
                )
            )
        x, y = corner_point(colour["intersection"])
        out.append(
            group(
                {
                    "class": "sea-route",
                    "data-seat": seat,
                    "data-colour": colour["colour"],
                    "data-intersection": colour["intersection"],
                },
                [
                    f"<title>the sea route of seat {seat} to its fortress</title>",
                    *dashes,
                    seat_badge(x, y, seat, r=7, shape="diamond"),
                ],
            )
        )
    return group({"class": "pirate-islands"}, out)


def _arrow(a: Point, b: Point) -> str:
    """A small arrowhead halfway from ``a`` to ``b``, pointing at ``b``."""
    angle = math.atan2(b[1] - a[1], b[0] - a[0])
    mx, my = midpoint(a, b)
    tip = (mx + 6 * math.cos(angle), my + 6 * math.sin(angle))
    left = (mx + 6 * math.cos(angle + 2.5), my + 6 * math.sin(angle + 2.5))
    right = (mx + 6 * math.cos(angle - 2.5), my + 6 * math.sin(angle - 2.5))
    return polygon([tip, left, right], fill="#111111", opacity="0.7")


def _fortresses(colours: Sequence[Mapping[str, Any]]) -> str:
    """The Pirate Islands: each fortress not conquered yet, a castle in its seat's colour
    with the Catan chits still under it (a conquered one is the seat's settlement, in
    the buildings)."""
    out = []
    for colour in colours:
        if colour["conquered"]:
            continue
        seat = colour["seat"]
        x, y = corner_point(colour["fortress"])
        left = CHITS - colour["chits"]
        # the chits left written outside the hexes whose names and numbers lie near: above
        # a corner at a hex's top (its name is below), below one at a hex's bottom
        label_y = y - 31 if colour["fortress"].endswith("N") else y + 16
        walls = [
            (x - 15, y + 13), (x - 15, y - 11), (x - 10, y - 11), (x - 10, y - 6),
            (x - 5, y - 6), (x - 5, y - 11), (x + 5, y - 11), (x + 5, y - 6),
            (x + 10, y - 6), (x + 10, y - 11), (x + 15, y - 11), (x + 15, y + 13),
        ]  # fmt: skip
        words = counted(left, "chit") + " left"
        out.append(
            group(
                {
                    "class": "fortress",
                    "data-seat": seat,
                    "data-corner": colour["fortress"],
                    "data-chits-left": left,
                },
                [
                    f"<title>the pirate fortress of seat {seat}: {words}</title>",
                    polygon(
                        walls, fill=seat_style(seat).colour, stroke="#111111", stroke_width="2.5"
                    ),
                    letter(x, y + 4, seat, 11),
                    el(
                        "rect",
                        {"x": x - 31, "y": label_y, "width": "62", "height": "15", "rx": "3"}
                        | {"fill": "#ffffff", "stroke": INK, "stroke-width": "1"},
                    ),
                    text(x, label_y + 11, words, size=10, font_weight="bold", text_anchor="middle"),
                ],
            )
        )
    return group({"class": "fortresses"}, out)


#: The Wonders of Catan: how each list of marked intersections looks on the printed map
WONDER_MARKS = {
    "great_wall": ("#d62728", "the desert’s edge: the Great Wall may be started here"),
    "great_bridge": ("#8e44ad", "the strait: the Great Bridge may be started here"),
    "strait": ("#f1c40f", "beside the strait"),
}


def _wonder_marks(intersections: Mapping[str, Sequence[str]]) -> str:
    """The Wonders of Catan: the marked intersections, as the printed map marks them (red
    and purple squares, a yellow "!"), where no start settlement goes."""
    out = []
    for kind, corners in intersections.items():
        fill, words = WONDER_MARKS.get(kind, ("#ffffff", kind))
        for name in corners:
            x, y = corner_point(name)
            square = el(
                "rect",
                {"x": x - 8, "y": y - 8, "width": "16", "height": "16"}
                | {"fill": fill, "stroke": INK, "stroke-width": "1.5"},
            )
            mark = text(x, y + 5, "!", size=13, font_weight="bold", text_anchor="middle")
            out.append(
                group(
                    {"class": "wonder-mark", "data-corner": name, "data-mark": kind},
                    [f"<title>{clean(words)}</title>", square, mark if kind == "strait" else ""],
                )
            )
    return group({"class": "wonder-marks"}, out)


def _harbour_terms(kind: str) -> tuple[str, str, str]:
    """A harbour's colour, its rate and what it takes: the generic one white, "3:1",
    "any"; a special one its resource's terrain colour, "2:1", the resource."""
    if kind == "generic":
        return "#ffffff", "3:1", "any"
    terrain = RESOURCE_TERRAIN.get(kind)
    return (TERRAIN[terrain][0] if terrain else "#ffffff"), "2:1", kind


def _harbour_name(kind: str) -> str:
    """ "3:1" or "2:1 grain"."""
    _, ratio, words = _harbour_terms(kind)
    return ratio if kind == "generic" else f"{ratio} {words}"


def _harbours(harbours: Sequence[Mapping[str, Any]], terrain_at: Mapping) -> str:
    out = []
    for harbour in harbours:
        a, b = harbour["corners"]
        pa, pb = corner_point(a), corner_point(b)
        try:
            e = edge_between(parse_corner(a), parse_corner(b))
        except ValueError:
            continue
        sides = edge_hexes(e)
        water = [h for h in sides if terrain_at.get(h) not in LAND]
        land = [h for h in sides if terrain_at.get(h) in LAND]
        mx, my = midpoint(pa, pb)
        if water:
            ox, oy = centre(water[0])
        elif land:  # both sides land: push away from the first
            lx, ly = centre(land[0])
            ox, oy = 2 * mx - lx, 2 * my - ly
        else:
            ox, oy = mx, my
        # toward the sea, clear of the buildings on the harbour's two intersections
        hx, hy = mx + (ox - mx) * 0.65, my + (oy - my) * 0.65
        kind = harbour["type"]
        fill, ratio, words = _harbour_terms(kind)
        out.append(
            group(
                {"class": "harbour", "data-type": kind, "data-corners": f"{a} {b}"},
                [
                    f"<title>{clean(f'harbour {ratio} {words}')}</title>",
                    el(
                        "path",
                        {
                            "d": pd("M", pa[0], pa[1], "L", hx, hy, "L", pb[0], pb[1]),
                            "fill": "none",
                            "stroke": "#6d4c2f",
                            "stroke-width": "4",
                        },
                    ),
                    el(
                        "circle",
                        {
                            "cx": hx,
                            "cy": hy,
                            "r": "17",
                            "fill": fill,
                            "stroke": INK,
                            "stroke-width": "1.5",
                        },
                    ),
                    el(
                        "rect",
                        {
                            "x": hx - 15,
                            "y": hy - 12,
                            "width": "30",
                            "height": "24",
                            "rx": "4",
                            "fill": "#ffffff",
                            "opacity": "0.85",
                        },
                    ),
                    text(hx, hy - 1, ratio, size=10, font_weight="bold", text_anchor="middle"),
                    text(hx, hy + 9, words, size=8, text_anchor="middle"),
                ],
            )
        )
    return group({"class": "harbours"}, out)


MOVE_EVENTS = {
    "settlement_built": "corner",
    "city_built": "corner",
    "road_built": "edge",
    "ship_built": "edge",
    "ship_moved": "to",
    "robber_moved": "hex",
    "pirate_moved": "hex",
}


def _last_move(recent: Sequence[Mapping[str, Any]]) -> str | None:
    for event in reversed(recent):
        key = MOVE_EVENTS.get(event["type"])
        if key is None:
            continue
        where = event["data"].get(key)
        if not isinstance(where, str):
            return None
        if key == "corner":
            x, y = corner_point(where)
            r = 24
        elif key in ("edge", "to"):
            a, b = edge_points(where)
            x, y = midpoint(a, b)
            r = 22
        else:
            x, y = centre(parse_hex(where))
            r = 46
        seat = event["data"].get("seat")
        colour = seat_style(seat).colour if isinstance(seat, int) else "#ffffff"
        return group(
            {"class": "last-move", "data-event": event["type"], "data-at": where},
            [
                el(
                    "circle",
                    {
                        "cx": x,
                        "cy": y,
                        "r": r,
                        "fill": "none",
                        "stroke": "#000000",
                        "stroke-width": "6",
                    },
                ),
                el(
                    "circle",
                    {
                        "cx": x,
                        "cy": y,
                        "r": r,
                        "fill": "none",
                        "stroke": colour,
                        "stroke-width": "3",
                    },
                ),
                el(
                    "circle",
                    {
                        "cx": x,
                        "cy": y,
                        "r": r,
                        "fill": "none",
                        "stroke": "#ffffff",
                        "stroke-width": "3",
                        "stroke-dasharray": "5 5",
                    },
                ),
            ],
        )
    return None


MOVE_WORDS = {
    "settlement_built": "built a settlement",
    "city_built": "built a city",
    "road_built": "built a road",
    "ship_built": "built a ship",
    "ship_moved": "moved a ship",
    "robber_moved": "moved the robber",
    "pirate_moved": "moved the pirate",
}


def _last_move_words(recent: Sequence[Mapping[str, Any]], names: Sequence[str]) -> list[str]:
    for event in reversed(recent):
        if event["type"] in MOVE_WORDS:
            seat = event["data"].get("seat")
            who = "A seat"
            if isinstance(seat, int):
                who = seat_label(names, seat)
            return [f"Last move: {who} {MOVE_WORDS[event['type']]} (ringed)"]
    return []


def _counts(counts: Mapping[str, int]) -> str:
    shown = [f"{n} {k}" for k, n in counts.items() if n]
    return ", ".join(shown) if shown else "none"


def _panel(view: Mapping[str, Any], seat: int | None, names: Sequence[str], version: int, moved):
    scenario = view.get("scenario")
    title = "Catan" if not scenario else "Catan: Seafarers"
    subtitle = []
    if scenario:
        number = scenario.get("number")
        words = SCENARIO_TITLES.get(number) or str(scenario.get("name", "")).replace("-", " ")
        subtitle.append(f"Scenario {number}: {words}")
    target = (scenario or {}).get("victory_points") or (view.get("options") or {}).get(
        "victory_points"
    )
    subtitle.append(f"Version {version}, turn {view.get('turn', 0)}; {target} points to win")
    subtitle.append(
        "Seen by " + ("a spectator" if seat is None else f"seat {seat} ({seat_name(names, seat)})")
    )
    roll = view.get("last_roll")
    if roll:
        subtitle.append(f"Last roll: {' + '.join(str(d) for d in roll)} = {sum(roll)}")
    rows = []
    special = view.get("special_points") or []
    for player in view.get("players", []):
        s = player["seat"]
        # the knights and the road length for the cards they win: the Pirate Islands use
        # neither card (line 553), Cloth for Catan no Longest Road (line 513)
        awarded = []
        if not view.get("pirate_islands"):
            awarded.append(f"knights played: {player['knights']}")
            if not view.get("cloth"):
                awarded.append(f"road length: {_at(view.get('road_lengths'), s)}")
        lines = [
            f"{counted(player['cards'], 'resource card')}, "
            f"{counted(player['development_cards'], 'development card')}",
            *(["; ".join(awarded)] if awarded else []),
            "pieces left: "
            + ", ".join(
                counted(n, k, "cities" if k == "city" else None)
                for k, n in player.get("pieces", {}).items()
            ),
        ]
        awards = []
        if view.get("longest_road") == s:
            awards.append("Longest Road")
        if view.get("largest_army") == s:
            awards.append("Largest Army")
        if awards:
            lines.append("holds " + " and ".join(awards))
        if s < len(special) and special[s]:
            lines.append(f"special points (islands): {special[s]}")
        lines += _scenario_lines(view, s)
        if "resources" in player:  # only in the viewer's own view
            lines.append("your hand: " + _counts(player["resources"]))
            cards = [
                counted(n, f"{'new ' if new else ''}{kind.replace('_', ' ')} card")
                for new, held in (
                    (False, player.get("development", {})),
                    (True, player.get("development_new", {})),
                )
                for kind, n in held.items()
                if n
            ]
            lines.append("your development cards: " + (", ".join(cards) or "none"))
        rows.append(PanelRow(s, seat_name(names, s), player["points"], lines))
    footer = list(moved)
    footer += _legend(view)
    wonders = view.get("wonders")
    if wonders:
        free = [_wonder_title(card) for card in wonders["cards"] if card["seat"] is None]
        footer.append("Wonders not started: " + (", ".join(free) or "none"))
    if view.get("over"):
        footer.append(winners_line(names, view.get("winners", [])))
    else:
        # the seats awaited (several discard at once), not the seat whose turn it is; a
        # proposal any other seat may make in the active seat's turn awaits nobody
        awaited = sorted(
            {d["seat"] for d in view.get("awaiting", []) if d["kind"] != "propose_trade"}
        )
        if awaited:
            waiting = " and ".join(seat_label(names, s) for s in awaited)
            setting_up = " (the set-up)" if view.get("phase") == "setup" else ""
            footer.append(f"Waiting for {waiting}{setting_up}")
    footer.append("Red numbers (6, 8) are rolled most; dots: ways to roll")
    return panel(16, 10, PANEL_WIDTH - 32, title, subtitle, rows, footer)


def _scenario_lines(view: Mapping[str, Any], seat: int) -> list[str]:
    """What a scenario of its own gives a seat, in words: the Forgotten Tribe's chits and
    harbour markers kept, the Pirate Islands' fortress and warships, the wonder built."""
    lines = []
    tribe = view.get("tribe")
    if tribe:
        lines.append("Catan chits from the tribe: " + str(_at(tribe["chits"], seat)))
        held = tribe["harbours_held"][seat] if seat < len(tribe["harbours_held"]) else []
        if held:
            markers = ", ".join(_harbour_name(kind) for kind in held)
            lines.append("harbour markers to place: " + markers)
    islands = view.get("pirate_islands")
    if islands:
        for colour in islands["colours"]:
            if colour["seat"] == seat:
                won = colour["chits"]
                fortress = "conquered" if colour["conquered"] else f"{won} of {CHITS} chits won"
                warships = counted(len(colour["warships"]), "warship")
                lines.append(f"fortress: {fortress}; {warships}")
    wonders = view.get("wonders")
    if wonders:
        mine = [card for card in wonders["cards"] if card["seat"] == seat]
        if mine:
            level = _at(wonders["levels_by_seat"], seat)
            levels = wonders["levels"]
            lines.append(f"wonder: {_wonder_title(mine[0])}, level {level} of {levels}")
        else:
            lines.append("no wonder started")
    return lines


def _legend(view: Mapping[str, Any]) -> list[str]:
    """What a scenario's own marks on the board mean."""
    if view.get("tribe"):
        return [
            "On the coast paths, the tribe's gifts for the first ship built there: Catan"
            " chits (1 VP), development cards, harbour markers (squares)"
        ]
    islands = view.get("pirate_islands")
    if islands:
        loop = "Dotted loop: the pirate fleet's way, clockwise; " if islands["fleet"] else ""
        return [
            f"{loop}Dashes: each seat's sea route to its fortress (castle), through its"
            " diamond; red pennant: a warship"
        ]
    if view.get("wonders"):
        return [
            "No start settlement on a marked intersection: red squares (the Great Wall's),"
            " purple (the Great Bridge's), yellow ! (beside the strait)"
        ]
    return []


def _wonder_title(card: Mapping[str, Any]) -> str:
    return str(card.get("title", {}).get("en") or card["wonder"])


def _at(values, index):
    return values[index] if values and index < len(values) else 0


def hex_picture(terrain: str, number: int | None = None) -> str:
    """One hex of ``terrain``, with a number token if given."""
    from service.pictures import UnknownPicture

    if terrain not in TERRAIN:
        raise UnknownPicture(f"no terrain {terrain!r} in Catan; one of {', '.join(TERRAIN)}")
    if number is not None and number not in NUMBERS:
        raise ValueError("number is one of 2-6 and 8-12")
    h = (0, 0)
    x, y = centre(h)
    body = [
        group(
            {"transform": f"translate({num(W / 2 + 10 - x)} {num(R + 10 - y)})"},
            [terrain_hex(h, terrain, number)],
        )
    ]
    title = f"Catan hex: {terrain}" + (f" {number}" if number is not None else "")
    return document(W + 20, 2 * R + 20, title, body, scale=2)

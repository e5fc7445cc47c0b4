"""Carcassonne and its expansions, drawn from the ruleset's view.

The tiles come from the game's catalogue (the base set and the expansions its options
name, the wheel board included) through :mod:`service.pictures.squares`. The view lists
every placed tile, figure, score, supply and the expansions' public parts (goods,
flocks, the wheel); a tile hidden under a hill is not in it, so it cannot be drawn.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from service.pictures import tileboard
from service.pictures.svg import (
    INK,
    PanelRow,
    counted,
    document,
    el,
    group,
    num,
    panel,
    pd,
    seat_badge,
    seat_label,
    seat_name,
    text,
    winners_line,
)
from service.rules.carcassonne.base import modules_for
from service.rules.carcassonne.state import game_rules
from service.rules.tiling.tiles import Catalogue

PANEL_WIDTH = 330.0
FIGURE_WORDS = {
    "follower": ("follower", "followers"),
    "big_follower": ("big follower", "big followers"),
    "builder": ("builder", "builders"),
    "pig": ("pig", "pigs"),
    "shepherd": ("shepherd", "shepherds"),
}
EXPANSION_TITLES = {
    "river": "The River",
    "inns_cathedrals": "Inns & Cathedrals",
    "traders_builders": "Traders & Builders",
    "hills_sheep": "Hills & Sheep",
    "wheel_of_fortune": "Wheel of Fortune",
}
WHEEL_PREFIX = "WF/wheel."


def catalogue_for(options: Mapping[str, Any]) -> Catalogue:
    return game_rules(modules_for(options)).catalogue


def all_tiles() -> Catalogue:
    """Every tile any Carcassonne game may hold (for the single-tile pictures)."""
    return catalogue_for({"expansions": list(EXPANSION_TITLES), "wheel_board": None})


def render(
    view: Mapping[str, Any],
    *,
    seat: int | None,
    names: Sequence[str],
    version: int,
    recent: Sequence[Mapping[str, Any]],
) -> str:
    catalogue = catalogue_for(view["options"])
    board = view["board"]
    frame = tileboard.frame_of(board)
    index = {(t["x"], t["y"]): t for t in board}
    layers = [tileboard.board_grid_labels(frame)]
    layers.append(
        group(
            {"class": "board"},
            [tileboard.tiles_layer(catalogue, board, frame)],
        )
    )
    expansions = view.get("expansions") or {}
    wheel = expansions.get("wheel_of_fortune")
    if wheel is not None:
        layers.append(_wheel(wheel, board, frame))

    placed, figures_after = tileboard.last_tile_move(recent, "tile_placed", ("follower_placed",))
    if placed is not None and (placed["x"], placed["y"]) in index:
        layers.append(tileboard.last_move_frame(frame, placed["x"], placed["y"], placed["seat"]))

    def point(f):
        ox, oy = frame.origin(f["x"], f["y"])
        px, py = tileboard.spot_point(catalogue, index, f["x"], f["y"], f["spot"])
        return (ox + px, oy + py)

    figures = []
    rings = []
    last_spots = {
        (d["x"], d["y"], d.get("spot"), d.get("figure", "follower")) for d in figures_after
    }
    for f, (px, py) in tileboard.place_figures(view["followers"], point):
        title = tileboard.figure_title(names, f["seat"], f["figure"], f["spot"], f["x"], f["y"])
        figures.append(
            tileboard.figure(
                f["seat"],
                f["figure"],
                px,
                py,
                title,
                {"data-x": f["x"], "data-y": f["y"], "data-spot": f["spot"]},
            )
        )
        if (f["x"], f["y"], f["spot"], f["figure"]) in last_spots:
            rings.append(tileboard.figure_ring(px, py))
    layers.append(group({"class": "figures"}, figures))
    layers.extend(rings)
    flocks = (expansions.get("hills_sheep") or {}).get("flocks") or {}
    if flocks:
        layers.append(_flocks(flocks, point))

    moved = tileboard.last_move_words(placed, figures_after, names, "follower")
    panel_svg, panel_height = _panel(view, seat, names, version, catalogue, moved)
    width = frame.width + PANEL_WIDTH
    height = max(frame.height, panel_height + 40)
    body = [
        group({"class": "board-area"}, layers),
        group({"class": "panel", "transform": f"translate({num(frame.width)} 0)"}, [panel_svg]),
    ]
    title = f"Carcassonne, version {version}"
    return document(
        width, height, title, body, scale=_scale(width, height), data=tileboard.grid_data(frame)
    )


def _scale(width: float, height: float) -> float:
    """Pictures at most about 1600 pixels on their longer side."""
    return min(1.0, 1600.0 / max(width, height))


def _flocks(flocks: Mapping[str, Any], point) -> str:
    out = []
    for key in sorted(flocks):
        flock = flocks[key]
        sheep = sum(int(s) for s in flock.get("sheep", []) if str(s).isdigit())
        px, py = point(flock)
        x, y = px + 15, py - 15
        out.append(
            group(
                {"class": "flock", "data-seat": flock["seat"], "data-sheep": sheep},
                [
                    el(
                        "ellipse",
                        {"cx": x, "cy": y, "rx": "12", "ry": "8", "fill": "#ffffff", "stroke": INK},
                    ),
                    el("circle", {"cx": x + 11, "cy": y - 3, "r": "3.5", "fill": "#333333"}),
                    text(
                        x - 1, y + 4, str(sheep), size=10, font_weight="bold", text_anchor="middle"
                    ),
                ],
            )
        )
    return group({"class": "flocks"}, out)


def _wheel(wheel: Mapping[str, Any], board: Sequence[Mapping[str, Any]], frame) -> str:
    """The wheel board over its tiles: six sectors clockwise from Fortune at the top, the
    crown spaces with their followers, the pig on its sector."""
    spaces = [t for t in board if str(t["tile"]).startswith(WHEEL_PREFIX)]
    if not spaces:
        return ""
    xs = [t["x"] for t in spaces]
    ys = [t["y"] for t in spaces]
    x0, y0 = frame.origin(min(xs), min(ys))
    size = (max(xs) - min(xs) + 1) * tileboard.TILE
    cx, cy = x0 + size / 2, y0 + size / 2
    radius = size / 2 - 0.55 * tileboard.TILE
    sectors = list(wheel.get("sectors") or [])
    crowns = wheel.get("crowns") or {}
    out = [
        el(
            "circle",
            {
                "cx": cx,
                "cy": cy,
                "r": radius + 6,
                "fill": "#6d4c2f",
                "stroke": INK,
                "stroke-width": "2",
            },
        )
    ]
    count = max(1, len(sectors))
    fills = ("#f7e7b4", "#efd48a")
    for k, name in enumerate(sectors):
        a0 = math.radians(-90 + 360 * k / count)
        a1 = math.radians(-90 + 360 * (k + 1) / count)
        p0 = (cx + radius * math.cos(a0), cy + radius * math.sin(a0))
        p1 = (cx + radius * math.cos(a1), cy + radius * math.sin(a1))
        d = pd("M", cx, cy, "L", p0[0], p0[1], "A", radius, radius, 0, 0, 1, p1[0], p1[1], "Z")
        mid = (a0 + a1) / 2
        label = (cx + radius * 0.66 * math.cos(mid), cy + radius * 0.66 * math.sin(mid))
        parts = [
            el("path", {"d": d, "fill": fills[k % 2], "stroke": "#6d4c2f", "stroke-width": "2"}),
            text(
                label[0],
                label[1] + 4,
                name.capitalize(),
                size=11,
                font_weight="bold",
                text_anchor="middle",
            ),
        ]
        seats = crowns.get(name) or []
        for s_index, occupant in enumerate(seats):
            # side by side across the sector, between the hub and the label
            offset = (s_index - (len(seats) - 1) / 2) * 26
            px = cx + radius * 0.34 * math.cos(mid) - offset * math.sin(mid)
            py = cy + radius * 0.34 * math.sin(mid) + offset * math.cos(mid)
            crown = el(
                "circle",
                {
                    "cx": px,
                    "cy": py,
                    "r": "12",
                    "fill": "#fff3c4",
                    "stroke": "#a67c00",
                    "stroke-width": "2",
                },
            )
            parts.append(
                group(
                    {"class": "crown", "data-sector": name, "data-space": s_index},
                    [crown]
                    + (
                        []
                        if occupant is None
                        else [
                            group(
                                {
                                    "class": "figure",
                                    "data-seat": occupant,
                                    "data-figure": "follower",
                                    "data-sector": name,
                                },
                                [seat_badge(px, py, occupant, r=10)],
                            )
                        ]
                    ),
                )
            )
        if wheel.get("pig") == name:
            px = cx + radius * 0.86 * math.cos(mid)
            py = cy + radius * 0.86 * math.sin(mid)
            parts.append(
                group(
                    {"class": "wheel-pig", "data-sector": name},
                    [
                        el(
                            "ellipse",
                            {
                                "cx": px,
                                "cy": py,
                                "rx": "12",
                                "ry": "8",
                                "fill": "#f4a6b7",
                                "stroke": INK,
                                "stroke-width": "1.5",
                            },
                        ),
                        el(
                            "circle",
                            {"cx": px + 11, "cy": py, "r": "4", "fill": "#f4a6b7", "stroke": INK},
                        ),
                    ],
                )
            )
        out.append(group({"class": "sector", "data-sector": name}, parts))
    out.append(el("circle", {"cx": cx, "cy": cy, "r": "16", "fill": "#6d4c2f"}))
    return group({"class": "wheel"}, out)


def _panel(view, seat, names, version, catalogue, moved) -> tuple[str, float]:
    options = view.get("options") or {}
    chosen = [EXPANSION_TITLES.get(e, e) for e in options.get("expansions", [])]
    subtitle = [
        f"Expansions: {', '.join(chosen)}" if chosen else "Base game",
        f"Version {version}, turn {view.get('turn', 0)}",
        "Seen by " + ("a spectator" if seat is None else f"seat {seat} ({seat_name(names, seat)})"),
    ]
    goods = ((view.get("expansions") or {}).get("traders_builders") or {}).get("goods")
    rows = []
    for s in range(view["seats"]):
        supply = view["supply"][s] if s < len(view["supply"]) else {}
        parts = []
        for figure, left in supply.items():
            parts.append(counted(left, *FIGURE_WORDS.get(figure, (figure, figure))))
        lines = ["in supply: " + ", ".join(parts)] if parts else []
        if goods:
            g = goods[s]
            lines.append(
                "goods: " + ", ".join(f"{g.get(k, 0)} {k}" for k in ("wine", "grain", "cloth"))
            )
        rows.append(PanelRow(s, seat_name(names, s), view["scores"][s], lines))
    footer = [*moved, f"Tiles left to draw: {view.get('remaining', 0)}"]
    if view.get("over"):
        footer.append(winners_line(names, view.get("winners", [])))
    elif view.get("tile"):
        footer.append(f"{seat_label(names, view.get('seat') or 0)} places this tile:")
    svg, height = panel(16, 10, PANEL_WIDTH - 32, "Carcassonne", subtitle, rows, footer)
    drawn, height = tileboard.next_tile_panel(catalogue, view, height)
    svg += drawn
    return svg, height


def tile_picture(name: str, rotation: int) -> str:
    return tileboard.single_tile(all_tiles(), name, rotation, "Carcassonne")

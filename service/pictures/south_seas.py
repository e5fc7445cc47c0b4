"""Carcassonne: South Seas, drawn from the ruleset's view: sea tiles with islands,
bridges, markets, fish, shells, bananas and fishing boats, the islanders, the fish
covered by fishing-boat tokens, and beside the board the scores, wares, ships held and
the ships on offer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from service.pictures import squares, tileboard
from service.pictures.svg import (
    INK,
    PanelRow,
    clean,
    document,
    el,
    group,
    num,
    panel,
    seat_label,
    seat_name,
    winners_line,
)
from service.rules.south_seas.content import content_for
from service.rules.tiling.tiles import Catalogue

PANEL_WIDTH = 360.0
WARES = ("shell", "banana", "fish")


def catalogue_for(options: Mapping[str, Any]) -> Catalogue:
    return content_for(options.get("tiles"), options.get("ships")).catalogue


def render(
    view: Mapping[str, Any],
    *,
    seat: int | None,
    names: Sequence[str],
    version: int,
    recent: Sequence[Mapping[str, Any]],
    options: Mapping[str, Any],
) -> str:
    catalogue = catalogue_for(options)
    board = view["board"]
    frame = tileboard.frame_of(board)
    index = {(t["x"], t["y"]): t for t in board}
    layers = [
        tileboard.board_grid_labels(frame),
        group({"class": "board"}, [tileboard.tiles_layer(catalogue, board, frame)]),
    ]
    covered = []
    for entry in view.get("covered", []):
        ox, oy = frame.origin(entry["x"], entry["y"])
        ix, iy = tileboard.spot_icon(catalogue, index, entry["x"], entry["y"], entry["spot"])
        groups = {k: v for k, v in entry.items() if k not in ("x", "y", "spot")}
        words = ", ".join(f"{v} x {k}" for k, v in sorted(groups.items()))
        covered.append(
            group(
                {
                    "class": "covered",
                    "data-x": entry["x"],
                    "data-y": entry["y"],
                    "data-spot": entry["spot"],
                },
                [
                    f"<title>{clean('fish covered by a fishing boat: ' + words)}</title>",
                    el(
                        "circle",
                        {
                            "cx": ox + ix,
                            "cy": oy + iy,
                            "r": "11",
                            "fill": "#dddddd",
                            "stroke": INK,
                            "stroke-width": "1.2",
                            "opacity": "0.92",
                        },
                    ),
                    squares.boat(ox + ix, oy + iy + 1, fill="#666666"),
                ],
            )
        )
    layers.append(group({"class": "fishing-boats"}, covered))
    placed, after = tileboard.last_tile_move(recent, "tile_placed", ("islander_placed",))
    if placed is not None and (placed["x"], placed["y"]) in index:
        layers.append(
            tileboard.last_move_frame(frame, placed["x"], placed["y"], placed.get("seat"))
        )

    def point(f):
        ox, oy = frame.origin(f["x"], f["y"])
        px, py = tileboard.spot_point(catalogue, index, f["x"], f["y"], f["spot"])
        return (ox + px, oy + py)

    last_spots = {(d["x"], d["y"], d.get("spot")) for d in after}
    figures, rings = [], []
    for f, (px, py) in tileboard.place_figures(view["islanders"], point):
        title = tileboard.figure_title(names, f["seat"], "islander", f["spot"], f["x"], f["y"])
        figures.append(
            tileboard.figure(
                f["seat"],
                "islander",
                px,
                py,
                title,
                {"data-x": f["x"], "data-y": f["y"], "data-spot": f["spot"]},
            )
        )
        if (f["x"], f["y"], f["spot"]) in last_spots:
            rings.append(tileboard.figure_ring(px, py))
    layers.append(group({"class": "figures"}, figures))
    layers.extend(rings)

    moved = tileboard.last_move_words(placed, after, names, "islander")
    panel_svg, panel_height = _panel(view, seat, names, version, catalogue, moved)
    width = frame.width + PANEL_WIDTH
    height = max(frame.height, panel_height + 40)
    body = [
        group({"class": "board-area"}, layers),
        group({"class": "panel", "transform": f"translate({num(frame.width)} 0)"}, [panel_svg]),
    ]
    scale = min(1.0, 1600.0 / max(width, height))
    title = f"Carcassonne: South Seas, version {version}"
    return document(width, height, title, body, scale, data=tileboard.grid_data(frame))


def _ship(ship: Mapping[str, Any]) -> str:
    demand = ship.get("demand", {})
    parts = []
    for key, value in demand.items():
        if key == "any":
            parts.append(f"{value} of any")
        elif key == "same":
            parts.append(" + ".join(f"{v} alike" for v in value))
        else:
            parts.append(f"{value} {key}")
    return f"{ship['id']} ({ship.get('points', 0)} pts: {', '.join(parts)})"


def _panel(view, seat, names, version, catalogue, moved) -> tuple[str, float]:
    subtitle = [
        f"Version {version}, turn {view.get('turn', 0)}",
        "Seen by " + ("a spectator" if seat is None else f"seat {seat} ({seat_name(names, seat)})"),
    ]
    rows = []
    for s in range(view["seats"]):
        wares = view["wares"][s]
        held = view["held"][s] if s < len(view.get("held", [])) else []
        lines = [
            f"islanders in supply: {view['supply'][s]}",
            "wares: " + ", ".join(f"{wares.get(w, 0)} {w}" for w in WARES),
        ]
        if held:
            lines.append("ships: " + ", ".join(f"{h['id']} ({h.get('points', 0)})" for h in held))
        rows.append(PanelRow(s, seat_name(names, s), view["scores"][s], lines))
    footer = [*moved, "Ships on offer:"]
    footer += ["  " + _ship(ship) for ship in view.get("display", [])]
    footer.append(f"Ships face down: {view.get('ships_face_down', 0)}")
    footer.append(f"Fishing boats left: {view.get('fishing_boats_left', 0)}")
    footer.append(f"Tiles left to draw: {view.get('remaining', 0)}")
    if view.get("over"):
        footer.append(winners_line(names, view.get("winners", [])))
    elif view.get("tile") and view.get("seat") is not None:
        footer.append(f"{seat_label(names, view['seat'])} places this tile:")
    svg, height = panel(16, 10, PANEL_WIDTH - 32, "South Seas", subtitle, rows, footer)
    drawn, height = tileboard.next_tile_panel(catalogue, view, height)
    svg += drawn
    return svg, height


def tile_picture(name: str, rotation: int) -> str:
    return tileboard.single_tile(catalogue_for({}), name, rotation, "South Seas")

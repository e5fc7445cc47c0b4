"""The board of a square-tile game (Carcassonne, South Seas) as its view lists it:
each placed tile drawn from the catalogue at its rotation, figures on their spots, the
last move framed."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from service.pictures import squares
from service.pictures.svg import (
    INK,
    Point,
    el,
    group,
    num,
    seat_badge,
    seat_label,
    seat_style,
    text,
)
from service.rules.tiling.tiles import Catalogue, TileType

TILE = 100.0
MARGIN = 40.0
ROTATIONS = (0, 90, 180, 270)


@dataclass(frozen=True)
class Frame:
    """Where the board's tiles go on the picture."""

    min_x: int
    min_y: int
    columns: int
    rows: int

    @property
    def width(self) -> float:
        return self.columns * TILE + 2 * MARGIN

    @property
    def height(self) -> float:
        return self.rows * TILE + 2 * MARGIN

    def origin(self, x: int, y: int) -> Point:
        return (MARGIN + (x - self.min_x) * TILE, MARGIN + (y - self.min_y) * TILE)


def grid_data(frame: Frame) -> dict[str, object]:
    """The root's data attributes that let a client draw on the board (the /play/
    page's ghost cells where a tile may go): the picture point of cell (0, 0)'s top-left
    corner, the cell's size, and the width of the board before the panel."""
    ox, oy = frame.origin(0, 0)
    return {
        "data-origin-x": num(ox),
        "data-origin-y": num(oy),
        "data-cell": num(TILE),
        "data-board-width": num(frame.width),
    }


def frame_of(board: Sequence[Mapping[str, Any]]) -> Frame:
    if not board:
        return Frame(0, 0, 1, 1)
    xs = [t["x"] for t in board]
    ys = [t["y"] for t in board]
    return Frame(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)


def placed_drawing(catalogue: Catalogue, tile: Mapping[str, Any]):
    found = catalogue.get(tile["tile"])
    if found is None:
        return None, None
    q = ROTATIONS.index(tile["rotation"]) if tile["rotation"] in ROTATIONS else 0
    return found, q


def tiles_layer(
    catalogue: Catalogue,
    board: Sequence[Mapping[str, Any]],
    frame: Frame,
) -> str:
    """One ``<g class="tile">`` per placed tile, in the view's order."""
    out = []
    for tile in board:
        found, q = placed_drawing(catalogue, tile)
        ox, oy = frame.origin(tile["x"], tile["y"])
        items = {
            "class": "tile",
            "data-x": tile["x"],
            "data-y": tile["y"],
            "data-tile": tile["tile"],
            "data-rotation": tile["rotation"],
            "transform": f"translate({num(ox)} {num(oy)})",
        }
        if found is None:
            body = el("rect", {"width": "100", "height": "100", "fill": "#d8cfb8", "stroke": INK})
        else:
            body = squares.tile_svg(found, q)
        out.append(group(items, [body]))
    return "".join(out)


def spot_point(catalogue: Catalogue, board_index: Mapping[tuple[int, int], Mapping], x, y, spot):
    """Where a figure on ``spot`` of the tile at (x, y) stands, on the picture's tile."""
    tile = board_index.get((x, y))
    if tile is None:
        return (50.0, 50.0)
    found, q = placed_drawing(catalogue, tile)
    if found is None:
        return (50.0, 50.0)
    drawing = squares.draw(found, q)
    return drawing.anchors.get(spot, (50.0, 50.0))


def spot_icon(catalogue: Catalogue, board_index, x, y, spot) -> Point:
    tile = board_index.get((x, y))
    if tile is None:
        return (50.0, 50.0)
    found, q = placed_drawing(catalogue, tile)
    if found is None:
        return (50.0, 50.0)
    return squares.draw(found, q).icons.get(spot, (50.0, 50.0))


FIGURE_SHAPES = {
    "follower": ("circle", 10.0),
    "islander": ("circle", 10.0),
    "big_follower": ("circle", 13.5),
    "builder": ("square", 9.0),
    "pig": ("diamond", 9.0),
    "shepherd": ("triangle", 10.0),
}


def figure(seat: int, kind: str, x: float, y: float, title: str, extra: Mapping | None = None):
    """A figure: the seat's colour and letter, its shape by figure type."""
    shape, r = FIGURE_SHAPES.get(kind, ("circle", 10.0))
    body = [f"<title>{_escape(title)}</title>"]
    if kind == "big_follower":
        body.append(
            el("circle", {"cx": x, "cy": y, "r": r + 3.5, "fill": "#ffffff", "stroke": INK})
        )
    body.append(seat_badge(x, y, seat, r=r, shape=shape))
    items = {"class": "figure", "data-seat": seat, "data-figure": kind, **(extra or {})}
    return group(items, body)


def _escape(words: str) -> str:
    from service.pictures.svg import clean

    return clean(words)


def place_figures(
    figures: Iterable[Mapping[str, Any]],
    point: Callable[[Mapping[str, Any]], Point],
) -> list[tuple[Mapping[str, Any], Point]]:
    """Each figure's point; figures sharing a spot stand side by side."""
    seen: dict[tuple, int] = {}
    out = []
    for f in figures:
        key = (f["x"], f["y"], f["spot"])
        k = seen.get(key, 0)
        seen[key] = k + 1
        px, py = point(f)
        shift = ((k + 1) // 2) * 17 * (1 if k % 2 else -1)
        out.append((f, (px + shift, py)))
    return out


def last_move_frame(frame: Frame, x: int, y: int, seat: int | None) -> str:
    """A thick black-and-white frame round the last tile placed."""
    ox, oy = frame.origin(x, y)
    colour = seat_style(seat).colour if seat is not None else "#ffffff"
    rect = {"x": ox + 2, "y": oy + 2, "width": "96", "height": "96", "fill": "none"}
    return group(
        {"class": "last-move", "data-x": x, "data-y": y},
        [
            el("rect", {**rect, "stroke": "#000000", "stroke-width": "7"}),
            el("rect", {**rect, "stroke": colour, "stroke-width": "3.5"}),
            el(
                "rect",
                {**rect, "stroke": "#ffffff", "stroke-width": "3.5", "stroke-dasharray": "6 6"},
            ),
        ],
    )


def last_tile_move(recent: Sequence[Mapping[str, Any]], placed: str, figure_types: Sequence[str]):
    """The last tile placement in the events and the figures placed after it."""
    for k in range(len(recent) - 1, -1, -1):
        event = recent[k]
        if event["type"] == placed:
            data = event["data"]
            later = [
                e["data"]
                for e in recent[k + 1 :]
                if e["type"] in figure_types and e["data"].get("x") is not None
            ]
            return data, later
    return None, []


def figure_ring(x: float, y: float) -> str:
    return el(
        "circle",
        {
            "class": "last-move",
            "cx": x,
            "cy": y,
            "r": "17",
            "fill": "none",
            "stroke": "#000000",
            "stroke-width": "2.5",
            "stroke-dasharray": "4 3",
        },
    )


def board_grid_labels(frame: Frame) -> str:
    """Board coordinates along the top and the left edges."""
    out = []
    for k in range(frame.columns):
        x = frame.min_x + k
        ox, _ = frame.origin(x, frame.min_y)
        out.append(
            text(ox + 50, MARGIN - 10, str(x), size=12, fill="#777777", text_anchor="middle")
        )
    for k in range(frame.rows):
        y = frame.min_y + k
        _, oy = frame.origin(frame.min_x, y)
        out.append(text(MARGIN - 8, oy + 54, str(y), size=12, fill="#777777", text_anchor="end"))
    return group({"class": "coordinates"}, out)


def single_tile(catalogue: Catalogue, name: str, rotation: int, game: str) -> str:
    """One tile of ``catalogue`` (by id or letter) turned ``rotation`` degrees."""
    from service.pictures import UnknownPicture
    from service.pictures.svg import document

    tile = catalogue.get(name)
    if tile is None:
        raise UnknownPicture(f"no tile {name!r} in {game}")
    if rotation not in ROTATIONS:
        raise ValueError("rotation is 0, 90, 180 or 270")
    q = ROTATIONS.index(rotation)
    label = tile.id if tile.letter is None else f"{tile.id} ({tile.letter})"
    body = [
        group(
            {
                "class": "tile",
                "data-tile": tile.id,
                "data-rotation": rotation,
                "data-spots": spot_points(tile, q),
                "transform": "translate(10 10)",
            },
            [squares.tile_svg(tile, q)],
        ),
        text(60, 126, f"{label} {rotation}°", size=9, text_anchor="middle"),
    ]
    return document(120, 136, f"{game} tile {label}, turned {rotation}°", body, scale=2)


def spot_points(tile: TileType, q: int) -> str:
    """Where a figure on each spot of the tile stands, as the boards draw it, in the
    tile's own 100 x 100 frame: ``"city:N 50 14;road:E,W 50 50"``. Clients use it to
    offer the spots of a placed tile on the board (the /play/ page)."""
    anchors = squares.draw(tile, q).anchors
    return ";".join(f"{spot} {num(x)} {num(y)}" for spot, (x, y) in anchors.items())


def a_figure(kind: str) -> str:
    """A figure's kind in words, with its article: "a big follower", "an islander"."""
    word = kind.replace("_", " ")
    return f"{'an' if word[0] in 'aeiou' else 'a'} {word}"


def feature_of(spot: object) -> str:
    """The feature a spot lies on, in words: "road" for ``road:E,W``."""
    return str(spot).partition(":")[0]


def figure_title(names: Sequence[str], seat: int, kind: str, spot: object, x: int, y: int) -> str:
    """A figure's hover title: "Ada (A): a big follower on the field at (0, 9)"."""
    return f"{seat_label(names, seat)}: {a_figure(kind)} on the {feature_of(spot)} at ({x}, {y})"


def last_move_words(placed, figures, names: Sequence[str], figure_word: str) -> list[str]:
    """The last move in words, for the panel: who placed a tile where (the board's
    coordinates, as its edges number them), and which figure on which of its features:
    "Last move: Bob (B) placed a tile at (0, 1), an islander on its market (framed)"."""
    if placed is None:
        return []
    seat = placed.get("seat")
    who = seat_label(names, seat) if isinstance(seat, int) else "A seat"
    line = f"Last move: {who} placed a tile at ({placed['x']}, {placed['y']})"
    for f in figures:
        line += f", {a_figure(f.get('figure', figure_word))} on its {feature_of(f.get('spot'))}"
    return [line + " (framed)"]


def next_tile_panel(
    catalogue: Catalogue, view: Mapping[str, Any], height: float
) -> tuple[str, float]:
    """The tile in hand drawn below the side panel (``height`` tall so far), while the
    game goes on; the SVG to add and the panel's new height."""
    if view.get("over") or not view.get("tile"):
        return "", height
    tile = catalogue.get(view["tile"])
    if tile is None:
        return "", height
    drawn = group(
        {
            "class": "next-tile",
            "data-tile": view["tile"],
            "transform": f"translate(16 {num(14 + height)})",
        },
        [squares.tile_svg(tile, 0)],
    )
    return drawn, height + 110

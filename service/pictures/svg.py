"""A small, deterministic SVG writer and what every picture shares: seat colours and
letters, number formatting, the score panel.

Everything here is plain string building: attributes are written in the order given,
numbers with at most two decimals, text escaped; no ids, no timestamps, no randomness,
so the same input always gives the same bytes. Styling is done with presentation
attributes only (no ``<style>``, no ``style=""``, no script), so the pictures render
under a ``default-src 'none'`` Content-Security-Policy and as ``<img>``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

Point = tuple[float, float]

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
INK = "#222222"
PAPER = "#fbf8f0"


#: characters XML 1.0 does not allow, even escaped (a seat's name may hold them)
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def clean(words: str) -> str:
    """Text that XML may hold: escaped, with characters XML forbids replaced."""
    return escape(_NOT_XML.sub("\ufffd", words))


def num(value: float) -> str:
    """A coordinate: at most two decimals, no trailing zeros, never ``-0``."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def pd(*items: str | float) -> str:
    """Path data from commands and numbers: ``pd("M", 0, 0, "L", 10, 5)``."""
    out = []
    previous_number = False
    for item in items:
        if isinstance(item, str):
            out.append(item)
            previous_number = False
        else:
            out.append((" " if previous_number else "") + num(item))
            previous_number = True
    return "".join(out)


def attrs(items: Mapping[str, object]) -> str:
    out = []
    for name, value in items.items():
        if value is None:
            continue
        if isinstance(value, float):
            value = num(value)
        out.append(f" {name}={quoteattr(_NOT_XML.sub(chr(0xFFFD), str(value)))}")
    return "".join(out)


def el(tag: str, items: Mapping[str, object] | None = None, *children: str) -> str:
    """One element; children are already-written SVG (use :func:`text` for words)."""
    inner = "".join(children)
    if not inner:
        return f"<{tag}{attrs(items or {})}/>"
    return f"<{tag}{attrs(items or {})}>{inner}</{tag}>"


def group(items: Mapping[str, object] | None, children: Iterable[str]) -> str:
    return el("g", items, *children)


def text(x: float, y: float, words: str, size: float = 12, **extra: object) -> str:
    items: dict[str, object] = {
        "x": x,
        "y": y,
        "font-family": FONT,
        "font-size": size,
        "fill": extra.pop("fill", INK),
    }
    items.update({k.replace("_", "-"): v for k, v in extra.items()})
    return f"<text{attrs(items)}>{clean(words)}</text>"


def midpoint(a: Point, b: Point) -> Point:
    """Halfway from ``a`` to ``b``."""
    return (a[0] + b[0]) / 2, (a[1] + b[1]) / 2


def path_d(points: Sequence[Point], closed: bool = True) -> str:
    head, *rest = points
    d = f"M{num(head[0])} {num(head[1])}" + "".join(f"L{num(x)} {num(y)}" for x, y in rest)
    return d + ("Z" if closed else "")


def polygon(points: Sequence[Point], **items: object) -> str:
    pts = " ".join(f"{num(x)},{num(y)}" for x, y in points)
    return el("polygon", {"points": pts, **{k.replace("_", "-"): v for k, v in items.items()}})


def document(
    width: float,
    height: float,
    title: str,
    body: Iterable[str],
    scale=1.0,
    data: Mapping[str, object] | None = None,
) -> str:
    """The whole picture: an ``<svg>`` root with a title, a viewBox and a paper
    background; ``data`` adds attributes to the root (how a board's coordinates map to
    the picture's, for clients that draw on it)."""
    root = {
        "xmlns": "http://www.w3.org/2000/svg",
        "width": num(width * scale),
        "height": num(height * scale),
        "viewBox": f"0 0 {num(width)} {num(height)}",
        "role": "img",
        "font-family": FONT,
        **(data or {}),
    }
    inner = [
        f"<title>{clean(title)}</title>",
        el("rect", {"width": num(width), "height": num(height), "fill": PAPER}),
        *body,
    ]
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + el("svg", root, *inner) + "\n"


# -- seats ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatStyle:
    colour: str
    letter: str
    #: the colour of a letter written on the seat colour
    ink: str
    name: str


#: Okabe & Ito's palette, chosen to stay apart for the common colour-vision
#: deficiencies; each seat also has its own letter, written on every figure.
SEAT_STYLES = (
    SeatStyle("#0072B2", "A", "#ffffff", "blue"),
    SeatStyle("#E69F00", "B", "#000000", "orange"),
    SeatStyle("#009E73", "C", "#ffffff", "bluish green"),
    SeatStyle("#CC79A7", "D", "#000000", "reddish purple"),
    SeatStyle("#56B4E9", "E", "#000000", "sky blue"),
    SeatStyle("#D55E00", "F", "#ffffff", "vermillion"),
    SeatStyle("#F0E442", "G", "#000000", "yellow"),
    SeatStyle("#1a1a1a", "H", "#ffffff", "black"),
)


def counted(n: int, one: str, many: str | None = None) -> str:
    """``n`` and the noun it counts: "1 card", "2 cards", "1 city", "3 cities"."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def seat_style(seat: int) -> SeatStyle:
    return SEAT_STYLES[seat % len(SEAT_STYLES)]


def seat_name(names: Sequence[str], seat: int) -> str:
    """The seat's player's name, as the game was created with it."""
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat}"


def seat_label(names: Sequence[str], seat: int) -> str:
    """The name and the seat's letter, which every figure carries: two bots of one name
    are told apart ("greedy bot (A)")."""
    return f"{seat_name(names, seat)} ({seat_style(seat).letter})"


def winners_line(names: Sequence[str], winners: Sequence[int]) -> str:
    won = ", ".join(seat_label(names, w) for w in winners)
    return f"Game over. Won by {won}" if won else "Game over. No winner"


def seat_badge(x: float, y: float, seat: int, r: float = 9.0, shape: str = "circle") -> str:
    """A seat's colour and letter: the building block of every figure."""
    style = seat_style(seat)
    outline = {"fill": style.colour, "stroke": INK, "stroke-width": 1.5}
    if shape == "square":
        body = el("rect", {"x": x - r, "y": y - r, "width": 2 * r, "height": 2 * r, **outline})
    elif shape == "diamond":
        body = polygon([(x, y - r * 1.3), (x + r * 1.3, y), (x, y + r * 1.3), (x - r * 1.3, y)])
        body = body.replace("/>", attrs(outline) + "/>")
    elif shape == "triangle":
        body = polygon([(x, y - r * 1.3), (x + r * 1.2, y + r * 0.9), (x - r * 1.2, y + r * 0.9)])
        body = body.replace("/>", attrs(outline) + "/>")
    else:
        body = el("circle", {"cx": x, "cy": y, "r": r, **outline})
    letter = text(
        x,
        y + r * 0.42,
        style.letter,
        size=r * 1.2,
        fill=style.ink,
        text_anchor="middle",
        font_weight="bold",
    )
    return body + letter


# -- the panel beside the board ------------------------------------------------------------


def wrap(lines: Iterable[str], width: float, size: float) -> list[str]:
    """Lines cut at spaces to fit ``width`` (about 0.6 em a character); the rest of a
    cut line is indented. A number stays with the word after it ("4 cities"), a pair of
    coordinates with itself ("(7, -5)")."""
    most = max(10, int(width / (size * 0.6)))
    out = []
    for line in lines:
        current = ""
        for word in _kept_together(line.split(" ")):
            if current.strip() and len(current) + 1 + len(word) > most:
                out.append(current)
                current = "    " + word
            else:
                current = f"{current} {word}" if current else word
        out.append(current)
    return out


def _kept_together(words: list[str]) -> list[str]:
    """``words`` with each number joined to the word after it, and a pair of
    coordinates kept whole ("(-1," and "-1)")."""
    out: list[str] = []
    for word in words:
        if out and (out[-1].isdigit() or (out[-1].startswith("(") and out[-1].endswith(","))):
            out[-1] += " " + word
        else:
            out.append(word)
    return out


@dataclass
class PanelRow:
    seat: int
    name: str
    score: int | None
    lines: list[str]


def panel(
    x: float,
    y: float,
    width: float,
    title: str,
    subtitle: Sequence[str],
    rows: Sequence[PanelRow],
    footer: Sequence[str] = (),
    score_label: str = "points",
) -> tuple[str, float]:
    """The scores beside the board: a heading, one block per seat (badge, name, score,
    details), then notes; returns the SVG and the height used."""
    out = [text(x, y + 22, title, size=20, font_weight="bold")]
    cy = y + 44
    for line in wrap(subtitle, width, 13):
        out.append(text(x, cy, line, size=13))
        cy += 18
    cy += 8
    for row in rows:
        block = [
            seat_badge(x + 14, cy + 12, row.seat, r=12),
            text(x + 34, cy + 11, row.name, size=15, font_weight="bold"),
            text(x + 34, cy + 28, f"seat {row.seat}", size=11, fill="#555555"),
        ]
        if row.score is not None:
            block.append(
                text(
                    x + width - 4,
                    cy + 18,
                    counted(row.score, score_label.rstrip("s"), score_label),
                    size=16,
                    font_weight="bold",
                    text_anchor="end",
                )
            )
        ly = cy + 46
        for line in wrap(row.lines, width - 34, 12):
            block.append(text(x + 34, ly, line, size=12))
            ly += 16
        out.append(
            group(
                {"class": "score", "data-seat": row.seat, "data-score": row.score},
                block,
            )
        )
        cy = ly + 10
    for line in wrap(footer, width, 13):
        out.append(text(x, cy, line, size=13))
        cy += 18
    return "".join(out), cy - y

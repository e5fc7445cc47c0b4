"""Square-tile geometry shared by the Carcassonne family.

Conventions, the same in the tile data, the events and the API: east is ``x + 1``,
north is ``y - 1``; rotations are clockwise in degrees; sides are ``N E S W``.

Each side carries three *ports*, numbered clockwise around the tile from the top-left
corner: ``N`` has ports 0 (left), 1 (centre), 2 (right), ``E`` has 3, 4, 5, and so on.
A city side fills all three ports of its side, a road its centre port, a field one
half-side (the left or right port; a field side's centre port goes with its halves).
Reading clockwise, a side's left port meets the neighbour's right port, so port
``(s, k)`` touches the neighbour's ``(s + 2, 2 - k)``. The half-side names
``NL NR EL ER SL SR WL WR`` are exactly the left and right ports.
"""

from __future__ import annotations

from typing import Final

Pos = tuple[int, int]

SIDES: Final = ("N", "E", "S", "W")
ROTATIONS: Final = (0, 90, 180, 270)
PORTS: Final = 12
LEFT, CENTRE, RIGHT = 0, 1, 2
#: (dx, dy) towards the neighbour beyond each side, in ``SIDES`` order
OFFSETS: Final = ((0, -1), (1, 0), (0, 1), (-1, 0))
#: the eight surrounding positions, for cloister-like features
AROUND: Final = ((-1, -1), (0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0))

HALF_SIDES: Final = ("NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR")
HALF_SIDE_PORT: Final = {
    name: SIDES.index(name[0]) * 3 + (LEFT if name[1] == "L" else RIGHT) for name in HALF_SIDES
}
PORT_HALF_SIDE: Final = {port: name for name, port in HALF_SIDE_PORT.items()}


def port(side: int, k: int) -> int:
    """Port ``k`` (``LEFT``, ``CENTRE`` or ``RIGHT``) of side ``side``."""
    return side * 3 + k


def side_of(p: int) -> int:
    return p // 3


def facing_port(p: int) -> int:
    """The neighbour's port that touches port ``p`` across its side."""
    side, k = divmod(p, 3)
    return ((side + 2) % 4) * 3 + (2 - k)


def rotate_port(p: int, quarter_turns: int) -> int:
    """Where port ``p`` of a tile lands after turning it clockwise."""
    return (p + 3 * quarter_turns) % PORTS


def quarter_turns(rotation: object) -> int | None:
    """The clockwise quarter turns for a rotation in degrees, or ``None`` if invalid."""
    if isinstance(rotation, int) and not isinstance(rotation, bool) and rotation in ROTATIONS:
        return rotation // 90
    return None


def neighbour(pos: Pos, side: int) -> Pos:
    dx, dy = OFFSETS[side]
    return (pos[0] + dx, pos[1] + dy)


def around(pos: Pos) -> list[Pos]:
    """The eight positions around ``pos``."""
    x, y = pos
    return [(x + dx, y + dy) for dx, dy in AROUND]

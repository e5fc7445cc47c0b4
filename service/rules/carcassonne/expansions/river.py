"""The River (La Rivière): 12 tiles that open the game instead of the start tile.

Rulebook: the spring is placed first (it replaces the base start tile, which stays in
the box); the other river tiles are drawn from their own stack, then the lake ends the
river; each river tile must continue the river and may not make it turn back on itself
("vous n'avez pas le droit de placer une tuile qui lui ferait faire demi-tour");
followers may go on river tiles but never on the river itself.

The river is a feature kind that takes no figure and never completes: it only
separates the fields on either side of it. Its course is read from the board (twelve
tiles at most) by following the river from the spring: at (0, 0), or beside the Wheel
of Fortune's board, flowing away from it, when that expansion lays the board out.

Reading of "demi-tour" (a U-turn): a bend may not turn the same way (left or right)
as the river's previous bend, straight tiles in between or not; two such bends would
point the river back the way it came.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from service.rules.carcassonne.modules import Module, TileRule
from service.rules.tiling.board import Placed
from service.rules.tiling.geometry import CENTRE, Pos, neighbour, port
from service.rules.tiling.tiles import TileType

if TYPE_CHECKING:
    from service.rules.carcassonne.state import State

TITLE = "The River (La Rivière)"
SUMMARY = (
    "12 tiles: the spring replaces the start tile, the other river tiles are drawn from "
    "their own stack before the main one, the lake last. The river must be continued "
    "without a U-turn; followers go on river tiles but not on the river."
)
SPRING = "RI/s"


@cache
def river_sides(tile: TileType, q: int) -> tuple[int, ...]:
    """The board-frame sides through which the river leaves ``tile`` turned ``q`` times
    (tile checks ask this for every placement of every tile, hence the cache)."""
    at = tile.port_segment[q]
    return tuple(
        side for side in range(4) if tile.segments[at[port(side, CENTRE)]].kind.name == "river"
    )


#: the last board whose course was read, its tile count, and the course (a board only
#: grows, so this answers the checks of every placement of one river tile at once)
_last_course: list[Any] = [None, 0, None]


def course(tiles: dict[Pos, Placed]) -> tuple[Pos, int, int] | None:
    """Where the river goes on: the empty position it flows into, the side it flows out
    of the last river tile, and the turn of its last bend (1 right, 3 left, 0 none);
    ``None`` once the lake has ended it."""
    board, count, found = _last_course
    if board is tiles and count == len(tiles):
        return found
    found = _course(tiles)
    _last_course[:] = [tiles, len(tiles), found]
    return found


def _course(tiles: dict[Pos, Placed]) -> tuple[Pos, int, int] | None:
    pos = next(pos for pos, placed in tiles.items() if placed.tile.id == SPRING)
    bend = 0
    spring = tiles[pos]
    (out,) = river_sides(spring.tile, spring.q)
    while True:
        ahead = neighbour(pos, out)
        placed = tiles.get(ahead)
        if placed is None:
            return ahead, out, bend
        onwards = [s for s in river_sides(placed.tile, placed.q) if s != (out + 2) % 4]
        if not onwards:
            return None
        turn = (onwards[0] - out) % 4
        bend = turn or bend
        pos, out = ahead, onwards[0]


def continues_the_river(state: State, tile: TileType, pos: Pos, q: int) -> str | None:
    """Tile check: a river tile joins the river's open end and makes no U-turn (asked
    of river tiles only: see ``MODULE``'s tile rule; every open position is asked, and
    all but one are refused before the tile's turn is looked at)."""
    assert state.board is not None
    end = course(state.board.tiles)
    if end is None or end[0] != pos:
        return "river_not_continued"
    sides = river_sides(tile, q)
    if (end[1] + 2) % 4 not in sides:
        return "river_not_continued"
    onwards = [s for s in sides if s != (end[1] + 2) % 4]
    if onwards and (onwards[0] - end[1]) % 4 == end[2] != 0:
        return "river_u_turn"
    return None


MODULE = Module(
    name="river",
    start_attaches=True,
    tile_files=("river.json",),
    tile_checks=(TileRule(lambda tile: bool(river_sides(tile, 0)), continues_the_river),),
    draw_first=("river", "river_end"),
    rules={
        "river_not_continued": "Each river tile continues the river from its open end.",
        "river_u_turn": "The river may not be made to turn back on itself: a bend may not "
        "turn the same way as the river's previous bend.",
        "tile_not_drawable_yet": "The river tiles are drawn first from their own stack, the "
        "lake last, before any tile of the main stack.",
    },
)

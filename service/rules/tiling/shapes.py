"""The shapes of the commands and events that the tile-laying games share (Carcassonne
and South Seas): placing the drawn tile and the draws around it. See
:mod:`service.rules.shapes`."""

from __future__ import annotations

from service.rules.shapes import INT, SEAT, STR, about, array, command, event, one_of, record
from service.rules.tiling.geometry import ROTATIONS

X = about(INT, "column; east is x+1")
Y = about(INT, "row; north is y-1")
ROTATION = one_of(*ROTATIONS, description="degrees clockwise")
TILE = about(STR, "a tile id, e.g. BA/RCr (Carcassonne), SS/B.1 (South Seas)")
#: a spot on a placed tile: a feature kind and the sides it touches in the board's frame
SPOT = about(
    STR,
    "a figure spot: kind and sides, e.g. city:N,E road:W field:NL,NR cloister (Carcassonne),"
    " island:S sea:NL,NR bridge:W (South Seas)",
)
#: tiles as [x, y] pairs
TILES = array(array(INT, minItems=2, maxItems=2), "the feature's tiles as [x, y]")
#: where a tile lies on the board (a start tile, the start layout)
PLACEMENT = record({"tile": TILE, "x": X, "y": Y, "rotation": ROTATION})
#: a figure on the board: whose, where
FIGURE_AT = record({"seat": SEAT, "x": X, "y": Y, "spot": SPOT})
#: where a feature lies: one of its spots
AT = record({"x": X, "y": Y, "spot": SPOT})

PLACE_TILE = command("Place the tile in hand.", {"x": X, "y": Y, "rotation": ROTATION})
SKIP = command("Place no figure on the tile just placed.")

TILE_DRAWN = {"seat": SEAT, "tile": TILE}
TILE_PLACED = event(
    "A tile placed.", {"seat": SEAT, "tile": TILE, "x": X, "y": Y, "rotation": ROTATION}
)
TILE_SET_ASIDE = event(
    "A drawn tile that fits nowhere, out of the game; the seat draws again.",
    {"seat": SEAT, "tile": TILE, "reason": STR},
)
TURN_ENDED = {"seat": SEAT, "next": about(SEAT, "the seat whose turn it is now")}

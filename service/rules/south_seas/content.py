"""The components of a game: the sea tiles and the ship tokens, loaded from data.

The package ships a provisional distribution (``data/tiles.json``, ``data/ships.json``:
the publisher's lists could not be found). An operator may instead pass the real lists
inline as the game options ``tiles`` and ``ships``; they are validated here, and since
they travel in the options (and so in the ``game_started`` event) anyone can replay the
game from its log alone. Contents are cached by their canonical JSON, so a catalogue is
built once per process however many games use it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from service.rules.south_seas.ships import Ship, ShipDataError, load_ships
from service.rules.tiling.tiles import Catalogue, TileDataError, TileType

DATA = Path(__file__).parent / "data"

#: the feature kinds of South Seas and the ware each gives (markets give ships)
KIND_WARE = {"bridge": "shell", "island": "banana", "sea": "fish"}
KINDS = (*KIND_WARE, "market")
#: icon attributes a tile may carry: wares, fish groups of one and two, fishing boats
ATTRIBUTES = {"shell": "bridge", "banana": "island", "fish1": "sea", "fish2": "sea", "boat": "sea"}


class ContentError(ValueError):
    """Tiles or ships that cannot make a South Seas game; ``field`` says which."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


@dataclass(frozen=True, eq=False)
class Content:
    catalogue: Catalogue
    ships: tuple[Ship, ...]
    ship_by_id: Mapping[str, Ship]
    #: per tile type, the indices of its segments that show a fishing boat (asked of
    #: every tile placed; most have none)
    boat_segments: Mapping[TileType, tuple[int, ...]]

    @property
    def start(self) -> TileType:
        return next(t for t in self.catalogue.tiles if t.start)


def _tile_problem(catalogue: Catalogue) -> str | None:
    if set(catalogue.kinds) != set(KINDS):
        return f"tile kinds must be {', '.join(KINDS)}, not {sorted(catalogue.kinds)}"
    for name, kinds in catalogue.attributes.items():
        if ATTRIBUTES.get(name) is None or set(kinds) != {ATTRIBUTES[name]}:
            return f"icon {name} is not one of {ATTRIBUTES} on its kind"
    starts = [t for t in catalogue.tiles if t.start]
    if len(starts) != 1 or starts[0].start != 1:
        return "exactly one tile type must hold the single start tile"
    if any(t.wheel for t in catalogue.tiles):
        return "South Seas tiles have no Wheel of Fortune icons"
    return None


@cache
def _build(tiles_json: str, ships_json: str) -> Content:
    catalogue = Catalogue()
    try:
        catalogue.add_set(json.loads(tiles_json), source="tiles")
    except (TileDataError, KeyError, TypeError, ValueError, AttributeError) as error:
        raise ContentError("tiles", f"invalid tile data: {error}") from error
    problem = _tile_problem(catalogue)
    if problem:
        raise ContentError("tiles", problem)
    try:
        ships = load_ships(json.loads(ships_json), source="ships")
    except ShipDataError as error:
        raise ContentError("ships", str(error)) from error
    if len(ships) < 4:
        raise ContentError("ships", "a game needs at least 4 ships for the face-up display")
    boats = {
        tile: tuple(i for i, segment in enumerate(tile.segments) if segment.attrs.get("boat"))
        for tile in catalogue.tiles
    }
    return Content(catalogue, ships, {ship.id: ship for ship in ships}, boats)


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


@cache
def _packaged(name: str) -> str:
    return _canonical(json.loads((DATA / name).read_text(encoding="utf-8")))


def content_for(tiles: Mapping[str, Any] | None, ships: Mapping[str, Any] | None) -> Content:
    """The content of a game: the packaged files unless the options supply their own.

    Raises :class:`ContentError` for data that fails validation.
    """
    tiles_json = _packaged("tiles.json") if tiles is None else _canonical(tiles)
    ships_json = _packaged("ships.json") if ships is None else _canonical(ships)
    return _build(tiles_json, ships_json)

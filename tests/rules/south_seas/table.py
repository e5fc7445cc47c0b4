"""A test table: a South Seas game in external-randomness mode where the test picks
every tile and every revealed ship.

Worked examples are built tile by tile through the public decider path: each turn is
``draw_tile`` (the tile the example needs), ``place_tile``, then ``place_islander``,
``retrieve_islander`` or ``skip``, exactly as a client would send them.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from service.rules.core import Event
from service.rules.south_seas import SOUTH_SEAS
from service.rules.south_seas.state import State
from tests.rules.table_base import TableBase

PACKAGED = Path(__file__).resolve().parents[3] / "service/rules/south_seas/data"
#: a display of ships that the wares of a few evaluations cannot pay for
DISPLAY = ("S20", "S21", "S22", "S19")


def packaged(name: str) -> dict[str, Any]:
    return json.loads((PACKAGED / name).read_text(encoding="utf-8"))


def tiles_with(counts: dict[str, int]) -> dict[str, Any]:
    """The packaged tile catalogue with only the given tile counts (start tile kept)."""
    data = copy.deepcopy(packaged("tiles.json"))
    kept = []
    for tile in data["tiles"]:
        count = counts.get(tile["id"], 0) + tile.get("start", 0)
        if count:
            kept.append({**tile, "count": count})
    data["tiles"] = kept
    return data


class Table(TableBase):
    ruleset = SOUTH_SEAS
    state: State

    def __init__(
        self, seats: int = 2, display: tuple[str, ...] | None = DISPLAY, **options: Any
    ) -> None:
        super().__init__(seats, **options)
        for ship in display or ():
            self.reveal(ship)

    @property
    def awaited(self) -> dict[str, Any]:
        """The one open decision as ``awaiting`` shows it, but for its ``id`` (which
        every event changes), ``decision`` (a copy of ``kind``) and ``commands`` (fixed
        by ``kind``): ``{"seat", "kind", ...details}``."""
        (pending,) = SOUTH_SEAS.awaiting(self.state)
        return {k: v for k, v in pending.items() if k not in ("id", "decision", "commands")}

    def menu(self, seat: int) -> dict[str, Any]:
        """The commands of ``seat``'s one open decision, as ``legal_commands`` lists them."""
        (decision,) = SOUTH_SEAS.legal_commands(self.state, seat)["decisions"]
        return decision["commands"]

    def awaited_seat(self) -> int:
        return self.awaited["seat"]

    def reveal(self, ship: str) -> list[Event]:
        return self.send({"type": "reveal_ship", "ship": ship})

    def islander(self, spot: str | None) -> list[Event]:
        if spot is None:
            return self.send({"type": "skip"})
        return self.send({"type": "place_islander", "spot": spot})

    def turn(
        self, tile: str, x: int, y: int, rotation: int = 0, spot: str | None = None
    ) -> list[Event]:
        """Draw, place and answer the islander step; returns the turn's events so far
        (a pending delivery or ship choice is left to the test)."""
        return self.draw(tile) + self.place(x, y, rotation) + self.islander(spot)

    def wares(self, seat: int) -> dict[str, int]:
        return dict(self.state.wares[seat])


def evaluated(events: list[Event]) -> list[dict[str, Any]]:
    return [e.data for e in events if e.type == "feature_evaluated"]


def of_type(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [e.data for e in events if e.type == kind]

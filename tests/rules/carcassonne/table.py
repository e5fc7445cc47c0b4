"""A test table: a game in external-randomness mode where the test picks every tile.

Worked examples are built tile by tile through the public decider path: each turn is
``draw_tile`` (the tile the example needs), ``place_tile`` and ``place_follower`` or
``skip``, exactly as a client would send them.
"""

from __future__ import annotations

from typing import Any

import pytest

from service.rules.carcassonne import CARCASSONNE
from service.rules.carcassonne.state import State
from service.rules.core import Event, IllegalMove
from tests.rules.table_base import TableBase


class Table(TableBase):
    ruleset = CARCASSONNE
    state: State

    def awaited_seat(self) -> int:
        return self.state.seat

    def follow(self, spot: str | None, figure: str | None = None) -> list[Event]:
        if spot is None:
            return self.send({"type": "skip"})
        command = {"type": "place_follower", "spot": spot}
        if figure is not None:
            command["figure"] = figure
        return self.send(command)

    def turn(
        self,
        tile: str,
        x: int,
        y: int,
        rotation: int = 0,
        spot: str | None = None,
        figure: str | None = None,
    ) -> list[Event]:
        """One whole turn (``figure`` defaults to a follower); returns its events."""
        return self.draw(tile) + self.place(x, y, rotation) + self.follow(spot, figure)

    @property
    def scores(self) -> list[int]:
        return CARCASSONNE.result(self.state)["scores"]

    def final(self) -> list[dict[str, Any]]:
        """The feature_scored data the final scoring would produce now."""
        return scored(CARCASSONNE.final_scoring(self.state))


def menu(state: State, seat: int) -> dict[str, Any]:
    """The commands ``seat`` may send now (``legal_commands`` of its one open decision):
    ``{command type: options}``, empty when the seat is not awaited."""
    decisions = CARCASSONNE.legal_commands(state, seat)["decisions"]
    return decisions[0]["commands"] if decisions else {}


def waiting(state: State) -> list[dict[str, Any]]:
    """The awaited decisions without their ids (which number the events folded)."""
    return [{k: v for k, v in d.items() if k != "id"} for d in CARCASSONNE.awaiting(state)]


def awaited(kind: str, seat: int, commands: tuple[str, ...] = (), **details: Any) -> dict:
    """One entry of :func:`waiting`: ``commands`` default to the one named ``kind``."""
    return {
        "seat": seat,
        "kind": kind,
        "decision": kind,
        "commands": list(commands or (kind,)),
        **details,
    }


def scored(events: list[Event]) -> list[dict[str, Any]]:
    return [e.data for e in events if e.type == "feature_scored"]


def only(items: list[dict[str, Any]], **match: object) -> dict[str, Any]:
    """The one item that matches."""
    found = [i for i in items if all(i.get(k) == v for k, v in match.items())]
    assert len(found) == 1, found
    return found[0]


def refused(table: Table, command: dict[str, Any]) -> IllegalMove:
    """The IllegalMove a command raises; every refusal quotes its rule."""
    with pytest.raises(IllegalMove) as caught:
        table.send(command)
    assert caught.value.rule
    return caught.value

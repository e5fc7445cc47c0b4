"""A test table: a game in external-randomness mode where the test picks every tile.

Worked examples are built tile by tile through the public decider path: each turn is
``draw_tile`` (the tile the example needs), ``place_tile`` and ``place_follower`` or
``skip``, exactly as a client would send them.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from service.rules.carcassonne import CARCASSONNE
from service.rules.carcassonne.state import State
from service.rules.core import Event, IllegalMove


class Table:
    def __init__(self, seats: int = 2, **options: Any) -> None:
        self.options = CARCASSONNE.normalize_options({"randomness": "external", **options})
        self.events: list[Event] = CARCASSONNE.setup(self.options, seats, random.Random(0))
        self.state: State = CARCASSONNE.fold(self.events)

    def send(self, command: dict[str, Any], seat: int | None = None) -> list[Event]:
        seat = self.state.seat if seat is None else seat
        new = CARCASSONNE.decide(self.state, seat, command, random.Random(len(self.events)))
        for event in new:
            CARCASSONNE.evolve(self.state, event)
        self.events += new
        return new

    def draw(self, tile: str) -> list[Event]:
        return self.send({"type": "draw_tile", "tile": tile})

    def place(self, x: int, y: int, rotation: int = 0) -> list[Event]:
        return self.send({"type": "place_tile", "x": x, "y": y, "rotation": rotation})

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

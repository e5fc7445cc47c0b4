"""A test table: a game in external-randomness mode where the test picks every tile.

Worked examples are built tile by tile through the public decider path: each turn is
``draw_tile`` (the tile the example needs), ``place_tile`` and ``place_follower`` or
``skip``, exactly as a client would send them.
"""

from __future__ import annotations

import random
from typing import Any

from service.rules.carcassonne import CARCASSONNE
from service.rules.carcassonne.state import State
from service.rules.core import Event


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

    def follow(self, spot: str | None) -> list[Event]:
        if spot is None:
            return self.send({"type": "skip"})
        return self.send({"type": "place_follower", "spot": spot})

    def turn(
        self, tile: str, x: int, y: int, rotation: int = 0, spot: str | None = None
    ) -> list[Event]:
        """One whole turn; returns its events."""
        return self.draw(tile) + self.place(x, y, rotation) + self.follow(spot)

    @property
    def scores(self) -> list[int]:
        return CARCASSONNE.result(self.state)["scores"]

    def final(self) -> list[dict[str, Any]]:
        """The feature_scored data the final scoring would produce now."""
        return scored(CARCASSONNE.final_scoring(self.state))


def scored(events: list[Event]) -> list[dict[str, Any]]:
    return [e.data for e in events if e.type == "feature_scored"]

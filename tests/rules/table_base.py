"""The test-driver shape both tile games' tables share: a game in external-randomness
mode, driven through the public decider path (``apply``: decide, then fold each event),
where the test sends every command a client would, the drawn tiles included.

Each game's table names its ruleset and which seat is awaited by default.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from service.rules.core import Event


class TableBase:
    ruleset: ClassVar[Any]

    def __init__(self, seats: int = 2, **options: Any) -> None:
        self.options = self.ruleset.normalize_options({"randomness": "external", **options})
        self.events: list[Event] = self.ruleset.setup(self.options, seats, random.Random(0))
        self.state = self.ruleset.fold(self.events)

    def awaited_seat(self) -> int:
        """The seat a command goes from when the test names none."""
        raise NotImplementedError

    def send(self, command: dict[str, Any], seat: int | None = None) -> list[Event]:
        seat = self.awaited_seat() if seat is None else seat
        new = self.ruleset.apply(self.state, seat, command, random.Random(len(self.events)))
        self.events += new
        return new

    def draw(self, tile: str) -> list[Event]:
        return self.send({"type": "draw_tile", "tile": tile})

    def place(self, x: int, y: int, rotation: int = 0) -> list[Event]:
        return self.send({"type": "place_tile", "x": x, "y": y, "rotation": rotation})

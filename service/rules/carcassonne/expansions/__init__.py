"""The Big Box expansions, each a :class:`~service.rules.carcassonne.modules.Module`
that a game switches on with the ``expansions`` option, in any combination.

:data:`EXPANSIONS` lists them in hook order: when two modules hook the same point the
later one wraps the earlier (an inn's road scorer wraps the base road scorer).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from service.rules.carcassonne.expansions import (
    hills_sheep,
    inns_cathedrals,
    river,
    traders_builders,
    wheel_of_fortune,
)
from service.rules.carcassonne.modules import Module

DATA = Path(__file__).parent.parent / "data"


@dataclass(frozen=True, slots=True)
class Expansion:
    """An expansion as the catalogue shows it: its module and what it brings."""

    module: Module
    title: str
    summary: str
    #: configure(options) -> the module a game with these options plays with (the wheel
    #: board an operator passed), when it depends on options
    configure: Callable[[Mapping[str, Any]], Module] | None = None
    #: check(options) raises InvalidOptions for options the module cannot play
    check: Callable[[Mapping[str, Any]], None] | None = None

    def module_for(self, options: Mapping[str, Any]) -> Module:
        return self.configure(options) if self.configure else self.module

    def tile_count(self) -> int:
        """Land tiles in the expansion's data files (the River's spring included)."""
        return sum(
            tile["count"]
            for name in self.module.tile_files
            for tile in json.loads((DATA / name).read_text(encoding="utf-8"))["tiles"]
        )

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.module.name,
            "title": self.title,
            "summary": self.summary,
            "tiles": self.tile_count(),
            "options": list(self.module.options),
            "figures": {
                name: {"count": figure.count, "weight": figure.weight}
                for name, figure in self.module.figures.items()
            },
        }


EXPANSIONS: dict[str, Expansion] = {
    part.MODULE.name: Expansion(
        part.MODULE,
        part.TITLE,
        part.SUMMARY,
        getattr(part, "module_for", None),
        getattr(part, "check_options", None),
    )
    for part in (river, inns_cathedrals, traders_builders, hills_sheep, wheel_of_fortune)
}

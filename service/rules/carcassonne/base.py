"""The base game as a module, and the choice of modules for a game's options."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.rules.carcassonne import figures, scoring
from service.rules.carcassonne.expansions import EXPANSIONS
from service.rules.carcassonne.modules import FigureType, Module

#: Each player: 7 followers in supply (the 8th is the score marker).
FOLLOWERS = 7

BASE = Module(
    name="base",
    tile_files=("base.json",),
    figures={"follower": FigureType(weight=1, count=FOLLOWERS, rule=figures.follower)},
    scorers=scoring.SCORERS,
    end_of_game=(scoring.final_features, scoring.final_fields),
)


def modules_for(options: Mapping[str, Any]) -> tuple[Module, ...]:
    """The modules a game with these (normalised) options plays with, in hook order:
    the base game, then the expansions in :data:`EXPANSIONS` order."""
    chosen = options.get("expansions", ())
    return (BASE, *(e.module_for(options) for name, e in EXPANSIONS.items() if name in chosen))

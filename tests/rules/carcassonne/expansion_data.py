"""Helpers to read an expansion's tile data as a game with it sees it."""

from __future__ import annotations

from service.rules.carcassonne.base import BASE
from service.rules.carcassonne.expansions import EXPANSIONS
from service.rules.carcassonne.state import game_rules
from service.rules.tiling.tiles import Catalogue


def catalogue(name: str) -> Catalogue:
    return game_rules((BASE, EXPANSIONS[name].module)).catalogue


def tiles_of(name: str, prefix: str) -> dict[str, tuple[int, str]]:
    return {t.id: (t.count, t.edges) for t in catalogue(name).tiles if t.id.startswith(prefix)}


def attribute(name: str, attr: str) -> int:
    return sum(
        t.count * s.attrs.get(attr, 0)
        for t in catalogue(name).tiles
        if not t.id.startswith("BA/")
        for s in t.segments
    )

"""Inns & Cathedrals (Auberges & Cathédrales): 18 tiles and one big follower each.

Rulebook: the big follower "compte comme deux partisans lorsque vous devez déterminer
une majorité" and returns like any follower. A completed road with one or more inns
scores 2 per tile, an unfinished one 0; a completed city with one or two cathedrals
scores 3 per tile and per shield, an unfinished one 0. The special tiles (a cloister
cutting a road in two, a city tile of four separate quarters...) are data.

Inns are a road attribute and cathedrals a city attribute, summed along a feature, so
the scorers below wrap the base road and city scorers and only change features that
hold one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from service.rules.carcassonne import figures
from service.rules.carcassonne.modules import FigureType, Module, Score, Scoring
from service.rules.tiling.features import Feature

if TYPE_CHECKING:
    from service.rules.carcassonne.state import State

TITLE = "Inns & Cathedrals (Auberges & Cathédrales)"
SUMMARY = (
    "18 tiles and a big follower per player that counts as two for majorities. A road "
    "with an inn scores 2 per tile when completed, 0 if unfinished at the end; a city "
    "with a cathedral 3 per tile and per shield when completed, 0 if unfinished."
)


def road(state: State, feature: Feature, replaced: Scoring | None) -> Score:
    assert replaced is not None  # (it replaces the base game's scorer)
    inns = feature.attrs.get("inn", 0)
    if not inns:
        return replaced(state, feature)
    tiles = len(feature.tiles)
    if feature.complete:
        return Score(
            2 * tiles, f"completed road with an inn: 2 points x {tiles} tiles", {"inns": inns}
        )
    return Score(0, "unfinished road with an inn: 0 points", {"inns": inns})


def city(state: State, feature: Feature, replaced: Scoring | None) -> Score:
    assert replaced is not None  # (it replaces the base game's scorer)
    cathedrals = feature.attrs.get("cathedral", 0)
    if not cathedrals:
        return replaced(state, feature)
    tiles, shields = len(feature.tiles), feature.attrs.get("shield", 0)
    details = {"shields": shields, "cathedrals": cathedrals}
    if feature.complete:
        reason = f"completed city with a cathedral: 3 x {tiles} tiles + 3 x {shields} shields"
        return Score(3 * (tiles + shields), reason, details)
    return Score(0, "unfinished city with a cathedral: 0 points", details)


MODULE = Module(
    name="inns_cathedrals",
    tile_files=("inns_cathedrals.json",),
    figures={"big_follower": FigureType(weight=2, count=1, rule=figures.follower)},
    scorers={"road": road, "city": city},
)

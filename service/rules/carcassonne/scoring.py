"""Base-game scoring: what each feature kind is worth, and the final scoring.

During play (rulebook "Évaluation des constructions complétées"): a road 1 point per
tile; a city 2 per tile and 2 per shield; a cloister 9 when surrounded. At the end
("Évaluation finale"): an unfinished road 1 per tile, an unfinished city 1 per tile
and 1 per shield, an unfinished cloister 1 plus 1 per neighbouring tile, and each field
3 per completed city it touches. The seats with the most weight on a feature score it
in full, ties included. Tiles are counted, not segments.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from service.rules.carcassonne.figures import occupied
from service.rules.carcassonne.modules import Score, Scoring
from service.rules.tiling.features import Feature

if TYPE_CHECKING:
    from service.rules.carcassonne.state import State


def _state_word(feature: Feature) -> str:
    return "completed" if feature.complete else "unfinished"


def road(state: State, feature: Feature, replaced: Scoring | None) -> Score:
    tiles = len(feature.tiles)
    return Score(tiles, f"{_state_word(feature)} road: 1 point x {tiles} tiles")


def city(state: State, feature: Feature, replaced: Scoring | None) -> Score:
    tiles, shields = len(feature.tiles), feature.attrs.get("shield", 0)
    per, why = 1, ""
    if feature.complete:
        per = 2
        if tiles == 2 and state.options["small_cities"]:
            per, why = 1, " (small-city variant: a completed two-tile city scores as unfinished)"
    reason = f"{_state_word(feature)} city: {per} x {tiles} tiles + {per} x {shields} shields{why}"
    return Score(per * (tiles + shields), reason, {"shields": shields})


def cloister(state: State, feature: Feature, replaced: Scoring | None) -> Score:
    (pos,) = feature.tiles
    assert state.board is not None
    around = state.graph.neighbours(state.board, pos)
    reason = f"{_state_word(feature)} cloister: 1 + {around} surrounding tiles"
    return Score(1 + around, reason, {"surrounding": around})


def completed_cities(state: State, feature: Feature) -> list[Feature]:
    """The distinct completed cities a field touches."""
    graph = state.graph
    roots = sorted({graph.find(node) for node in feature.touches})
    cities = [graph.features[root] for root in roots]
    return [c for c in cities if c.kind.name == "city" and c.complete]


def field(state: State, feature: Feature, replaced: Scoring | None) -> Score:
    cities = completed_cities(state, feature)
    details = {"cities": [sorted_tiles(c) for c in cities]}
    return Score(3 * len(cities), f"field: 3 points x {len(cities)} completed cities", details)


SCORERS = {"road": road, "city": city, "cloister": cloister, "field": field}


def sorted_tiles(feature: Feature) -> list[list[int]]:
    return [list(pos) for pos in sorted(feature.tiles)]


def scoring_data(state: State, feature: Feature, returned: bool) -> dict[str, Any]:
    """The data of a ``feature_scored`` event for ``feature`` and its figures."""
    rules = state.rules
    assert rules is not None
    score = rules.score(state, feature)
    first = feature.figures[0]
    return {
        "kind": feature.kind.name,
        "at": {"x": first.pos[0], "y": first.pos[1], "spot": first.spot},
        "complete": feature.complete,
        "tiles": sorted_tiles(feature),
        "figures": [
            {
                "seat": f.seat,
                "figure": f.kind,
                "weight": f.weight,
                "x": f.pos[0],
                "y": f.pos[1],
                "spot": f.spot,
            }
            for f in feature.figures
        ],
        "winners": rules.winners(state, feature.figures),
        "points": score.points,
        "reason": score.reason,
        **score.details,
        "returned": returned,
    }


def occupied_features(state: State) -> list[Feature]:
    """The features a follower stands on, in the order of their roots (the order the
    final scoring lists them): the few found first, then sorted."""
    found = [(root, f) for root, f in state.graph.features.items() if f.figures and occupied(f)]
    return [feature for _, feature in sorted(found)]


def final_features(state: State) -> list[dict[str, Any]]:
    """End-of-game hook: every unfinished occupied road, city and cloister."""
    return [
        scoring_data(state, feature, returned=False)
        for feature in occupied_features(state)
        if not feature.complete and feature.kind.completion != "never"
    ]


def final_fields(state: State) -> list[dict[str, Any]]:
    """End-of-game hook: every field with farmers, each scored on its own."""
    return [
        scoring_data(state, feature, returned=False)
        for feature in occupied_features(state)
        if feature.kind.name == "field"
    ]

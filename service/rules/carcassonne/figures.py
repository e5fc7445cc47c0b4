"""Where figures may stand: the placement rule of the follower, and helpers that the
rules of other figure types (big follower, builder, pig) build on.

A *follower* is a figure that counts for majorities (weight > 0). Special figures
(builder, pig) weigh 0: they never make a feature occupied and never win it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from service.rules.tiling.features import Feature, Figure
from service.rules.tiling.tiles import FeatureKind

if TYPE_CHECKING:
    from service.rules.carcassonne.state import State


class Prospect:
    """What a segment of a tile not placed yet would join: its kind and the figures of
    the placed features it would connect to. The rules of figures read it as a feature,
    so the place_tile menu's follower spots follow the same rule as placing one."""

    __slots__ = ("kind", "figures")

    def __init__(self, kind: FeatureKind, figures: Sequence[Figure]) -> None:
        self.kind = kind
        self.figures = figures


def occupied(feature: Feature | Prospect) -> bool:
    """Whether a follower (of anyone) stands on the feature."""
    figures = feature.figures  # mostly none: then no generator is made
    return bool(figures) and any(figure.weight for figure in figures)


def has_follower(feature: Feature | Prospect, seat: int) -> bool:
    """Whether one of ``seat``'s followers stands on the feature."""
    figures = feature.figures  # mostly none: then no generator is made
    return bool(figures) and any(figure.seat == seat and figure.weight for figure in figures)


def follower(state: State, seat: int, feature: Feature | Prospect) -> str | None:
    """A follower (or big follower) goes on a feature no follower occupies yet."""
    return "feature_occupied" if occupied(feature) else None

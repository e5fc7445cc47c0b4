"""Scoring helpers shared by the Carcassonne family."""

from __future__ import annotations

from collections.abc import Iterable

from service.rules.tiling.features import Figure


def strengths(figures: Iterable[Figure]) -> dict[int, int]:
    """Each seat's strength on a feature: the summed weights of its figures."""
    total: dict[int, int] = {}
    for figure in figures:
        total[figure.seat] = total.get(figure.seat, 0) + figure.weight
    return total


def majority(figures: Iterable[Figure]) -> list[int]:
    """The seats with the most weight on a feature; every tied seat wins in full."""
    total = strengths(figures)
    best = max(total.values(), default=0)
    return sorted(seat for seat, value in total.items() if value == best and best > 0)

"""Resources, building costs, piece limits and development cards of the base game.

Hands, costs and the bank are lists of five counts in :data:`RESOURCES` order, so
that paying, producing and checking are a handful of integer operations; events and
views spell them out as ``{"brick": 1, ...}``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Final

from service.rules.catan.board import RESOURCES

if TYPE_CHECKING:
    from service.rules.catan.state import State

#: index of each resource in a hand
RESOURCE_INDEX: Final = {name: i for i, name in enumerate(RESOURCES)}
BRICK, LUMBER, WOOL, GRAIN, ORE = range(5)

COSTS: Final[dict[str, tuple[int, ...]]] = {
    "road": (1, 1, 0, 0, 0),
    "settlement": (1, 1, 1, 1, 0),
    "city": (0, 0, 0, 2, 3),
    "development": (0, 0, 1, 1, 1),
    "ship": (0, 1, 1, 0, 0),
}
#: pieces of each kind a seat owns (Seafarers adds 15 ships)
PIECES: Final = {"road": 15, "settlement": 5, "city": 4}
SHIPS: Final = 15
#: resource cards of each kind in the bank at the start
BANK: Final = 19
#: the owner of an empty intersection or path
NOBODY: Final = -1

DEVELOPMENT_CARDS: Final = (
    "knight",
    "victory_point",
    "road_building",
    "year_of_plenty",
    "monopoly",
)
DEVELOPMENT_INDEX: Final = {name: i for i, name in enumerate(DEVELOPMENT_CARDS)}
KNIGHT, VICTORY_POINT, ROAD_BUILDING, YEAR_OF_PLENTY, MONOPOLY = range(5)
DECK: Final = (14, 5, 2, 2, 2)

LONGEST_ROAD_MIN: Final = 5
LARGEST_ARMY_MIN: Final = 3
AWARD_POINTS: Final = 2


def can_pay(hand: Sequence[int], cost: Sequence[int]) -> bool:
    # Unrolled: the menus ask this many times per decision.
    return (
        hand[0] >= cost[0]
        and hand[1] >= cost[1]
        and hand[2] >= cost[2]
        and hand[3] >= cost[3]
        and hand[4] >= cost[4]
    )


def named(counts: Sequence[int]) -> dict[str, int]:
    """``[1, 0, 2, 0, 0]`` -> ``{"brick": 1, "wool": 2}`` (zeros left out)."""
    return {RESOURCES[i]: n for i, n in enumerate(counts) if n}


def counts_of(resources: Mapping[str, int]) -> list[int]:
    """``{"brick": 1}`` -> ``[1, 0, 0, 0, 0]`` (the names are already checked)."""
    counts = [0] * 5
    for name, n in resources.items():
        counts[RESOURCE_INDEX[name]] += n
    return counts


def parse_resources(value: object, allow_empty: bool = False) -> list[int] | None:
    """A command's ``{"brick": 1, ...}`` as counts, or ``None`` if it is not a mapping
    from resource names to non-negative integers (with at least one card unless
    ``allow_empty``)."""
    if not isinstance(value, Mapping):
        return None
    counts = [0] * 5
    for name, n in value.items():
        index = RESOURCE_INDEX.get(name) if isinstance(name, str) else None
        if index is None or type(n) is not int or n < 0:
            return None
        counts[index] += n
    if not allow_empty and not any(counts):
        return None
    return counts


def take_development(state: State, seat: int, card: str | None) -> None:
    """A development card leaves the deck for ``seat``'s hand, new this turn: named, or
    ``None`` where the event was redacted for this reader (a card it cannot name)."""
    if card is None:
        state.dev_unknown[seat] += 1
        return
    index = DEVELOPMENT_INDEX[card]
    state.new_devs[seat][index] += 1
    state.deck[index] -= 1

"""What the dice produce, and the starting resources of the second settlement.

Pure functions on plain data, so the decider can explain a roll in its event: who
was owed what, and which resources the bank could not pay.

The official bank rule: if the bank cannot give every seat
all it is owed of one resource, nobody receives that resource; when only one seat is
owed it, that seat takes whatever the bank has left. Each resource is judged on its
own, so a shortage of ore never holds back grain.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from service.rules.catan.board import GOLD, RESOURCES, TERRAIN_RESOURCE, Board
from service.rules.catan.layout import GOLD_YIELD, Layout
from service.rules.hexes.geometry import Corner, Hex, corner_hexes

#: resource cards one building takes from a producing hex
YIELD: Final = {"settlement": 1, "city": 2}

Seat = int
#: built corner (grid index) -> (seat, "settlement" | "city")
Buildings = Mapping[int, tuple[Seat, str]]


@dataclass(frozen=True, slots=True)
class Harvest:
    """The outcome of one production roll.

    ``owed`` is what the buildings earned, ``gains`` what each seat actually receives
    after the bank rule, and ``shortages`` the resources the bank could not pay in
    full (in ``RESOURCES`` order). Only positive counts appear in ``owed`` and
    ``gains``.
    """

    owed: dict[Seat, dict[str, int]]
    gains: dict[Seat, dict[str, int]]
    shortages: tuple[str, ...]
    #: Seafarers: resources each seat takes from gold fields, of its choice
    gold: dict[Seat, int]


def produce(
    layout: Layout,
    robber: Hex | None,
    buildings: Buildings,
    total: int,
    bank: Mapping[str, int],
) -> Harvest:
    """Resources produced by a dice ``total`` (a 7 produces nothing).

    ``robber`` is where the robber stands now (its hex produces nothing),
    ``buildings`` maps each built corner (an index of the layout's grid) to
    ``(seat, "settlement" | "city")`` and ``bank`` gives the cards left per resource.
    """
    owed: dict[Seat, dict[str, int]] = {}
    gold: dict[Seat, int] = {}
    for h, resource_index, corners in layout.producing.get(total, ()):
        if h == robber:
            continue
        for corner in corners:
            building = buildings.get(corner)
            if building is None:
                continue
            seat, kind = building
            if resource_index == GOLD_YIELD:
                gold[seat] = gold.get(seat, 0) + YIELD[kind]
                continue
            resource = RESOURCES[resource_index]
            hand = owed.setdefault(seat, {})
            hand[resource] = hand.get(resource, 0) + YIELD[kind]

    gains: dict[Seat, dict[str, int]] = {}
    shortages = []
    for resource in RESOURCES:
        claims = {seat: hand[resource] for seat, hand in owed.items() if resource in hand}
        if not claims:
            continue
        left = bank.get(resource, 0)
        if sum(claims.values()) > left:
            shortages.append(resource)
            claims = {seat: left for seat in claims} if len(claims) == 1 else {}
        for seat, count in claims.items():
            if count > 0:
                gains.setdefault(seat, {})[resource] = count
    return Harvest(owed, gains, tuple(shortages), gold)


def starting_resources(board: Board, corner: Corner) -> dict[str, int]:
    """One card per producing hex next to the second settlement placed at ``corner``."""
    received: dict[str, int] = {}
    for h in corner_hexes(corner):
        tile = board.hexes.get(h)
        if tile is not None and tile.terrain in TERRAIN_RESOURCE:
            resource = TERRAIN_RESOURCE[tile.terrain]
            received[resource] = received.get(resource, 0) + 1
    return received


def starting_gold(board: Board, corner: Corner) -> int:
    """Seafarers: resources of its owner's choice, one per gold field next to the second
    settlement placed at ``corner``."""
    return sum(
        1 for h in corner_hexes(corner) if h in board.hexes and board.hexes[h].terrain == GOLD
    )

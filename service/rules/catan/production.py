"""What the dice produce, and the starting resources of the second settlement.

Pure functions on plain data, so the decider can explain a roll in its event: who
was owed what, and which resources the bank could not pay.

The official bank rule: if the bank cannot give every seat
all it is owed of one resource, nobody receives that resource; when only one seat is
owed it, that seat takes whatever the bank has left. Each resource is judged on its
own, so a shortage of ore never holds back grain.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import gt
from typing import Any, Final, NamedTuple

from service.rules.catan.board import GOLD, RESOURCES, TERRAIN_RESOURCE, Board
from service.rules.catan.layout import GOLD_YIELD, Layout
from service.rules.catan.pieces import NOBODY, RESOURCE_INDEX
from service.rules.hexes.geometry import Corner, Hex, corner_hexes

#: resource cards a settlement and a city take from a producing hex
SETTLEMENT_YIELD, CITY_YIELD = 1, 2

Seat = int


class Harvest(NamedTuple):
    """The outcome of one production roll.

    ``owed`` is what the buildings earned, ``gains`` what each seat actually receives
    after the bank rule, and ``shortages`` the resources the bank could not pay in
    full (in ``RESOURCES`` order). Only positive counts appear in ``owed`` and
    ``gains``, and seats in seat order.
    """

    owed: dict[Seat, dict[str, int]]
    gains: dict[Seat, dict[str, int]]
    shortages: tuple[str, ...]
    #: Seafarers: resources each seat takes from gold fields, of its choice
    gold: dict[Seat, int]


def produce(
    layout: Layout,
    robber: Hex | None,
    owner: Sequence[int],
    city: Sequence[bool],
    total: int,
    bank: Sequence[int],
) -> Harvest:
    """Resources produced by a dice ``total`` (a 7 produces nothing).

    ``robber`` is where the robber stands now (its hex produces nothing). ``owner``
    gives, per corner (an index of the layout's grid), the seat with a building there
    or ``NOBODY``, and ``city`` whether it is a city; ``bank`` the cards left per
    resource, in ``RESOURCES`` order.
    """
    return _harvest(*_owed(layout, robber, owner, city, total), bank)


def _owed(
    layout: Layout, robber: Hex | None, owner: Sequence[int], city: Sequence[bool], total: int
) -> tuple[dict[Seat, dict[str, int]], dict[Seat, int], list[int]]:
    """What the buildings earn on a dice ``total``: the resources owed to each seat,
    the gold fields' resources owed to each seat, and the count owed of each resource,
    all seats together (in ``RESOURCES`` order)."""
    owed: dict[Seat, dict[str, int]] = {}
    gold: dict[Seat, int] = {}
    wanted = [0, 0, 0, 0, 0]
    for h, resource, corners in layout.producing.get(total, ()):
        if h == robber:
            continue
        if resource == GOLD_YIELD:
            for corner in corners:
                seat = owner[corner]
                if seat != NOBODY:
                    cards = CITY_YIELD if city[corner] else SETTLEMENT_YIELD
                    gold[seat] = gold.get(seat, 0) + cards
            continue
        name = RESOURCES[resource]
        for corner in corners:
            seat = owner[corner]
            if seat == NOBODY:
                continue
            cards = CITY_YIELD if city[corner] else SETTLEMENT_YIELD
            hand = owed.get(seat)
            if hand is None:
                owed[seat] = {name: cards}
            else:
                hand[name] = hand.get(name, 0) + cards
            wanted[resource] += cards
    return owed, gold, wanted


def _harvest(
    owed: dict[Seat, dict[str, int]], gold: dict[Seat, int], wanted: list[int], bank: Sequence[int]
) -> Harvest:
    """The bank rule applied to what is owed (:func:`_owed`)."""
    if not owed and not gold:
        return NOTHING
    if len(owed) > 1:
        owed = dict(sorted(owed.items()))
    if len(gold) > 1:
        gold = dict(sorted(gold.items()))
    if not any(map(gt, wanted, bank)):  # the usual roll: the bank pays everyone
        return Harvest(owed, {seat: dict(hand) for seat, hand in owed.items()}, (), gold)
    short = [r for r in range(5) if wanted[r] > bank[r]]
    gains: dict[Seat, dict[str, int]] = {}
    for seat, hand in owed.items():
        kept = {}
        for name, n in hand.items():
            resource = RESOURCE_INDEX[name]
            if resource in short:  # nobody takes it, unless only one seat is owed it
                alone = sum(1 for other in owed.values() if name in other) == 1
                n = bank[resource] if alone else 0
            if n:
                kept[name] = n
        if kept:
            gains[seat] = kept
    return Harvest(owed, gains, tuple(RESOURCES[r] for r in short), gold)


NOTHING: Final = Harvest({}, {}, (), {})

#: a seat's key in an event's data (seats are few: made once)
_SEAT_KEYS: Final = tuple(str(seat) for seat in range(16))


def production_data(
    layout: Layout,
    robber: Hex | None,
    owner: Sequence[int],
    city: Sequence[bool],
    total: int,
    bank: Sequence[int],
) -> dict[str, Any] | None:
    """The data of the ``resources_produced`` event of a dice ``total`` (``None`` if
    nothing is owed): :func:`produce`'s harvest with seats as strings, as the decider
    writes it. Written straight from what is owed for the usual roll (no gold field
    producing, the bank paying everyone); any other roll takes the bank rule's
    :class:`Harvest`."""
    owed, gold, wanted = _owed(layout, robber, owner, city, total)
    if gold or any(map(gt, wanted, bank)):  # a gold field, or a shortage: the bank rule
        return _harvest_data(_harvest(owed, gold, wanted, bank), total)
    if not owed:
        return None
    keys = _SEAT_KEYS
    if len(owed) == 1:
        ((seat, hand),) = owed.items()
        key = keys[seat] if seat < 16 else str(seat)
        return {"total": total, "gains": {key: dict(hand)}, "owed": {key: hand}, "shortages": []}
    gains: dict[str, dict[str, int]] = {}
    owed_data: dict[str, dict[str, int]] = {}
    for seat in sorted(owed):
        key = keys[seat] if seat < 16 else str(seat)
        hand = owed[seat]
        gains[key] = dict(hand)
        owed_data[key] = hand
    return {"total": total, "gains": gains, "owed": owed_data, "shortages": []}


def _harvest_data(harvest: Harvest, total: int) -> dict[str, Any] | None:
    if not harvest.owed and not harvest.gold:
        return None
    data: dict[str, Any] = {
        "total": total,
        "gains": {str(seat): gains for seat, gains in harvest.gains.items()},
        "owed": {str(seat): owed for seat, owed in harvest.owed.items()},
        "shortages": list(harvest.shortages),
    }
    if harvest.gold:
        data["gold"] = {str(seat): n for seat, n in harvest.gold.items()}
    return data


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

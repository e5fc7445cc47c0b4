"""Ship tokens: what each ship demands, what it is worth, and checking a delivery.

A ships data file is JSON::

    {"format": 1, "wares": ["shell", "banana", "fish"],
     "ships": [{"id": "S01", "points": 5, "demand": {"shell": 2, "fish": 1, "banana": 1}},
               {"id": "S02", "points": 5, "demand": {"any": 6}},
               {"id": "S03", "points": 3, "demand": {"same": [4]}},
               {"id": "S05", "points": 3, "demand": {"same": [3, 1]}}]}

A demand adds up three parts, all optional: fixed wares by type, ``any`` wares of the
player's choice (the rulebook's blank icon), and ``same`` groups, each of one type and
each group of a different type (the rulebook's A and B icons: ``[4]`` is "4 identical
wares", ``[3, 1]`` is "3 of one type and 1 of another").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any

WARES = ("shell", "banana", "fish")


class ShipDataError(ValueError):
    """A ships data file that contradicts itself."""


@dataclass(frozen=True, slots=True)
class Ship:
    id: str
    points: int
    #: fixed wares by type
    fixed: Mapping[str, int]
    #: wares of any type
    any: int
    #: group sizes, each group of one type, each group a different type
    same: tuple[int, ...]
    #: how many wares a delivery takes (worked out once, as ``groupings``: menus ask
    #: about every face-up ship every turn)
    size: int = field(init=False)
    #: each way to give the ``same`` groups distinct ware types, as ``(type, size)``
    #: pairs, in the order they are tried
    groupings: tuple[tuple[tuple[str, int], ...], ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "size", sum(self.fixed.values()) + self.any + sum(self.same))
        groupings = tuple(
            tuple(zip(types, self.same, strict=True))
            for types in permutations(WARES, len(self.same))
        )
        object.__setattr__(self, "groupings", groupings)

    def grouping(self, rest: Mapping[str, int]) -> tuple[tuple[str, int], ...] | None:
        """The first of :attr:`groupings` that the wares ``rest`` (by type) can fill."""
        for grouping in self.groupings:
            if all(rest[w] >= n for w, n in grouping):
                return grouping
        return None

    def describe(self) -> dict[str, Any]:
        """The ship as data files and events spell it."""
        demand: dict[str, Any] = dict(self.fixed)
        if self.any:
            demand["any"] = self.any
        if self.same:
            demand["same"] = list(self.same)
        return {"id": self.id, "points": self.points, "demand": demand}

    def problem(self, wares: Mapping[str, int]) -> str | None:
        """Why delivering exactly ``wares`` does not meet this ship's demand, or ``None``."""
        if sum(wares.values()) != self.size:
            return f"{self.id} takes exactly {self.size} wares, not {sum(wares.values())}"
        rest = {w: wares.get(w, 0) - self.fixed.get(w, 0) for w in WARES}
        short = [w for w, n in rest.items() if n < 0]
        if short:
            return f"{self.id} demands {self.fixed[short[0]]} {short[0]}"
        # Whatever is left after the same-type groups is "any": only the groups can fail.
        if self.grouping(rest) is not None:
            return None
        groups = " + ".join(str(n) for n in self.same)
        return f"{self.id} demands groups of {groups} wares, each group of one different type"

    def payable(self, wares: Mapping[str, int]) -> dict[str, int] | None:
        """One delivery out of ``wares`` that meets the demand (fixed first, then the
        groups and ``any`` from the most plentiful types), or ``None`` if none does."""
        if sum(wares.values()) < self.size:
            return None  # the usual answer (asked of each face-up ship every turn)
        for w, n in self.fixed.items():  # the next most usual: a fixed ware short
            if wares.get(w, 0) < n:
                return None
        left = {w: wares.get(w, 0) - self.fixed.get(w, 0) for w in WARES}
        grouping = self.grouping(left)
        if grouping is None:
            return None
        paid = dict(self.fixed)
        for w, n in grouping:
            left[w] -= n
            paid[w] = paid.get(w, 0) + n
        need = self.any
        for w in sorted(WARES, key=lambda w: -left[w]):
            take = min(need, left[w])
            paid[w] = paid.get(w, 0) + take
            need -= take
        return None if need else {w: n for w, n in paid.items() if n}


def load_ships(data: Mapping[str, Any], source: str = "<ships>") -> tuple[Ship, ...]:
    """Validate a ships data object and return its ships in file order."""
    if not isinstance(data, Mapping) or data.get("format") != 1:
        raise ShipDataError(f"{source}: expected an object with format 1")
    raw_ships = data.get("ships")
    if not isinstance(raw_ships, list) or not raw_ships:
        raise ShipDataError(f"{source}: 'ships' must be a non-empty list")
    ships, seen = [], set()
    for raw in raw_ships:
        ship = _load_ship(raw, source)
        if ship.id in seen:
            raise ShipDataError(f"{source}: duplicate ship id {ship.id}")
        seen.add(ship.id)
        ships.append(ship)
    return tuple(ships)


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _load_ship(raw: Any, source: str) -> Ship:
    if not isinstance(raw, Mapping) or not isinstance(raw.get("id"), str):
        raise ShipDataError(f"{source}: every ship needs a string id")
    where = f"{source}: ship {raw['id']}"
    points: Any  # (a positive int once checked)
    points, demand = raw.get("points"), raw.get("demand")
    if not _count(points) or points < 1:
        raise ShipDataError(f"{where}: points must be a positive integer")
    if not isinstance(demand, Mapping) or set(demand) - {*WARES, "any", "same"}:
        raise ShipDataError(f"{where}: demand keys are {', '.join(WARES)}, any and same")
    fixed = {w: demand[w] for w in WARES if w in demand}
    same = demand.get("same", [])
    if not all(_count(n) for n in (*fixed.values(), demand.get("any", 0))):
        raise ShipDataError(f"{where}: ware counts must be non-negative integers")
    if not isinstance(same, list) or len(same) > len(WARES) or not all(_count(n) for n in same):
        raise ShipDataError(f"{where}: same is a list of at most 3 group sizes")
    ship = Ship(raw["id"], points, fixed, demand.get("any", 0), tuple(same))
    if ship.size == 0:
        raise ShipDataError(f"{where}: demands nothing")
    return ship

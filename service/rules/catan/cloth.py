"""Cloth for Catan (Seafarers scenario 6, "L'Archipel oublié"): the villages of the
four small central islands and the cloth they trade.

Rules (rulebook lines 463-521; where it is silent, the choice made is said here and
in docs/rulesets/catan-seafarers.md):

- each small island has two villages, on its north and south intersections, each
  with a number token and 5 cloth (Catan chits); 10 more lie in the reserve, 50 in
  all. Nobody builds a settlement (so nor a city) on the small islands;
- the set-up has a third round: once every seat has placed its second settlement,
  each places a third (with its road or ship), starting with the seat that placed the
  last second settlement (the first seat) and going on in turn order; the starting
  resources come from the third settlement;
- a seat whose ships join one of its settlements or cities to a village trades with
  that village from then on, and takes 1 of its cloth at once (none if it is empty);
- when a village's number is rolled, every seat trading with it takes 1 cloth; what
  the village lacks comes from the reserve; an empty village gives nothing, not even
  from the reserve. If the reserve runs short too, the seats are served in turn
  order from the roller until it is empty;
- 2 cloth are worth 1 victory point (an odd one counts for nothing);
- a ship line joining a seat's building to a village it trades with is closed: none
  of its ships moves (the village counts as an end of the line, like a building);
- no longest trade route award; the largest army is played;
- the game ends at once when 3 villages are empty (the seat with the most points
  wins, ties broken by the most cloth; seats still level all win), or as usual when
  a seat has 14 points during its turn.

The scenario's state is one :class:`Cloth` in the ``State.cloth`` slot (``None`` in
every other game), built from ``game_started``'s ``scenario["cloth"]`` and changed
only by the two events folded here: ``village_connected`` and ``cloth_distributed``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from service.rules.core import Event
from service.rules.hexes.geometry import corner_hexes, hex_name, parse_corner

if TYPE_CHECKING:
    from service.rules.catan.board import Board
    from service.rules.catan.layout import Layout
    from service.rules.catan.state import State

#: the settlement of the set-up whose neighbours give the starting resources
STARTING_SETTLEMENT: Final = 3
#: the number of empty villages that ends the game
EMPTY_VILLAGES_END: Final = 3
#: cloth worth one victory point
CLOTH_PER_POINT: Final = 2


@dataclass(slots=True)
class Village:
    """A village on an intersection of a small island: its number, its cloth left and
    the seats trading with it (in the order they joined it)."""

    name: str
    corner: int
    number: int
    cloth: int
    traders: list[int]


@dataclass(slots=True)
class Cloth:
    """The villages, the reserve, the cloth each seat holds, and the small islands'
    hexes (where nobody builds)."""

    villages: list[Village]
    reserve: int
    held: list[int]
    islands: frozenset[tuple[int, int]]

    def copy(self) -> Cloth:
        villages = [
            Village(v.name, v.corner, v.number, v.cloth, list(v.traders)) for v in self.villages
        ]
        return Cloth(villages, self.reserve, list(self.held), self.islands)

    def village(self, name: str) -> Village:
        return next(v for v in self.villages if v.name == name)


def cloth_part(state: State) -> Cloth:
    """The scenario's part of the state, where the game is Cloth for Catan."""
    part = state.cloth
    assert part is not None, "not Cloth for Catan"
    return part


def lay(data: dict[str, Any], layout: Layout, seats: int) -> Cloth:
    """The scenario's villages (``game_started``'s ``scenario["cloth"]``) on the board."""
    per_village = data["per_village"]
    villages = [
        Village(v["corner"], layout.corner_by_name[v["corner"]], v["number"], per_village, [])
        for v in data["villages"]
    ]
    islands = frozenset(
        h for v in villages for h in layout.grid.corner_hexes[v.corner] if h in layout.island_of
    )
    return Cloth(villages, data["reserve"], [0] * seats, islands)


def check_islands(board: Board, printed: Board, data: dict[str, Any]) -> None:
    """A board sent for the random set-up keeps the small islands' tiles as printed
    (l.521); ``ValueError`` if not."""
    for village in data["villages"]:
        for h in corner_hexes(parse_corner(village["corner"])):
            if board.hexes.get(h) != printed.hexes.get(h):
                raise ValueError(f"hex {hex_name(h)} by a village is not as printed")


# -- what the rules ask of the board -------------------------------------------------


def on_small_island(state: State, corner: int) -> bool:
    """Whether all the land the corner touches is a small island's (no building there)."""
    layout = state.laid()
    land = [h for h in layout.grid.corner_hexes[corner] if h in layout.island_of]
    islands = cloth_part(state).islands
    return all(h in islands for h in land)


def anchors(state: State, seat: int, corner: int) -> bool:
    """Whether the corner closes a line of the seat's ships as a building would: a
    village it trades with (never outside Cloth for Catan)."""
    villages = () if state.cloth is None else state.cloth.villages
    return any(v.corner == corner and seat in v.traders for v in villages)


def villages_reached(
    state: State, seat: int, *, ships: list[int] | None = None, building: int | None = None
) -> list[Village]:
    """The villages the seat's ships join to one of its buildings and it does not
    trade with yet; as it would be with its ships on ``ships``, or a new building on
    ``building``. A line does not run through an opponent's building."""
    grid = state.laid().grid
    theirs = {c for s in range(state.seats) if s != seat for c in state.buildings_of[s]}
    afloat = set(state.ships_of[seat] if ships is None else ships)
    start = set(state.buildings_of[seat]) | ({building} if building is not None else set())
    seen, stack = set(start), list(start)
    while stack:
        corner = stack.pop()
        for edge in grid.corner_edges[corner]:
            if edge not in afloat:
                continue
            for other in grid.edge_corners[edge]:
                if other not in seen and other not in theirs:
                    seen.add(other)
                    stack.append(other)
    return [v for v in cloth_part(state).villages if v.corner in seen and seat not in v.traders]


# -- events ------------------------------------------------------------------------------


def connections(
    state: State, seat: int, *, ships: list[int] | None = None, building: int | None = None
) -> list[Event]:
    """The seat starts trading with each village its ships now reach (with its ships on
    ``ships``, or a new building on ``building``): 1 cloth from each at once, none from
    an empty one."""
    return [
        Event(
            "village_connected",
            {"seat": seat, "village": v.name, "number": v.number, "cloth": min(1, v.cloth)},
        )
        for v in villages_reached(state, seat, ships=ships, building=building)
    ]


def roll_events(state: State, roller: int, total: int) -> list[Event]:
    """The cloth a dice ``total`` gives: 1 to each seat trading with a village of that
    number that still has cloth, what it lacks from the reserve (seats served in turn
    order from the roller while the reserve lasts)."""
    cloth, seats = cloth_part(state), state.seats
    reserve = cloth.reserve
    events = []
    for v in cloth.villages:
        if v.number != total or not v.traders or v.cloth == 0:
            continue
        order = sorted(v.traders, key=lambda s: (s - roller) % seats)
        served = order[: v.cloth + reserve]
        from_village = min(v.cloth, len(served))
        from_reserve = len(served) - from_village
        reserve -= from_reserve
        data = {
            "total": total,
            "village": v.name,
            "gains": {str(s): 1 for s in sorted(served)},
            "from_village": from_village,
            "from_reserve": from_reserve,
        }
        events.append(Event("cloth_distributed", data))
    return events


def village_connected(state: State, data: dict[str, Any]) -> None:
    cloth, seat = cloth_part(state), data["seat"]
    village = cloth.village(data["village"])
    village.traders.append(seat)
    village.cloth -= data["cloth"]
    cloth.held[seat] += data["cloth"]


def cloth_distributed(state: State, data: dict[str, Any]) -> None:
    cloth = cloth_part(state)
    cloth.village(data["village"]).cloth -= data["from_village"]
    cloth.reserve -= data["from_reserve"]
    for seat, n in data["gains"].items():
        cloth.held[int(seat)] += n


EVOLVERS: Final = {"village_connected": village_connected, "cloth_distributed": cloth_distributed}


# -- points and the end --------------------------------------------------------------


def points(cloth: Cloth, seat: int) -> int:
    return cloth.held[seat] // CLOTH_PER_POINT


def _taken(events: list[Event]) -> tuple[dict[int, int], dict[str, int]]:
    """The cloth ``events`` give each seat and take from each village."""
    seats: dict[int, int] = {}
    villages: dict[str, int] = {}
    for event in events:
        data = event.data
        if event.type == "village_connected":
            seats[data["seat"]] = seats.get(data["seat"], 0) + data["cloth"]
            villages[data["village"]] = villages.get(data["village"], 0) + data["cloth"]
        elif event.type == "cloth_distributed":
            for seat, n in data["gains"].items():
                seats[int(seat)] = seats.get(int(seat), 0) + n
            villages[data["village"]] = villages.get(data["village"], 0) + data["from_village"]
    return seats, villages


def points_gained(cloth: Cloth, events: list[Event], seat: int) -> int:
    """The cloth points ``events`` (not yet folded) bring the seat."""
    held = cloth.held[seat] + _taken(events)[0].get(seat, 0)
    return held // CLOTH_PER_POINT - points(cloth, seat)


def villages_emptied(cloth: Cloth, events: list[Event]) -> bool:
    """Whether ``events`` (not yet folded) leave 3 villages empty, which ends the game."""
    taken = _taken(events)[1]
    empty = sum(1 for v in cloth.villages if v.cloth - taken.get(v.name, 0) == 0)
    return empty >= EMPTY_VILLAGES_END


def villages_empty(cloth: Cloth) -> int:
    return sum(1 for v in cloth.villages if v.cloth == 0)


def winners(state: State) -> list[int]:
    """The end by empty villages: the most points, then the most cloth; seats still
    level share the win."""
    held = cloth_part(state).held
    best = max((state.points(s), held[s]) for s in range(state.seats))
    return [s for s in range(state.seats) if (state.points(s), held[s]) == best]


def view(cloth: Cloth) -> dict[str, Any]:
    return {
        "villages": [
            {"corner": v.name, "number": v.number, "cloth": v.cloth, "traders": list(v.traders)}
            for v in cloth.villages
        ],
        "reserve": cloth.reserve,
        "held": list(cloth.held),
    }

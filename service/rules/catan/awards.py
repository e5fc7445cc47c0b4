"""The two awards of 2 victory points: the longest road and the largest army.

Longest road (base rules, "Longest Road"): the first seat with a continuous road of
at least 5 segments takes it; another seat takes it only by building a strictly
longer one. When an opponent's settlement breaks the holder's road, the longest road
goes to the seat that now has the strictly longest one of at least 5; if several tie
for longest, or nobody has 5, it is set aside until one seat has the longest alone.
Largest army: the first seat to play 3 knights takes it; another seat takes it only
with strictly more knights.
"""

from __future__ import annotations

from service.rules.catan.pieces import LARGEST_ARMY_MIN, LONGEST_ROAD_MIN
from service.rules.catan.roads import longest_road, longest_road_after
from service.rules.catan.state import NOBODY, State


def road_length(
    state: State,
    seat: int,
    *,
    new_road: int | None = None,
    new_block: int | None = None,
    ships: list[int] | None = None,
    new_building: int | None = None,
) -> int:
    """The seat's longest road (Seafarers: trade route of roads and ships), cut at its
    opponents' buildings; as it would be with a road of its own on ``new_road``, an
    opponent's settlement on ``new_block``, its ships on ``ships``, or a settlement of
    its own on ``new_building`` (where a road and a ship then join)."""
    layout = state.layout
    assert layout is not None  # (the board is laid)
    grid, owner = layout.grid, state.owner
    roads = state.roads_of[seat] if new_road is None else [*state.roads_of[seat], new_road]
    if ships is None:
        ships = state.ships_of[seat] if state.ships_of else []
    if new_road is not None and not ships:
        # (every opponent's building, of which only those on the seat's roads cut them)
        return longest_road_after(
            grid, roads, state.others_buildings(seat), state.road_length[seat]
        )
    ends = {c for e in roads for c in grid.edge_corners[e]}
    ends.update(c for e in ships for c in grid.edge_corners[e])
    blocked = [c for c in ends if owner[c] not in (NOBODY, seat) or c == new_block]
    if not ships:
        return longest_road(grid, roads, blocked)
    own = frozenset(state.buildings_of[seat])
    if new_building is not None:
        own |= {new_building}
    return longest_road(grid, roads, blocked, ships=ships, own_corners=own)


def cut_roads(state: State, seat: int, corner: int) -> dict[int, int]:
    """The other seats whose longest road a settlement of ``seat`` on ``corner`` cuts
    short, with their new lengths."""
    layout = state.layout
    assert layout is not None  # (the board is laid)
    grid, road, ship = layout.grid, state.road, state.ship
    touching = {road[e] for e in grid.corner_edges[corner]} - {NOBODY, seat}
    if ship:
        touching |= {ship[e] for e in grid.corner_edges[corner]} - {NOBODY, seat}
    found = {}
    for other in sorted(touching):
        length = road_length(state, other, new_block=corner)
        if length != state.road_length[other]:
            found[other] = length
    return found


def longest_road_holder(holder: int, lengths: list[int]) -> int:
    """Who holds the longest road with these lengths, given who held it before: the
    holder keeps it while its road is as long as any, even just broken ("if your longest
    road is broken and you are tied for longest road, you still keep the card"); else a
    seat alone with the longest takes it, and several tied for it, or nobody with 5, set
    it aside."""
    best = max(lengths)
    if best < LONGEST_ROAD_MIN:
        return NOBODY
    if holder != NOBODY and lengths[holder] == best:
        return holder
    leaders = [seat for seat, length in enumerate(lengths) if length == best]
    return leaders[0] if len(leaders) == 1 else NOBODY


def largest_army_holder(holder: int, knights: list[int]) -> int:
    """Who holds the largest army with these knights played, given who held it before."""
    best = max(knights)
    if best < LARGEST_ARMY_MIN or (holder != NOBODY and knights[holder] == best):
        return holder
    return knights.index(best)

"""Where a seat may build: one function per rule saying why not (a code) or ``None``,
read by the decider and by the menus alike, and the candidates the menus offer.

Rules (base game, "Building"): a road goes on an empty path joined to the seat's own
road, settlement or city, but not through an opponent's building; a settlement goes
on an empty intersection whose three neighbours are all empty (the distance rule),
joined to one of the seat's roads after the set-up; a city replaces one of the seat's
own settlements. Each needs its cost in hand and a piece left in supply. In the
set-up a settlement needs no road and costs nothing, and its road must touch it.
"""

from __future__ import annotations

from collections.abc import Iterable

from service.rules.catan import cloth, pirate_islands, tribe, wonders
from service.rules.catan.pieces import COSTS, can_pay
from service.rules.catan.state import NOBODY, State

#: what a road and a settlement cost (read on every menu)
_ROAD, _SETTLEMENT = COSTS["road"], COSTS["settlement"]


def settlement_problem(state: State, seat: int, corner: int, *, setup: bool = False) -> str | None:
    problem = _site_problem(state, corner)
    if problem is not None:
        return problem
    if setup:
        if state.scenario is not None and not in_start_area(state, corner):
            return "not_a_start_area"
        if state.wonders is not None and wonders.marked(state, corner):
            return "marked_intersection"
        return None
    if state.fleet is not None and (
        problem := pirate_islands.settlement_problem(state, seat, corner)
    ):
        return problem
    if state.pieces[seat]["settlement"] < 1:
        return "no_settlements_left"
    layout = state.layout
    assert layout is not None  # (the board is laid)
    road, ship, edges = state.road, state.ship, layout.grid.corner_edges[corner]
    if not any(road[edge] == seat for edge in edges) and not (
        ship and any(ship[edge] == seat for edge in edges)
    ):
        return "settlement_not_connected"
    if not can_pay(state.hands[seat], _SETTLEMENT):
        return "cannot_afford"
    return None


def _site_problem(state: State, corner: int) -> str | None:
    """What forbids any settlement on ``corner``, whoever builds it."""
    owner = state.owner
    if owner[corner] != NOBODY:
        return "intersection_occupied"
    layout = state.layout
    assert layout is not None  # (the board is laid)
    if not layout.land_corner[corner]:
        return "settlement_at_sea"
    if state.cloth is not None and cloth.on_small_island(state, corner):
        return "small_island"
    if state.tribe is not None:  # The Forgotten Tribe: never on the small islands
        problem = tribe.settlement_problem(state, corner)
        if problem is not None:
            return problem
    for other in layout.grid.corner_corners[corner]:
        if owner[other] != NOBODY:
            return "distance_rule"
    return None


def in_start_area(state: State, corner: int) -> bool:
    """Seafarers: whether the corner touches land of an area where the set-up may build."""
    areas, area_of = state.areas, state.area_of
    return any(
        h in area_of and areas[area_of[h]]["start"] for h in state.laid().grid.corner_hexes[corner]
    )


def areas_touched(state: State, corner: int) -> list[int]:
    """Seafarers: the areas whose land the corner touches."""
    layout, area_of = state.laid(), state.area_of
    if not layout.land_corner[corner]:
        return []
    return sorted({area_of[h] for h in layout.grid.corner_hexes[corner] if h in area_of})


def city_problem(state: State, seat: int, corner: int) -> str | None:
    if state.owner[corner] != seat or state.city[corner]:
        return "no_settlement_there"
    if state.pieces[seat]["city"] < 1:
        return "no_cities_left"
    if not can_pay(state.hands[seat], COSTS["city"]):
        return "cannot_afford"
    return None


def road_problem(
    state: State, seat: int, edge: int, *, setup: bool = False, free: bool = False
) -> str | None:
    problem = _path_problem(state, edge)
    if problem is not None:
        return problem
    if state.pieces[seat]["road"] < 1:
        return "no_roads_left"
    layout = state.layout
    assert layout is not None  # (the board is laid)
    grid = layout.grid
    if setup:
        if state.setup_corner[seat] not in grid.edge_corners[edge]:
            return "road_not_beside_settlement"
        return None
    if not _joins(state, seat, edge):
        return "road_not_connected"
    if not free and not can_pay(state.hands[seat], _ROAD):
        return "cannot_afford"
    return None


def _path_problem(state: State, edge: int) -> str | None:
    """What forbids any road on ``edge``, whoever builds it."""
    if state.road[edge] != NOBODY or (state.ship and state.ship[edge] != NOBODY):
        return "path_occupied"
    layout = state.layout
    assert layout is not None  # (the board is laid)
    if not layout.road_edge[edge]:
        return "road_at_sea"
    if state.fleet is not None and (problem := pirate_islands.road_problem(state, edge)):
        return problem
    return None


def _joins(state: State, seat: int, edge: int) -> bool:
    """Whether a road on ``edge`` joins the seat's network at one of its ends: at its own
    building, or at its own road through a corner no opponent has built on."""
    layout = state.layout
    assert layout is not None  # (the board is laid)
    grid, owner, road = layout.grid, state.owner, state.road
    for corner in grid.edge_corners[edge]:
        holder = owner[corner]
        if holder == seat:
            return True
        if holder == NOBODY:
            for other in grid.corner_edges[corner]:
                if road[other] == seat and other != edge:
                    return True
    return False


# -- candidates for the menus (each still passes through the problem function) ----------


def setup_settlements(state: State, seat: int) -> list[int]:
    if state.scenario is None:
        return _free_sites(state, range(len(state.owner)))
    return [
        c for c in range(len(state.owner)) if settlement_problem(state, seat, c, setup=True) is None
    ]


def _free_sites(state: State, corners: Iterable[int]) -> list[int]:
    """The base game's ``corners`` where :func:`_site_problem` finds nothing, in order:
    its rules written out, since the menus ask them of many corners (the corners
    a building or the distance rule takes, gathered once from the few buildings)."""
    layout = state.layout
    assert layout is not None  # (the board is laid)
    near, taken = layout.grid.corner_corners, set()
    for buildings in state.buildings_of:
        taken.update(buildings)
        for b in buildings:
            taken.update(near[b])
    land = layout.land_corner
    return sorted([c for c in corners if c not in taken and land[c]])


def reachable_corners(state: State, seat: int) -> set[int]:
    """The corners the seat's network reaches: its buildings, and the ends of its roads
    not cut by an opponent's building."""
    layout = state.layout
    assert layout is not None  # (the board is laid)
    edge_corners = layout.grid.edge_corners
    found: set[int] = set()
    for edge in state.roads_of[seat]:
        found.update(edge_corners[edge])
    found -= state.others_buildings(seat)
    found.update(state.buildings_of[seat])
    return found


def road_spots(state: State, seat: int, *, setup: bool = False, free: bool = False) -> list[int]:
    layout = state.layout
    assert layout is not None  # (the board is laid)
    corner_edges, road = layout.grid.corner_edges, state.road
    if setup:
        around = {e for e in corner_edges[state.setup_corner[seat]] if road[e] == NOBODY}
        return sorted(e for e in around if road_problem(state, seat, e, setup=True) is None)
    # road_problem, with what does not depend on the path asked once; and every
    # candidate joins the seat's network (it touches a corner the network reaches)
    if state.pieces[seat]["road"] < 1 or not (free or can_pay(state.hands[seat], _ROAD)):
        return []
    candidates: set[int] = set()
    for corner in reachable_corners(state, seat):
        candidates.update(corner_edges[corner])
    if state.scenario is not None:
        return sorted(e for e in candidates if _path_problem(state, e) is None)
    # the base game: _path_problem's two rules, written out (asked on most turns)
    road_edge = layout.road_edge
    return sorted([e for e in candidates if road[e] == NOBODY and road_edge[e]])


def settlement_spots(state: State, seat: int) -> list[int]:
    """settlement_problem, with what does not depend on the corner asked once; every
    candidate (an end of the seat's roads or ships) is joined to them."""
    if state.pieces[seat]["settlement"] < 1 or not can_pay(state.hands[seat], _SETTLEMENT):
        return []
    layout = state.layout
    assert layout is not None  # (the board is laid)
    edge_corners = layout.grid.edge_corners
    ends = {c for e in state.roads_of[seat] for c in edge_corners[e]}
    if state.ships_of:
        ends.update(c for e in state.ships_of[seat] for c in edge_corners[e])
    fleet = state.fleet
    if state.scenario is not None:
        return sorted(
            c
            for c in ends
            if _site_problem(state, c) is None
            and (fleet is None or pirate_islands.settlement_problem(state, seat, c) is None)
        )
    return _free_sites(state, ends)


def city_spots(state: State, seat: int) -> list[int]:
    return [c for c in state.buildings_of[seat] if city_problem(state, seat, c) is None]

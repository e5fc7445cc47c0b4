"""Seafarers' ships and the pirate: where a ship may be built, which ship may move and
where, and whom the pirate robs. One function per rule says why not (a code) or
``None``, read by the decider and the menus alike, as in :mod:`.building`.

Rules (Seafarers, "Construction et utilisation des bateaux", "Règles des pirates"):

- a ship costs 1 wool and 1 lumber; each seat has 15;
- it goes on a path between two tiles of which at least one is sea (at sea, or along
  a coast), never on a path holding a road or another ship;
- it continues one of the seat's own ships, or starts at one of its own settlements
  or cities; a ship never continues a road (nor a road a ship) without a settlement
  or city between them, and no line runs through an opponent's building;
- in the set-up a settlement on the coast may take a ship instead of its road;
- no ship is built or moved on a path of the pirate's hex;
- once per turn the seat in turn may move one ship: the last ship of an open line
  (one of its ends holds neither the seat's building nor another of its ships), not
  one built this turn, to a path where a ship could be built;
- the pirate's mover may rob one seat with a ship on a path of the pirate's hex.
"""

from __future__ import annotations

from service.rules.catan import cloth, pirate_islands
from service.rules.catan.pieces import COSTS, can_pay
from service.rules.catan.state import NOBODY, State


def pirate_blocks(state: State, edge: int) -> bool:
    """Whether the pirate's hex has ``edge`` as a side."""
    pirate = state.pirate
    return pirate is not None and pirate in state.laid().grid.edge_hexes[edge]


def ship_problem(
    state: State,
    seat: int,
    edge: int,
    *,
    setup: bool = False,
    free: bool = False,
    moving: int | None = None,
) -> str | None:
    """Why a ship of ``seat`` may not go on ``edge`` (``None`` if it may). ``moving`` is
    the ship being moved: it is taken off the board first, and costs nothing."""
    if state.fleet is not None:  # The Pirate Islands: one route each
        return pirate_islands.ship_problem(state, seat, edge, setup=setup, free=free)
    layout = state.laid()
    if not layout.ship_edge[edge]:
        return "ship_on_land"
    if state.occupied(edge):
        return "path_occupied"
    if pirate_blocks(state, edge):
        return "pirate_blocks"
    grid = layout.grid
    if setup:
        if state.setup_corner[seat] not in grid.edge_corners[edge]:
            return "road_not_beside_settlement"
        return None if state.pieces[seat]["ship"] else "no_ships_left"
    if moving is None and state.pieces[seat]["ship"] < 1:
        return "no_ships_left"
    if not _ship_joins(state, seat, edge, moving):
        return "ship_not_connected"
    if moving is None and not free and not can_pay(state.hands[seat], COSTS["ship"]):
        return "cannot_afford"
    return None


def _ship_joins(state: State, seat: int, edge: int, moving: int | None) -> bool:
    """Whether a ship on ``edge`` starts at the seat's building or continues one of its
    ships (not ``moving``) through a corner no opponent has built on."""
    grid, owner, ship = state.laid().grid, state.owner, state.ship
    for corner in grid.edge_corners[edge]:
        holder = owner[corner]
        if holder == seat:
            return True
        if holder == NOBODY and any(
            ship[other] == seat and other != moving
            for other in grid.corner_edges[corner]
            if other != edge
        ):
            return True
    return False


def ship_spots(
    state: State, seat: int, *, setup: bool = False, free: bool = False, moving: int | None = None
) -> list[int]:
    """Every path where a ship of the seat may go now (``moving``: the ship moved)."""
    grid, ship = state.laid().grid, state.ship
    if setup:
        corners = {state.setup_corner[seat]}
    else:
        corners = set(state.buildings_of[seat])
        for e in state.ships_of[seat]:
            if e != moving:
                corners.update(grid.edge_corners[e])
    candidates = {e for c in corners for e in grid.corner_edges[c] if ship[e] == NOBODY}
    return sorted(
        e
        for e in candidates
        if ship_problem(state, seat, e, setup=setup, free=free, moving=moving) is None
    )


def is_open_end(state: State, seat: int, edge: int) -> bool:
    """Whether the ship on ``edge`` is the last of an open line: one of its ends holds
    neither a building of the seat nor another of its ships. A ship between two of the
    seat's buildings never is, even after an opponent builds on its line: the ships
    still meet there, so the line stays closed. (Cloth for Catan: a village the seat
    trades with closes a line as a building does.)"""
    grid, owner, ship = state.laid().grid, state.owner, state.ship
    for corner in grid.edge_corners[edge]:
        if owner[corner] == seat or cloth.anchors(state, seat, corner):
            continue
        if not any(ship[other] == seat for other in grid.corner_edges[corner] if other != edge):
            return True
    return False


def ship_move_problem(state: State, seat: int, origin: int, target: int | None) -> str | None:
    """Why the seat may not move its ship from ``origin`` (to ``target``, if given)."""
    if state.fleet is not None:
        return "ships_do_not_move"
    if state.ship_moved:
        return "one_ship_move_per_turn"
    if state.ship[origin] != seat:
        return "no_ship_there"
    if origin in state.new_ships:
        return "ship_built_this_turn"
    if not is_open_end(state, seat, origin):
        return "ship_not_movable"
    if pirate_blocks(state, origin):
        return "pirate_blocks"
    if target is None:
        return None
    if target == origin:
        return "ship_must_move"
    return ship_problem(state, seat, target, moving=origin)


def ship_moves(state: State, seat: int) -> list[tuple[int, int]]:
    """Every ``(origin, target)`` move the seat may make now."""
    if state.ship_moved:
        return []
    found = []
    for origin in state.ships_of[seat]:
        if ship_move_problem(state, seat, origin, None) is None:
            found += [
                (origin, target)
                for target in ship_spots(state, seat, moving=origin)
                if target != origin
            ]
    return found


def pirate_victims(state: State, seat: int, target: tuple[int, int]) -> list[int]:
    """The seats the mover may rob with the pirate on ``target``: those with a ship on
    one of its paths who hold a card."""
    ship = state.ship
    owners = {ship[e] for e in state.laid().grid.hex_edges[target]}
    return sorted(s for s in owners if s not in (NOBODY, seat) and state.cards(s) > 0)

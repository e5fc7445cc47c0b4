"""Longest road: the longest trail through a seat's roads (and Seafarers' ships)."""

from __future__ import annotations

import itertools
import random

from service.rules.catan.roads import longest_road, longest_road_after
from service.rules.hexes.geometry import Corner, HexGrid, edge_between, hex_corners, hexes_within

GRID = HexGrid(hexes_within(2))


def path(*corners: Corner) -> list[int]:
    """The edge indices of the road through consecutive corners."""
    return [GRID.edge_index[edge_between(a, b)] for a, b in itertools.pairwise(corners)]


def at(corner: Corner) -> int:
    return GRID.corner_index[corner]


# the centre hex's corners, clockwise from north, and those of its east neighbour
N, NE, SE, S, SW, NW = hex_corners((0, 0))
E_N, E_NE, E_SE, E_S, E_SW, E_NW = hex_corners((1, 0))
assert (E_NW, E_SW) == (NE, SE)


def test_no_road_has_length_zero() -> None:
    assert longest_road(GRID, []) == 0


def test_a_simple_road_of_five_counts_five() -> None:
    assert longest_road(GRID, path(N, NE, SE, S, SW, NW)) == 5


def test_a_fork_counts_only_its_longest_branch() -> None:
    trunk = path(SW, S, SE, NE)  # 3 segments, then a fork at NE
    branches = path(NE, N) + path(NE, E_N, E_NE)
    assert longest_road(GRID, trunk + branches) == 5  # trunk + the 2-long branch


def test_a_loop_counts_every_segment() -> None:
    assert longest_road(GRID, path(N, NE, SE, S, SW, NW, N)) == 6


def test_a_loop_with_a_tail_counts_both() -> None:
    loop = path(N, NE, SE, S, SW, NW, N)
    tail = path(NE, E_N, E_NE)
    assert longest_road(GRID, loop + tail) == 8


def test_a_road_may_pass_a_corner_twice() -> None:
    # two hex rings sharing the NE-SE side: every segment, crossing NE and SE twice
    figure_eight = path(N, NE, SE, S, SW, NW, N) + path(NE, E_N, E_NE, E_SE, E_S, SE)
    assert longest_road(GRID, figure_eight) == 11


def test_an_opponents_settlement_breaks_the_road() -> None:
    road = path(N, NE, SE, S, SW, NW)
    assert longest_road(GRID, road, blocked_corners={at(SE)}) == 3
    assert longest_road(GRID, road, blocked_corners={at(SE), at(SW)}) == 2


def test_an_opponent_on_a_loop_opens_it_but_keeps_it_whole() -> None:
    loop = path(N, NE, SE, S, SW, NW, N)
    assert longest_road(GRID, loop, blocked_corners={at(S)}) == 6


def test_the_seats_own_settlement_does_not_break_the_road() -> None:
    road = path(N, NE, SE, S, SW, NW)
    assert longest_road(GRID, road, own_corners={at(SE)}) == 5


def test_an_opponent_at_the_end_of_a_road_costs_nothing() -> None:
    road = path(N, NE, SE, S, SW, NW)
    assert longest_road(GRID, road, blocked_corners={at(N), at(NW)}) == 5


def test_roads_and_ships_join_only_at_the_seats_own_building() -> None:
    roads = path(N, NE, SE)
    ships = path(SE, S, SW)
    assert longest_road(GRID, roads, ships=ships) == 2
    assert longest_road(GRID, roads, ships=ships, own_corners={at(SE)}) == 4
    assert longest_road(GRID, [], ships=ships + path(SW, NW)) == 3


def brute_force(roads: list[int], blocked: set[int]) -> int:
    """Every trail from every segment end, the slow way."""

    def extend(corner: int, used: frozenset[int]) -> int:
        if corner in blocked:
            return 0
        best = 0
        for e in roads:
            if e not in used and corner in GRID.edge_corners[e]:
                a, b = GRID.edge_corners[e]
                best = max(best, 1 + extend(b if a == corner else a, used | {e}))
        return best

    best = 0
    for e in roads:
        a, b = GRID.edge_corners[e]
        best = max(best, 1 + extend(a, frozenset({e})), 1 + extend(b, frozenset({e})))
    return best


def test_the_fast_search_agrees_with_brute_force_on_random_networks() -> None:
    rng = random.Random(2024)
    for _ in range(300):
        roads = {rng.randrange(len(GRID.edges))}
        for _ in range(rng.randrange(14)):
            frontier = [f for e in roads for f in GRID.edge_edges[e] if f not in roads]
            roads.add(rng.choice(frontier))
        corners = {c for e in roads for c in GRID.edge_corners[e]}
        blocked = set(rng.sample(sorted(corners), rng.randrange(3)))
        assert longest_road(GRID, sorted(roads), blocked) == brute_force(sorted(roads), blocked)


def test_a_new_road_is_counted_from_the_length_before_as_a_whole_search_counts_it() -> None:
    rng = random.Random(2025)
    for _ in range(300):
        roads = [rng.randrange(len(GRID.edges))]
        blocked = set(rng.sample(range(len(GRID.corners)), rng.randrange(4)))
        for _ in range(rng.randrange(1, 15)):
            frontier = sorted({f for e in roads for f in GRID.edge_edges[e]} - set(roads))
            before = longest_road(GRID, roads, blocked)
            roads.append(rng.choice(frontier))
            after = longest_road_after(GRID, roads, blocked, before)
            assert after == longest_road(GRID, roads, blocked) == brute_force(roads, blocked)

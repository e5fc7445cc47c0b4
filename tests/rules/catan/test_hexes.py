"""Hex geometry: one name per intersection and path, and the standard board's shape."""

from __future__ import annotations

import pytest

from service.rules.hexes.geometry import (
    Corner,
    Edge,
    HexGrid,
    corner_corners,
    corner_edges,
    corner_hexes,
    corner_name,
    corners_of,
    edge_between,
    edge_corners,
    edge_edges,
    edge_hexes,
    edge_name,
    edges_of,
    hex_corners,
    hex_edges,
    hex_name,
    hexes_within,
    neighbours,
    parse_corner,
    parse_edge,
    parse_hex,
    spiral,
)

STANDARD = hexes_within(2)


@pytest.fixture(scope="module")
def grid() -> HexGrid:
    return HexGrid(STANDARD)


def test_the_standard_board_has_19_hexes_54_intersections_and_72_paths(grid: HexGrid) -> None:
    assert len(STANDARD) == len(set(STANDARD)) == 19
    assert len(grid.corners) == len(corners_of(STANDARD)) == 54
    assert len(grid.edges) == len(edges_of(STANDARD)) == 72
    assert len(grid.coastal_corners) == 30
    assert len(grid.coastal_edges) == 30


def test_every_intersection_touches_at_most_three_hexes(grid: HexGrid) -> None:
    counts = sorted(len(hs) for hs in grid.corner_hexes)
    assert max(counts) == 3 and min(counts) == 1
    assert counts.count(3) == 24


def test_every_path_has_two_intersections_and_separates_two_hexes(grid: HexGrid) -> None:
    for i, e in enumerate(grid.edges):
        a, b = grid.edge_corners[i]
        assert a != b
        assert {grid.corners[a], grid.corners[b]} == set(edge_corners(e))
        assert len(set(edge_hexes(e))) == 2
        assert set(edge_hexes(e)) == set(corner_hexes(grid.corners[a])) & set(
            corner_hexes(grid.corners[b])
        )


def test_a_hex_has_six_distinct_corners_and_sides_shared_with_its_neighbours() -> None:
    h = (1, -1)
    assert len(set(hex_corners(h))) == 6
    assert len(set(hex_edges(h))) == 6
    for n, e in zip(neighbours(h), [hex_edges(h)[i] for i in (1, 0, 5, 4, 3, 2)], strict=True):
        assert set(edge_hexes(e)) == {h, n}
    for c in hex_corners(h):
        assert h in corner_hexes(c)
    for e in hex_edges(h):
        assert set(edge_corners(e)) <= set(hex_corners(h))


def test_corner_and_edge_adjacency_agree() -> None:
    for c in corners_of(STANDARD):
        assert len(set(corner_corners(c))) == 3
        for e, other in zip(corner_edges(c), corner_corners(c), strict=True):
            assert set(edge_corners(e)) == {c, other}
            assert edge_between(c, other) == e
    for e in edges_of(STANDARD):
        assert len(set(edge_edges(e))) == 4
        for f in edge_edges(e):
            assert set(edge_corners(e)) & set(edge_corners(f))


def test_adjacency_is_symmetric(grid: HexGrid) -> None:
    for c, around in enumerate(grid.corner_corners):
        for d in around:
            assert c in grid.corner_corners[d]
    for e, around in enumerate(grid.edge_edges):
        for f in around:
            assert e in grid.edge_edges[f]
    for h in STANDARD:
        for n in neighbours(h):
            assert h in neighbours(n)


def test_the_grid_lists_only_what_is_on_the_board(grid: HexGrid) -> None:
    top = grid.corner_index[Corner(0, -2, "N")]  # a coastal corner at the top
    assert len(grid.corner_corners[top]) == 2
    assert len(grid.corner_edges[top]) == 2
    assert grid.corner_hexes[top] == ((0, -2),)
    centre = grid.corner_index[Corner(0, 0, "N")]
    assert len(grid.corner_corners[centre]) == 3
    assert set(grid.hex_corners[(0, 0)]) == {grid.corner_index[c] for c in hex_corners((0, 0))}


def test_names_round_trip(grid: HexGrid) -> None:
    for c in grid.corners:
        assert parse_corner(corner_name(c)) == c
    for e in grid.edges:
        assert parse_edge(edge_name(e)) == e
    for h in STANDARD:
        assert parse_hex(hex_name(h)) == h
    assert corner_name(Corner(-1, 2, "S")) == "-1,2,S"
    assert edge_name(Edge(0, 0, "NE")) == "0,0,NE"


@pytest.mark.parametrize(
    "text", ["", "0,0", "0,0,NE", "0,0,n", "0, 0,N", "+1,0,N", "01,0,N", "-0,0,N", "0,0,N,", 7]
)
def test_bad_corner_names_are_rejected(text: object) -> None:
    with pytest.raises(ValueError):
        parse_corner(text)


@pytest.mark.parametrize("text", ["0,0,N", "0,0,W", "0,0,NW", "0,0,SW", "0,0", "1.5,0,E", None])
def test_bad_edge_names_are_rejected(text: object) -> None:
    with pytest.raises(ValueError):
        parse_edge(text)


@pytest.mark.parametrize("text", ["0", "0,0,N", "a,b", " 0,0", "0,0 "])
def test_bad_hex_names_are_rejected(text: str) -> None:
    with pytest.raises(ValueError):
        parse_hex(text)


def test_corners_that_do_not_meet_have_no_edge_between_them() -> None:
    with pytest.raises(ValueError):
        edge_between(Corner(0, 0, "N"), Corner(0, 0, "S"))


def test_the_spiral_visits_every_hex_once_each_step_to_a_neighbour() -> None:
    for start in range(6):
        order = spiral(2, start)
        assert sorted(order) == sorted(STANDARD)
        assert order[-1] == (0, 0)
        for a, b in zip(order, order[1:], strict=False):
            assert b in neighbours(a)

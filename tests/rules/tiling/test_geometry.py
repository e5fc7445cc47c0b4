"""Sides, ports and rotation: the board conventions stated in ``tiling/geometry.py``."""

from __future__ import annotations

from service.rules.tiling.geometry import (
    HALF_SIDE_PORT,
    PORT_HALF_SIDE,
    facing_port,
    neighbour,
    quarter_turns,
    rotate_port,
)


def test_north_is_y_minus_1_and_east_is_x_plus_1():
    assert neighbour((0, 0), 0) == (0, -1)
    assert neighbour((0, 0), 1) == (1, 0)


def test_half_sides_run_clockwise_from_the_top_left_corner():
    assert [PORT_HALF_SIDE[p] for p in sorted(PORT_HALF_SIDE)] == [
        "NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR",
    ]  # fmt: skip


def test_a_left_half_meets_the_neighbours_right_half():
    # My top-left (NL) touches the bottom-left (SR) of the tile to the north.
    assert PORT_HALF_SIDE[facing_port(HALF_SIDE_PORT["NL"])] == "SR"
    assert PORT_HALF_SIDE[facing_port(HALF_SIDE_PORT["EL"])] == "WR"
    assert facing_port(1) == 7  # north centre meets south centre
    assert all(facing_port(facing_port(p)) == p for p in range(12))


def test_turning_clockwise_moves_north_to_east():
    assert PORT_HALF_SIDE[rotate_port(HALF_SIDE_PORT["NL"], 1)] == "EL"
    assert PORT_HALF_SIDE[rotate_port(HALF_SIDE_PORT["WR"], 1)] == "NR"
    assert rotate_port(4, 4) == 4


def test_rotations_are_multiples_of_90_degrees():
    assert [quarter_turns(r) for r in (0, 90, 180, 270)] == [0, 1, 2, 3]
    assert [quarter_turns(r) for r in (45, 360, -90, "90", True, None)] == [None] * 6

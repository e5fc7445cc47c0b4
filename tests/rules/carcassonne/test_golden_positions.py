"""Golden positions: legal placements and (placement, spot) pairs, counted twice.

For fixed boards (bot games from fixed seeds, stopped at fixed turns) and every tile
that could be drawn there, the engine's ``legal_commands`` must agree exactly with a
naive count written here from the raw tile data: try every empty cell next to the board
in every rotation comparing edge letters, then flood-fill each feature across the
board to see whether a follower already stands on it. Nothing here calls the engine's
placement or feature code.
"""

from __future__ import annotations

import json
from collections import deque

import pytest

from service.rules.carcassonne import CARCASSONNE
from service.rules.carcassonne.state import DATA
from service.rules.core import Event
from service.rules.play import play_game
from tests.rules.carcassonne.table import menu

RAW = {t["id"]: t for t in json.loads((DATA / "base.json").read_text())["tiles"]}
STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
ORDER = "NESW"
MIRROR = {"L": "R", "C": "C", "R": "L"}


def edge(tile_id: str, rotation: int, side: str) -> str:
    """The edge letter a placed tile shows on ``side``."""
    return RAW[tile_id]["edges"][(ORDER.index(side) - rotation // 90) % 4]


def turn(side: str, rotation: int) -> str:
    return ORDER[(ORDER.index(side) + rotation // 90) % 4]


def segments(tile_id: str, rotation: int) -> list[tuple[str, set[tuple[str, str]]]]:
    """Each feature of a placed tile as (kind, ports), ports as (side, L/C/R)."""
    result = []
    for feature in RAW[tile_id]["features"]:
        names = feature.get("at", "").split()
        if feature["kind"] == "city":
            ports = {(turn(n, rotation), p) for n in names for p in "LCR"}
        elif feature["kind"] == "road":
            ports = {(turn(n, rotation), "C") for n in names}
        elif feature["kind"] == "field":
            ports = {(turn(n[0], rotation), n[1]) for n in names}
        else:
            ports = set()
        result.append((feature["kind"], ports))
    # The centre of a side no road or city claims goes with the field holding its halves.
    claimed = {port for _, ports in result for port in ports}
    for kind, ports in result:
        if kind == "field":
            ports |= {
                (s, "C")
                for s in ORDER
                if (s, "L") in ports and (s, "R") in ports and (s, "C") not in claimed
            }
    return result


def naive_counts(view: dict, tile_id: str, seat: int) -> tuple[int, int]:
    board = {(t["x"], t["y"]): (t["tile"], t["rotation"]) for t in view["board"]}
    figures = {(f["x"], f["y"], f["spot"]) for f in view["followers"]}
    has_follower = view["supply"][seat]["follower"] > 0
    farmers = view["options"]["farmers"]

    def occupied(layout: dict, start: tuple[tuple[int, int], int]) -> bool:
        seen, todo = {start}, deque([start])
        while todo:
            pos, index = todo.popleft()
            tile, rotation = layout[pos]
            kind, ports = segments(tile, rotation)[index]
            if any((pos[0], pos[1], spot) in figures for spot in spot_names(tile, rotation, index)):
                return True
            for side, part in ports:
                dx, dy = STEP[side]
                other = (pos[0] + dx, pos[1] + dy)
                if other not in layout:
                    continue
                facing = (ORDER[(ORDER.index(side) + 2) % 4], MIRROR[part])
                for j, (_, their) in enumerate(segments(*layout[other])):
                    if facing in their and (other, j) not in seen:
                        seen.add((other, j))
                        todo.append((other, j))
        return False

    xs = [x for x, _ in board]
    ys = [y for _, y in board]
    placements = pairs = 0
    for x in range(min(xs) - 1, max(xs) + 2):
        for y in range(min(ys) - 1, max(ys) + 2):
            if (x, y) in board:
                continue
            for rotation in (0, 90, 180, 270):
                touching = [s for s in ORDER if (x + STEP[s][0], y + STEP[s][1]) in board]
                opposite = {s: ORDER[(ORDER.index(s) + 2) % 4] for s in ORDER}
                if not touching or any(
                    edge(tile_id, rotation, s)
                    != edge(*board[(x + STEP[s][0], y + STEP[s][1])], opposite[s])
                    for s in touching
                ):
                    continue
                placements += 1
                if not has_follower:
                    continue
                layout = {**board, (x, y): (tile_id, rotation)}
                for index, (kind, _) in enumerate(segments(tile_id, rotation)):
                    if kind == "field" and not farmers:
                        continue
                    if not occupied(layout, ((x, y), index)):
                        pairs += 1
    return placements, pairs


def spot_names(tile_id: str, rotation: int, index: int) -> set[str]:
    """The spot name of a feature, as figures on the board are recorded."""
    kind, ports = segments(tile_id, rotation)[index]
    if kind == "cloister":
        return {"cloister"}
    if kind == "field":
        halves = [s + p for s in ORDER for p in "LR" if (s, p) in ports]
        return {f"field:{','.join(halves)}"}
    return {f"{kind}:{','.join(s for s in ORDER if any(q[0] == s for q in ports))}"}


POSITIONS = [("g1", 3, True), ("g1", 20, True), ("g1", 45, False), ("g2", 10, False),
             ("g2", 30, True), ("g2", 60, True), ("g3", 50, True), ("g4", 66, False)]  # fmt: skip


@pytest.mark.parametrize(("seed", "turns", "farmers"), POSITIONS)
def test_engine_and_naive_count_agree_on_placements_and_spots(seed, turns, farmers):
    events, _ = play_game(
        CARCASSONNE, {"farmers": farmers}, 3, seed.encode(), ["random", "random", "random"]
    )
    ends = [i for i, e in enumerate(events) if e.type == "turn_ended"]
    state = CARCASSONNE.fold(events[: ends[turns] + 1])
    seat = state.seat
    view = CARCASSONNE.view(state, None)
    for tile_id in view["stack"]:
        trial = CARCASSONNE.copy_state(state)
        CARCASSONNE.evolve(trial, Event("tile_drawn", {"seat": seat, "tile": tile_id}))
        placements = menu(trial, seat)["place_tile"]["placements"]
        engine = (len(placements), sum(len(p["spots"]) for p in placements))
        assert engine == naive_counts(view, tile_id, seat), tile_id

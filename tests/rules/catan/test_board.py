"""The base-game board: component counts, layouts, harbours and its JSON form."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from typing import Any

import pytest

from service.rules.catan.board import (
    HARBOUR_TYPES,
    Board,
    Tile,
    adjacent_red_pairs,
    base_data,
    beginner_board,
    random_board,
)
from service.rules.hexes.geometry import edge_name, hexes_within, spiral

TERRAIN_COUNTS = {"forest": 4, "pasture": 4, "fields": 4, "hills": 3, "mountains": 3, "desert": 1}
NUMBER_COUNTS = {2: 1, 12: 1} | {n: 2 for n in (3, 4, 5, 6, 8, 9, 10, 11)}
HARBOUR_COUNTS = {"generic": 4, "brick": 1, "lumber": 1, "wool": 1, "grain": 1, "ore": 1}
SPIRAL_LETTERS_A_TO_R = [5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11]


def boards() -> list[Board]:
    return [
        beginner_board(),
        *(random_board(random.Random(seed), seed % 2 == 0) for seed in range(10)),
        *(random_board(random.Random(s), s % 2 == 0, numbers="shuffled") for s in range(10)),
    ]


def test_the_data_file_holds_the_rulebook_components() -> None:
    data = base_data()
    assert data["terrain_counts"] == TERRAIN_COUNTS
    assert data["harbour_counts"] == HARBOUR_COUNTS
    assert data["number_spiral"] == SPIRAL_LETTERS_A_TO_R
    assert Counter(data["number_spiral"]) == NUMBER_COUNTS


@pytest.mark.parametrize("board", boards())
def test_a_board_has_19_terrains_18_number_tokens_and_9_harbours(board: Board) -> None:
    assert sorted(board.hexes) == sorted(hexes_within(2))
    assert Counter(t.terrain for t in board.hexes.values()) == TERRAIN_COUNTS
    numbers = [t.number for t in board.hexes.values() if t.number is not None]
    assert Counter(numbers) == NUMBER_COUNTS
    assert Counter(h.type for h in board.harbours) == HARBOUR_COUNTS
    assert {h.ratio for h in board.harbours if h.type == "generic"} == {3}
    assert {h.ratio for h in board.harbours if h.type != "generic"} == {2}


@pytest.mark.parametrize("board", boards())
def test_the_robber_starts_on_the_desert_which_has_no_number(board: Board) -> None:
    assert board.robber is not None
    assert board.hexes[board.robber].terrain == "desert"
    assert board.hexes[board.robber].number is None


@pytest.mark.parametrize("board", boards())
def test_harbours_sit_on_the_frame_touching_two_coastal_intersections(board: Board) -> None:
    grid = board.grid
    frame = set(base_data()["harbour_edges"])
    assert {edge_name(h.edge) for h in board.harbours} == frame
    for harbour in board.harbours:
        assert len(harbour.corners) == 2
        for corner in harbour.corners:
            assert grid.corner_index[corner] in grid.coastal_corners
    touched = [c for h in board.harbours for c in h.corners]
    assert len(set(touched)) == 18  # no intersection serves two harbours


def test_the_beginner_board_is_the_rulebook_layout() -> None:
    board = beginner_board()
    rows = [[board.hexes[h] for h in hexes_within(2) if h[1] == r] for r in range(-2, 3)]
    assert [[(t.terrain, t.number) for t in row] for row in rows] == [
        [("mountains", 10), ("pasture", 2), ("forest", 9)],
        [("fields", 12), ("hills", 6), ("pasture", 4), ("hills", 10)],
        [("fields", 9), ("forest", 11), ("desert", None), ("forest", 3), ("mountains", 8)],
        [("forest", 8), ("mountains", 3), ("fields", 4), ("pasture", 5)],
        [("hills", 5), ("fields", 6), ("pasture", 11)],
    ]
    assert board.robber == (0, 0)
    assert not adjacent_red_pairs(board.hexes)


def spiral_start(board: Board) -> int | None:
    """The corner from which the tokens follow the letters A..R, if any."""
    for start in range(6):
        order = spiral(2, start)
        laid = [board.hexes[h].number for h in order if board.hexes[h].terrain != "desert"]
        if laid == SPIRAL_LETTERS_A_TO_R:
            return start
    return None


@pytest.mark.parametrize("seed", range(30))
def test_random_number_tokens_follow_the_spiral_of_letters_skipping_the_desert(
    seed: int,
) -> None:
    assert spiral_start(random_board(random.Random(seed))) is not None


def test_a_random_board_depends_only_on_the_seed() -> None:
    assert random_board(random.Random(7)) == random_board(random.Random(7))
    drawn = [random_board(random.Random(seed)) for seed in range(20)]
    assert len({json.dumps(board.to_json()) for board in drawn}) == 20
    assert len({tuple(h.type for h in board.harbours) for board in drawn}) > 1


@pytest.mark.parametrize("numbers", ["spiral", "shuffled"])
def test_no_adjacent_red_numbers_holds_over_many_seeds(numbers: str) -> None:
    for seed in range(300):
        board = random_board(random.Random(seed), True, numbers=numbers)
        assert adjacent_red_pairs(board.hexes) == [], seed


def test_the_spiral_of_letters_never_puts_red_numbers_side_by_side() -> None:
    land = hexes_within(2)
    for desert in land:
        terrains = {h: "desert" if h == desert else "forest" for h in land}
        for start in range(6):
            laid = iter(SPIRAL_LETTERS_A_TO_R)
            order = [h for h in spiral(2, start) if h != desert]
            tiles = {h: Tile(terrains[h], next(laid)) for h in order}
            tiles[desert] = Tile("desert", None)
            assert adjacent_red_pairs(tiles) == []


def test_shuffled_tokens_may_put_red_numbers_side_by_side_without_the_variant() -> None:
    drawn = [random_board(random.Random(s), numbers="shuffled") for s in range(50)]
    assert any(adjacent_red_pairs(board.hexes) for board in drawn)
    assert not all(spiral_start(board) is not None for board in drawn)


def test_the_token_placement_must_be_known() -> None:
    with pytest.raises(ValueError, match="numbers"):
        random_board(random.Random(1), numbers="alphabetical")


@pytest.mark.parametrize("board", boards())
def test_a_board_round_trips_through_json(board: Board) -> None:
    text = json.dumps(board.to_json())
    again = Board.from_json(json.loads(text))
    assert again == board
    assert again.to_json() == board.to_json()


def corrupt(path: list[Any], value: Any) -> dict[str, Any]:
    doc = copy.deepcopy(beginner_board().to_json())
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return doc


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        (corrupt(["hexes", 0, "number"], 7), "number token"),
        (corrupt(["hexes", 0, "number"], None), "number token"),
        (corrupt(["hexes", 0, "number"], True), "number token"),
        (corrupt(["hexes", 0, "number"], "10"), "number token"),
        (corrupt(["hexes", 9, "number"], 5), "desert"),
        (corrupt(["hexes", 0, "terrain"], "lava"), "terrain"),
        (corrupt(["hexes", 0, "hex"], "0,0"), "twice"),
        (corrupt(["hexes", 0, "hex"], "0;-2"), "hex"),
        (corrupt(["hexes", 0, "colour"], "red"), "keys"),
        (corrupt(["harbours", 0, "type"], "wood"), "type"),
        (corrupt(["harbours", 0, "corners"], ["0,0,N", "0,-1,S"]), "coast"),
        (corrupt(["harbours", 0, "corners"], ["0,-2,N", "0,-2,S"]), "adjacent"),
        (corrupt(["harbours", 0, "corners"], ["0,-2,N"]), "2 corners"),
        (corrupt(["harbours", 0, "corners"], ["0,-4,N", "0,-5,S"]), "coast"),
        (corrupt(["harbours", 1, "corners"], ["0,-3,S", "0,-2,N"]), "two harbours"),
        (corrupt(["robber"], "5,5"), "robber"),
        (corrupt(["hexes"], {}), "list"),
        ([], "board"),
    ],
)
def test_from_json_rejects_a_bad_board(doc: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Board.from_json(doc)


def test_a_board_may_have_no_robber_on_it() -> None:
    doc = corrupt(["robber"], None)
    assert Board.from_json(doc).robber is None


def test_harbour_types_are_generic_or_a_resource() -> None:
    assert HARBOUR_TYPES == ("generic", "brick", "lumber", "wool", "grain", "ore")

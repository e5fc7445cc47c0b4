"""Connected features: joins, open sides, loops, and majorities with figure weights."""

from __future__ import annotations

from service.rules.carcassonne.base import BASE
from service.rules.carcassonne.state import game_rules
from service.rules.tiling.board import Board
from service.rules.tiling.features import FeatureGraph, Figure
from service.rules.tiling.scoring import majority
from tests.rules.tiling.graphs import layout

catalogue = game_rules((BASE,)).catalogue


def build(*tiles: tuple[str, int, int, int]) -> tuple[Board, FeatureGraph, list[list[int]]]:
    board, graph, completed = Board(catalogue), FeatureGraph(), []
    for letter, x, y, rotation in tiles:
        tile = catalogue.get(letter)
        q = rotation // 90
        assert board.tiles == {} or q in board.rotations(tile, (x, y)), (letter, x, y)
        beside = board.place((x, y), tile, q, len(graph.parent))
        completed.append(graph.add_tile(board, (x, y), beside))
    return board, graph, completed


def test_a_road_loop_is_complete_and_counts_each_tile_once():
    # Four curves make a ring.
    board, graph, completed = build(("V", 0, 0, 270), ("V", 1, 0, 0), ("V", 1, 1, 90),
                                    ("V", 0, 1, 180))  # fmt: skip
    (root,) = completed[-1]
    road = graph.features[root]
    assert road.kind.name == "road" and road.complete and road.open == 0
    assert len(road.tiles) == 4


def test_open_sides_count_down_as_a_city_grows():
    board, graph, _ = build(("D", 0, 0, 0), ("M", 0, -1, 180))
    city = graph.feature(graph.node_at(board, (0, 0), "city:N"))
    assert (city.open, city.complete, city.attrs) == (1, False, {"shield": 1})


def test_the_frontier_holds_only_positions_next_to_tiles():
    board, _, _ = build(("D", 0, 0, 0))
    assert set(board.frontier) == {(0, -1), (1, 0), (0, 1), (-1, 0)}
    assert board.problem(catalogue.get("E"), (1, 1), 0) == "no_neighbour"


def test_majority_weighs_figures_and_every_tied_seat_wins():
    def fig(seat: int, weight: int = 1) -> Figure:
        return Figure(seat, "follower", weight, (0, 0), "city:N")

    assert majority([fig(0), fig(1)]) == [0, 1]
    assert majority([fig(0), fig(0), fig(1)]) == [0]
    # A big follower (weight 2) equals two followers.
    assert majority([fig(0, 2), fig(1), fig(1)]) == [0, 1]
    assert majority([]) == []


def test_placing_on_a_copy_joins_and_completes_without_changing_the_original():
    # A cloister (B) waiting at (1, -1), a city growing from D, and a follower on the
    # city: the copy's tile E closes that city and counts for the cloister.
    board, graph, _ = build(("D", 0, 0, 0), ("U", 1, 0, 0), ("B", 1, -1, 0))
    city = graph.own(graph.node_at(board, (0, 0), "city:N"))
    city.figures.append(Figure(0, "follower", 1, (0, 0), "city:N"))
    before = layout(graph)
    whole = graph.copy()
    copy, copied_board = graph.placing_copy(), board.copy()
    tile = catalogue.get("E")
    beside = copied_board.place((0, -1), tile, 2, len(copy.parent))
    (completed,) = copy.add_tile(copied_board, (0, -1), beside)
    assert copy.features[completed].complete and copy.features[completed].figures
    assert (graph.around[(1, -1)], copy.around[(1, -1)]) == (2, 3)
    assert layout(graph) == before  # the original: every feature, root and count as it was
    whole_board = board.copy()
    beside = whole_board.place((0, -1), tile, 2, len(whole.parent))
    assert whole.add_tile(whole_board, (0, -1), beside) == [completed]
    assert layout(copy) == layout(whole)  # the copy: as a whole copy would be

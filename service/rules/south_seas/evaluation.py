"""Evaluations: what bridges, islands, sea regions and markets give, and to whom.

Rulebook "Completed Bridges, Islands, Sea Regions and Markets are evaluated": a
completed bridge gives 1 shell per shell icon, an island 1 banana per banana icon, a
sea region 1 fish per uncovered fish icon, to the seats with the most islanders on it
(every tied seat receives the full amount); the islanders then return. A fishing boat
placed into an occupied sea region evaluates it at once, then covers a group of fish
(a group of two if one is left, else a single fish). A completed market owes its
merchant a ship (awarded by the decider, clockwise from the active seat). At the end,
unfinished bridges, islands and sea regions are evaluated as if complete; unfinished
markets give nothing.

Each function returns the data of a ``feature_evaluated`` event, which names the
feature, its tiles, islanders, winners, icons and wares, and says why.
"""

from __future__ import annotations

from typing import Any

from service.rules.south_seas.content import KIND_WARE
from service.rules.south_seas.state import State
from service.rules.tiling.features import Feature, Figure
from service.rules.tiling.scoring import majority

Data = dict[str, Any]
#: an islander standing on a feature, with the root of that feature
Placement = tuple[int, Figure]

ROLES = {"bridge": "shell_collector", "island": "banana_picker", "sea": "fisherman"}
ROLES["market"] = "merchant"


def icons(feature: Feature) -> int:
    """The ware icons a feature shows: shells, bananas, or uncovered fish."""
    attrs = feature.attrs
    kind = feature.kind.name
    if kind == "sea":
        return attrs.get("fish1", 0) + 2 * attrs.get("fish2", 0)
    ware = KIND_WARE.get(kind)
    return attrs.get(ware, 0) if ware else 0


def _islanders(figures: list[Figure]) -> list[Data]:
    return [{"seat": f.seat, "x": f.pos[0], "y": f.pos[1], "spot": f.spot} for f in figures]


def _majority_words(figures: list[Figure], winners: list[int]) -> str:
    count = sum(1 for f in figures if f.seat == winners[0])
    seats = ", ".join(f"seat {s}" for s in winners)
    tie = " (tied)" if len(winners) > 1 else ""
    return f"most islanders: {seats} with {count} each{tie}"


def evaluation(feature: Feature, figures: list[Figure], trigger: str) -> Data:
    """The ``feature_evaluated`` data of a bridge, island, sea region or market.

    ``trigger`` is ``completed``, ``fishing_boat`` or ``end_of_game``.
    """
    kind = feature.kind.name
    winners = majority(figures)
    first = figures[0]
    data: Data = {
        "kind": kind,
        "trigger": trigger,
        "complete": feature.complete,
        "at": {"x": first.pos[0], "y": first.pos[1], "spot": first.spot},
        "tiles": [list(pos) for pos in sorted(feature.tiles)],
        "islanders": _islanders(figures),
        "winners": winners,
        "ware": KIND_WARE.get(kind),
        "icons": 0,
        "wares": 0,
        "returned": trigger != "end_of_game",
    }
    state_word = "completed" if feature.complete else "unfinished"
    if kind == "market":
        if feature.complete:
            data["ship_owed"] = True
            data["reason"] = (
                "completed market (surrounded by 8 tiles): its merchant takes the "
                "highest-valued face-up ship"
            )
        else:
            data["winners"] = []
            data["reason"] = "unfinished market: unfinished markets give nothing"
        return data
    ware = KIND_WARE[kind]
    count = icons(feature)
    data["icons"] = data["wares"] = count
    why = {"completed": state_word, "fishing_boat": "fishing boat placed in", "end_of_game": ""}
    words = f"{why[trigger]} {kind}".strip()
    if trigger == "end_of_game":
        words = f"end of game, {state_word} {kind} evaluated as if complete"
    icon = "uncovered fish" if kind == "sea" else ware
    data["reason"] = (
        f"{words}: 1 {ware} per {icon} icon, {count} icons; {_majority_words(figures, winners)}"
    )
    return data


def cover(state: State, root: int, boats: int) -> tuple[Data | None, str]:
    """Which fish a fishing-boat token covers in the sea region ``root``, and why."""
    if boats < 1:
        return None, "no fishing-boat token is left, so no fish are covered"
    graph, board = state.graph, state.board
    assert board is not None
    feature = graph.features[root]
    group = 2 if feature.attrs.get("fish2", 0) > 0 else 1
    if feature.attrs.get(f"fish{group}", 0) < 1:
        return None, "no uncovered fish are left in this sea region"
    key = f"fish{group}"
    for pos in sorted(feature.tiles):
        placed = board.tiles[pos]
        for i, segment in enumerate(placed.tile.segments):
            spot = placed.tile.spots[placed.q][i]
            already = state.covered.get((pos[0], pos[1], spot), {}).get(key, 0)
            if segment.attrs.get(key, 0) > already and graph.find(placed.node + i) == root:
                where = {"x": pos[0], "y": pos[1], "spot": spot, "group": group}
                return where, f"a fishing-boat token covers a group of {group} fish"
    raise AssertionError("a sea region's fish counts disagree with its tiles")


def turn_evaluations(state: State, new: Placement | None, removed: Placement | None) -> list[Data]:
    """Step 3 of the turn of ``state.seat``: every evaluation this turn's tile causes.

    ``new`` is the islander placed this turn and ``removed`` the one retrieved (not yet
    folded into ``state``). Ware evaluations come first, then markets clockwise from the
    active seat, whose merchants are owed ships in that order.
    """
    assert state.board is not None
    assert state.placed is not None
    placed = state.board.tiles[state.placed]
    assert state.content is not None
    boat_segments = state.content.boat_segments[placed.tile]
    if not state.completed and not boat_segments:
        return []  # most turns: nothing completed, no fishing boat
    graph = state.graph

    def figures_on(root: int) -> list[Figure]:
        figures = list(graph.features[root].figures)
        if new is not None and graph.find(new[0]) == root:
            figures.append(new[1])
        if removed is not None and graph.find(removed[0]) == root:
            figures.remove(removed[1])
        return figures

    wares: list[Data] = []
    markets: list[tuple[int, int, Data]] = []
    done: set[int] = set()
    for node in state.completed:
        root = graph.find(node)
        figures = figures_on(root)
        if root in done or not figures:
            continue
        done.add(root)
        data = evaluation(graph.features[root], figures, "completed")
        if data["kind"] == "market":
            order = (figures[0].seat - state.seat) % state.seats
            markets.append((order, root, data))
        else:
            wares.append(data)
    boats = state.boats
    for i in boat_segments:
        root = graph.find(placed.node + i)
        if root in done or not figures_on(root):
            continue
        done.add(root)
        data = evaluation(graph.features[root], figures_on(root), "fishing_boat")
        assert state.placed is not None
        data["boat"] = {
            "x": state.placed[0],
            "y": state.placed[1],
            "spot": placed.tile.spots[placed.q][i],
        }
        data["cover"], data["cover_reason"] = cover(state, root, boats)
        boats -= data["cover"] is not None
        wares.append(data)
    return wares + [data for _, _, data in sorted(markets, key=lambda m: m[:2])]


def final_evaluations(state: State) -> list[Data]:
    """End of game: every occupied unfinished feature (markets give nothing)."""
    return [
        evaluation(feature, feature.figures, "end_of_game")
        for _, feature in sorted(state.graph.features.items())
        if feature.figures and not feature.complete
    ]

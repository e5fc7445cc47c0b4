"""Bots for Carcassonne (games between bots: :func:`service.rules.play.play_game`).

Bots:

- ``random``: a uniformly random legal placement, then a uniformly random choice
  among the free spots and skipping; in external randomness mode it also draws a tile
  at random from the stack (weighted by the counts left);
- ``greedy``: the placement and spot that score it the most points this turn (ties
  broken at random), worked out by placing the tile on a copy of the state.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from service.rules.carcassonne.state import PHASE_DRAW, PHASE_FIGURE, PHASE_TILE, State
from service.rules.core import JSON
from service.rules.tiling.features import Figure
from service.rules.tiling.geometry import ROTATIONS

if TYPE_CHECKING:
    from service.rules.carcassonne.game import Carcassonne


def _draw(state: State, rng: random.Random) -> JSON:
    tiles = [tile for tile, n in state.stack.items() if n]
    weights = [state.stack[tile] for tile in tiles]
    return {"type": "draw_tile", "tile": rng.choices(tiles, weights)[0]}


def _place(pos: tuple[int, int], q: int) -> JSON:
    return {"type": "place_tile", "x": pos[0], "y": pos[1], "rotation": ROTATIONS[q]}


def _free_spots(ruleset: Carcassonne, state: State, seat: int) -> list[str]:
    return [entry["spot"] for entry in ruleset.legal_commands(state, seat)["spots"]]


def random_bot(ruleset: Carcassonne, state: State, seat: int, rng: random.Random) -> JSON:
    if state.phase == PHASE_DRAW:
        return _draw(state, rng)
    if state.phase == PHASE_TILE:
        return _place(*rng.choice(state.board.placements(state.tile)))
    options: list[str | None] = [*_free_spots(ruleset, state, seat), None]
    spot = rng.choice(options)
    return {"type": "skip"} if spot is None else {"type": "place_follower", "spot": spot}


def _gain(ruleset: Carcassonne, state: State, seat: int, spot: str | None) -> int:
    """Points ``seat`` scores this turn if it places a follower on ``spot`` (or none)."""
    new = None
    if spot is not None:
        node = state.tile_node(state.placed, spot)
        new = (state.graph.find(node), Figure(seat, "follower", 1, state.placed, spot))
    scored = ruleset.turn_scorings(state, new)
    return sum(data["points"] for data in scored if seat in data["winners"])


def greedy_bot(ruleset: Carcassonne, state: State, seat: int, rng: random.Random) -> JSON:
    if state.phase == PHASE_DRAW:
        return _draw(state, rng)
    if state.phase == PHASE_TILE:
        best: list[JSON] = []
        top = -1
        for pos, q in state.board.placements(state.tile):
            command = _place(pos, q)
            trial = ruleset.copy_state(state)
            for event in ruleset.decide(trial, seat, command, rng):
                ruleset.evolve(trial, event)
            gain = max(
                _gain(ruleset, trial, seat, s) for s in [*_free_spots(ruleset, trial, seat), None]
            )
            if gain > top:
                best, top = [command], gain
            elif gain == top:
                best.append(command)
        return rng.choice(best)
    assert state.phase == PHASE_FIGURE
    gains = {s: _gain(ruleset, state, seat, s) for s in [*_free_spots(ruleset, state, seat), None]}
    top = max(gains.values())
    spot = rng.choice([s for s, g in gains.items() if g == top])
    return {"type": "skip"} if spot is None else {"type": "place_follower", "spot": spot}


BOTS: dict[str, Callable[[Carcassonne, State, int, random.Random], JSON]] = {
    "random": random_bot,
    "greedy": greedy_bot,
}


"""Bots for Carcassonne, and :func:`play_game` to run a game between bots.

For the CLI ``play`` command and benchmarks::

    from service.rules.carcassonne import CARCASSONNE
    from service.rules.carcassonne.bots import play_game

    events, state = play_game(CARCASSONNE, {"farmers": True}, seats=2, seed=b"42",
                              bots=["random", "greedy"])
    CARCASSONNE.result(state)   # {"scores": [...], "over": True, "winners": [...]}

Bots:

- ``random``: a uniformly random legal placement, then a uniformly random choice
  among the free spots and skipping; in external randomness mode it also draws a tile
  at random from the stack (weighted by the counts left);
- ``greedy``: the placement and spot that score it the most points this turn (ties
  broken at random), worked out by placing the tile on a copy of the state.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from service.rules.carcassonne.state import PHASE_DRAW, PHASE_FIGURE, PHASE_TILE, State
from service.rules.core import JSON, Event, rng_for
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


def play_game(
    ruleset: Carcassonne,
    options: Mapping[str, Any],
    seats: int,
    seed: bytes,
    bots: Sequence[str],
) -> tuple[list[Event], State]:
    """Play a whole game between bots through the public decider path.

    ``bots[i]`` names the bot of seat ``i``. Each command's randomness comes from
    ``rng_for(seed, n)`` with ``n`` the number of events so far (the next event's
    index); the bots draw from their own generator seeded from ``seed``. Returns the
    events and the final state; same arguments, same game.
    """
    normalised = ruleset.normalize_options(options)
    events = ruleset.setup(normalised, seats, rng_for(seed, 0))
    state = ruleset.fold(events)
    bot_rng = random.Random(seed + b"/bots")
    while not ruleset.is_over(state):
        seat = ruleset.awaiting(state)[0]["seat"]
        command = ruleset.bot_command(state, seat, bots[seat], bot_rng)
        new = ruleset.decide(state, seat, command, rng_for(seed, len(events)))
        for event in new:
            ruleset.evolve(state, event)
        events += new
    return events, state

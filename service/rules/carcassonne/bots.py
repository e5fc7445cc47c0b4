"""Bots for Carcassonne (games between bots: :func:`service.rules.play.play_game`).

Bots:

- ``random``: a uniformly random legal placement, then a uniformly random choice
  among the free (figure, spot) pairs and skipping; in external randomness mode it
  also draws a tile at random from what may be drawn (weighted by the counts left);
- ``greedy``: the placement, figure and spot that score it the most points this turn
  (ties broken at random), worked out by placing the tile on a scratch copy of the
  state, which copies only the features the placement changes.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial

from service.rules.carcassonne.game import Carcassonne, drawable, figure_segments
from service.rules.carcassonne.state import PHASE_DRAW, PHASE_FIGURE, PHASE_TILE, State
from service.rules.core import JSON
from service.rules.tiling.features import Figure
from service.rules.tiling.geometry import ROTATIONS


def _pick(state: State, stack: dict[str, int], remaining: int, rng: random.Random) -> str:
    assert state.rules is not None
    tiles = drawable(state.rules, stack, remaining)
    return rng.choices(list(tiles), list(tiles.values()))[0]


def _draw(state: State, rng: random.Random) -> JSON:
    """A random draw from what may be drawn, which copy it is (a wheel icon), and the
    tile under it if it is a hill."""
    command = {"type": "draw_tile", "tile": _pick(state, state.stack, state.remaining, rng)}
    tile = state.catalogue.get(command["tile"])
    assert tile is not None and state.rules is not None
    for detail in state.rules.draw_details:
        command.update(detail(state, tile, rng, None))
    hides = state.remaining > 1 and state.rules.hides_under(tile)
    if hides and state.rules.fits_anywhere(state, tile):
        stack = {**state.stack, tile.id: state.stack[tile.id] - 1}
        command["under"] = _pick(state, stack, state.remaining - 1, rng)
    return command


def _place(pos: tuple[int, int], q: int) -> JSON:
    return {"type": "place_tile", "x": pos[0], "y": pos[1], "rotation": ROTATIONS[q]}


def _follower_command(spots: tuple[str, ...], figure: str, segment: int) -> JSON:
    command = {"type": "place_follower", "spot": spots[segment]}
    if figure != "follower":
        command["figure"] = figure
    return command


def _module_commands(state: State, seat: int) -> list[JSON]:
    """The modules' commands of the figure step (a crown space), in their menus' order."""
    assert state.rules is not None
    return [
        {"type": kind, **option}
        for figure_menu in state.rules.figure_menus
        for kind, listed in figure_menu(state, seat).items()
        for option in listed
    ]


def _choices(ruleset: Carcassonne, state: State, seat: int) -> list[JSON]:
    """Every command of the figure step, in its menu's order, from what the menu is
    made of (without its JSON): each figure the seat may place and where
    (:func:`figure_segments`), the modules' commands (a crown space), then skipping."""
    assert state.board is not None
    assert state.placed is not None
    placed = state.board.tiles[state.placed]
    spots = placed.tile.spots[placed.q]
    choices = [
        _follower_command(spots, figure, i)
        for figure, segments in figure_segments(state, seat).items()
        for i in segments
    ]
    return [*choices, *_module_commands(state, seat), {"type": "skip"}]


def _random_figure_step(state: State, seat: int, rng: random.Random) -> JSON:
    """A uniform choice among :func:`_choices`, drawing the same index but making only
    the command chosen."""
    by_figure = figure_segments(state, seat)
    assert state.rules is not None
    extra = _module_commands(state, seat) if state.rules.figure_menus else []
    k = _index(sum(map(len, by_figure.values())) + len(extra) + 1, rng)
    for figure, segments in by_figure.items():
        if k < len(segments):
            assert state.board is not None
            assert state.placed is not None
            placed = state.board.tiles[state.placed]
            return _follower_command(placed.tile.spots[placed.q], figure, segments[k])
        k -= len(segments)
    return extra[k] if k < len(extra) else {"type": "skip"}


def _index(count: int, rng: random.Random) -> int:
    """``rng.choice`` of an index below ``count``. A lone choice is taken without a draw:
    ``choice`` would draw only to pick it, and a bot's stream serves one command."""
    return 0 if count == 1 else rng.randrange(count)  # the draw of choice(range(count))


def random_bot(ruleset: Carcassonne, state: State, seat: int, rng: random.Random) -> JSON:
    step = ruleset.step(state)
    assert step is not None  # (a bot is asked only while a decision is open)
    if step.bot is not None:  # a module's own step (tend a flock...)
        return step.bot(state, seat, rng)
    if state.phase == PHASE_DRAW:
        return _draw(state, rng)
    if state.phase == PHASE_TILE:
        assert state.rules is not None
        assert state.tile is not None
        return _place(*state.rules.pick_placement(state, state.tile, partial(_index, rng=rng)))
    return _random_figure_step(state, seat, rng)


def _gain(ruleset: Carcassonne, state: State, seat: int, choice: JSON) -> int:
    """Points ``seat`` scores this turn with the figure-step command ``choice``."""
    new = None
    if choice["type"] == "place_follower":
        figure, spot = choice.get("figure", "follower"), choice["spot"]
        assert state.placed is not None
        node = state.tile_node(state.placed, spot)
        assert state.rules is not None
        weight = state.rules.figures[figure].weight
        new = (state.graph.find(node), Figure(seat, figure, weight, state.placed, spot))
    scored = ruleset.turn_scorings(state, new)
    return sum(data["points"] for data in scored if seat in data["winners"])


def greedy_bot(ruleset: Carcassonne, state: State, seat: int, rng: random.Random) -> JSON:
    step = ruleset.step(state)
    assert step is not None  # (a bot is asked only while a decision is open)
    if step.bot is not None:  # a module's own step (tend a flock...): its random choice
        return step.bot(state, seat, rng)
    if state.phase == PHASE_DRAW:
        return _draw(state, rng)
    if state.phase == PHASE_TILE:
        best: list[JSON] = []
        top = -1
        assert state.rules is not None
        assert state.tile is not None
        for pos, q in state.rules.placements(state, state.tile):
            command = _place(pos, q)
            trial = state.scratch()  # (borrows the board's features until it changes them)
            ruleset.apply(trial, seat, command, rng)
            gain = 0  # a module's step comes first (tend a flock): nothing to place yet
            if trial.phase == PHASE_FIGURE:
                gain = max(_gain(ruleset, trial, seat, c) for c in _choices(ruleset, trial, seat))
            if gain > top:
                best, top = [command], gain
            elif gain == top:
                best.append(command)
        return rng.choice(best)
    assert state.phase == PHASE_FIGURE
    choices = _choices(ruleset, state, seat)
    gains = [_gain(ruleset, state, seat, c) for c in choices]
    top = max(gains)
    return rng.choice([c for c, g in zip(choices, gains, strict=True) if g == top])


BOTS: dict[str, Callable[[Carcassonne, State, int, random.Random], JSON]] = {
    "random": random_bot,
    "greedy": greedy_bot,
}

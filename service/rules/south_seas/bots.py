"""Bots for South Seas.

- ``random``: a uniformly random legal answer to each decision (draws and reveals in
  external randomness mode are weighted by what is left);
- ``greedy``: the tile placement and islander step that bring it the most wares this
  turn (a ship owed by a market counts as its points in wares, three per point), an
  islander on the richest open feature otherwise; it delivers to the most valuable
  ship it can pay for.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from service.rules.core import JSON
from service.rules.decisions import Decision
from service.rules.south_seas import evaluation
from service.rules.south_seas.game import open_spots, retrievable_islanders
from service.rules.south_seas.state import ISLANDER, State
from service.rules.tiling.features import Figure
from service.rules.tiling.geometry import ROTATIONS

if TYPE_CHECKING:
    from service.rules.south_seas.game import SouthSeas

#: a bot's answer to a decision other than a reveal or a draw
Chooser = Callable[["SouthSeas", State, int, random.Random, Decision], JSON]


def _answer(
    ruleset: SouthSeas,
    state: State,
    seat: int,
    rng: random.Random,
    choose: Chooser,
) -> JSON:
    """A bot's answer: reveals and draws (external randomness) are weighted by what is
    left, as every bot does; any other decision is ``choose``'s answer, which reads
    the decision's menu (:meth:`SouthSeas.menu`, as :meth:`SouthSeas.legal_commands`
    lists it) if it needs it."""
    (decision,) = ruleset.decisions(state)  # one at a time
    if decision.seat != seat:
        raise ValueError(f"seat {seat} is not awaited")
    kind = decision.kind
    if kind == "reveal_ship":
        return {"type": "reveal_ship", "ship": rng.choice(state.ship_stack)}
    if kind == "draw_tile":
        tiles = [tile for tile, n in state.stack.items() if n]
        weights = [state.stack[tile] for tile in tiles]
        return {"type": "draw_tile", "tile": rng.choices(tiles, weights)[0]}
    return choose(ruleset, state, seat, rng, decision)


def _islander_options(commands: JSON) -> list[JSON]:
    """The islander step's commands, from its menu."""
    options = [{"type": "place_islander", "spot": s["spot"]} for s in commands["place_islander"]]
    options += [{"type": "retrieve_islander", **r} for r in commands["retrieve_islander"]]
    return [*options, {"type": "skip"}]


def _islander_choices(state: State, seat: int) -> list[str | tuple[int, int, str] | None]:
    """The islander step's choices in its menu's order (:func:`_islander_options`): the
    free spots, the islanders that may be retrieved (as ``(x, y, spot)``), then
    ``None`` for a skip."""
    return [*open_spots(state, seat), *retrievable_islanders(state, seat), None]


def _islander_command(choice: str | tuple[int, int, str] | None) -> JSON:
    """The command of one of :func:`_islander_choices`."""
    if choice is None:
        return {"type": "skip"}
    if isinstance(choice, str):
        return {"type": "place_islander", "spot": choice}
    x, y, spot = choice
    return {"type": "retrieve_islander", "x": x, "y": y, "spot": spot}


def _random_choice(
    ruleset: SouthSeas, state: State, seat: int, rng: random.Random, decision: Decision
) -> JSON:
    kind = decision.kind
    if kind == "place_tile":  # any of the menu's placements, found without listing them
        assert state.board is not None
        assert state.tile is not None
        (x, y), q = state.board.pick_placement(state.tile, lambda n: rng.choice(range(n)))
        return {"type": "place_tile", "x": x, "y": y, "rotation": ROTATIONS[q]}
    if kind == "place_islander":  # any of the menu's commands, as spots and (x, y, spot)
        return _islander_command(rng.choice(_islander_choices(state, seat)))
    commands = ruleset.menu(state, decision)
    if kind == "choose_ship":
        return {"type": "choose_ship", **rng.choice(commands["choose_ship"])}
    choice = rng.choice([*commands["deliver"], None])
    return {"type": "pass"} if choice is None else {"type": "deliver", **choice}


def random_bot(ruleset: SouthSeas, state: State, seat: int, rng: random.Random) -> JSON:
    return _answer(ruleset, state, seat, rng, _random_choice)


def _gain(state: State, seat: int, command: JSON) -> int:
    """Wares ``seat`` gets this turn from an islander-step command (ships count 3 per
    point of the best face-up ship)."""
    new = removed = None
    graph = state.graph
    if command["type"] == "place_islander":
        assert state.placed is not None
        node = state.tile_node(state.placed, command["spot"])
        new = (graph.find(node), Figure(seat, ISLANDER, 1, state.placed, command["spot"]))
    elif command["type"] == "retrieve_islander":
        pos = (command["x"], command["y"])
        root = graph.find(state.tile_node(pos, command["spot"]))
        figure = next(
            f for f in graph.features[root].figures if (f.pos, f.spot) == (pos, command["spot"])
        )
        removed = (root, figure)
    assert state.content is not None
    ships = state.content.ship_by_id
    best_ship = max((ships[s].points for s in state.display), default=0)
    total = 0
    for data in evaluation.turn_evaluations(state, new, removed):
        if seat in data["winners"]:
            total += 3 * best_ship if data.get("ship_owed") else data["wares"]
    return total


def _potential(state: State, command: JSON) -> int:
    """How rich the open feature an islander would join is (icons, or 2 for a market)."""
    if command["type"] != "place_islander":
        return -1
    assert state.placed is not None
    feature = state.graph.feature(state.tile_node(state.placed, command["spot"]))
    return 2 if feature.kind.name == "market" else evaluation.icons(feature)


def _best_islander_step(
    state: State, seat: int, commands: JSON, rng: random.Random
) -> tuple[int, JSON]:
    options = _islander_options(commands)
    scored = [((_gain(state, seat, c), _potential(state, c)), c) for c in options]
    top = max(score for score, _ in scored)
    return top[0], rng.choice([c for score, c in scored if score == top])


def _greedy_choice(
    ruleset: SouthSeas, state: State, seat: int, rng: random.Random, decision: Decision
) -> JSON:
    kind, commands = decision.kind, ruleset.menu(state, decision)
    if kind == "place_tile":
        best: list[JSON] = []
        top = -1
        for entry in commands["place_tile"]:
            command = {"type": "place_tile", **entry}
            trial = ruleset.copy_state(state)
            ruleset.apply(trial, seat, command, rng)
            (islander,) = ruleset.legal_commands(trial, seat)["decisions"]
            gain = _best_islander_step(trial, seat, islander["commands"], rng)[0]
            if gain > top:
                best, top = [command], gain
            elif gain == top:
                best.append(command)
        return rng.choice(best)
    if kind == "place_islander":
        return _best_islander_step(state, seat, commands, rng)[1]
    if kind == "choose_ship":
        return {"type": "choose_ship", **commands["choose_ship"][0]}
    assert state.content is not None
    ships = state.content.ship_by_id
    best_ship = max(commands["deliver"], key=lambda s: ships[s["ship"]].points)
    return {"type": "deliver", **best_ship}


def greedy_bot(ruleset: SouthSeas, state: State, seat: int, rng: random.Random) -> JSON:
    return _answer(ruleset, state, seat, rng, _greedy_choice)


BOTS: dict[str, Callable[[SouthSeas, State, int, random.Random], JSON]] = {
    "random": random_bot,
    "greedy": greedy_bot,
}

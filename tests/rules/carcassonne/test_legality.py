"""One legality path: what a menu lists, ``decide`` accepts; what it does not, ``decide``
refuses.

Random bots play games with random expansion combinations, both flock timings and both
randomness modes. At many of their states, some commands of the awaited seat's menu
(expanded into concrete commands) must be accepted by ``decide``, and random commands
outside it (other coordinates, rotations, spots, figures, tiles, tokens, types, or the
wrong seat) must be refused with an IllegalMove.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from service.rules.carcassonne import CARCASSONNE
from service.rules.carcassonne.expansions import EXPANSIONS
from service.rules.carcassonne.expansions.wheel_of_fortune import icons_left
from service.rules.carcassonne.game import drawable
from service.rules.carcassonne.state import State
from service.rules.core import Event, IllegalMove
from service.rules.play import play_game
from service.rules.tiling.geometry import ROTATIONS

SPOTS = ["city:N", "road:E,W", "field:NL,NR", "cloister", "river:E,W", "field:I", "x", 3]
FIGURES = ["follower", "big_follower", "builder", "pig", "shepherd", "robber", None]


def expand(state: State, kind: str, menu: dict[str, Any]) -> list[dict[str, Any]]:
    """Every command a menu lists, concretely. A drawn tile's extras are outcomes the
    client names too: the tile under a hill, the wheel icon when every copy left has
    one (rule knowledge the draw menu leaves to the client)."""
    commands: list[dict[str, Any]] = []
    for command, options in menu.items():
        if command == "draw_tile":
            commands += [draw(state, tile) for tile in options["tiles"]]
        elif command == "place_tile":
            commands += [{"type": command, **place(p)} for p in options["placements"]]
        elif command == "place_follower":
            by_figure = options.get("figures", {"follower": options["spots"]})
            commands += [
                {"type": command, "spot": entry["spot"], "figure": figure}
                for figure, spots in by_figure.items()
                for entry in spots
            ]
        elif command == "tend_flock":
            commands += [{"type": command, "action": action} for action in options["action"]]
        elif command == "draw_sheep":
            commands += [{"type": command, "token": token} for token in options["tokens"]]
        elif isinstance(options, list):  # place_on_wheel, remove_follower
            commands += [{"type": command, **option} for option in options]
        else:
            assert options == {}, (kind, command)
            commands.append({"type": command})
    return commands


def place(placement: dict[str, Any]) -> dict[str, Any]:
    return {key: placement[key] for key in ("x", "y", "rotation")}


def draw(state: State, tile_id: str) -> dict[str, Any]:
    command: dict[str, Any] = {"type": "draw_tile", "tile": tile_id}
    tile = state.catalogue.get(tile_id)
    if tile.wheel and "wheel_of_fortune" in state.ext:
        copies = state.stack[tile_id] + state.hidden.count(tile_id)
        icons = icons_left(state, tile)[:copies]
        if len(icons) == copies:
            command["wheel"] = icons[0]
    if state.remaining > 1 and state.rules.hides_under(tile):
        stack = {**state.stack, tile_id: state.stack[tile_id] - 1}
        command["under"] = next(iter(drawable(state.rules, stack, state.remaining - 1)))
    return command


def key(command: dict[str, Any]) -> tuple:
    """What tells one command of a type from another (a draw's extras aside)."""
    fields = {
        "draw_tile": ("tile",),
        "place_tile": ("x", "y", "rotation"),
        "place_follower": ("spot", "figure"),
        "tend_flock": ("action",),
        "draw_sheep": ("token",),
        "place_on_wheel": ("sector", "space"),
        "remove_follower": ("x", "y", "spot"),
    }.get(command["type"], ())
    defaults = {"figure": "follower"}
    return (command["type"], *(repr(command.get(f, defaults.get(f))) for f in fields))


def stray(state: State, rng: random.Random) -> dict[str, Any]:
    """A random command of any type, most of them nonsense here."""
    kind = rng.choice([*CARCASSONNE.command_types(), "dance"])
    tiles = [t.id for t in state.catalogue.tiles]
    fields = {
        "draw_tile": {"tile": rng.choice([*tiles, "Z", 7])},
        "place_tile": {
            "x": rng.randint(-8, 8),
            "y": rng.randint(-8, 8),
            "rotation": rng.choice([*ROTATIONS, 45, "90"]),
        },
        "place_follower": {"spot": rng.choice(SPOTS), "figure": rng.choice(FIGURES)},
        "tend_flock": {"action": rng.choice(["grow", "gather", "shear"])},
        "draw_sheep": {"token": rng.choice(["1", "2", "3", "4", "wolf", "5", 1])},
        "place_on_wheel": {
            "sector": rng.choice(["taxes", "storm", "plague", "fortune", "moon"]),
            "space": rng.choice([0, 1, 2, "0"]),
        },
        "remove_follower": {"x": rng.randint(-3, 3), "y": rng.randint(-3, 3), "spot": "cloister"},
    }.get(kind, {})
    return {"type": kind, **fields}


def check(state: State, rng: random.Random) -> None:
    """Listed commands are accepted, others refused, at this state."""
    (decision,) = CARCASSONNE.decisions(state)
    (listed,) = CARCASSONNE.legal_commands(state, decision.seat)["decisions"]
    assert (listed["id"], listed["kind"]) == (decision.id, decision.kind)
    assert set(listed["commands"]) <= set(decision.commands)
    commands = expand(state, decision.kind, listed["commands"])
    assert commands, decision.kind  # some command always answers the decision
    for command in rng.sample(commands, min(2, len(commands))):
        assert CARCASSONNE.decide(state, decision.seat, command, rng, decision.id)
    menu = {key(command) for command in commands}
    for _ in range(3):
        command = stray(state, rng)
        if key(command) not in menu:
            with pytest.raises(IllegalMove):
                CARCASSONNE.decide(state, decision.seat, command, rng)
    other = rng.choice([s for s in range(state.seats) if s != decision.seat])
    with pytest.raises(IllegalMove) as caught:
        CARCASSONNE.decide(state, other, rng.choice(commands), rng)
    assert caught.value.code == "not_your_turn"
    if decision.kind == "place_tile":
        spots_predicted(state, decision.seat, listed["commands"]["place_tile"], rng)


def spots_predicted(state: State, seat: int, options: dict[str, Any], rng: random.Random) -> None:
    """The follower spots a placement lists are the figure step's after placing there."""
    placement = rng.choice(options["placements"])
    trial = CARCASSONNE.copy_state(state)
    CARCASSONNE.apply(trial, seat, {"type": "place_tile", **place(placement)}, rng)
    if trial.phase == "place_follower":
        (after,) = CARCASSONNE.legal_commands(trial, seat)["decisions"]
        assert after["commands"]["place_follower"]["spots"] == placement["spots"]


@settings(max_examples=250, deadline=None)
@given(
    expansions=st.lists(st.sampled_from(list(EXPANSIONS)), unique=True),
    flock_timing=st.sampled_from(["before_figure", "after_figure"]),
    randomness=st.sampled_from(["internal", "external"]),
    seats=st.integers(2, 4),
    seed=st.integers(0, 2**32),
)
@example(  # a field meeting one neighbour's field on two sides: one feature, its figures
    expansions=["river", "inns_cathedrals", "hills_sheep", "wheel_of_fortune"],
    flock_timing="after_figure",
    randomness="internal",
    seats=2,
    seed=3958592857,
)
def test_menus_list_exactly_what_decide_accepts(expansions, flock_timing, randomness, seats, seed):
    options = {"expansions": expansions, "flock_timing": flock_timing, "randomness": randomness}
    rng = random.Random(seed)

    def observe(state: State, events: list[Event]) -> None:
        if not CARCASSONNE.is_over(state) and rng.random() < 0.3:
            check(state, rng)

    bots = ["random"] * seats
    events, state = play_game(CARCASSONNE, options, seats, str(seed).encode(), bots, observe)
    assert CARCASSONNE.is_over(state)
    # No check changed the state it was asked about: the log still folds to it.
    assert CARCASSONNE.view(CARCASSONNE.fold(events), None) == CARCASSONNE.view(state, None)

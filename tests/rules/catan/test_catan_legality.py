"""One legality path: at many states of random bot games, every command the menus list
is accepted by ``decide``, and commands outside them are refused with an IllegalMove
(never another exception).

Menus expand to concrete commands with ``bots.concrete_commands``. Random commands are
drawn from every command type, with names of real and unreal hexes, intersections and
paths, resources, seats and values of the wrong JSON type, sent by the awaited seat
or by another. Where a menu describes an unbounded space (offers, counter-offers,
proposals, discards) instead of listing it, a random command is only required not to
crash: the menu cannot say whether it is outside.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from service.rules.catan.bots import concrete_commands
from service.rules.catan.game import CATAN
from service.rules.catan.state import State
from service.rules.core import IllegalMove
from service.rules.play import play_game

RESOURCES = ["brick", "lumber", "wool", "grain", "ore"]
CARDS = ["knight", "victory_point", "road_building", "year_of_plenty", "monopoly"]
JUNK: list[Any] = [None, 3, -1, 2.5, True, "", "x", [], ["ore"], {}, {"q": 0}]

#: commands whose menu lists every legal choice: a random one not listed is illegal
ENUMERATED = {
    "build_road",
    "build_settlement",
    "build_city",
    "move_robber",
    "maritime_trade",
    "play_year_of_plenty",
    "play_monopoly",
    "confirm_trade",
    "buy_development",
    "play_knight",
    "play_road_building",
    "end_turn",
    "cancel_trade",
    "pass_trade",
    "accept_proposal",
    "decline_proposal",
}


def names(state: State) -> dict[str, list[str]]:
    layout = state.layout
    return {
        "corner": list(layout.corner_names) + ["0,0,E", "9,9,N", "0,-3,N"],
        "edge": list(layout.edge_names) + ["0,0,W", "9,9,E", "0,-4,SE"],
        "hex": list(layout.hex_by_name) + ["9,9", "0,-3", "0"],
    }


def resources(rng: random.Random) -> Any:
    if rng.random() < 0.15:
        return rng.choice(JUNK)
    return {rng.choice(RESOURCES + ["gold"]): rng.choice([0, 1, 1, 2, 3, -1]) for _ in range(2)}


def random_command(state: State, rng: random.Random) -> dict[str, Any]:
    """A command of any type, with plausible or absurd fields."""
    kind = rng.choice(sorted(CATAN.command_types()) + ["fly"])
    places = names(state)

    def pick(pool: list[Any]) -> Any:
        return rng.choice(JUNK) if rng.random() < 0.15 else rng.choice(pool)

    command: dict[str, Any] = {"type": kind}
    if kind in ("build_road",):
        command["edge"] = pick(places["edge"])
    elif kind in ("build_settlement", "build_city"):
        command["corner"] = pick(places["corner"])
    elif kind == "move_robber":
        command["hex"] = pick(places["hex"])
        command["victim"] = pick([None, 0, 1, 2, 3, 4])
    elif kind == "maritime_trade":
        command["give"], command["get"] = pick(RESOURCES), pick(RESOURCES)
    elif kind == "play_year_of_plenty":
        command["resources"] = resources(rng)
    elif kind == "play_monopoly":
        command["resource"] = pick(RESOURCES + ["gold"])
    elif kind == "confirm_trade":
        command["with"] = pick([0, 1, 2, 3, 4])
    elif kind == "buy_development":
        command["card"] = pick(CARDS)
    elif kind == "discard":
        command["resources"] = resources(rng)
    elif kind in ("offer_trade", "propose_trade"):
        command["give"], command["get"] = resources(rng), resources(rng)
        if rng.random() < 0.5:
            command["to"] = pick([[0], [1, 2], [3], [0, 1, 2, 3], [5]])
    elif kind == "respond_trade":
        command["answer"] = pick(["accept", "decline", "counter", "maybe"])
        if command["answer"] == "counter":
            command["give"], command["get"] = resources(rng), resources(rng)
    elif kind == "roll":
        command["dice"] = pick([[1, 1], [6, 6], [0, 3], [7, 1]])
    elif kind == "set_board":
        command["board"] = pick([{}, "beginner"])
    return command


def canonical(command: dict[str, Any]) -> tuple:
    """What a command means, so that a random command can be found among listed ones."""
    kind = command["type"]
    if kind == "move_robber":
        return (kind, command.get("hex"), command.get("victim"))
    if kind == "play_year_of_plenty":
        given = command.get("resources")
        if isinstance(given, dict) and all(type(n) is int and n >= 0 for n in given.values()):
            return (kind, tuple(sorted((+Counter(given)).items())))
        return (kind, repr(given))
    fields = {"edge", "corner", "give", "get", "resource", "with"}
    return (kind, *(repr(command.get(f)) for f in sorted(fields) if f in command))


def check_state(state: State, rng: random.Random) -> None:
    awaited = CATAN.decisions(state)
    listed: dict[int, set[tuple]] = {}
    for decision in awaited:
        for command in concrete_commands(CATAN, state, decision):
            events = CATAN.decide(CATAN.copy_state(state), decision.seat, command, rng)
            assert events, command
            listed.setdefault(decision.seat, set()).add(canonical(command))
    seats = {d.seat for d in awaited}
    for _ in range(12):
        command = random_command(state, rng)
        seat = rng.randrange(state.seats)
        try:
            CATAN.decide(CATAN.copy_state(state), seat, command, rng)
        except IllegalMove as refusal:
            assert refusal.rule
            continue
        # accepted: the seat was awaited, and if the menu enumerates the command, it is listed
        assert seat in seats, (seat, command)
        if command["type"] in ENUMERATED:
            assert canonical(command) in listed.get(seat, set()), command


games = st.fixed_dictionaries(
    {
        "seed": st.binary(min_size=1, max_size=8),
        "bots": st.lists(st.sampled_from(["random", "value"]), min_size=2, max_size=4),
    }
)


@settings(max_examples=40, deadline=None)
@given(games, st.integers(0, 2**32))
def test_every_listed_command_is_accepted_and_random_others_are_refused(game, salt):
    """At every 11th state of a bot game, and at every state that awaits something other
    than a roll or a main turn (discards, the robber, trades, free roads)."""
    rng = random.Random(salt)
    counter = iter(range(10**9))

    def observe(state: State, events) -> None:
        n = next(counter)
        kinds = {d.kind for d in CATAN.decisions(state)}
        if CATAN.is_over(state):
            return
        if n % 11 == 0 or kinds - {"roll", "turn", "propose_trade"}:
            check_state(state, rng)

    seats = len(game["bots"])
    play_game(CATAN, {}, seats, game["seed"], game["bots"], observe=observe)


def test_a_finished_game_refuses_every_command():
    events, state = play_game(CATAN, {}, 2, b"over", ["value", "value"])
    rng = random.Random(0)
    for _ in range(50):
        command = random_command(state, rng)
        try:
            CATAN.decide(state, rng.randrange(2), command, rng)
        except IllegalMove as refusal:
            assert refusal.code in ("game_over",)
        else:
            raise AssertionError(f"{command} accepted after the end")

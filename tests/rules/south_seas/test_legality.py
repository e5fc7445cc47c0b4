"""One legality path: the menus and ``decide`` agree, and decisions are named by ids.

Over a few hundred random games (both ``retrieve`` options, both randomness modes), at
every state: every command the menu lists is accepted by ``decide``, and random commands
that it does not list (coordinates, rotations, spots, ships, wares, tiles, types and
seats drawn at random) are refused with an IllegalMove.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings

from service.rules.core import IllegalMove
from service.rules.play import play_game
from service.rules.south_seas import SOUTH_SEAS
from service.rules.south_seas.ships import WARES
from service.rules.south_seas.state import State
from tests.rules.properties import batches
from tests.rules.south_seas.table import Table, of_type
from tests.rules.south_seas.test_properties import games
from tests.rules.south_seas.test_rulebook_examples import market_table

#: games per hypothesis example
BATCH = 10
#: random commands tried at each state
RANDOM_COMMANDS = 12

#: each command type's arguments (what a menu choice adds besides, such as a spot's
#: kind and role, only describes it)
ARGUMENTS: dict[str, tuple[str, ...]] = {
    "reveal_ship": ("ship",),
    "draw_tile": ("tile",),
    "place_tile": ("x", "y", "rotation"),
    "place_islander": ("spot",),
    "retrieve_islander": ("x", "y", "spot"),
    "skip": (),
    "choose_ship": ("ship",),
    "deliver": ("ship", "wares"),
    "pass": (),
}
JUNK: list[Any] = [None, True, 1.5, "1", [], {}]


def expanded(commands: dict[str, Any]) -> list[dict[str, Any]]:
    """A decision's menu as the concrete commands it lists."""
    out = []
    for kind, options in commands.items():
        choices = options if isinstance(options, list) else [options]
        out += [{"type": kind, **{k: c[k] for k in ARGUMENTS[kind]}} for c in choices]
    return out


def key(seat: int, command: Any) -> tuple[int, str]:
    """What tells two commands apart (JSON keeps ``True`` apart from ``1``)."""
    return seat, json.dumps(command, sort_keys=True)


def random_command(state: State, rng: random.Random) -> dict[str, Any]:
    """A command of a random type with random arguments, mostly well formed."""

    def pick(good: list[Any]) -> Any:
        return rng.choice(JUNK) if rng.random() < 0.1 else rng.choice(good)

    ships = [*state.content.ship_by_id, "S99"]
    tiles = [tile.id for tile in state.catalogue.tiles]
    spots = sorted({s for t in state.catalogue.tiles for names in t.spots for s in names})
    kind = pick(list(ARGUMENTS))
    values = {
        "x": pick(list(range(-8, 9))),
        "y": pick(list(range(-8, 9))),
        "rotation": pick([0, 90, 180, 270, 45, -90]),
        "spot": pick([*spots, "nowhere"]),
        "ship": pick(ships),
        "tile": pick([*tiles, "nope"]),
        "wares": pick([{w: rng.randint(-1, 5) for w in rng.sample(WARES, rng.randint(0, 3))}]),
    }
    fields = ARGUMENTS.get(kind, ("ship",)) if isinstance(kind, str) else ("ship",)
    return {"type": kind, **{k: values[k] for k in fields}}


def check_state(state: State, rng: random.Random) -> None:
    """Every listed command is accepted; random unlisted ones are refused. ``decide``
    runs on a copy, which it must leave as it was. A delivery menu lists one delivery
    per ship the seat can pay, so other deliveries to those ships are not judged."""
    trial = SOUTH_SEAS.copy_state(state)
    before = SOUTH_SEAS.view(trial, None)
    listed, payable = set(), set()
    for seat in range(state.seats):
        for decision in SOUTH_SEAS.legal_commands(state, seat)["decisions"]:
            for command in expanded(decision["commands"]):
                assert SOUTH_SEAS.decide(trial, seat, command, rng, decision["id"])
                listed.add(key(seat, command))
                if command["type"] == "deliver":
                    payable.add(key(seat, command["ship"]))
    for _ in range(RANDOM_COMMANDS):
        seat = rng.randrange(state.seats + 1)  # one seat that does not play
        command = random_command(state, rng)
        unjudged = command["type"] == "deliver" and key(seat, command["ship"]) in payable
        if key(seat, command) in listed or unjudged:
            continue
        with pytest.raises(IllegalMove):
            SOUTH_SEAS.decide(trial, seat, command, rng)
    assert SOUTH_SEAS.view(trial, None) == before


@settings(max_examples=20, deadline=None)
@given(batches(games, BATCH))
def test_every_listed_command_is_accepted_and_random_unlisted_ones_are_refused(batch):
    """200 random-bot games, every state checked (see :func:`check_state`)."""
    for game in batch:
        rng = random.Random(game["seed"])  # the random commands tried

        def observe(state: State, events: list, rng: random.Random = rng) -> None:
            check_state(state, rng)

        bots = ["random"] * game["seats"]
        play_game(SOUTH_SEAS, game["options"], game["seats"], game["seed"], bots, observe)


# -- decisions ------------------------------------------------------------------------


def test_a_decision_keeps_its_id_while_open_and_a_closed_one_is_refused():
    table = Table()
    table.draw("SS/S")
    (opened,) = SOUTH_SEAS.awaiting(table.state)
    with pytest.raises(IllegalMove):
        table.send({"type": "place_tile", "x": 5, "y": 5, "rotation": 0})
    (decision,) = SOUTH_SEAS.legal_commands(table.state, 0)["decisions"]
    assert decision["id"] == opened["id"] == SOUTH_SEAS.awaiting(table.state)[0]["id"]
    command = {"type": "place_tile", "x": 0, "y": 1, "rotation": 0}
    SOUTH_SEAS.apply(table.state, 0, command, random.Random(0), decision["id"])
    (islander,) = SOUTH_SEAS.awaiting(table.state)
    assert islander["id"] != opened["id"]
    with pytest.raises(IllegalMove) as caught:
        SOUTH_SEAS.decide(table.state, 0, {"type": "skip"}, random.Random(0), opened["id"])
    assert caught.value.code == "decision_closed"


def test_the_merchants_ship_choice_is_a_decision_like_any_other_outside_her_turn():
    table = market_table(display=("S19", "S01", "S08", "S20"))
    table.turn("SS/S.b", 1, 2)  # Blue surrounds Red's market
    assert table.state.seat == 1
    assert SOUTH_SEAS.legal_commands(table.state, 1) == {"seat": 1, "decisions": []}
    (choice,) = SOUTH_SEAS.legal_commands(table.state, 0)["decisions"]
    assert choice["kind"] == "choose_ship"
    assert choice["commands"] == {"choose_ship": [{"ship": "S19"}, {"ship": "S20"}]}
    events = table.send({"type": "choose_ship", "ship": "S19"}, seat=0)
    assert of_type(events, "ship_awarded")[0]["ship"] == "S19"

"""The shapes of commands and events (service/rules/shapes.py) are what the code really
sends and writes: bot games of every ruleset, expansion and scenario, with the server's
randomness and with external randomness, check every command the bots send and every
event written (whole, and as each seat and a spectator read it) against the described
shapes, closed (a field the code writes but the shape does not name fails). And every
command and event type the code knows is described."""

from __future__ import annotations

import copy
import random
from typing import Any, NamedTuple

import pytest
from openapi_schema_validator import OAS30Validator

from service.rules.carcassonne.expansions import EXPANSIONS
from service.rules.carcassonne.state import EVOLVERS as CARCASSONNE_EVOLVERS
from service.rules.catan.board import random_board
from service.rules.catan.game import SCENARIOS
from service.rules.catan.state import EVOLVERS as CATAN_EVOLVERS
from service.rules.core import RULES_UPGRADED, Event, Ruleset, bot_rng_for, rng_for
from service.rules.play import play_game
from service.rules.registry import get_ruleset
from service.rules.seating import TABLE_COMMANDS, TABLE_PART
from service.rules.shapes import Shape
from service.rules.south_seas.state import EVOLVERS as SOUTH_SEAS_EVOLVERS

CARCASSONNE = get_ruleset("carcassonne")
SOUTH_SEAS = get_ruleset("carcassonne-south-seas")
CATAN = get_ruleset("catan")

ALL_EXPANSIONS = {"expansions": list(EXPANSIONS)}
#: Catan scenarios played more than twice: a marker of the Forgotten Tribe's, which the
#: bots are given at random, is first placed in the third game
GAMES = {5: 3}
#: (ruleset, options, seats, seeds): the base games, every expansion, every scenario;
#: the tile games with external randomness too (the Catan bots draw nothing themselves:
#: its external commands are checked below)
CASES = [
    (CARCASSONNE, {}, 2, 2),
    (CARCASSONNE, ALL_EXPANSIONS, 3, 2),
    (CARCASSONNE, {**ALL_EXPANSIONS, "randomness": "external"}, 2, 1),
    (SOUTH_SEAS, {}, 3, 2),
    (SOUTH_SEAS, {"randomness": "external"}, 2, 1),
    (CATAN, {}, 4, 2),
    *[(CATAN, {"scenario": n}, max(SCENARIOS[n].players), GAMES.get(n, 2)) for n in SCENARIOS],
]

#: the views checked: after every so many commands, and at the end
VIEW_EVERY = 15


class Played(NamedTuple):
    ruleset: Ruleset
    commands: list[dict]
    events: list[Event]
    views: list[dict]
    menus: list[dict]


#: the table's events (resigning, handing over, clocks), written by every ruleset
TABLE_EVENTS = set(TABLE_PART.events)
#: every event type of its own each ruleset's fold knows (the table's aside)
KNOWN_EVENTS = {
    CARCASSONNE.name: {
        *CARCASSONNE_EVOLVERS,
        *(t for e in EXPANSIONS.values() for t in e.module.evolvers),
    }
    - TABLE_EVENTS,
    SOUTH_SEAS.name: set(SOUTH_SEAS_EVOLVERS) - TABLE_EVENTS,
    CATAN.name: set(CATAN_EVOLVERS) - TABLE_EVENTS,
}


def closed(schema: Any) -> Any:
    """``schema`` with every object that names its properties closed to others, so a
    field the code writes but the shape does not describe is found."""
    if isinstance(schema, list):
        return [closed(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    found = {key: closed(value) for key, value in schema.items()}
    if "properties" in found and "additionalProperties" not in found:
        found["additionalProperties"] = False
    return found


def validator(shape: Shape) -> OAS30Validator:
    return OAS30Validator(closed(shape.schema()))


def errors(shape: Shape, data: Any) -> list[str]:
    return [
        f"{'/'.join(map(str, e.path))}: {e.message}" for e in validator(shape).iter_errors(data)
    ]


def case_id(case) -> str:
    ruleset, options, *_ = case
    words = [ruleset.name, *(f"{k}={v}" for k, v in options.items() if k != "expansions")]
    if options.get("expansions"):
        words.append("all-expansions")
    return "-".join(words)


def play(case) -> Played:
    """The commands sent, the events written and some views of a case's bot games."""
    ruleset, options, seats, games = case
    commands: list[dict] = []
    events: list[Event] = []
    views: list[dict] = []
    menus: list[dict] = []

    def look(state, log):
        # every seat's and a spectator's view, now and then and at the end; and the
        # legal moves of the seats awaited
        if len(commands) % VIEW_EVERY == 0 or ruleset.is_over(state):
            views.extend(ruleset.view(state, reader) for reader in (None, *range(seats)))
        for decision in ruleset.decisions(state):
            menus.append(ruleset.menu(state, decision))

    for seed in (b"shape-%d" % n for n in range(games)):
        sent = _recording(ruleset, commands)
        bots = [ruleset.bots[i % len(ruleset.bots)] for i in range(seats)]
        events += play_game(sent, options, seats, seed, bots, look)[0]
    return Played(ruleset, commands, events, views, menus)


@pytest.fixture(scope="module")
def played():
    return {case_id(case): play(case) for case in CASES}


def _recording(ruleset: Ruleset, commands: list) -> Ruleset:
    """``ruleset``, noting every command applied (a copy whose ``apply`` records, so
    that the registered singleton is left alone)."""
    recording = copy.copy(ruleset)

    def apply(state, seat, command, rng, decision_id=None):
        commands.append(dict(command))
        return type(ruleset).apply(recording, state, seat, command, rng, decision_id)

    recording.apply = apply  # type: ignore[method-assign]
    return recording


@pytest.mark.parametrize("case", [case_id(c) for c in CASES])
def test_every_command_the_bots_send_has_its_described_shape(played, case):
    ruleset, commands, *_ = played[case]
    shapes = ruleset.command_shapes()
    assert commands
    for sent in commands:
        body = {k: v for k, v in sent.items() if k != "type"}
        assert errors(shapes[sent["type"]], body) == [], sent


@pytest.mark.parametrize("case", [case_id(c) for c in CASES])
def test_every_event_written_has_its_described_shape_for_every_reader(played, case):
    ruleset, _, events, *_ = played[case]
    shapes = ruleset.event_shapes()
    seats = events[0].data["seats"]
    for event in events:
        for reader in (None, *range(seats)):
            data = ruleset.redact(event, reader)
            assert errors(shapes[event.type], data) == [], (event.type, reader, data)


@pytest.mark.parametrize("case", [case_id(c) for c in CASES])
def test_every_view_has_the_described_shape_for_every_reader(played, case):
    ruleset, _, _, views, _ = played[case]
    assert views
    for view in views:
        assert errors(ruleset.view_shape, view) == [], view


def menu_errors(ruleset: Ruleset, menu: dict) -> list[str]:
    """Where one decision's legal-moves menu breaks the shapes of its entries."""
    shapes = ruleset.menu_shapes()
    return [
        f"{command_type}/{'/'.join(map(str, e.path))}: {e.message}"
        for command_type, entry in menu.items()
        for e in OAS30Validator(closed(shapes[command_type])).iter_errors(entry)
    ]


@pytest.mark.parametrize("case", [case_id(c) for c in CASES])
def test_every_legal_moves_entry_has_its_described_shape(played, case):
    ruleset, *_, menus = played[case]
    assert menus
    for menu in menus:
        assert menu_errors(ruleset, menu) == [], menu


#: menu entries the bot games above never see, and why; a new command must be offered
#: above or named here
NOT_OFFERED_TO_BOTS = {
    ("carcassonne-south-seas", "choose_ship"): "the bots' markets seldom complete",
    ("catan", "set_board"): "external randomness (checked below)",
    ("catan", "accept_proposal"): "the bots never propose trades",
    ("catan", "decline_proposal"): "the bots never propose trades",
}


def test_the_games_played_here_see_every_menu_entry_but_a_few_named(played):
    seen = {(p.ruleset.name, t) for p in played.values() for menu in p.menus for t in menu}
    described = {(r.name, t) for r in (CARCASSONNE, SOUTH_SEAS, CATAN) for t in r.menu_shapes()}
    assert described - seen == set(NOT_OFFERED_TO_BOTS)


@pytest.mark.parametrize("ruleset", [CARCASSONNE, SOUTH_SEAS, CATAN], ids=lambda r: r.name)
def test_every_command_type_is_described_and_nothing_else(ruleset):
    assert set(ruleset.command_shapes()) == set(ruleset.command_types()) | TABLE_COMMANDS
    assert set(ruleset.menu_shapes()) == set(ruleset.command_types())


@pytest.mark.parametrize("ruleset", [CARCASSONNE, SOUTH_SEAS, CATAN], ids=lambda r: r.name)
def test_every_event_type_the_fold_knows_is_described_and_nothing_else(ruleset):
    assert set(ruleset.event_shapes()) == KNOWN_EVENTS[ruleset.name] | TABLE_EVENTS | {
        RULES_UPGRADED
    }


#: events the bot games above do not write, and why; a new event type must be played
#: above or named here
NOT_PLAYED_BY_BOTS = {
    ("carcassonne", "tile_set_aside"): "a tile that fits nowhere is rare",
    ("carcassonne-south-seas", "tile_set_aside"): "a tile that fits nowhere is rare",
    ("carcassonne-south-seas", "ship_awarded"): "the bots' markets seldom complete",
    ("catan", "board_set"): "external randomness (checked below)",
    ("catan", "trade_proposed"): "the bots never propose trades",
    ("catan", "trade_passed"): "the bots never propose trades",
    ("catan", "trade_cancelled"): "the bots never propose trades",
    ("catan", "free_roads_ended"): "road building with one path left",
}


def test_the_games_played_here_write_every_event_type_but_a_few_named(played):
    written = {(p.ruleset.name, e.type) for p in played.values() for e in p.events}
    unwritten = {
        (name, t) for name, types in KNOWN_EVENTS.items() for t in types if (name, t) not in written
    }
    assert unwritten == set(NOT_PLAYED_BY_BOTS)


def test_an_external_board_and_its_event_have_their_shapes():
    options = CATAN.normalize_options({"randomness": "external"})
    state = CATAN.fold(CATAN.setup(options, 3, rng_for(b"board", 1)))
    (decision,) = CATAN.decisions(state)
    assert menu_errors(CATAN, CATAN.menu(state, decision)) == []
    sent = {"type": "set_board", "board": random_board(random.Random(2)).to_json()}
    assert errors(CATAN.command_shapes()["set_board"], {"board": sent["board"]}) == []
    (event,) = CATAN.apply(state, 0, sent, rng_for(b"board", 2))
    assert errors(CATAN.event_shapes()["board_set"], event.data) == []


@pytest.mark.parametrize("ruleset", [CARCASSONNE, SOUTH_SEAS, CATAN], ids=lambda r: r.name)
def test_the_tables_commands_and_events_have_their_described_shapes(ruleset):
    """A seat handed to a bot and back, a clock reading, a timeout, a resignation and the
    owner's abandon, among random bots' moves: each command and every event written has
    its shape, and every table event is written."""
    seed = b"table"
    events = ruleset.setup(ruleset.normalize_options({}), 3, rng_for(seed, 1))
    state = ruleset.fold(events)
    table = [
        (1, {"type": "hand_to_bot", "bot": ruleset.bots[0]}),
        (1, {"type": "hand_back"}),
        (
            None,
            {
                "type": "clock",
                "remaining_ms": [1000, None, 0],
                "running": {"0": "2026-11-28T12:00:00+00:00"},
            },
        ),
        ("awaited", {"type": "time_out", "action": "bot", "bot": ruleset.bots[0]}),
        ("awaited", {"type": "time_out", "action": "skip"}),
        (2, {"type": "resign"}),
        (None, {"type": "abandon"}),
    ]
    sent = []
    for step in range(10 * len(table)):
        if step % 10 == 9:
            seat, command = table.pop(0)
            if seat == "awaited":
                seat = ruleset.decisions(state)[0].seat
        else:
            seat = ruleset.decisions(state)[0].seat
            command = ruleset.bot_command(state, seat, "random", bot_rng_for(seed, step))
        sent.append(command)
        events += ruleset.apply(state, seat, command, rng_for(seed, len(events) + 1))
    assert not table and ruleset.is_over(state)
    commands, shapes = ruleset.command_shapes(), ruleset.event_shapes()
    for command in sent:
        body = {k: v for k, v in command.items() if k != "type"}
        assert errors(commands[command["type"]], body) == [], command
    for event in events:
        assert errors(shapes[event.type], event.data) == [], event
    assert {event.type for event in events} >= TABLE_EVENTS

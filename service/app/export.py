"""A finished game as one self-contained record that ``POST /v1/validate`` replays.

The record is the commands that made the game (stored beside its events since
migrations/0005, bots' commands included), with what validation needs to replay them
exactly: the ruleset, the normalised options, the seat count and the revealed seed.
A replay draws ``rng_for(seed, n)`` for the command whose first event is ``n``, as the
live game did, so it reproduces the same events, version and result. The format is
named and versioned (docs/export.md); the game's id, players, version and head hash
come along so a reader can check the replay against them.

Refused (409): a game still in play (its seed is secret until the end), a game
created before commands were recorded, and a game whose log crossed a rules upgrade
(the upgrade's marker event shifts the draws, which a replay cannot reproduce).
"""

from __future__ import annotations

from typing import Any

from service.app.errors import GameNotFinished, RecordUnavailable
from service.app.games import GameService, Outcome
from service.app.seats import public_seats, seat_of
from service.rules.core import RULES_UPGRADED
from service.store import Command

RECORD_FORMAT = "tilegames-record"
RECORD_FORMAT_VERSION = 1
#: the most steps a record may have to be validated (its body stays within the 1 MiB a
#: request may have); games.MAX_BOT_STEPS leaves room within it for the record of a game
#: the service abandoned for its bots
MAX_RECORD_STEPS = 10_000


def record_step(command: Command) -> dict[str, Any]:
    step: dict[str, Any] = {"seat": command.seat, "command": command.command}
    if command.decision is not None:
        step["decision"] = command.decision
    return step


def export_game(service: GameService, game_id: str, token: str | None) -> Outcome:
    with service.db.connection() as conn:
        game = service.load_game(conn, game_id)
        seat_of(game.seats, token)
        if game.status != "finished":
            raise GameNotFinished(
                f"the game is at version {game.version} and still in play; its seed stays"
                " secret until it ends, so it can be exported only then"
            )
        if not game.commands_recorded:
            raise RecordUnavailable(
                "the game was created before the service recorded commands; its log has the"
                " events but not the commands that caused them"
            )
        if service.store.has_event_of_type(conn, game.id, RULES_UPGRADED):
            raise RecordUnavailable(
                "the game's log crossed a rules upgrade; its commands no longer replay to"
                " the same draws"
            )
        commands = service.store.read_commands(conn, game.id)
    body = {
        "format": RECORD_FORMAT,
        "format_version": RECORD_FORMAT_VERSION,
        "game_id": game.id,
        "ruleset": game.ruleset,
        "options": game.options,
        "seats": len(game.seats),
        "players": public_seats(game.seats),
        "seed": game.seed.hex(),
        "seed_sha256": game.seed_hash,
        "record": [record_step(command) for command in commands],
        "version": game.version,
        "head_hash": game.head_hash,
        "head_signature": game.head_signature,
    }
    return Outcome(200, body)

"""Stateless validation of a game played elsewhere: a ruleset, options, seats and a
record of commands go in; the final state, or the first illegal step, comes out.

Random outcomes must be in the record: either the game used
``randomness: "external"`` (draws arrive as commands such as ``draw_tile`` and are
checked against what is still possible), or the record carries the game's revealed
``seed`` so the server can redraw exactly what the original server drew.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from service.app.errors import ValidationFailed
from service.app.games import Outcome, to_new_event
from service.app.genesis import RulesetLookup, check_seat_count, find_ruleset, genesis
from service.rules.clock import CLOCK, TIME_OUT, TimeControl
from service.rules.core import Event, RulesError, rng_for
from service.rules.seating import ABANDON
from service.store import GENESIS_HASH, HeadSigner, event_hash

_NO_SEED = b"\x00" * 32


@dataclass(frozen=True, slots=True)
class ExportedEnd:
    """What an exported record says of the game it came from. Each event's hash covers
    the game's id, so with ``game_id`` the replay's events are chained as the game's
    were, and the head they reach can be held against the game's ``head_hash``: a
    record edited into another legal game replays to another head."""

    game_id: str | None = None
    version: int | None = None
    head_hash: str | None = None
    #: the service's signature of that head (``HeadSigner``), as the export gives it
    head_signature: str | None = None


class _Chain:
    """The hash chain of a replay's events, as the store would write them."""

    def __init__(self, game_id: str) -> None:
        self.game_id, self.head, self.seq = game_id, GENESIS_HASH, 0

    def extend(self, events: list[Event]) -> None:
        for event in events:
            stored = to_new_event(event)
            self.seq += 1
            self.head = event_hash(
                self.head, self.game_id, self.seq, stored.type, stored.data, stored.visibility
            )


def validate_record(
    rulesets: RulesetLookup,
    ruleset_name: str,
    options: dict[str, Any],
    seats: int,
    record: list[dict[str, Any]],
    seed_hex: str | None,
    seed_sha256: str | None = None,
    exported: ExportedEnd = ExportedEnd(),
    signer: HeadSigner | None = None,
) -> Outcome:
    """Replay ``record``; ``seed_sha256``, if given with the seed, must be its hash (an
    exported record carries both), and the replay's end is compared with ``exported``."""
    ruleset = find_ruleset(rulesets, ruleset_name)
    check_seat_count(ruleset, seats)
    try:
        seed = bytes.fromhex(seed_hex) if seed_hex else None  # "": no seed, as when absent
    except ValueError as exc:
        raise ValidationFailed("seed", "must be hexadecimal") from exc
    if seed is not None and seed_sha256 not in (None, hashlib.sha256(seed).hexdigest()):
        raise ValidationFailed("seed_sha256", "is not the SHA-256 of seed")
    normalized, events = genesis(ruleset, options, seats, seed or _NO_SEED)
    if seed is None and normalized["randomness"] != "external":
        raise ValidationFailed(
            "seed",
            'a record with internal randomness needs its seed; or use randomness "external"',
        )
    state = ruleset.fold(events)
    version = len(events)
    chain = _Chain(exported.game_id) if exported.game_id is not None else None
    if chain is not None:
        chain.extend(events)
    control = TimeControl.of(normalized)
    error = None
    for step, entry in enumerate(record):
        seat = entry["seat"]  # None: the owner's abandon, the server's clock readings
        if seat is not None and not 0 <= seat < seats:
            error = {"step": step, "code": "unknown_seat", "message": f"no seat {seat}"}
            break
        problem = _sender_problem(control, seat, entry["command"])
        if problem is not None:
            error = {"step": step, "code": problem[0], "message": problem[1]}
            break
        try:
            rng = rng_for(seed or _NO_SEED, version + 1)
            new = ruleset.apply(state, seat, entry["command"], rng, entry.get("decision"))
        except RulesError as exc:
            error = {"step": step, "code": exc.code, "message": exc.message, "rule": exc.rule}
            break
        version += len(new)
        if chain is not None:
            chain.extend(new)
    head = chain.head if chain is not None else None
    body = {
        "valid": error is None,
        "ruleset": ruleset.name,
        "steps": len(record) if error is None else error["step"],
        "version": version,
        "finished": ruleset.is_over(state),
        "result": ruleset.result(state),
        "awaiting": ruleset.awaiting(state),
        "state": ruleset.view(state, None),
        "error": error,
        "head_hash": head,
        "matches_export": _matches_export(exported, error is None, version, head),
        "head_signed": _head_signed(exported, signer, error is None, version, head),
    }
    return Outcome(200, body)


def _matches_export(
    exported: ExportedEnd, valid: bool, version: int, head: str | None
) -> bool | None:
    """Whether the replay is the exported game, event for event (``None``: the record
    does not say enough of its game to tell)."""
    if head is None or exported.version is None or exported.head_hash is None:
        return None
    return valid and version == exported.version and head == exported.head_hash


def _head_signed(
    exported: ExportedEnd, signer: HeadSigner | None, valid: bool, version: int, head: str | None
) -> bool | None:
    """Whether ``exported.head_signature`` is this service's signature of the head the
    replay reaches: then the record is the game this service hosted, event for event
    (``None``: no signature to check, or no key to check it with)."""
    if signer is None or exported.head_signature is None or head is None:
        return None
    assert exported.game_id is not None  # (a head is chained under the game's id)
    return valid and signer.matches(exported.head_signature, exported.game_id, version, head)


def _sender_problem(
    control: TimeControl | None, seat: int | None, command: Any
) -> tuple[str, str] | None:
    """Why a step cannot have come from where the record says, as the service takes
    them (``None``: it can have): an ``abandon`` is the owner's, and ``clock`` and
    ``time_out`` are the server's, as it writes them for this game's time control. The
    rules core takes these from anybody, since only the service sends them to it."""
    kind = command.get("type") if isinstance(command, dict) else None
    if kind == ABANDON and seat is not None:
        return (
            "bad_abandon",
            f"an abandon is the game owner's, not seat {seat}'s: its step has seat null",
        )
    if kind not in (CLOCK, TIME_OUT):
        return None
    if control is None:
        return "no_time_control", f"a game without a clock option has no {kind} steps"
    if kind == CLOCK:
        if seat is None:
            return None
        return "bad_clock", f"a clock reading is the server's, not seat {seat}'s: seat null"
    action = command.get("action")
    # under skip, a seat whose whole time is spent forfeits (GameService.time_out)
    spent = control.on_timeout == "skip" and control.total_ms is not None and action == "forfeit"
    if (action != control.on_timeout and not spent) or command.get("bot") != control.bot:
        bot = f" (bot {control.bot})" if control.bot is not None else ""
        return "bad_timeout", f"this game's clock times a seat out by {control.on_timeout}{bot}"
    return None

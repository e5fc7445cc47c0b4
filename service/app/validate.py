"""Stateless validation of a game played elsewhere: a ruleset, options, seats and a
record of commands go in; the final state, or the first illegal step, comes out.

Random outcomes must be in the record: either the game used
``randomness: "external"`` (draws arrive as commands such as ``draw_tile`` and are
checked against what is still possible), or the record carries the game's revealed
``seed`` so the server can redraw exactly what the original server drew.
"""

from __future__ import annotations

import hashlib
from typing import Any

from service.app.errors import ValidationFailed
from service.app.games import Outcome
from service.app.genesis import RulesetLookup, check_seat_count, find_ruleset, genesis
from service.rules.clock import CLOCK, TIME_OUT, TimeControl
from service.rules.core import RulesError, rng_for

_NO_SEED = b"\x00" * 32


def validate_record(
    rulesets: RulesetLookup,
    ruleset_name: str,
    options: dict[str, Any],
    seats: int,
    record: list[dict[str, Any]],
    seed_hex: str | None,
    seed_sha256: str | None = None,
) -> Outcome:
    """Replay ``record``; ``seed_sha256``, if given with the seed, must be its hash (an
    exported record carries both)."""
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
    control = TimeControl.of(normalized)
    error = None
    for step, entry in enumerate(record):
        seat = entry["seat"]  # None: the owner's abandon, the server's clock readings
        if seat is not None and not 0 <= seat < seats:
            error = {"step": step, "code": "unknown_seat", "message": f"no seat {seat}"}
            break
        problem = _clock_step_problem(control, seat, entry["command"])
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
    }
    return Outcome(200, body)


def _clock_step_problem(
    control: TimeControl | None, seat: int | None, command: Any
) -> tuple[str, str] | None:
    """Why a ``clock`` or ``time_out`` step cannot be the server's, as it writes them
    for this game's time control (``None``: it can be, or it is another command). The
    rules core takes them from anybody, since only the server sends them to it."""
    kind = command.get("type") if isinstance(command, dict) else None
    if kind not in (CLOCK, TIME_OUT):
        return None
    if control is None:
        return "no_time_control", f"a game without a clock option has no {kind} steps"
    if kind == CLOCK:
        return None if seat is None else ("bad_clock", "a clock reading is the server's: seat null")
    action = command.get("action")
    # under skip, a seat whose whole time is spent forfeits (GameService.time_out)
    spent = control.on_timeout == "skip" and control.total_ms is not None and action == "forfeit"
    if (action != control.on_timeout and not spent) or command.get("bot") != control.bot:
        bot = f" (bot {control.bot})" if control.bot is not None else ""
        return "bad_timeout", f"this game's clock times a seat out by {control.on_timeout}{bot}"
    return None

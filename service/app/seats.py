"""Seat specs and seat tokens.

A seat token reads ``tgs_<secret>``; it is returned once when the game is created and
only its SHA-256 is stored. Bot seats have no token: the service plays them itself.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

from service.app.errors import Forbidden, ValidationFailed
from service.app.genesis import check_seat_count
from service.rules.core import Ruleset

SEAT_TOKEN_PREFIX = "tgs_"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return SEAT_TOKEN_PREFIX + secrets.token_urlsafe(24)


def prepare_seats(ruleset: Ruleset, specs: list[dict[str, Any]]) -> tuple[list[dict], list]:
    """Check the requested seats; return the stored seat records and the plaintext
    tokens (None for bot seats), in seat order."""
    check_seat_count(ruleset, len(specs))
    records, tokens = [], []
    for index, spec in enumerate(specs):
        bot = spec.get("bot")
        name = spec.get("name") or (f"{bot} bot" if bot else f"Seat {index}")
        if bot is not None and bot not in ruleset.bots:
            raise ValidationFailed(
                f"seats.{index}.bot", f"unknown bot {bot!r}; choose from {list(ruleset.bots)}"
            )
        token = None if bot else new_token()
        records.append(
            {"name": name, "bot": bot, "token_hash": hash_token(token) if token else None}
        )
        tokens.append(token)
    return records, tokens


def seat_of(seats: list[dict[str, Any]], token: str | None) -> int | None:
    """The seat this token belongs to; None without a token; Forbidden if it fits none."""
    if token is None:
        return None
    digest = hash_token(token)
    for index, seat in enumerate(seats):
        stored = seat.get("token_hash")
        if stored and hmac.compare_digest(stored, digest):
            return index
    raise Forbidden("this seat token does not belong to this game")


def public_seats(seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The seats as the game was created: names, and the bot of each bot seat."""
    return [{"seat": i, "name": s["name"], "bot": s.get("bot")} for i, s in enumerate(seats)]


def seated(
    seats: list[dict[str, Any]], controls: list[dict[str, Any]] | None
) -> list[dict[str, Any]]:
    """The seats as they are now: ``bot`` is the bot that plays the seat now (``null``:
    its person), ``resigned`` whether it has left the game. ``controls``: who plays
    each seat (:meth:`~service.rules.seating.Seating.controls`), or None while every
    seat is as the game was created."""
    if controls is None:
        return [{**public, "resigned": False} for public in public_seats(seats)]
    return [
        {**public, **control} for public, control in zip(public_seats(seats), controls, strict=True)
    ]

"""An API key's own games, newest first, a page at a time.

The order is ``(created_at, id)`` descending, and a page's cursor is the position of
its last game in that order: the next page is what comes strictly after it. So a walk
from the first page to the last sees every game that existed when it started exactly
once, whatever is created meanwhile (newer games sort before the first page). The
cursor is opaque to clients: base64url of ``<created_at ISO 8601>|<id>``.

Items are the games' rows (:func:`~service.app.games.game_item`), not their folded
state: a page of 100 games is one index range scan, with no log read.
"""

from __future__ import annotations

import base64
import binascii
import uuid
from datetime import datetime

from service.app.errors import InvalidCursor, ValidationFailed
from service.app.games import GameService, Outcome, game_item
from service.store import GameFilter, GameRecord

__all__ = ["GameFilter", "decode_cursor", "encode_cursor", "list_games"]


def encode_cursor(game: GameRecord) -> str:
    text = f"{game.created_at.isoformat()}|{game.id}"
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[datetime, str]:
    """The position a cursor names; :class:`InvalidCursor` if it is not one of ours."""
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        when, _, game_id = text.partition("|")
        created_at = datetime.fromisoformat(when)
        if created_at.tzinfo is None or str(uuid.UUID(game_id)) != game_id:
            raise ValueError("not a position")
    except (binascii.Error, UnicodeDecodeError, ValueError) as exc:
        raise InvalidCursor(
            "cursor is not one this service gave out; start again without it"
        ) from exc
    return created_at, game_id


def list_games(
    service: GameService,
    api_key_id: str,
    where: GameFilter,
    cursor: str | None,
    limit: int,
) -> Outcome:
    """A page of the key's games that pass ``where``, after ``cursor`` (a previous
    page's ``next_cursor``; None for the first page)."""
    if where.ruleset is not None and service.rulesets(where.ruleset) is None:
        raise ValidationFailed("query.ruleset", f"unknown ruleset {where.ruleset!r}")
    before = decode_cursor(cursor) if cursor is not None else None
    with service.db.connection() as conn:
        games = service.store.list_games(conn, api_key_id, where, before, limit + 1)
    page = games[:limit]
    more = len(games) > limit
    body = {
        "games": [game_item(game) for game in page],
        "next_cursor": encode_cursor(page[-1]) if more else None,
    }
    return Outcome(200, body)

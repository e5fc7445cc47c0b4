"""Who is calling: an API key (client app) and/or a seat token (one seat of one game).

Credentials are told apart by prefix: ``tgk_`` for API keys, ``tgs_`` for seat tokens.
Seat tokens are checked against the game they are used on (:mod:`service.app.seats`).
"""

from __future__ import annotations

from service.app.errors import Unauthorized
from service.store import Database
from service.store.keys import API_KEY_PREFIX, ApiKey, find_key, revoked_among


def authenticate_key(db: Database, plaintext: str) -> ApiKey:
    if not plaintext.startswith(API_KEY_PREFIX):
        raise Unauthorized("API keys start with tgk_")
    with db.connection() as conn:
        key = find_key(conn, plaintext)
    if key is None:
        raise Unauthorized("unknown or revoked API key")
    return key


def revoked_keys(db: Database, key_ids: set[str]) -> set[str]:
    """Which of ``key_ids`` have been revoked since they were checked: an open event
    stream asks, so that it ends soon after its key is revoked."""
    if not key_ids:
        return set()
    with db.connection() as conn:
        return revoked_among(conn, sorted(key_ids))

"""Who is calling: an API key (client app) and/or a seat token (one seat of one game).

Credentials are told apart by prefix: ``tgk_`` for API keys, ``tgs_`` for seat tokens.
Seat tokens are checked against the game they are used on (:mod:`service.app.seats`).
"""

from __future__ import annotations

from service.app.errors import Unauthorized
from service.store import Database
from service.store.keys import API_KEY_PREFIX, ApiKey, find_key


def authenticate_key(db: Database, plaintext: str) -> ApiKey:
    if not plaintext.startswith(API_KEY_PREFIX):
        raise Unauthorized("API keys start with tgk_")
    with db.connection() as conn:
        key = find_key(conn, plaintext)
    if key is None:
        raise Unauthorized("unknown or revoked API key")
    return key

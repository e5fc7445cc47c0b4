"""The hash chain over a game's events.

``hash = sha256(prev_hash || canonical_json({game_id, seq, type, data, visibility}))``
where ``prev_hash`` is the previous event's hash as 64 lowercase hex characters (64
zeros before the first event) and canonical JSON has sorted keys, no insignificant
whitespace and UTF-8 text (``ensure_ascii=False``). Clients can recompute it to check
a log they received; ``GET /v1/games/{id}/verify`` does the same on the server.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

GENESIS_HASH = "0" * 64

# Made once: json.dumps with any option builds a new encoder for every call.
_COMPACT = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def compact_json(value: Any) -> str:
    """Sorted keys, no insignificant whitespace, UTF-8 text: how the store writes an
    event's data and a command (migrations/0009)."""
    return _COMPACT.encode(value)


def canonical_json(value: Any) -> bytes:
    return compact_json(value).encode()


def event_hash(
    prev_hash: str,
    game_id: str,
    seq: int,
    type_: str,
    data: Any,
    visibility: list[int] | None,
) -> str:
    body = {"game_id": game_id, "seq": seq, "type": type_, "data": data, "visibility": visibility}
    return hashlib.sha256(prev_hash.encode() + canonical_json(body)).hexdigest()


class HeadSigner:
    """Signs a game's head: ``HMAC-SHA256(key, "<game_id>:<version>:<head_hash>")`` in
    hex. The key lives outside the database (``HEAD_SIGNING_KEY``), so whoever can write
    the tables, but not read the service's environment, cannot sign a rewritten log."""

    def __init__(self, key: str) -> None:
        self._key = key.encode()

    def sign(self, game_id: str, version: int, head_hash: str) -> str:
        message = f"{game_id}:{version}:{head_hash}".encode()
        return hmac.new(self._key, message, hashlib.sha256).hexdigest()

    def matches(self, signature: str | None, game_id: str, version: int, head_hash: str) -> bool:
        expected = self.sign(game_id, version, head_hash)
        return signature is not None and hmac.compare_digest(signature, expected)

"""The event store on PostgreSQL (psycopg 3).

It appends and reads opaque events, keeps idempotency records and API keys, and
announces appends with ``NOTIFY``. It knows nothing about any game.
"""

from service.store.db import Database, DatabaseUnavailable
from service.store.events import (
    Command,
    EventStore,
    GameFilter,
    GameRecord,
    IdempotencyKeyTaken,
    NewEvent,
    NewGame,
    StoredEvent,
    UnknownGame,
    VersionConflict,
)
from service.store.hashing import GENESIS_HASH, HeadSigner, canonical_json, event_hash

__all__ = [
    "GENESIS_HASH",
    "Command",
    "Database",
    "DatabaseUnavailable",
    "EventStore",
    "GameFilter",
    "GameRecord",
    "HeadSigner",
    "IdempotencyKeyTaken",
    "NewEvent",
    "NewGame",
    "StoredEvent",
    "UnknownGame",
    "VersionConflict",
    "canonical_json",
    "event_hash",
]

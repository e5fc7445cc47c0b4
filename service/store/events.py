"""Games and their append-only event logs.

Appending takes the expected version under the game row's lock: the ``(game_id, seq)``
primary key and ``UPDATE games ... WHERE version = expected`` each guarantee that only
one writer wins a version, and the caller's transaction makes the events, the new
version and the idempotency record land together or not at all.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import psycopg
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from service.store.hashing import GENESIS_HASH, event_hash

NOTIFY_CHANNEL = "game_events"


class VersionConflict(Exception):
    """Someone else appended at this version first (or the expected version is stale)."""

    def __init__(self, expected: int, actual: int | None) -> None:
        super().__init__(f"expected version {expected}, game is at {actual}")
        self.expected = expected
        self.actual = actual


class UnknownGame(Exception):
    def __init__(self, game_id: str) -> None:
        super().__init__(f"no game {game_id}")
        self.game_id = game_id


@dataclass(frozen=True, slots=True)
class NewEvent:
    type: str
    data: dict[str, Any]
    visibility: list[int] | None = None


@dataclass(frozen=True, slots=True)
class StoredEvent:
    game_id: str
    seq: int
    type: str
    data: dict[str, Any]
    visibility: list[int] | None
    prev_hash: str
    hash: str
    recorded_at: datetime


@dataclass(frozen=True, slots=True)
class NewGame:
    ruleset: str
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    seed: bytes
    seed_hash: str
    api_key_id: str | None
    id: str = field(default_factory=lambda: str(uuid.uuid4()))


@dataclass(frozen=True, slots=True)
class GameRecord:
    id: str
    ruleset: str
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    seed: bytes
    seed_hash: str
    status: str
    version: int
    head_hash: str
    api_key_id: str | None
    created_at: datetime
    updated_at: datetime


_GAME_COLUMNS = (
    "id::text AS id, ruleset, options, seats, seed, seed_hash, status, version, head_hash,"
    " api_key_id, created_at, updated_at"
)


def _game(row: dict[str, Any]) -> GameRecord:
    row["seed"] = bytes(row["seed"])
    return GameRecord(**row)


def _is_uuid(value: str) -> bool:
    try:
        uuid.UUID(value)
    except (ValueError, TypeError, AttributeError):
        return False
    return True


class EventStore:
    """Operations on one connection; the caller owns the transaction."""

    def create_game(self, conn: psycopg.Connection, game: NewGame) -> GameRecord:
        with conn.cursor(row_factory=dict_row) as cur:
            cur.execute(
                "INSERT INTO games (id, ruleset, options, seats, seed, seed_hash, head_hash,"
                " api_key_id) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)"
                f" RETURNING {_GAME_COLUMNS}",
                (
                    game.id,
                    game.ruleset,
                    Jsonb(game.options),
                    Jsonb(game.seats),
                    game.seed,
                    game.seed_hash,
                    GENESIS_HASH,
                    game.api_key_id,
                ),
            )
            row = cur.fetchone()
        assert row is not None
        return _game(row)

    def get_game(self, conn: psycopg.Connection, game_id: str, *, lock: bool = False) -> GameRecord:
        """The game row; ``lock`` takes it FOR UPDATE, serialising writers per game."""
        if not _is_uuid(game_id):
            raise UnknownGame(game_id)
        suffix = " FOR UPDATE" if lock else ""
        with conn.cursor(row_factory=dict_row) as cur:
            cur.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = %s{suffix}", (game_id,))
            row = cur.fetchone()
        if row is None:
            raise UnknownGame(game_id)
        return _game(row)

    def append(
        self,
        conn: psycopg.Connection,
        game: GameRecord,
        expected_version: int,
        events: Sequence[NewEvent],
        *,
        status: str | None = None,
    ) -> list[StoredEvent]:
        """Append ``events`` after ``expected_version``, chain their hashes, bump the
        version and announce them. Raises :class:`VersionConflict` without writing."""
        if game.version != expected_version:
            raise VersionConflict(expected_version, game.version)
        prev = game.head_hash
        rows = []
        for offset, event in enumerate(events, start=1):
            seq = expected_version + offset
            digest = event_hash(prev, game.id, seq, event.type, event.data, event.visibility)
            rows.append(
                (
                    game.id,
                    seq,
                    event.type,
                    Jsonb(event.data),
                    Jsonb(event.visibility) if event.visibility is not None else None,
                    prev,
                    digest,
                )
            )
            prev = digest
        new_version = expected_version + len(rows)
        values = ", ".join(["(%s, %s, %s, %s, %s, %s, %s)"] * len(rows))
        try:
            with conn.cursor() as cur:
                cur.execute(
                    "INSERT INTO events (game_id, seq, type, data, visibility, prev_hash, hash)"
                    f" VALUES {values} RETURNING seq, recorded_at",
                    [value for row in rows for value in row],
                )
                recorded = dict(cur.fetchall())
                # One statement bumps the version and announces it (delivered on commit).
                cur.execute(
                    "UPDATE games SET version = %s, head_hash = %s, updated_at = now(),"
                    " status = coalesce(%s, status) WHERE id = %s AND version = %s"
                    " RETURNING pg_notify(%s, %s)",
                    (
                        new_version,
                        prev,
                        status,
                        game.id,
                        expected_version,
                        NOTIFY_CHANNEL,
                        f"{game.id}:{new_version}",
                    ),
                )
                if cur.rowcount != 1:
                    raise VersionConflict(expected_version, None)
        except psycopg.errors.UniqueViolation as exc:
            raise VersionConflict(expected_version, None) from exc
        return [
            StoredEvent(
                game.id,
                seq,
                event.type,
                event.data,
                event.visibility,
                prev_hash,
                digest,
                recorded[seq],
            )
            for (_, seq, _, _, _, prev_hash, digest), event in zip(rows, events, strict=True)
        ]

    def read_events(
        self,
        conn: psycopg.Connection,
        game_id: str,
        *,
        after: int = 0,
        upto: int | None = None,
        limit: int | None = None,
    ) -> list[StoredEvent]:
        if not _is_uuid(game_id):
            raise UnknownGame(game_id)
        query = (
            "SELECT game_id::text AS game_id, seq, type, data, visibility, prev_hash, hash,"
            " recorded_at FROM events WHERE game_id = %s AND seq > %s"
        )
        params: list[Any] = [game_id, after]
        if upto is not None:
            query += " AND seq <= %s"
            params.append(upto)
        query += " ORDER BY seq"
        if limit is not None:
            query += " LIMIT %s"
            params.append(limit)
        with conn.cursor(row_factory=dict_row) as cur:
            cur.execute(query, params)
            return [StoredEvent(**row) for row in cur.fetchall()]

    # -- idempotency records ------------------------------------------------------

    def get_idempotency(
        self, conn: psycopg.Connection, game_id: str, key: str
    ) -> tuple[str, int, Any] | None:
        row = conn.execute(
            "SELECT request_hash, status, response FROM idempotency_keys"
            " WHERE game_id = %s AND key = %s",
            (game_id, key),
        ).fetchone()
        return (row[0], row[1], row[2]) if row else None

    def put_idempotency(
        self,
        conn: psycopg.Connection,
        game_id: str,
        key: str,
        request_hash: str,
        status: int,
        response: Any,
    ) -> None:
        conn.execute(
            "INSERT INTO idempotency_keys (game_id, key, request_hash, status, response)"
            " VALUES (%s, %s, %s, %s, %s)",
            (game_id, key, request_hash, status, Jsonb(response)),
        )

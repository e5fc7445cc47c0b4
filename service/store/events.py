"""Games and their append-only event logs.

An append names the version it was decided on: the ``(game_id, seq)`` primary key and
``UPDATE games ... WHERE version = expected`` each guarantee that only one writer wins a
version, and one statement writes the events, the new version and the idempotency
record together or not at all. Under the game row's lock (the caller's transaction) the
version is known to be current; a write decided on what this process knew of the game,
without the lock, is one statement in autocommit that aborts itself if the version has
moved on (``bumped_once``, migrations/0011).
"""

from __future__ import annotations

import dataclasses
import threading
import uuid
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from service.store.hashing import GENESIS_HASH, HeadSigner, compact_json, event_hash
from service.store.webhooks import Notice, queue_cte

NOTIFY_CHANNEL = "game_events"
#: the SQLSTATE of ``bumped_once`` (migrations/0011): the bump of a write found the game
#: at another version
VERSION_MOVED_ON = "TG409"


class VersionConflict(Exception):
    """Someone else appended at this version first (or the expected version is stale)."""

    def __init__(self, expected: int, actual: int | None) -> None:
        super().__init__(f"expected version {expected}, game is at {actual}")
        self.expected = expected
        self.actual = actual


class IdempotencyKeyTaken(Exception):
    """Another request's record already holds this idempotency key (nothing written;
    the caller's transaction must roll back)."""


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
class Command:
    """A command as a seat sent it, keyed by the seq of the first event it caused;
    ``seat`` is None for a command of the game's owner (``abandon``)."""

    seq: int
    seat: int | None
    command: dict[str, Any]
    #: the id of the decision the command named as its precondition, if it named one
    decision: str | None = None


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
class GameFilter:
    """Which of an API key's games to list: each field set narrows the list."""

    ruleset: str | None = None
    status: str | None = None
    seat_name: str | None = None


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
    head_signature: str | None
    api_key_id: str | None
    created_at: datetime
    updated_at: datetime
    #: whether the commands that made the game are stored (games created before
    #: migrations/0005 have none)
    commands_recorded: bool
    #: who plays each seat now, ``{bot, resigned}`` in seat order (migrations/0012);
    #: None while every seat is as the game was created
    seats_now: list[dict[str, Any]] | None = None


_GAME_COLUMNS = (
    "id::text AS id, ruleset, options, seats, seed, seed_hash, status, version, head_hash,"
    " head_signature, api_key_id, created_at, updated_at, commands_recorded, seats_now"
)


_LOCK_GAME = f"SELECT {_GAME_COLUMNS}, now() AS tx_now FROM games WHERE id = %s FOR UPDATE"
#: the columns of a game the service changes (the UPDATE that migrations/0004 grants):
#: the rest of the row never changes once the game is created, so a lock of a game
#: whose row was read before re-reads only these (a column the service comes to update
#: must be added here)
_MUTABLE_COLUMNS = (
    "status",
    "version",
    "head_hash",
    "head_signature",
    "updated_at",
    "seats_now",
)
_LOCK_MUTABLE = f"SELECT {', '.join(_MUTABLE_COLUMNS)}, now() FROM games WHERE id = %s FOR UPDATE"
_GET_IDEMPOTENCY = (
    "SELECT request_hash, status, response FROM idempotency_keys WHERE game_id = %s AND key = %s"
)
#: placeholder time of events chained before the table has told us theirs
GENESIS_TIME = datetime.min.replace(tzinfo=UTC)


def _replace_time(event: StoredEvent, recorded_at: datetime) -> StoredEvent:
    return dataclasses.replace(event, recorded_at=recorded_at)


def _game(row: dict[str, Any]) -> GameRecord:
    row["seed"] = bytes(row["seed"])
    return GameRecord(**row)


def _is_uuid(value: str) -> bool:
    """Whether ``value`` is a UUID in its canonical form (lower-case hex, hyphens at
    8-4-4-4-12). PostgreSQL also reads ``urn:uuid:…``, braces, upper case and moved or
    missing hyphens as the same UUID; a game has one id, so those name no game."""
    try:
        return str(uuid.UUID(value)) == value
    except (ValueError, TypeError, AttributeError):
        return False


def listing_query(
    api_key_id: str, where: GameFilter, before: tuple[datetime, str] | None, limit: int
) -> tuple[str, list[Any]]:
    """The SQL and parameters of :meth:`EventStore.list_games`: one range scan of the
    index ``games_by_key_newest`` (migrations/0003), or of ``games_seats`` for a seat
    name with fewer games than the key."""
    query = f"SELECT {_GAME_COLUMNS} FROM games WHERE api_key_id = %s"
    params: list[Any] = [api_key_id]
    if where.ruleset is not None:
        query += " AND ruleset = %s"
        params.append(where.ruleset)
    if where.status is not None:
        query += " AND status = %s"
        params.append(where.status)
    if where.seat_name is not None:
        query += " AND seats @> %s"
        params.append(Jsonb([{"name": where.seat_name}]))
    if before is not None:
        query += " AND (created_at, id) < (%s, %s)"
        params += (before[0], uuid.UUID(before[1]))
    # games.id: the uuid column, not the text it is selected as (the index's order)
    query += " ORDER BY games.created_at DESC, games.id DESC LIMIT %s"
    params.append(limit)
    return query, params


class KnownRows:
    """The game rows this process has read, most recent kept: what never changes in
    them spares a lock the work of reading and decoding the whole row again."""

    def __init__(self, capacity: int = 10_000) -> None:
        self.capacity = capacity
        self._rows: OrderedDict[str, GameRecord] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str) -> GameRecord | None:
        with self._lock:
            return self._rows.get(game_id)

    def remember(self, game: GameRecord) -> GameRecord:
        """Keep ``game``, unless a later version of it is kept (a read that raced a
        write may come back after it)."""
        with self._lock:
            kept = self._rows.get(game.id)
            if kept is not None and kept.version > game.version:
                return game
            self._rows[game.id] = game
            self._rows.move_to_end(game.id)
            if len(self._rows) > self.capacity:
                self._rows.popitem(last=False)
        return game


#: the columns of the rows an append inserts, after ``game_id``, with their types
_EVENT_COLUMNS = (
    ("seq", "bigint"),
    ("type", "text"),
    ("data", "json"),
    ("visibility", "jsonb"),
    ("hash", "bytea"),
)
_COMMAND_COLUMNS = (
    ("seq", "bigint"),
    ("seat", "integer"),
    ("command", "json"),
    ("decision", "text"),
)
#: rows an insert takes as parameters of their own; more go as an array a column. A
#: statement takes at most 65,535 parameters (some 5,000 bots' commands with their
#: events), but psycopg spends more Python on an array's values than on plain ones, so a
#: move's usual few rows go as they are.
_MOST_ROWS_AS_VALUES = 500


def _rows(
    columns: Sequence[tuple[str, str]], rows: Sequence[Sequence[Any]]
) -> tuple[str, list[Any]]:
    """A FROM item ``r`` giving ``rows`` as ``columns`` (name, SQL type), and its
    parameters: a VALUES list, or for many rows (or none) each column's array unnested."""
    names = ", ".join(name for name, _ in columns)
    if 0 < len(rows) <= _MOST_ROWS_AS_VALUES:
        row = "(" + ", ".join(f"%s::{type_}" for _, type_ in columns) + ")"
        values = ", ".join([row] * len(rows))
        return f"(VALUES {values}) AS r({names})", [value for row in rows for value in row]
    arrays = ", ".join(f"%s::{type_}[]" for _, type_ in columns)
    return f"unnest({arrays}) AS r({names})", [
        list(column) for column in zip(*rows, strict=True)
    ] or [[] for _ in columns]


class EventStore:
    """Operations on one connection; the caller owns the transaction. With a
    ``signer``, every write signs the game's new head (see :class:`HeadSigner`)."""

    def __init__(self, signer: HeadSigner | None = None) -> None:
        self.signer = signer
        self.known = KnownRows()

    def head_signature(self, game_id: str, version: int, head_hash: str) -> str | None:
        """The signature a write stores with this head (``None`` without a signer)."""
        if self.signer is None:
            return None
        return self.signer.sign(game_id, version, head_hash)

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
        return self.known.remember(_game(row))

    def transaction_time(self, conn: psycopg.Connection) -> datetime:
        """The transaction's timestamp: what ``recorded_at`` defaults to."""
        row = conn.execute("SELECT now()").fetchone()
        assert row is not None
        return row[0]

    def clocked_games_due(self, conn: psycopg.Connection, limit: int) -> list[tuple[str, int]]:
        """``(id, version)`` of the active games whose first running clock has run out
        by the transaction's time (the clock sweep's work), at most ``limit``, the
        longest overdue first."""
        rows = conn.execute(
            "SELECT id::text, version FROM games WHERE status = 'active'"
            " AND clock_deadline <= now() ORDER BY clock_deadline LIMIT %s",
            (limit,),
        ).fetchall()
        return [(row[0], row[1]) for row in rows]

    def keep_clock_deadline(
        self, conn: psycopg.Connection, game_id: str, version: int, deadline: datetime | None
    ) -> None:
        """Correct the game's ``clock_deadline`` at ``version`` (a row from before
        migration 0014 holds a guess); a write since then has set it already."""
        conn.execute(
            "UPDATE games SET clock_deadline = %s WHERE id = %s AND version = %s",
            (deadline, game_id, version),
        )

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
        return self.known.remember(_game(row))

    def list_games(
        self,
        conn: psycopg.Connection,
        api_key_id: str,
        where: GameFilter,
        before: tuple[datetime, str] | None,
        limit: int,
    ) -> list[GameRecord]:
        """The key's games that pass ``where``, newest first (``created_at``, then
        ``id``, descending), strictly after the position ``before`` in that order;
        at most ``limit``."""
        with conn.cursor(row_factory=dict_row) as cur:
            cur.execute(*listing_query(api_key_id, where, before, limit))
            return [_game(row) for row in cur.fetchall()]

    def lock_for_command(
        self, conn: psycopg.Connection, game_id: str
    ) -> tuple[GameRecord, datetime]:
        """Lock the game row FOR UPDATE (writers of one game queue here); also return
        the transaction's timestamp, which is what ``recorded_at`` defaults to. Of a
        game read before, only the columns the service changes are read again."""
        if not _is_uuid(game_id):
            raise UnknownGame(game_id)
        known = self.known.get(game_id)
        if known is not None:
            fresh = conn.execute(_LOCK_MUTABLE, (game_id,)).fetchone()
            if fresh is None:
                raise UnknownGame(game_id)
            changed = dict(zip(_MUTABLE_COLUMNS, fresh, strict=False))
            return dataclasses.replace(known, **changed), fresh[-1]
        with conn.cursor(row_factory=dict_row) as cur:
            cur.execute(_LOCK_GAME, (game_id,))
            row = cur.fetchone()
        if row is None:
            raise UnknownGame(game_id)
        tx_now = row.pop("tx_now")
        return self.known.remember(_game(row)), tx_now

    def idempotency_record(
        self, conn: psycopg.Connection, game_id: str, key: str
    ) -> tuple[str, int, Any] | None:
        """``(request_hash, status, response)`` stored under ``key`` for the game."""
        row = conn.execute(_GET_IDEMPOTENCY, (game_id, key)).fetchone()
        return (row[0], row[1], row[2]) if row else None

    def chain(
        self,
        game: GameRecord,
        expected_version: int,
        events: Sequence[NewEvent],
        recorded_at: datetime,
    ) -> list[StoredEvent]:
        """The events as they will be stored after ``expected_version``: seqs and the
        hash chain from the game's head, ``recorded_at`` the transaction's timestamp
        (:meth:`write` checks that the table agrees)."""
        prev = game.head_hash
        stored = []
        for offset, event in enumerate(events, start=1):
            seq = expected_version + offset
            digest = event_hash(prev, game.id, seq, event.type, event.data, event.visibility)
            stored.append(
                StoredEvent(
                    game.id,
                    seq,
                    event.type,
                    event.data,
                    event.visibility,
                    prev,
                    digest,
                    recorded_at,
                )
            )
            prev = digest
        return stored

    def append(
        self,
        conn: psycopg.Connection,
        game: GameRecord,
        expected_version: int,
        events: Sequence[NewEvent],
        *,
        status: str | None = None,
        commands: Sequence[Command] = (),
        notices: Sequence[Notice] = (),
        clock_deadline: datetime | None = None,
    ) -> list[StoredEvent]:
        """Append ``events`` after ``expected_version``, chain their hashes, bump the
        version, record the ``commands`` that caused them and announce them (``NOTIFY``,
        and the webhooks subscribed to them or to the ``notices``), and keep when the
        game's first running clock runs out (``clock_deadline``, None: none runs). Raises
        :class:`VersionConflict` without writing."""
        if game.version != expected_version:
            raise VersionConflict(expected_version, game.version)
        chained = self.chain(game, expected_version, events, GENESIS_TIME)
        recorded = self._write(
            conn,
            game,
            expected_version,
            chained,
            status,
            None,
            commands,
            notices,
            clock_deadline=clock_deadline,
        )
        return [_replace_time(event, recorded[event.seq]) for event in chained]

    def write(
        self,
        conn: psycopg.Connection,
        game: GameRecord,
        expected_version: int,
        chained: Sequence[StoredEvent],
        *,
        status: str | None = None,
        idempotency: tuple[str, str, int, str] | None = None,
        commands: Sequence[Command] = (),
        notices: Sequence[Notice] = (),
        unlocked: bool = False,
        seats_now: list[dict[str, Any]] | None = None,
        clock_deadline: datetime | None = None,
    ) -> None:
        """Store events made by :meth:`chain` and the ``commands`` that caused them,
        bump the version, announce them (``NOTIFY``, and the webhooks subscribed to
        them or to the ``notices``) and, if given, record ``(key, request_hash, status,
        response)`` under the key, the response as JSON text, and who plays each seat
        now (``seats_now``, when a seat changed hands or resigned) and when the game's
        first running clock runs out (``clock_deadline``): one statement. Raises
        :class:`VersionConflict` (the caller's transaction must then roll back, as it
        does on any exception).

        ``unlocked``: the game row was not locked, ``conn`` is in autocommit and the
        statement commits itself; the events' ``recorded_at`` is theirs as chained (there
        is no transaction whose time could be read first). Then it raises
        :class:`VersionConflict` or :class:`IdempotencyKeyTaken` having written
        nothing."""
        if game.version != expected_version:
            raise VersionConflict(expected_version, game.version)
        if unlocked and (not chained or not conn.autocommit):
            raise ValueError("an unlocked write is one statement in autocommit with events")
        recorded = self._write(
            conn,
            game,
            expected_version,
            chained,
            status,
            idempotency,
            commands,
            notices,
            chained[0].recorded_at if unlocked else None,
            seats_now,
            clock_deadline,
        )
        for event in chained:
            if recorded[event.seq] != event.recorded_at:
                raise RuntimeError(
                    f"recorded_at of event {event.seq} is {recorded[event.seq]},"
                    f" not the transaction time {event.recorded_at}"
                )

    def _write(
        self,
        conn: psycopg.Connection,
        game: GameRecord,
        expected_version: int,
        chained: Sequence[StoredEvent],
        status: str | None,
        idempotency: tuple[str, str, int, str] | None,
        commands: Sequence[Command],
        notices: Sequence[Notice] = (),
        recorded_at: datetime | None = None,
        seats_now: list[dict[str, Any]] | None = None,
        clock_deadline: datetime | None = None,
    ) -> dict[int, datetime]:
        # Data-modifying CTEs all run to completion in one statement: the version bump
        # with its NOTIFY (delivered on commit), the events, the idempotency record, the
        # commands and the webhook deliveries (the outbox); bumped_once aborts the
        # statement if the bump matched no row. The events are inserted from the bump's
        # row, so the game row is locked before any event's key is taken: a write without
        # the lock taken first never holds a key that a locked writer of the same version
        # waits for while it waits for that writer's lock (a deadlock). ``recorded_at``:
        # the events' time and the game's updated_at, else the transaction's (now()).
        # The events' data and the commands go as their compact text cast to json, which
        # keeps the text as sent (psycopg's Json wrapper cost a Python dumper call each).
        new_version = expected_version + len(chained)
        head = chained[-1].hash if chained else game.head_hash
        params: list[Any] = [
            new_version,
            head,
            self.head_signature(game.id, new_version, head),
            recorded_at,
            status,
            None if seats_now is None else Jsonb(seats_now),
            clock_deadline,
            game.id,
            expected_version,
            NOTIFY_CHANNEL,
            f"{game.id}:{new_version}",
        ]
        appended, appended_params = _rows(
            _EVENT_COLUMNS,
            [
                (
                    event.seq,
                    event.type,
                    compact_json(event.data),
                    None if event.visibility is None else Jsonb(event.visibility),
                    bytes.fromhex(event.hash),
                )
                for event in chained
            ],
        )
        params += (game.id, recorded_at, *appended_params)
        more = ""  # the idempotency record's and the commands' CTEs
        if idempotency is not None:
            key, request_hash, response_status, response = idempotency
            more += (
                ", remembered AS (INSERT INTO idempotency_keys"
                " (game_id, key, request_hash, status, response)"
                " VALUES (%s, %s, %s, %s, %s::jsonb) RETURNING 1)"
            )
            params += (game.id, key, request_hash, response_status, response)
        if commands:
            commanded, commanded_params = _rows(
                _COMMAND_COLUMNS,
                [(c.seq, c.seat, compact_json(c.command), c.decision) for c in commands],
            )
            more += (
                ", commanded AS (INSERT INTO commands (game_id, seq, seat, command, decision)"
                f" SELECT %s::uuid, r.* FROM {commanded} RETURNING 1)"
            )
            params += (game.id, *commanded_params)
        queued, queued_params = queue_cte(
            game.id, game.api_key_id, [(e.seq, e.type) for e in chained], notices
        )
        more += queued
        params += queued_params
        try:
            rows = conn.execute(
                "WITH bumped AS (UPDATE games SET version = %s, head_hash = %s,"
                " head_signature = %s, updated_at = coalesce(%s, now()),"
                " status = coalesce(%s, status), seats_now = coalesce(%s, seats_now),"
                " clock_deadline = %s"
                " WHERE id = %s AND version = %s RETURNING pg_notify(%s, %s)),"
                " appended AS (INSERT INTO events"
                " (game_id, seq, type, data, visibility, hash, recorded_at)"
                " SELECT %s::uuid, r.*, coalesce(%s::timestamptz, now())"
                f" FROM bumped, {appended} RETURNING seq, recorded_at)"
                f"{more}"
                " SELECT seq, recorded_at, checked.bumped FROM appended RIGHT JOIN"
                " (SELECT bumped_once(count(*)) AS bumped FROM bumped) AS checked ON true",
                params,
            ).fetchall()
        except psycopg.errors.UniqueViolation as exc:
            if exc.diag.table_name == "idempotency_keys":
                raise IdempotencyKeyTaken(str(exc)) from exc
            raise VersionConflict(expected_version, None) from exc
        except psycopg.DatabaseError as exc:
            if exc.sqlstate == VERSION_MOVED_ON:
                raise VersionConflict(expected_version, None) from exc
            raise
        return {seq: at for seq, at, _ in rows}

    def read_events(
        self,
        conn: psycopg.Connection,
        game_id: str,
        *,
        after: int = 0,
        upto: int | None = None,
        limit: int | None = None,
    ) -> list[StoredEvent]:
        """The game's events after seq ``after``, up to ``upto``, at most ``limit``. Each
        one's ``prev_hash`` is the hash of the row before it (migrations/0009): the
        window starts at ``after`` itself so that the first event read has it too."""
        if not _is_uuid(game_id):
            raise UnknownGame(game_id)
        query = (
            "SELECT * FROM (SELECT game_id::text AS game_id, seq, type, data, visibility,"
            " lag(hash) OVER (ORDER BY seq) AS prev_hash, hash, recorded_at"
            " FROM events WHERE game_id = %s AND seq >= %s"
        )
        params: list[Any] = [game_id, after]
        if upto is not None:
            query += " AND seq <= %s"
            params.append(upto)
        query += ") AS chained WHERE seq > %s ORDER BY seq"
        params.append(after)
        if limit is not None:
            query += " LIMIT %s"
            params.append(limit)
        with conn.cursor(row_factory=dict_row) as cur:
            cur.execute(query, params)
            rows = cur.fetchall()
        for row in rows:
            prev = row["prev_hash"]
            row["prev_hash"] = GENESIS_HASH if prev is None else prev.hex()
            row["hash"] = row["hash"].hex()
        return [StoredEvent(**row) for row in rows]

    def read_commands(self, conn: psycopg.Connection, game_id: str) -> list[Command]:
        """The game's recorded commands, in the order they were sent."""
        rows = conn.execute(
            "SELECT seq, seat, command, decision FROM commands WHERE game_id = %s ORDER BY seq",
            (game_id,),
        ).fetchall()
        return [Command(*row) for row in rows]

    def last_of_seat(
        self, conn: psycopg.Connection, game_id: str, type_: str, seat: int, after: int
    ) -> int | None:
        """The seq of the game's last event of ``type_`` about ``seat`` after seq
        ``after``, if any."""
        row = conn.execute(
            "SELECT max(seq) FROM events WHERE game_id = %s AND seq > %s AND type = %s"
            " AND data->>'seat' = %s",
            (game_id, after, type_, str(seat)),
        ).fetchone()
        return row[0] if row else None

    def has_event_of_type(self, conn: psycopg.Connection, game_id: str, type_: str) -> bool:
        row = conn.execute(
            "SELECT EXISTS (SELECT 1 FROM events WHERE game_id = %s AND type = %s)",
            (game_id, type_),
        ).fetchone()
        return bool(row and row[0])

    # -- idempotency records ------------------------------------------------------

    def prune_idempotency(self, conn: psycopg.Connection, older_than: timedelta) -> int:
        """Forget idempotency records older than ``older_than``; return how many went.

        A retry after that gets a fresh answer (normally a version conflict, since the
        first request already moved the game on), never a second write.
        """
        cur = conn.execute(
            "DELETE FROM idempotency_keys WHERE created_at < now() - %s", (older_than,)
        )
        return cur.rowcount

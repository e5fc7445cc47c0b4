"""Webhook endpoints and their outbox (migrations/0006_webhooks.sql).

The outbox is filled by the same statement that appends events (:func:`queue_cte`,
used by :meth:`EventStore.write`): one row per endpoint of the game's API key that
subscribes to the type of an appended event, or of a notice derived from them (a seat's
turn starting). Workers claim due rows with ``FOR UPDATE SKIP LOCKED`` and a lease
(:func:`claim_due`), send them, and record the outcome (:func:`record_delivered`,
:func:`record_failure`). The store knows nothing about HTTP or any game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import psycopg
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

#: delivery states: waiting for its first or next try, answered with a 2xx, given up
PENDING, DELIVERED, FAILED = "pending", "delivered", "failed"
STATUSES = (PENDING, DELIVERED, FAILED)


@dataclass(frozen=True, slots=True)
class Notice:
    """Something a write announces that is not itself an event but follows from its
    events (a seat's turn starting): ``seq`` is the event it follows, ``seat`` the seat
    it is about."""

    seq: int
    type: str
    seat: int | None
    data: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Endpoint:
    id: str
    api_key_id: str
    url: str
    event_types: list[str]
    secret: str
    description: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Delivery:
    """One outbox row: an event (or notice) for one endpoint, and how sending it went."""

    id: int
    endpoint_id: str
    game_id: str
    seq: int
    type: str
    seat: int | None
    status: str
    attempts: int
    next_attempt_at: datetime
    last_error: str | None
    last_status: int | None
    delivered_at: datetime | None
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Claimed:
    """A delivery a worker has leased, with what it needs to send it: the endpoint's
    URL and secret, the game's ruleset and, for an event, the event as stored."""

    delivery: Delivery
    url: str
    secret: str
    ruleset: str
    #: a derived notice's data; None for an event (then ``event_data`` is set)
    notice_data: dict[str, Any] | None
    event_data: dict[str, Any] | None
    event_visibility: list[int] | None


_ENDPOINT_COLUMNS = "id::text AS id, api_key_id, url, event_types, secret, description, created_at"
_DELIVERY_FIELDS = (
    "id",
    "endpoint_id::text AS endpoint_id",
    "game_id::text AS game_id",
    "seq",
    "type",
    "seat",
    "status",
    "attempts",
    "next_attempt_at",
    "last_error",
    "last_status",
    "delivered_at",
    "created_at",
)


def _delivery_columns(table: str = "") -> str:
    prefix = f"{table}." if table else ""
    return ", ".join(prefix + column for column in _DELIVERY_FIELDS)


def queue_cte(
    game_id: str,
    api_key_id: str | None,
    events: Sequence[tuple[int, str]],
    notices: Sequence[Notice],
) -> tuple[str, list[Any]]:
    """The CTE (``, queued AS (...)``) and parameters that queue the deliveries of an
    append: ``events`` as ``(seq, type)``, and the ``notices`` derived from them. One
    INSERT ... SELECT joining the key's endpoints, in the append's own statement: with
    no endpoint it inserts nothing after one index probe. Rows are numbered in the
    order of the log. A revoked key's endpoints get nothing more. Empty for a game no
    key owns."""
    if api_key_id is None:
        return "", []
    items = [{"seq": seq, "type": type_} for seq, type_ in events]
    items += [{"seq": n.seq, "type": n.type, "seat": n.seat, "data": n.data} for n in notices]
    sql = (
        ", queued AS (INSERT INTO webhook_outbox (endpoint_id, game_id, seq, type, seat, data)"
        " SELECT w.id, %s, n.seq, n.type, n.seat, n.data FROM webhook_endpoints w"
        " JOIN api_keys k ON k.id = w.api_key_id AND k.revoked_at IS NULL,"
        " jsonb_to_recordset(%s) AS n(seq bigint, type text, seat integer, data jsonb)"
        " WHERE w.api_key_id = %s AND n.type = ANY (w.event_types)"
        " ORDER BY n.seq, n.seat NULLS FIRST RETURNING 1)"
    )
    return sql, [game_id, Jsonb(items), api_key_id]


# -- endpoints --------------------------------------------------------------------------


def create_endpoint(
    conn: psycopg.Connection,
    endpoint_id: str,
    api_key_id: str,
    url: str,
    event_types: list[str],
    secret: str,
    description: str,
) -> Endpoint:
    """Store an endpoint; ``secret`` as its row keeps it (sealed, when the service has a
    key: service/app/sealing.py)."""
    with conn.cursor(row_factory=dict_row) as cur:
        cur.execute(
            "INSERT INTO webhook_endpoints (id, api_key_id, url, event_types, secret, description)"
            f" VALUES (%s, %s, %s, %s, %s, %s) RETURNING {_ENDPOINT_COLUMNS}",
            (endpoint_id, api_key_id, url, event_types, secret, description),
        )
        row = cur.fetchone()
    assert row is not None
    return Endpoint(**row)


def stored_secrets(conn: psycopg.Connection) -> list[tuple[str, str]]:
    """Every endpoint's id and secret as its row keeps it, locked to be replaced."""
    rows = conn.execute(
        "SELECT id::text, secret FROM webhook_endpoints ORDER BY id FOR UPDATE"
    ).fetchall()
    return [(endpoint_id, secret) for endpoint_id, secret in rows]


def replace_secret(conn: psycopg.Connection, endpoint_id: str, stored: str) -> None:
    conn.execute("UPDATE webhook_endpoints SET secret = %s WHERE id = %s", (stored, endpoint_id))


def count_endpoints(conn: psycopg.Connection, api_key_id: str) -> int:
    row = conn.execute(
        "SELECT count(*) FROM webhook_endpoints WHERE api_key_id = %s", (api_key_id,)
    ).fetchone()
    return int(row[0]) if row else 0


def list_endpoints(conn: psycopg.Connection, api_key_id: str) -> list[Endpoint]:
    """The key's endpoints, oldest first."""
    with conn.cursor(row_factory=dict_row) as cur:
        cur.execute(
            f"SELECT {_ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE api_key_id = %s"
            " ORDER BY created_at, id",
            (api_key_id,),
        )
        return [Endpoint(**row) for row in cur.fetchall()]


def get_endpoint(conn: psycopg.Connection, api_key_id: str, endpoint_id: str) -> Endpoint | None:
    """The key's endpoint with this id; None if there is none, or it is another key's."""
    with conn.cursor(row_factory=dict_row) as cur:
        cur.execute(
            f"SELECT {_ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = %s AND api_key_id = %s",
            (endpoint_id, api_key_id),
        )
        row = cur.fetchone()
    return Endpoint(**row) if row else None


def delete_endpoint(conn: psycopg.Connection, api_key_id: str, endpoint_id: str) -> bool:
    """Delete the key's endpoint and, with it, its deliveries; False if it has none."""
    cur = conn.execute(
        "DELETE FROM webhook_endpoints WHERE id = %s AND api_key_id = %s",
        (endpoint_id, api_key_id),
    )
    return cur.rowcount == 1


# -- deliveries ----------------------------------------------------------------------


def list_deliveries(
    conn: psycopg.Connection,
    endpoint_id: str,
    status: str | None,
    before: int | None,
    limit: int,
) -> list[Delivery]:
    """The endpoint's deliveries newest first (by id), after the position ``before``
    (an id) in that order, in ``status`` if given; at most ``limit``."""
    query = f"SELECT {_delivery_columns()} FROM webhook_outbox WHERE endpoint_id = %s"
    params: list[Any] = [endpoint_id]
    if status is not None:
        query += " AND status = %s"
        params.append(status)
    if before is not None:
        query += " AND id < %s"
        params.append(before)
    query += " ORDER BY id DESC LIMIT %s"
    params.append(limit)
    with conn.cursor(row_factory=dict_row) as cur:
        cur.execute(query, params)
        return [Delivery(**row) for row in cur.fetchall()]


#: deliveries offered to a claim, per delivery claimed: room for the rows that other
#: workers claiming at the same moment hold locked and this one skips
_CANDIDATES_PER_CLAIM = 4

#: the due deliveries in turns: each API key's oldest due delivery, then each key's
#: second... (each endpoint's first few read from its index, migrations/0015), the
#: first candidates of them locked in that order
_FAIR_DUE = (
    "SELECT o.id FROM unnest(ARRAY("
    " SELECT id FROM ("
    "  SELECT d.id, d.next_attempt_at, row_number() OVER ("
    "   PARTITION BY w.api_key_id ORDER BY d.next_attempt_at, d.id) AS turn"
    "  FROM webhook_endpoints w CROSS JOIN LATERAL ("
    "   SELECT id, next_attempt_at FROM webhook_outbox"
    "   WHERE endpoint_id = w.id AND status = 'pending' AND next_attempt_at <= now()"
    "   ORDER BY next_attempt_at, id LIMIT %(limit)s) d) turns"
    " ORDER BY turn, next_attempt_at, id LIMIT %(candidates)s"
    ")) WITH ORDINALITY AS fair (id, place)"
    " JOIN webhook_outbox o ON o.id = fair.id"
    " WHERE o.status = 'pending' AND o.next_attempt_at <= now()"
    " ORDER BY fair.place LIMIT %(limit)s FOR UPDATE OF o SKIP LOCKED"
)
#: the oldest due deliveries, whoever they are for
_OLDEST_DUE = (
    "SELECT id FROM webhook_outbox WHERE status = 'pending' AND next_attempt_at <= now()"
    " ORDER BY next_attempt_at, id LIMIT %(limit)s FOR UPDATE SKIP LOCKED"
)


def claim_due(conn: psycopg.Connection, limit: int, lease: timedelta) -> list[Claimed]:
    """Lease up to ``limit`` due pending deliveries: each counts an attempt and is not
    due again until ``lease`` has passed, by which time the worker has recorded how it
    went (or died, and another worker sends it again). Rows another worker is claiming
    at this moment are skipped, not waited for. Commit to take the lease.

    The API keys take turns: each key's oldest due delivery comes before any key's
    second, and so on, oldest first within a turn. Without turns, one key with
    thousands of deliveries queued (to receivers that hold every attempt to the
    timeout, say) would hold up every other key's for hours. Where other workers hold
    every delivery the turns offer, the oldest others are claimed."""
    params = {"lease": lease, "limit": limit, "candidates": limit * _CANDIDATES_PER_CLAIM}
    return _claim(conn, _FAIR_DUE, params) or _claim(conn, _OLDEST_DUE, params)


def _claim(conn: psycopg.Connection, chosen: str, params: dict[str, Any]) -> list[Claimed]:
    """Lease the deliveries the query ``chosen`` picks (and locks)."""
    # The ids are chosen once, as an array: as ``id IN (SELECT ... LIMIT n FOR UPDATE
    # SKIP LOCKED)`` the planner may run the subquery again as it joins, and a locking
    # subquery need not give the same rows twice: a claim once took 126 of a limit of 20.
    with conn.cursor(row_factory=dict_row) as cur:
        cur.execute(
            "WITH claimed AS (UPDATE webhook_outbox SET attempts = attempts + 1,"
            f" next_attempt_at = now() + %(lease)s WHERE id = ANY(ARRAY({chosen}))"
            " RETURNING *)"
            f" SELECT {_delivery_columns('c')},"
            " c.data AS notice_data, w.url, w.secret, g.ruleset, e.data AS event_data,"
            " e.visibility AS event_visibility"
            " FROM claimed c JOIN webhook_endpoints w ON w.id = c.endpoint_id"
            " JOIN games g ON g.id = c.game_id"
            " LEFT JOIN events e ON c.data IS NULL AND e.game_id = c.game_id AND e.seq = c.seq"
            " ORDER BY c.next_attempt_at, c.id",
            params,
        )
        rows = cur.fetchall()
    claimed = []
    for row in rows:
        extra = {
            name: row.pop(name)
            for name in ("notice_data", "url", "secret", "ruleset", "event_data")
        }
        visibility = row.pop("event_visibility")
        claimed.append(Claimed(Delivery(**row), **extra, event_visibility=visibility))
    return claimed


def storable_error(text: str) -> str:
    """``last_error`` as a text column can hold it, cut to 1,000 characters: what a
    receiver answered may carry NUL (or, decoded, half of a surrogate pair), which
    PostgreSQL text refuses, and the whole batch's outcomes would go with it."""
    readable = text.encode("utf-8", "replace").decode("utf-8").replace("\x00", "\ufffd")
    return readable[:1000]


def record_delivered(conn: psycopg.Connection, delivery_id: int, http_status: int) -> None:
    conn.execute(
        "UPDATE webhook_outbox SET status = 'delivered', delivered_at = now(),"
        " last_status = %s, last_error = NULL WHERE id = %s",
        (http_status, delivery_id),
    )


def record_failure(
    conn: psycopg.Connection,
    delivery_id: int,
    attempts: int,
    error: str,
    http_status: int | None,
    retry_in: timedelta | None,
) -> None:
    """An attempt failed: try again in ``retry_in``, or give up (None). Only the claim
    that made attempt number ``attempts`` may record it: a worker that outlived its
    lease does not push back (or fail) a row another worker has claimed since, nor one
    delivered meanwhile."""
    status = PENDING if retry_in is not None else FAILED
    conn.execute(
        "UPDATE webhook_outbox SET status = %s, last_error = %s, last_status = %s,"
        " next_attempt_at = CASE WHEN %s::interval IS NULL THEN next_attempt_at"
        " ELSE now() + %s::interval END"
        " WHERE id = %s AND attempts = %s AND status = 'pending'",
        (status, storable_error(error), http_status, retry_in, retry_in, delivery_id, attempts),
    )


def record_unsent(
    conn: psycopg.Connection, delivery_id: int, attempts: int, error: str, retry_in: timedelta
) -> None:
    """Nothing was sent (the endpoint's secret did not open): the claim's attempt is
    given back, so the delivery is never given up for it, and it is due again in
    ``retry_in``. Only the claim that made attempt number ``attempts`` may record it."""
    conn.execute(
        "UPDATE webhook_outbox SET attempts = attempts - 1, last_error = %s,"
        " next_attempt_at = now() + %s"
        " WHERE id = %s AND attempts = %s AND status = 'pending'",
        (storable_error(error), retry_in, delivery_id, attempts),
    )


def prune(conn: psycopg.Connection, older_than: timedelta) -> int:
    """Forget delivered and failed deliveries older than ``older_than``; how many went."""
    cur = conn.execute(
        "DELETE FROM webhook_outbox WHERE status <> 'pending' AND created_at < now() - %s",
        (older_than,),
    )
    return cur.rowcount

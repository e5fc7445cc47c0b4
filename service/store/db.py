"""Connection pool and the one error the rest of the service needs to know about.

Every failure to reach PostgreSQL (refused connection, pool timeout, server shutdown
mid-query, a statement cancelled by ``statement_timeout`` because the database stalled or
a lock was held too long) becomes :class:`DatabaseUnavailable`, so the API can answer 503
instead of 500 or a hung worker, and the readiness probe can say "not ready".
"""

from __future__ import annotations

import os
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg_pool import ConnectionPool, PoolTimeout

#: the role the service runs as (migrations/0004_least_privilege.sql): it reads what it
#: serves and appends events, and owns nothing, so it cannot switch the append-only
#: triggers off, rewrite an event or delete one
SERVICE_ROLE = "tilegames_app"


def service_url(owner_url: str) -> str:
    """The service's connection URL derived from the owner's: the same server and
    database as :data:`SERVICE_ROLE`, without the owner's password (for servers that
    trust local connections, as the embedded one and the tests' do; elsewhere give
    ``APP_DATABASE_URL`` with the role's own password)."""
    params = conninfo_to_dict(owner_url)
    params.pop("password", None)
    params["user"] = SERVICE_ROLE
    return make_conninfo("", **params)


#: a connection returned to the pool less than this many seconds ago is handed out again
#: without a round trip to check it (see :func:`works_if_idle`)
CHECK_AFTER_IDLE_SECONDS = 1.0
_returned_at: weakref.WeakKeyDictionary[psycopg.Connection, float] = weakref.WeakKeyDictionary()


def mark_returned(conn: psycopg.Connection) -> None:
    """Note when the connection goes back to the pool. Called by :meth:`Database.connection`
    rather than given to the pool as its ``reset`` callback: with one, the pool returns
    every connection through its background worker thread, a hand-off between threads
    on every request."""
    _returned_at[conn] = time.monotonic()


def works_if_idle(conn: psycopg.Connection) -> bool:
    """Whether a connection from the pool may be used: one that has been idle a while is
    checked with an empty query first (the server may have closed it since), one that
    came back a moment ago is not. Checking every checkout cost a round trip on every
    request; a connection broken within the last second fails its request with 503."""
    returned = _returned_at.get(conn)
    if returned is not None and time.monotonic() - returned <= CHECK_AFTER_IDLE_SECONDS:
        return True
    try:
        ConnectionPool.check_connection(conn)
    except psycopg.Error:
        return False
    return True


class DatabaseUnavailable(Exception):
    """PostgreSQL could not be reached or went away during the request."""


def session_options(url: str, statement_timeout: float) -> str:
    """The URL's own ``options`` with the statement timeout (seconds; 0 = none) added."""
    options = [str(conninfo_to_dict(url).get("options") or "")]
    if statement_timeout > 0:
        options.append(f"-c statement_timeout={round(statement_timeout * 1000)}")
    return " ".join(filter(None, options))


class Database:
    """A psycopg 3 connection pool that opens lazily and maps outages to one error.

    ``statement_timeout`` (seconds, 0 for none) bounds every statement on the pool's
    connections, waiting for a lock included: PostgreSQL cancels a statement that takes
    longer (``QueryCanceled``, an ``OperationalError``), so a stalled database answers
    503 within that time instead of holding a worker's thread."""

    def __init__(
        self,
        url: str,
        *,
        min_size: int = 1,
        max_size: int = 10,
        timeout: float = 5.0,
        statement_timeout: float = 0,
        application_name: str = "tilegames",
    ) -> None:
        self.url = url
        connect_args = {"application_name": f"{application_name}-{os.getpid()}"}
        options = session_options(url, statement_timeout)
        if options:
            connect_args["options"] = options
        self.pool = ConnectionPool(
            url,
            min_size=min_size,
            max_size=max_size,
            timeout=timeout,
            open=False,
            kwargs=connect_args,
            reconnect_timeout=0,
        )
        self._opened = False

    def _ensure_open(self) -> None:
        # Opened on first use, never at import: gunicorn forks workers after loading the
        # app, and a pool's connections and threads must not cross a fork.
        if not self._opened:
            self.pool.open(wait=False)
            self._opened = True

    @contextmanager
    def connection(self, timeout: float | None = None) -> Iterator[psycopg.Connection]:
        """A pooled connection inside a transaction that commits on success, waited for
        at most ``timeout`` seconds (the pool's own by default)."""
        self._ensure_open()
        try:
            conn = self._working_connection(timeout)
            try:
                with conn:  # (a pool's connection is not closed on the way out)
                    yield conn
            finally:
                mark_returned(conn)
                self.pool.putconn(conn)
        except (psycopg.OperationalError, PoolTimeout) as exc:
            raise DatabaseUnavailable(str(exc) or type(exc).__name__) from exc

    def _working_connection(self, timeout: float | None = None) -> psycopg.Connection:
        """A connection from the pool that answers. One that does not means the server
        closed it (a restart, a failover, a killed backend), and likely every other one
        idle as long: each is checked now and the broken ones are replaced, so the
        request waits for one new connection rather than meeting them one by one. (The
        pool's own ``check`` waited a second and more between broken connections, and
        after a restart gave up on a healthy server.)"""
        conn = self.pool.getconn(timeout)
        if works_if_idle(conn):
            return conn
        conn.close()
        self.pool.putconn(conn)  # a closed connection: the pool opens another
        self.pool.check()
        return self.pool.getconn(timeout)

    def ping(self, timeout: float = 2.0) -> None:
        """Raise :class:`DatabaseUnavailable` unless a trivial query succeeds."""
        with self.connection(timeout) as conn:
            conn.execute("SELECT 1")

    def close(self) -> None:
        if self._opened:
            self.pool.close()
            self._opened = False

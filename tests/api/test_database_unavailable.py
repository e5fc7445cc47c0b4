"""A database that goes away mid-service gives 503 database_unavailable, not 500, and
/readyz says not ready; service resumes when it comes back."""

from __future__ import annotations

import time
from contextlib import ExitStack

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from service.api import create_app
from service.app.games import _autocommit
from service.config import Settings
from service.store.db import CHECK_AFTER_IDLE_SECONDS
from service.store.migrate import migrate
from tests.api.test_errors import assert_problem
from tests.conftest import new_api_key


def set_connections(server_url: str, database: str, allowed: bool) -> None:
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'ALTER DATABASE "{database}" ALLOW_CONNECTIONS {str(allowed).lower()}')
        if not allowed:
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                (database,),
            )


def test_database_outage_gives_503_problem_and_not_ready(empty_database, pg_server_url):
    migrate(empty_database)
    _, key = new_api_key(empty_database)
    app = create_app(Settings(database_url=empty_database, db_pool_timeout=1.0))
    client = app.test_client()
    headers = {"X-API-Key": key}
    created = client.post(
        "/v1/games", json={"ruleset": "carcassonne", "seats": [{}, {}]}, headers=headers
    )
    assert created.status_code == 201
    game_path = f"/v1/games/{created.get_json()['id']}"
    assert client.get("/readyz").status_code == 200

    name = conninfo_to_dict(empty_database)["dbname"]
    set_connections(pg_server_url, name, allowed=False)
    try:
        body = assert_problem(client.get(game_path, headers=headers), 503, "database_unavailable")
        assert "retry" in body["detail"]
        not_ready = client.get("/readyz")
        assert not_ready.status_code == 503 and not_ready.get_json()["status"] == "unavailable"
        assert client.get("/healthz").status_code == 200
    finally:
        set_connections(pg_server_url, name, allowed=True)

    assert client.get("/readyz").status_code == 200
    assert client.get(game_path, headers=headers).status_code == 200
    app.extensions["tilegames"].db.close()
    assert make_conninfo(empty_database)  # the URL stays usable for the fixture's cleanup


def test_a_connection_lost_during_a_lock_free_write_is_reported_as_lost(database_url):
    """The lock-free write runs in autocommit and switches back after it; a connection
    lost meanwhile must surface as the loss (503 database_unavailable), not as the
    switch's own error, and never go back to the pool still in autocommit."""
    with psycopg.connect(database_url) as conn, psycopg.connect(database_url) as other:
        other.autocommit = True
        with pytest.raises(psycopg.errors.AdminShutdown), _autocommit(conn):
            other.execute("SELECT pg_terminate_backend(%s)", (conn.info.backend_pid,))
            conn.execute("SELECT 1")
        assert conn.closed


def test_a_lock_free_block_gives_the_connection_back_in_transactions(database_url):
    with psycopg.connect(database_url) as conn:
        with pytest.raises(psycopg.errors.DivisionByZero), _autocommit(conn):
            conn.execute("SELECT 1 / 0")
        assert not conn.closed and not conn.autocommit


def test_a_healthy_server_that_closed_every_pooled_connection_is_answered_at_once(
    empty_database,
):
    """A restart, a failover or a proxy's restart closes every connection the pool
    holds. The first request after it checks the idle ones and replaces them all,
    rather than meeting them one by one a second apart and more, which gave up (503)
    before the pool's 1.5 s timeout on a server that was up all along."""
    migrate(empty_database)
    _, key = new_api_key(empty_database)
    app = create_app(Settings(database_url=empty_database, db_pool_timeout=1.5))
    client, headers = app.test_client(), {"X-API-Key": key}
    game = client.post(
        "/v1/games", json={"ruleset": "carcassonne", "seats": [{}, {}]}, headers=headers
    )
    db = app.extensions["tilegames"].db
    with ExitStack() as held:  # six connections in the pool
        for _ in range(6):
            held.enter_context(db.connection()).execute("SELECT 1")
    with psycopg.connect(empty_database, autocommit=True) as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    time.sleep(CHECK_AFTER_IDLE_SECONDS + 0.2)  # idle long enough to be checked
    assert client.get("/readyz").status_code == 200  # the probe too: the pod stays in
    for _ in range(2):
        assert client.get(f"/v1/games/{game.get_json()['id']}", headers=headers).status_code == 200
    db.close()

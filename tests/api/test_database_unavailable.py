"""A database that goes away mid-service gives 503 database_unavailable, not 500, and
/readyz says not ready; service resumes when it comes back."""

from __future__ import annotations

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from service.api import create_app
from service.app.games import _autocommit
from service.config import Settings
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

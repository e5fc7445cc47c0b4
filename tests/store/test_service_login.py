"""On a server that asks for passwords, ``migrate`` with ``APP_DATABASE_URL`` gives the
service role that URL's password, so the Helm chart's Job makes the API pods' own
connection work; and ``serve`` and ``sweep-clocks`` with only that URL (no owner
credentials, as the chart's API pods and clock sweeper run) work as the service role.

The password test runs its own embedded PostgreSQL: its pg_hba.conf asks every role
but the owner for a password, which no shared test server may be made to do."""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from service.store import embedded
from service.store.db import SERVICE_ROLE, service_url
from service.store.roles import can_log_in
from tests.client import Client
from tests.conftest import REPO, Server, create_database


@pytest.fixture
def password_server() -> Iterator[str]:
    """The owner's URL to an embedded PostgreSQL where every other role needs its
    password."""
    with tempfile.TemporaryDirectory(prefix="tilegames-login-") as directory:
        postgres = embedded.start(Path(directory) / "postgres", cleanup_mode="stop")
        owner_url = postgres.get_uri()
        owner = conninfo_to_dict(owner_url)["user"]
        hba = Path(postgres.pgdata) / "pg_hba.conf"
        hba.write_text(f"local all {owner} trust\nlocal all all scram-sha-256\n")
        with psycopg.connect(owner_url, autocommit=True) as conn:
            conn.execute("SELECT pg_reload_conf()")
        yield make_conninfo(owner_url, dbname=create_database(owner_url, "tilegames_login"))
        postgres.cleanup()


def cli(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "service.cli", *args],
        cwd=REPO,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO), **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_migrate_gives_the_service_role_the_password_of_its_url(password_server):
    app_url = make_conninfo(service_url(password_server), password="s3cret-app")
    migrated = cli("migrate", DATABASE_URL=password_server, APP_DATABASE_URL=app_url)
    assert migrated.returncode == 0, migrated.stderr
    assert f"{SERVICE_ROLE}'s password set from APP_DATABASE_URL" in migrated.stdout
    with psycopg.connect(app_url) as conn:
        assert conn.execute("SELECT current_user").fetchone() == (SERVICE_ROLE,)
    assert not can_log_in(make_conninfo(app_url, password="wrong"))
    # The next migration finds the login working and changes nothing.
    again = cli("migrate", DATABASE_URL=password_server, APP_DATABASE_URL=app_url)
    assert again.returncode == 0, again.stderr
    assert f"{SERVICE_ROLE} logs in with APP_DATABASE_URL" in again.stdout


def test_serve_with_only_the_service_url_serves_as_the_service_role(
    database_url, api_key, tmp_path
):
    app_url = service_url(database_url)
    server = Server(database_url, tmp_path, workers=1, DATABASE_URL="", APP_DATABASE_URL=app_url)
    try:
        client = Client(server.url, api_key)
        game = client.create("secret-cards", [{}, {}])
        token = game["seat_tokens"][0]["token"]
        assert client.move(game["id"], token, {"type": "keep"}, game["version"]).ok
        with psycopg.connect(database_url) as conn:
            users = conn.execute(
                "SELECT DISTINCT usename FROM pg_stat_activity"
                " WHERE datname = current_database() AND application_name LIKE %s",
                ("tilegames-%",),
            ).fetchall()
        assert users == [(SERVICE_ROLE,)]
    finally:
        server.stop()


def test_serve_with_only_the_service_url_refuses_to_migrate(database_url):
    refused = cli("serve", APP_DATABASE_URL=service_url(database_url))
    assert refused.returncode != 0
    assert "migrating needs the owner's DATABASE_URL" in refused.stderr


def test_sweep_clocks_with_only_the_service_url_applies_a_timeout_as_the_service_role(
    database_url, api_key, tmp_path
):
    app_url = service_url(database_url)
    server = Server(database_url, tmp_path, workers=1, DATABASE_URL="", APP_DATABASE_URL=app_url)
    try:
        clock = {"per_move": 0.5, "on_timeout": "skip"}
        game = Client(server.url, api_key).create("carcassonne", [{}, {}], {"clock": clock})
    finally:
        server.stop()  # nobody reads the game now: only the sweep can find its timeout
    time.sleep(0.7)
    swept = cli("sweep-clocks", APP_DATABASE_URL=app_url)
    assert swept.returncode == 0, swept.stderr
    # the session's other clocked games may have timeouts due too, and on a slow machine
    # this game's next seat as well
    applied = int(swept.stdout.split()[1])
    assert swept.stdout.strip() == f"applied {applied} timeouts"
    with psycopg.connect(database_url) as conn:
        (timeouts,) = conn.execute(
            "SELECT count(*) FROM events WHERE game_id = %s AND type = 'seat_timed_out'",
            (game["id"],),
        ).fetchone()
    assert 1 <= timeouts <= applied

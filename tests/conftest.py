"""Shared fixtures: a real PostgreSQL (``DATABASE_URL`` or the embedded one under
``var/``), a fresh database per test session, the app, API keys, a gunicorn server.

Database fixtures are lazy, and psycopg and requests are imported only by the fixtures
that use them, so tests that need no database (tests/rules) run without either
installed.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
#: the head-signing key of this test session's services (never in the database)
HEAD_SIGNING_KEY = secrets.token_hex(16)
#: the key that seals this test session's webhook secrets (service/app/sealing.py)
WEBHOOK_SECRETS_KEY = secrets.token_hex(16)


@pytest.fixture(scope="session")
def pg_server_url() -> Iterator[str]:
    """A URL to the PostgreSQL server the tests may create databases on."""
    url = os.environ.get("DATABASE_URL")
    if url:
        yield url
        return
    from service.store import embedded

    server = embedded.start(cleanup_mode="stop")
    yield server.get_uri()
    server.cleanup()  # stops it unless another process (make run) still uses it


def create_database(server_url: str, prefix: str = "tilegames_test") -> str:
    import psycopg

    name = f"{prefix}_{os.getpid()}_{secrets.token_hex(4)}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return name


def drop_database(server_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def database_url(pg_server_url: str) -> Iterator[str]:
    """A fresh, migrated database for this test session, dropped afterwards."""
    from psycopg.conninfo import make_conninfo

    from service.store.migrate import migrate

    name = create_database(pg_server_url)
    url = make_conninfo(pg_server_url, dbname=name)
    migrate(url)
    yield url
    drop_database(pg_server_url, name)


@pytest.fixture
def empty_database(pg_server_url: str) -> Iterator[str]:
    """A brand-new database with nothing in it, dropped after the test."""
    from psycopg.conninfo import make_conninfo

    name = create_database(pg_server_url, "tilegames_empty")
    yield make_conninfo(pg_server_url, dbname=name)
    drop_database(pg_server_url, name)


@pytest.fixture(scope="session")
def settings(database_url: str):
    from service.config import Settings

    return Settings(
        database_url=database_url,
        rate_limit="100000 per minute",
        sse_max_seconds=30,
        head_signing_key=HEAD_SIGNING_KEY,
        webhook_secrets_key=WEBHOOK_SECRETS_KEY,
        webhook_allow_loopback=True,  # the tests' receivers listen on 127.0.0.1
    )


@pytest.fixture(scope="session")
def app(settings):
    from service.api import create_app
    from tests.fixtures import council, secret_cards

    return create_app(settings, extra_rulesets=[secret_cards.RULESET, council.RULESET])


@pytest.fixture
def client(app):
    return app.test_client()


def new_api_key(database_url: str, name: str = "test") -> tuple[str, str]:
    import psycopg

    from service.store import keys

    with psycopg.connect(database_url) as conn:
        key, plaintext = keys.create_key(conn, name)
    return key.id, plaintext


@pytest.fixture(scope="session")
def api_key(database_url: str) -> str:
    return new_api_key(database_url)[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """A gunicorn started through ``python -m service.cli serve``."""

    def __init__(self, database_url: str, tmp: Path, workers: int = 3, **env: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.pause_dir = tmp / "paused"
        self.log = tmp / f"gunicorn-{self.port}.log"
        environment = {
            **os.environ,
            "DATABASE_URL": database_url,
            "EXTRA_RULESETS": "tests.fixtures.secret_cards:RULESET,tests.fixtures.council:RULESET",
            "TILEGAMES_TEST_PAUSE_DIR": str(self.pause_dir),
            "RATE_LIMIT": "100000 per minute",
            "SSE_POLL_SECONDS": "10",
            "SSE_MAX_SECONDS": "30",
            "REQUEST_READ_TIMEOUT": "3",
            "HEAD_SIGNING_KEY": HEAD_SIGNING_KEY,
            "WEBHOOK_SECRETS_KEY": WEBHOOK_SECRETS_KEY,
            "WEBHOOK_ALLOW_LOOPBACK": "1",
            "PYTHONPATH": str(REPO),
            "LOG_LEVEL": "WARNING",
            # No delivery threads on the session's database: they would send (and count)
            # the deliveries other tests claim themselves. tests/e2e/test_webhooks.py turns
            # them on for a server on a database of its own.
            "WEBHOOK_WORKER": "0",
            **env,
        }
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "service.cli",
                "serve",
                "--no-migrate",
                "--bind",
                f"127.0.0.1:{self.port}",
                "--workers",
                str(workers),
            ],
            cwd=REPO,
            env=environment,
            stdout=self.log.open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            self.wait_ready()
        except BaseException:  # a server that never became ready is not left running
            self.stop()
            raise

    def wait_ready(self, timeout: float = 30) -> None:
        import requests

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited: {self.log.read_text()[-3000:]}")
            try:
                if requests.get(self.url + "/readyz", timeout=1).status_code == 200:
                    return
            except (requests.ConnectionError, requests.Timeout):
                pass  # not listening yet, or a busy machine: ask again until the deadline
            time.sleep(0.2)
        raise RuntimeError("gunicorn did not become ready")

    def stop(self) -> None:
        # SIGINT is gunicorn's quick shutdown; a worker still holding an SSE stream
        # waits for its next poll, so after a moment the whole group (ours) is killed.
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(3)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(5)


@pytest.fixture(scope="session")
def server(database_url: str, tmp_path_factory) -> Iterator[Server]:
    running = Server(database_url, tmp_path_factory.mktemp("gunicorn"), workers=3)
    yield running
    running.stop()

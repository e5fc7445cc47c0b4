"""The service under gunicorn for a benchmark: a migrated database with an API key, and
``python -m service.cli serve`` on a free port until the block ends.

Imported by the scripts in bench/ (run as ``python bench/<script>.py``, so this folder is on
``sys.path``).
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
import requests

REPO = Path(__file__).resolve().parents[1]


def migrated_with_key(url: str) -> str:
    """Migrate the database at ``url`` and return a new API key's plaintext."""
    from service.store import keys
    from service.store.migrate import migrate

    migrate(url)
    with psycopg.connect(url) as conn:
        _, api_key = keys.create_key(conn, "bench")
    return api_key


@contextmanager
def serving(url: str, workers: int, **env: str) -> Iterator[str]:
    """The service's base URL, served by gunicorn with ``workers`` against ``url``;
    ``env`` adds settings. Rate limits are lifted and logs kept to warnings."""
    port = 18000 + secrets.randbelow(2000)
    environment = {
        **os.environ,
        "DATABASE_URL": url,
        "RATE_LIMIT": "10000000 per minute",
        "LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(REPO),
        **env,
    }
    gunicorn = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "serve", "--no-migrate",
         "--bind", f"127.0.0.1:{port}", "--workers", str(workers)],
        cwd=REPO, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(150):
            try:
                if requests.get(base + "/readyz", timeout=1).status_code == 200:
                    break
            except requests.RequestException:  # not listening yet, or a busy machine
                time.sleep(0.2)
        yield base
    finally:
        gunicorn.terminate()
        try:
            gunicorn.wait(20)
        except subprocess.TimeoutExpired:
            gunicorn.kill()

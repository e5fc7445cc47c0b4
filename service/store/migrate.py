"""Apply the plain SQL files in ``migrations/`` in order, once each, and record them.

A transaction-scoped advisory lock lets several replicas start at once: one applies,
the others wait and then find nothing left to do.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import psycopg

_LOCK_ID = 0x7469_6C65  # "tile"


def migrations_dir() -> Path:
    """Where the SQL files are: ``$MIGRATIONS_DIR``, the repository, or the installed copy."""
    candidates = []
    if os.environ.get("MIGRATIONS_DIR"):
        candidates.append(Path(os.environ["MIGRATIONS_DIR"]))
    candidates.append(Path(__file__).resolve().parents[2] / "migrations")
    candidates.append(Path(sys.prefix) / "share" / "tilegames" / "migrations")
    for candidate in candidates:
        if candidate.is_dir() and any(candidate.glob("*.sql")):
            return candidate
    raise FileNotFoundError(f"no migrations found in {', '.join(map(str, candidates))}")


def migrate(url: str, directory: Path | None = None) -> list[str]:
    """Apply pending migrations; return the names applied now."""
    directory = directory or migrations_dir()
    files = sorted(directory.glob("*.sql"))
    applied_now: list[str] = []
    with psycopg.connect(url) as conn:
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_ID,))
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
        )
        done = {row[0] for row in conn.execute("SELECT name FROM schema_migrations")}
        for path in files:
            if path.name in done:
                continue
            conn.execute(path.read_text())
            conn.execute("INSERT INTO schema_migrations (name) VALUES (%s)", (path.name,))
            applied_now.append(path.name)
    return applied_now


def applied(url: str) -> list[str]:
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT name FROM schema_migrations ORDER BY name").fetchall()
    return [row[0] for row in rows]

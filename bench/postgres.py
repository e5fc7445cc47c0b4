"""The PostgreSQL server a benchmark makes its databases on: the one ``--database-url``
names, or the embedded one under var/, started here.

Imported by the scripts in bench/ (run as ``python bench/<script>.py``, so this folder is on
``sys.path``).
"""

from __future__ import annotations

import secrets
from typing import Any

import psycopg
from psycopg.conninfo import make_conninfo


def server_for(database_url: str | None, label: str | None = None) -> tuple[str, str, Any]:
    """``(server_url, label, embedded_server_or_None)``; the label says which server
    ("system" or "embedded") unless one is given."""
    if database_url:
        return database_url, label or "system", None
    from service.store import embedded

    server = embedded.start()
    return server.get_uri(), label or "embedded", server


def create_database(server_url: str, prefix: str) -> tuple[str, str]:
    """A new empty database on the server: ``(its url, its name)``."""
    name = f"{prefix}_{secrets.token_hex(4)}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return make_conninfo(server_url, dbname=name), name

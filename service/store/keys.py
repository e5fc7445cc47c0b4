"""API keys for client apps, stored hashed.

A key reads ``tgk_<id>_<secret>``: the id is public (it names the key in logs and in
``keys list``), and only the SHA-256 of the whole key is stored, so a database dump
does not hand out working keys.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime

import psycopg

API_KEY_PREFIX = "tgk_"


@dataclass(frozen=True, slots=True)
class ApiKey:
    id: str
    name: str
    created_at: datetime
    revoked_at: datetime | None


def hash_secret(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


def create_key(conn: psycopg.Connection, name: str) -> tuple[ApiKey, str]:
    """Create a key; return it and the plaintext, which is shown once and never stored."""
    key_id = secrets.token_hex(4)
    plaintext = f"{API_KEY_PREFIX}{key_id}_{secrets.token_urlsafe(24)}"
    row = conn.execute(
        "INSERT INTO api_keys (id, key_hash, name) VALUES (%s, %s, %s)"
        " RETURNING id, name, created_at, revoked_at",
        (key_id, hash_secret(plaintext), name),
    ).fetchone()
    assert row is not None
    return ApiKey(*row), plaintext


def find_key(conn: psycopg.Connection, plaintext: str) -> ApiKey | None:
    """The active key with this plaintext, or None if unknown or revoked."""
    row = conn.execute(
        "SELECT id, name, created_at, revoked_at FROM api_keys"
        " WHERE key_hash = %s AND revoked_at IS NULL",
        (hash_secret(plaintext),),
    ).fetchone()
    return ApiKey(*row) if row else None


def revoke_key(conn: psycopg.Connection, key_id: str) -> bool:
    cur = conn.execute(
        "UPDATE api_keys SET revoked_at = now() WHERE id = %s AND revoked_at IS NULL", (key_id,)
    )
    return cur.rowcount == 1


def revoked_among(conn: psycopg.Connection, key_ids: list[str]) -> set[str]:
    """Which of ``key_ids`` have been revoked (or no longer exist)."""
    rows = conn.execute(
        "SELECT id FROM api_keys WHERE id = ANY(%s) AND revoked_at IS NULL",
        (key_ids,),
    ).fetchall()
    return set(key_ids) - {row[0] for row in rows}


def list_keys(conn: psycopg.Connection) -> list[ApiKey]:
    rows = conn.execute(
        "SELECT id, name, created_at, revoked_at FROM api_keys ORDER BY created_at"
    ).fetchall()
    return [ApiKey(*row) for row in rows]


def count_keys(conn: psycopg.Connection) -> int:
    row = conn.execute("SELECT count(*) FROM api_keys").fetchone()
    return int(row[0]) if row else 0

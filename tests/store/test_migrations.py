from __future__ import annotations

import psycopg
from psycopg.types.json import Jsonb

from service.store.migrate import applied, migrate, migrations_dir


def test_migrations_build_the_schema_on_an_empty_database_and_run_once(empty_database):
    files = sorted(p.name for p in migrations_dir().glob("*.sql"))

    assert migrate(empty_database) == files
    assert applied(empty_database) == files
    assert migrate(empty_database) == []

    with psycopg.connect(empty_database) as conn:
        tables = {
            row[0]
            for row in conn.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
            )
        }
    assert {"games", "events", "idempotency_keys", "api_keys", "schema_migrations"} <= tables


def test_a_log_written_before_0009_reads_back_the_same_after_it(empty_database, tmp_path):
    """0009 drops the stored prev_hash, turns the hex hash into bytes and jsonb into
    json: a game stored the old way reads back with the same hashes and data, and its
    chain still recomputes."""
    import hashlib

    from service.store import GENESIS_HASH, EventStore, event_hash

    for path in sorted(migrations_dir().glob("*.sql")):
        if path.name < "0009":
            (tmp_path / path.name).write_text(path.read_text())
    migrate(empty_database, tmp_path)
    game_id, data = (
        "00000000-0000-4000-8000-000000000001",
        [{"n": i, "tile": "BA/L"} for i in range(4)],
    )
    prev, stored = GENESIS_HASH, []
    with psycopg.connect(empty_database) as conn:
        conn.execute(
            "INSERT INTO games (id, ruleset, options, seats, seed, seed_hash, head_hash, version)"
            " VALUES (%s, 't', '{}', '[]', '\\x00', %s, %s, 4)",
            (game_id, hashlib.sha256(b"\0").hexdigest(), GENESIS_HASH),
        )
        for seq, item in enumerate(data, start=1):
            digest = event_hash(prev, game_id, seq, "e", item, None)
            conn.execute(
                "INSERT INTO events (game_id, seq, type, data, prev_hash, hash)"
                " VALUES (%s, %s, 'e', %s, %s, %s)",
                (game_id, seq, Jsonb(item), prev, digest),
            )
            stored.append((seq, item, prev, digest))
            prev = digest

    assert migrate(empty_database) == ["0009_compact_events.sql"] + [
        p.name for p in sorted(migrations_dir().glob("*.sql")) if p.name > "0009_compact_events.sql"
    ]
    with psycopg.connect(empty_database) as conn:
        events = EventStore().read_events(conn, game_id)
    assert [(e.seq, e.data, e.prev_hash, e.hash) for e in events] == stored

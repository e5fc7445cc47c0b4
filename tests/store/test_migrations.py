from __future__ import annotations

import psycopg

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

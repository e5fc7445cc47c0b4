"""The service's database role (``tilegames_app``) can serve games and append events,
and nothing that would let it rewrite a log: it owns no table, so it cannot switch the
append-only triggers off, and it is no superuser, so it cannot replay as a replica.
The service connects as that role; migrations run as the owner."""

from __future__ import annotations

import psycopg
import pytest

from service.config import Settings
from service.store.db import SERVICE_ROLE, service_url

REFUSALS = [
    "ALTER TABLE events DISABLE TRIGGER events_no_update_delete",
    "ALTER TABLE events DISABLE TRIGGER ALL",
    "SET session_replication_role = replica",
    "UPDATE events SET data = '{}'::jsonb",
    "DELETE FROM events",
    "TRUNCATE events",
    "DROP TABLE events",
    "DELETE FROM games",
    "UPDATE commands SET command = '{}'::jsonb",
    "DELETE FROM commands",
    "UPDATE games SET seed = ''::bytea",
    "INSERT INTO api_keys (id, key_hash, name) VALUES ('x', 'y', 'z')",
    # webhooks: the service records how deliveries went, and nothing else of them
    "UPDATE webhook_outbox SET type = 'game_ended'",
    "UPDATE webhook_outbox SET endpoint_id = gen_random_uuid()",
    "DELETE FROM webhook_outbox",
    "UPDATE webhook_endpoints SET url = 'https://elsewhere.example/'",
    "CREATE TABLE shadow (id int)",
]


def test_the_service_connects_as_its_own_role_unless_told_otherwise():
    owner = "postgresql://postgres:secret@db.example:5432/games"
    assert Settings(database_url=owner).service_database_url() == service_url(owner)
    assert "user=tilegames_app" in service_url(owner) and "secret" not in service_url(owner)
    explicit = "postgresql://app:pw@db.example/games"
    assert Settings(database_url=owner, app_database_url=explicit).service_database_url() == (
        explicit
    )


@pytest.mark.parametrize("statement", REFUSALS)
def test_the_service_role_cannot_rewrite_the_log(database_url, statement):
    with psycopg.connect(service_url(database_url)) as conn:
        assert conn.execute("SELECT current_user").fetchone() == (SERVICE_ROLE,)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute(statement)


def test_the_service_role_is_no_superuser_and_owns_nothing(database_url):
    with psycopg.connect(database_url) as conn:
        role = conn.execute(
            "SELECT rolsuper, rolcreaterole, rolcreatedb, rolbypassrls, rolreplication"
            " FROM pg_roles WHERE rolname = %s",
            (SERVICE_ROLE,),
        ).fetchone()
        owned = conn.execute(
            "SELECT count(*) FROM pg_class c JOIN pg_roles r ON r.oid = c.relowner"
            " WHERE r.rolname = %s",
            (SERVICE_ROLE,),
        ).fetchone()
    assert role == (False, False, False, False, False)
    assert owned == (0,)


def test_a_game_is_served_by_the_service_role(client, api_key, database_url):
    created = client.post(
        "/v1/games",
        json={"ruleset": "carcassonne", "seats": [{"bot": "random"}, {"bot": "random"}]},
        headers={"X-API-Key": api_key},
    )
    assert created.status_code == 201
    with psycopg.connect(database_url) as conn:
        writers = conn.execute(
            "SELECT DISTINCT usename FROM pg_stat_activity"
            " WHERE datname = current_database() AND application_name LIKE 'tilegames-%'"
        ).fetchall()
    assert writers == [(SERVICE_ROLE,)]

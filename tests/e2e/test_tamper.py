"""Editing a stored event (as a superuser who disables the trigger) breaks verify."""

from __future__ import annotations

import psycopg

from tests.client import Client


def test_tampered_event_makes_verify_fail_at_that_seq(server, api_key, database_url):
    client = Client(server.url, api_key)
    game = client.create("carcassonne", [{"bot": "random"}, {"bot": "random"}])
    assert client.get(f"/v1/games/{game['id']}/verify").json()["valid"]

    with psycopg.connect(database_url) as conn:
        conn.execute("ALTER TABLE events DISABLE TRIGGER events_no_update_delete")
        conn.execute(
            "UPDATE events SET data = data || '{\"tampered_by_test\": true}'::jsonb "
            "WHERE game_id = %s AND seq = 5",
            (game["id"],),
        )
        conn.execute("ALTER TABLE events ENABLE TRIGGER events_no_update_delete")

    report = client.get(f"/v1/games/{game['id']}/verify").json()
    assert not report["valid"] and report["first_bad_seq"] == 5
    chain = next(c for c in report["checks"] if c["name"] == "hash_chain")
    assert not chain["ok"] and "seq 5" in chain["detail"]

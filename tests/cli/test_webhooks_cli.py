"""``tilegames deliver-webhooks --once`` sends what is due, as the service's role, and
``tilegames prune-webhooks`` forgets old delivered and failed deliveries only."""

from __future__ import annotations

import psycopg

from service.cli import main
from tests.conftest import WEBHOOK_SECRETS_KEY, new_api_key
from tests.webhook_receiver import Receiver


def test_deliver_webhooks_once_sends_what_is_due(client, database_url, monkeypatch, capsys):
    key = {"X-API-Key": new_api_key(database_url)[1]}
    receiver = Receiver()
    try:
        hook = client.post(
            "/v1/webhooks",
            json={"url": receiver.url, "event_types": ["game_ended"]},
            headers=key,
        ).get_json()
        receiver.secret = hook["secret"]
        with psycopg.connect(database_url) as conn:
            conn.execute("DELETE FROM webhook_outbox")  # other tests' deliveries
        for _ in range(2):
            seats = [{"bot": "greedy"}, {"bot": "random"}]
            body = {"ruleset": "carcassonne", "seats": seats}
            assert client.post("/v1/games", json=body, headers=key).status_code == 201
        monkeypatch.setenv("DATABASE_URL", database_url)
        monkeypatch.setenv("WEBHOOK_SECRETS_KEY", WEBHOOK_SECRETS_KEY)
        monkeypatch.setenv("WEBHOOK_ALLOW_LOOPBACK", "1")  # the receiver is on 127.0.0.1
        assert main(["deliver-webhooks", "--once"]) == 0
    finally:
        receiver.close()
    assert "sent 2 deliveries" in capsys.readouterr().out
    assert [r.json["type"] for r in receiver.received] == ["game_ended", "game_ended"]
    assert all(r.signed for r in receiver.received)


def test_prune_webhooks_forgets_old_finished_deliveries_only(
    client, database_url, monkeypatch, capsys
):
    key = {"X-API-Key": new_api_key(database_url)[1]}
    hook = client.post(
        "/v1/webhooks",
        json={"url": "https://portal.example/", "event_types": ["tile_placed"]},
        headers=key,
    ).get_json()
    seats = [{"bot": "greedy"}, {"bot": "random"}]
    client.post("/v1/games", json={"ruleset": "carcassonne", "seats": seats}, headers=key)
    with psycopg.connect(database_url) as conn:
        ids = [
            row[0]
            for row in conn.execute(
                "SELECT id FROM webhook_outbox WHERE endpoint_id = %s ORDER BY id", (hook["id"],)
            )
        ]
        old = "now() - interval '8 days'"
        conn.execute(
            f"UPDATE webhook_outbox SET created_at = {old}, status = 'delivered' WHERE id = %s",
            (ids[0],),
        )
        conn.execute(
            f"UPDATE webhook_outbox SET created_at = {old}, status = 'failed' WHERE id = %s",
            (ids[1],),
        )
        conn.execute(f"UPDATE webhook_outbox SET created_at = {old} WHERE id = %s", (ids[2],))
        conn.execute("UPDATE webhook_outbox SET status = 'delivered' WHERE id = %s", (ids[3],))
    monkeypatch.setenv("DATABASE_URL", database_url)
    assert main(["prune-webhooks"]) == 0
    with psycopg.connect(database_url) as conn:
        left = [
            row[0]
            for row in conn.execute(
                "SELECT id FROM webhook_outbox WHERE endpoint_id = %s ORDER BY id", (hook["id"],)
            )
        ]
    # the old delivered and failed ones went; an old pending one and a new one stay
    assert left == ids[2:]

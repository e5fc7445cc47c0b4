"""A complete Carcassonne game over HTTP against gunicorn and PostgreSQL."""

from __future__ import annotations

import hashlib

import requests

from service.rules import get_ruleset
from tests.client import Client, fold, play_to_end


def test_full_carcassonne_game_over_http_from_creation_to_verified_record(server, api_key):
    carcassonne = get_ruleset("carcassonne")
    client = Client(server.url, api_key)

    catalogue = requests.get(f"{server.url}/v1/rulesets").json()["rulesets"]
    assert "carcassonne" in {r["name"] for r in catalogue}

    game = client.create("carcassonne", [{"name": "Ada"}, {"name": "Brian"}])
    tokens = {t["seat"]: t["token"] for t in game["seat_tokens"]}
    assert set(tokens) == {0, 1} and all(t.startswith("tgs_") for t in tokens.values())
    assert game["seed"] is None and len(game["seed_sha256"]) == 64

    record, client_state = play_to_end(client, carcassonne, game, tokens)
    assert len(record) > 50

    summary = client.get(f"/v1/games/{game['id']}").json()
    assert summary["status"] == "finished" and summary["awaiting"] == []
    assert hashlib.sha256(bytes.fromhex(summary["seed"])).hexdigest() == game["seed_sha256"]
    assert summary["result"] == carcassonne.result(client_state)

    # Each seat and a spectator read the same public state and log (no secrets here).
    spectator_state = client.get(f"/v1/games/{game['id']}/state").json()
    for token in tokens.values():
        seat_state = client.get(f"/v1/games/{game['id']}/state", token).json()
        assert seat_state["version"] == summary["version"]
        assert seat_state["state"]["scores"] == spectator_state["state"]["scores"]
    assert spectator_state["state"] == carcassonne.view(client_state, None)
    events = client.all_events(game["id"])
    assert [e["seq"] for e in events] == list(range(1, summary["version"] + 1))
    assert client.all_events(game["id"], tokens[0]) == events
    assert carcassonne.is_over(fold(carcassonne, events))

    early = client.get(f"/v1/games/{game['id']}/state", at=2).json()
    assert early["version"] == 2 and early["status"] == "active"

    verified = client.get(f"/v1/games/{game['id']}/verify").json()
    assert verified["valid"], verified
    assert verified["events"] == summary["version"]

    # The same game, validated statelessly from its revealed seed and its commands.
    validation = client.http.post(
        f"{server.url}/v1/validate",
        json={
            "ruleset": "carcassonne",
            "options": summary["options"],
            "seats": 2,
            "record": record,
            "seed": summary["seed"],
        },
        headers=client.headers(),
    ).json()
    assert validation["valid"] and validation["finished"], validation["error"]
    assert validation["result"] == summary["result"]


def test_metrics_through_gunicorn_sum_every_worker(server):
    for _ in range(12):
        requests.get(f"{server.url}/healthz")
    text = requests.get(f"{server.url}/metrics").text
    line = next(
        line
        for line in text.splitlines()
        if line.startswith("tilegames_http_requests_total{")
        and 'endpoint="/healthz"' in line
        and 'status="200"' in line
    )
    assert float(line.rsplit(" ", 1)[1]) >= 12
    # Samples come from the workers' shared files, not one process's own registry
    # (which would also list process_* and *_created samples).
    assert "tilegames_http_requests_created" not in text and "process_cpu" not in text

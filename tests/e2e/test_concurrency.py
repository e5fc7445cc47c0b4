"""Races and retries through a real gunicorn with several workers."""

from __future__ import annotations

import threading
import uuid

import requests

from tests.client import Client


def fire(n: int, send) -> list[requests.Response]:
    barrier, results = threading.Barrier(n), [None] * n

    def run(i: int) -> None:
        barrier.wait()
        results[i] = send(i)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results  # type: ignore[return-value]


def assert_log_has_no_gap_or_duplicate(client: Client, game_id: str) -> list[dict]:
    events = client.all_events(game_id)
    summary = client.get(f"/v1/games/{game_id}").json()
    assert [e["seq"] for e in events] == list(range(1, summary["version"] + 1))
    assert client.get(f"/v1/games/{game_id}/verify").json()["valid"]
    return events


def test_twenty_concurrent_moves_for_one_version_have_exactly_one_winner(server, api_key):
    client = Client(server.url, api_key)
    game = client.create("secret-cards", [{}, {}])
    token, version = game["seat_tokens"][0]["token"], game["version"]

    def send(i: int) -> requests.Response:
        command = {"type": "reveal" if i % 2 else "keep"}
        return requests.post(
            f"{server.url}/v1/games/{game['id']}/moves",
            json={"command": command},
            headers={
                "X-Seat-Token": token,
                "If-Match": f'"{version}"',
                "Idempotency-Key": uuid.uuid4().hex,
            },
            timeout=30,
        )

    results = fire(20, send)
    statuses = sorted(r.status_code for r in results)
    assert statuses == [200] + [409] * 19, statuses
    assert {r.json()["code"] for r in results if r.status_code == 409} == {"version_conflict"}
    winner = next(r.json() for r in results if r.status_code == 200)
    events = assert_log_has_no_gap_or_duplicate(client, game["id"])
    assert events[-1]["seq"] == winner["version"]


def test_ten_retries_with_one_idempotency_key_write_once_and_answer_identically(server, api_key):
    client = Client(server.url, api_key)
    game = client.create("secret-cards", [{}, {}])
    token, version, key = game["seat_tokens"][0]["token"], game["version"], uuid.uuid4().hex

    def send(_i: int) -> requests.Response:
        return client.move(game["id"], token, {"type": "reveal"}, version, key=key)

    results = fire(6, send) + [send(i) for i in range(4)]
    assert [r.status_code for r in results] == [200] * 10
    assert len({r.text for r in results}) == 1
    assert sum(r.headers.get("Idempotent-Replayed") == "true" for r in results) == 9
    events = assert_log_has_no_gap_or_duplicate(client, game["id"])
    assert [e["type"] for e in events].count("revealed") == 1
    assert events[-1]["seq"] == results[0].json()["version"]

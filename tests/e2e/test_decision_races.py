"""Simultaneous decisions raced through a real gunicorn with several workers: seats
answering their own open decisions at the same moment all succeed; the same decision
answered twice at once is written once, the loser told it has closed."""

from __future__ import annotations

import uuid

import requests

from tests.client import Client
from tests.e2e.test_concurrency import assert_log_has_no_gap_or_duplicate, fire


def post(server, game: dict, seat: int, body: dict) -> requests.Response:
    return requests.post(
        f"{server.url}/v1/games/{game['id']}/moves",
        json=body,
        headers={
            "X-Seat-Token": game["seat_tokens"][seat]["token"],
            "Idempotency-Key": uuid.uuid4().hex,
        },
        timeout=30,
    )


def test_four_seats_answering_their_open_decisions_at_once_all_succeed(server, api_key):
    client = Client(server.url, api_key)
    game = client.create("council", [{}, {}, {}, {}])
    ids = {d["seat"]: d["id"] for d in game["awaiting"] if d["kind"] == "vote"}

    def send(seat: int) -> requests.Response:
        command = {"type": "vote", "vote": "yes" if seat % 2 else "no"}
        return post(server, game, seat, {"command": command, "decision": ids[seat]})

    results = fire(4, send)
    assert [r.status_code for r in results] == [200] * 4, [r.text for r in results]
    versions = sorted(r.json()["version"] for r in results)
    assert versions == list(range(game["version"] + 1, game["version"] + 5))
    events = assert_log_has_no_gap_or_duplicate(client, game["id"])
    assert sorted(e["data"]["seat"] for e in events if e["type"] == "voted") == [0, 1, 2, 3]
    summary = client.get(f"/v1/games/{game['id']}").json()
    assert [(d["seat"], d["kind"]) for d in summary["awaiting"]] == [(0, "tally")]


def test_one_decision_answered_twice_at_once_is_written_once(server, api_key):
    client = Client(server.url, api_key)
    game = client.create("council", [{}, {}, {}])
    mine = next(d["id"] for d in game["awaiting"] if d["seat"] == 0)

    def send(i: int) -> requests.Response:
        command = {"type": "vote", "vote": "yes" if i % 2 else "no"}
        return post(server, game, 0, {"command": command, "decision": mine})

    results = fire(6, send)
    assert sorted(r.status_code for r in results) == [200] + [409] * 5
    assert {r.json()["code"] for r in results if r.status_code == 409} == {"decision_closed"}
    events = assert_log_has_no_gap_or_duplicate(client, game["id"])
    assert [e["type"] for e in events].count("voted") == 1

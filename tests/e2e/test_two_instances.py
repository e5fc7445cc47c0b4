"""Two instances, one database: two `serve` processes (two gunicorn masters) on their own
ports against the same PostgreSQL behave as one service. A move posted to one reaches
an event stream of the other within a second; a retry with the same Idempotency-Key
sent to the other replays the first answer; with Redis configured, both count one rate
limit per credential.

The rate-limit test runs when ``REDIS_URL`` names a Redis server (``.ci/run``'s second
pass sets it); without it there is no shared storage to test. Configured but
unreachable, it fails.
"""

from __future__ import annotations

import os
import time
import uuid

import pytest
import requests

from tests.client import Client
from tests.conftest import Server, new_api_key
from tests.e2e.test_sse import open_stream, sse_events

REDIS_URL = os.environ.get("REDIS_URL", "")


@pytest.fixture(scope="module")
def instances(database_url, tmp_path_factory):
    first = Server(database_url, tmp_path_factory.mktemp("first"), workers=1)
    try:
        second = Server(database_url, tmp_path_factory.mktemp("second"), workers=1)
    except BaseException:
        first.stop()
        raise
    yield first, second
    second.stop()
    first.stop()


def test_a_move_on_one_instance_reaches_a_stream_on_the_other_within_a_second(instances, api_key):
    first, second = instances
    client = Client(first.url, api_key)
    game = client.create("secret-cards", [{}, {}])
    stream = open_stream(second, {"game": game["id"], "X-API-Key": api_key}, game["version"])
    events = sse_events(stream)
    sent = time.monotonic()
    token = game["seat_tokens"][0]["token"]
    assert client.move(game["id"], token, {"type": "keep"}, game["version"]).ok
    event = next(events)
    assert time.monotonic() - sent < 1.0
    assert event["event"] == "turn_ended" and int(event["id"]) == game["version"] + 1
    stream.close()


def test_a_retry_sent_to_the_other_instance_replays_the_first_answer(instances, api_key):
    first, second = instances
    game = Client(first.url, api_key).create("secret-cards", [{}, {}])
    token, key, version = game["seat_tokens"][0]["token"], uuid.uuid4().hex, game["version"]
    answers = [
        Client(instance.url, api_key).move(game["id"], token, {"type": "keep"}, version, key)
        for instance in (first, second)
    ]
    assert [a.status_code for a in answers] == [200, 200]
    assert answers[1].headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in answers[0].headers
    assert answers[1].json() == answers[0].json()
    # applied once: the game moved one step, not two
    summary = Client(second.url, api_key).get(f"/v1/games/{game['id']}").json()
    assert summary["version"] == answers[0].json()["version"]


def redis_reachable(url: str) -> None:
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=3).ping()
    except redis.RedisError as exc:
        pytest.fail(f"REDIS_URL={url} is configured but Redis does not answer: {exc}")


@pytest.mark.skipif(not REDIS_URL, reason="REDIS_URL is not set: no shared rate-limit storage")
def test_with_redis_both_instances_count_one_limit_per_credential(database_url, tmp_path):
    redis_reachable(REDIS_URL)
    limited = {"RATELIMIT_STORAGE_URI": REDIS_URL, "RATE_LIMIT": "4 per minute"}
    first = Server(database_url, tmp_path, workers=1, **limited)
    try:
        second = Server(database_url, tmp_path, workers=1, **limited)
        try:
            _, key = new_api_key(database_url, "shared-limit")  # a fresh credential
            statuses, remaining = [], []
            for instance in (first, second, first, second, first):
                answer = requests.get(
                    f"{instance.url}/v1/rulesets", headers={"X-API-Key": key}, timeout=10
                )
                statuses.append(answer.status_code)
                remaining.append(answer.headers["RateLimit-Remaining"])
            assert statuses == [200, 200, 200, 200, 429]
            assert remaining == ["3", "2", "1", "0", "0"]
        finally:
            second.stop()
    finally:
        first.stop()

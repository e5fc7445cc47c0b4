"""Following a game live over SSE: new events arrive within a second from any worker,
redacted for the viewer; a spectator never sees a secret card."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator

import requests

from tests.client import Client

CARD = re.compile(r"card-[0-9a-f]{10}")


def sse_events(response: requests.Response) -> Iterator[dict]:
    """Parse a text/event-stream into {id, event, data, raw} dicts."""
    current: dict = {"raw": ""}
    for line in response.iter_lines(decode_unicode=True):
        if line:
            current["raw"] += line + "\n"
            field, _, value = line.partition(": ")
            if field in ("id", "event", "data"):
                current[field] = value
            continue
        if "event" in current:
            current["data"] = json.loads(current["data"])
            yield current
        current = {"raw": ""}


def stream_until(server, game_id: str, headers: dict, version: int, reconnects: int = 3) -> list:
    """The events a game's stream sends the viewer of ``headers`` up to ``version`` (or
    its ``end``); a stream that closes early (a busy database ends it, as a deploy
    would) is resumed after the last event received, as a client resumes with
    Last-Event-ID."""
    streamed: list[dict] = []
    for _ in range(1 + reconnects):
        after = streamed[-1]["seq"] if streamed else 0
        for message in sse_events(open_stream(server, {"game": game_id, **headers}, after)):
            if message["event"] == "end":
                return streamed
            streamed.append(message["data"])
            if message["data"]["seq"] >= version:
                return streamed
    raise AssertionError(f"the stream closed {1 + reconnects} times before version {version}")


def open_stream(server, headers: dict, after: int = 0) -> requests.Response:
    response = requests.get(
        f"{server.url}/v1/games/{{}}/events".format(headers.pop("game")),
        params={"after": after},
        headers={**headers, "Accept": "text/event-stream"},
        stream=True,
        timeout=20,
    )
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/event-stream")
    return response


def test_spectator_stream_gets_live_events_fast_and_no_secrets(server, api_key):
    client = Client(server.url, api_key)
    game = client.create("secret-cards", [{}, {}], {"rounds": 1})
    tokens = {t["seat"]: t["token"] for t in game["seat_tokens"]}
    stream = open_stream(server, {"game": game["id"], "X-API-Key": api_key})
    events = sse_events(stream)
    received = [next(events) for _ in range(game["version"])]
    assert [int(e["id"]) for e in received] == list(range(1, game["version"] + 1))
    assert not any(CARD.search(e["raw"]) for e in received)

    version, latencies = game["version"], []
    for seat in (0, 1):
        sent = time.monotonic()
        answer = client.move(game["id"], tokens[seat], {"type": "reveal"}, version).json()
        for _ in range(answer["version"] - version):
            event = next(events)
            received.append(event)
        latencies.append(time.monotonic() - sent)
        version = answer["version"]
    assert max(latencies) < 1.0, latencies
    assert next(events)["event"] == "end"

    revealed = {e["data"]["data"]["card"] for e in received if e["event"] == "revealed"}
    visible = {c for e in received for c in CARD.findall(e["raw"])}
    assert len(revealed) == 2 and visible == revealed  # the redealt cards stay hidden
    seed = client.get(f"/v1/games/{game['id']}").json()["seed"]
    assert seed and not any(seed in e["raw"] for e in received)


def test_seat_stream_resumes_after_last_event_id_and_shows_own_cards(server, api_key):
    client = Client(server.url, api_key)
    game = client.create("secret-cards", [{}, {}], {"rounds": 1})
    tokens = {t["seat"]: t["token"] for t in game["seat_tokens"]}
    version = game["version"]
    for seat in (0, 1):
        version = client.move(game["id"], tokens[seat], {"type": "reveal"}, version).json()[
            "version"
        ]
    headers = {"game": game["id"], "X-Seat-Token": tokens[1], "Last-Event-ID": "2"}
    received = list(sse_events(open_stream(server, headers)))
    assert [int(e["id"]) for e in received[:-1]] == list(range(3, version + 1))
    mine = [e for e in received if e["event"] == "dealt" and not e["data"]["redacted"]]
    assert {e["data"]["data"]["seat"] for e in mine} == {1} and len(mine) == 2

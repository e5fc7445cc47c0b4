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


def test_open_streams_pin_no_worker_thread(database_url, api_key, tmp_path):
    """One worker with two threads holds twenty open streams and still answers moves
    at once, each new event reaching every stream: a stream that held its thread would
    leave none for the moves."""
    from tests.conftest import Server

    small = Server(database_url, tmp_path, workers=1, THREADS="2", SSE_STREAMS_PER_CREDENTIAL="50")
    try:
        client = Client(small.url, api_key, timeout=10)
        game = client.create("secret-cards", [{}, {}], {"rounds": 3})
        headers = {"X-API-Key": api_key}
        streams = [
            sse_events(open_stream(small, {"game": game["id"], **headers}, game["version"]))
            for _ in range(20)
        ]
        tokens = {t["seat"]: t["token"] for t in game["seat_tokens"]}
        version = game["version"]
        for seat in (0, 1):
            sent = time.monotonic()
            answer = client.move(game["id"], tokens[seat], {"type": "keep"}, version)
            assert answer.status_code == 200 and time.monotonic() - sent < 1.0
            version = answer.json()["version"]
        for events in streams:
            seqs = [int(next(events)["id"]) for _ in range(version - game["version"])]
            assert seqs == list(range(game["version"] + 1, version + 1))
    finally:
        small.stop()


def test_a_credential_over_its_stream_cap_gets_429_until_it_closes_one(
    database_url, api_key, tmp_path
):
    from tests.conftest import Server

    capped = Server(database_url, tmp_path, workers=1, SSE_STREAMS_PER_CREDENTIAL="2")
    try:
        game = Client(capped.url, api_key).create("secret-cards", [{}, {}])
        seat = {"X-Seat-Token": game["seat_tokens"][0]["token"]}
        first, second = (open_stream(capped, {"game": game["id"], **seat}) for _ in range(2))
        refused = requests.get(
            f"{capped.url}/v1/games/{game['id']}/events",
            headers={**seat, "Accept": "text/event-stream"},
            timeout=10,
        )
        assert refused.status_code == 429
        assert refused.headers["Content-Type"] == "application/problem+json"
        assert refused.json()["code"] == "too_many_streams"
        assert int(refused.headers["Retry-After"]) >= 1
        # Another credential has its own streams.
        open_stream(capped, {"game": game["id"], "X-API-Key": api_key}).close()
        # A stream closed by its client frees its place.
        first.close()
        # (a wait, not a speed bound: the loop ends as soon as the place is free)
        deadline, status = time.monotonic() + 20, 429
        while status == 429 and time.monotonic() < deadline:
            again = requests.get(
                f"{capped.url}/v1/games/{game['id']}/events",
                headers={**seat, "Accept": "text/event-stream"},
                stream=True,
                timeout=10,
            )
            status = again.status_code
            again.close()
            time.sleep(0.1)
        assert status == 200
        second.close()
    finally:
        capped.stop()


def test_an_http_1_0_client_gets_a_stream_without_chunks_until_the_connection_closes(
    server, api_key
):
    import socket

    game = Client(server.url, api_key).create("secret-cards", [{}, {}], {"rounds": 1})
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(
            f"GET /v1/games/{game['id']}/events HTTP/1.0\r\nX-API-Key: {api_key}\r\n"
            "Accept: text/event-stream\r\n\r\n".encode()
        )
        received = b""
        while b"id: 1\n" not in received:
            received += sock.recv(65536)
    head, _, body = received.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200") and b"chunked" not in head.lower()
    assert body.startswith(b"retry: 1000\n\nid: 1\nevent: game_started\n")


def test_a_slow_reader_of_a_finished_game_gets_the_end_after_the_last_full_page(server, api_key):
    """A reader too slow for the first page is sent the next once it has read: when that
    page is the log's last (the log a whole number of pages long after Last-Event-ID),
    nothing is left to read, and the stream still ends with `event: end`."""
    import socket

    from service.api.stream_hub import PAGE

    client = Client(server.url, api_key)
    while (game := client.create("catan", [{"bot": "random"}] * 4))["version"] <= 2 * PAGE:
        pass  # a bot-only game is played out when it is created
    assert game["status"] == "finished"
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", server.port))
    with sock:
        sock.sendall(
            f"GET /v1/games/{game['id']}/events HTTP/1.1\r\nHost: test\r\nX-API-Key: {api_key}"
            f"\r\nAccept: text/event-stream\r\nLast-Event-ID: {game['version'] - 2 * PAGE}"
            "\r\n\r\n".encode()
        )
        time.sleep(3)  # read nothing: the hub holds the next page back
        received, deadline = b"", time.monotonic() + 15
        sock.settimeout(0.5)
        while b"event: end" not in received and time.monotonic() < deadline:
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                continue
            if not chunk:
                break
            received += chunk
    seqs = [int(line[4:]) for line in received.split(b"\n") if line.startswith(b"id: ")]
    assert seqs[-1] == game["version"], seqs[-3:]
    assert b"event: end" in received


def test_a_stream_opened_with_an_api_key_ends_soon_after_the_key_is_revoked(database_url, tmp_path):
    """Revoking a key refuses its next request at once; a stream it opened before
    ends at its next keep-alive (``SSE_POLL_SECONDS``) instead of following the game
    until ``SSE_MAX_SECONDS``. A seat token's stream of the same game goes on."""
    import psycopg

    from service.store import keys
    from tests.conftest import Server, new_api_key

    key_id, plaintext = new_api_key(database_url, "revoked soon")
    quick = Server(database_url, tmp_path, workers=1, SSE_POLL_SECONDS="0.5")
    try:
        game = Client(quick.url, plaintext).create("secret-cards", [{}, {}], {"rounds": 3})
        seat = {"X-Seat-Token": game["seat_tokens"][0]["token"]}
        keyed = open_stream(quick, {"game": game["id"], "X-API-Key": plaintext}, game["version"])
        seated = open_stream(quick, {"game": game["id"], **seat}, game["version"])
        with psycopg.connect(database_url) as conn:
            assert keys.revoke_key(conn, key_id)
        started = time.monotonic()
        assert [line for line in keyed.iter_lines() if line.startswith(b"id:")] == []
        assert time.monotonic() - started < 10  # it ended: the body's end came
        seated_lines = seated.iter_lines()
        keep_alives = 0
        while keep_alives < 3:  # well past the keyed stream's end, still open
            keep_alives += next(seated_lines) == b": keep-alive"
        seated.close()
    finally:
        quick.stop()

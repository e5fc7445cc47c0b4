"""Webhooks through a real gunicorn: a game is played over HTTP while a local receiver
takes the deliveries; the whole server is killed (SIGKILL, master and workers) while
deliveries are in flight, and started again. Every event the endpoint subscribed to
arrives at least once, signed; the ones in flight at the kill arrive again, byte for
byte the same, so the receiver deduplicates them by id; and the delivery list ends with
every delivery delivered."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections import Counter
from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import make_conninfo

from service.rules import get_ruleset
from service.store.migrate import migrate
from tests.client import Client, bot_move, carcassonne_turns, evolve_answer, fold
from tests.conftest import Server, create_database, drop_database, new_api_key
from tests.webhook_receiver import Receiver

CARCASSONNE = get_ruleset("carcassonne")
TYPES = ["tile_placed", "game_ended", "turn_started"]
#: short enough for a test: a delivery whose worker died is sent again 4 s after its claim
SERVER_ENV = {
    "WEBHOOK_WORKER": "1",
    "WEBHOOK_TIMEOUT": "2",
    "WEBHOOK_LEASE": "4",
    "WEBHOOK_POLL": "0.2",
    "WEBHOOK_BACKOFF": "0.5",
}


@pytest.fixture
def database(pg_server_url):
    """A database of its own: no other test's server sends its deliveries."""
    name = create_database(pg_server_url, "tilegames_webhooks")
    url = make_conninfo(pg_server_url, dbname=name)
    migrate(url)
    yield url
    drop_database(pg_server_url, name)


class Player:
    """Plays Ada's seat (against the greedy bot) with the ruleset's own bot command."""

    def __init__(self, client: Client, game: dict) -> None:
        self.client, self.game = client, game
        self.token = game["seat_tokens"][0]["token"]
        self.state = fold(CARCASSONNE, client.all_events(game["id"], self.token))
        self.version, self.awaiting = game["version"], game["awaiting"]

    def play(self, moves: int) -> None:
        for _ in range(moves):
            if not self.awaiting:
                return
            command = bot_move(CARCASSONNE, self.state, 0, self.version + 1)
            response = self.client.move(self.game["id"], self.token, command, self.version)
            assert response.status_code == 200, response.text
            body = response.json()
            self.state = evolve_answer(CARCASSONNE, self.state, body)
            self.version, self.awaiting = body["version"], body["awaiting"]


def wait_for(condition, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"waited {seconds} s for {what}"
        time.sleep(0.1)


def pending(database: str, webhook_id: str) -> int:
    with psycopg.connect(database) as conn:
        row = conn.execute(
            "SELECT count(*) FROM webhook_outbox WHERE endpoint_id = %s AND status <> 'delivered'",
            (webhook_id,),
        ).fetchone()
    return row[0]


def test_every_event_arrives_at_least_once_through_a_killed_server(database, tmp_path: Path):
    key = new_api_key(database)[1]
    receiver = Receiver()
    holding, release, held = threading.Event(), threading.Event(), threading.Event()

    def answer(got) -> int:
        if holding.is_set():  # keep this delivery in flight until the server is dead
            held.set()
            release.wait(30)
        return 204

    receiver.answer = answer
    first = Server(database, tmp_path, workers=2, **SERVER_ENV)
    second = None
    try:
        client = Client(first.url, key, timeout=30)
        hook = client.http.post(
            f"{first.url}/v1/webhooks",
            json={"url": receiver.url, "event_types": TYPES},
            headers=client.headers(),
        ).json()
        receiver.secret = hook["secret"]
        game = client.create("carcassonne", [{"name": "Ada"}, {"bot": "greedy"}])
        ada = Player(client, game)
        ada.play(10)
        wait_for(lambda: len(receiver.received) >= 10, 60, "the first deliveries")

        holding.set()
        ada.play(4)
        wait_for(held.is_set, 60, "a delivery in flight")
        os.killpg(first.process.pid, signal.SIGKILL)  # master and workers, mid-delivery
        first.process.wait(10)
        in_flight_at_kill = pending(database, hook["id"])
        holding.clear()
        release.set()
        assert in_flight_at_kill > 0

        second = Server(database, tmp_path, workers=2, **SERVER_ENV)
        ada.client = Client(second.url, key, timeout=30)
        ada.play(200)
        assert not ada.awaiting, "the game did not end"
        wait_for(lambda: pending(database, hook["id"]) == 0, 120, "every delivery")
        log = ada.client.all_events(game["id"])
        page = ada.client.get(f"/v1/webhooks/{hook['id']}/deliveries", status="pending").json()
        failed = ada.client.get(f"/v1/webhooks/{hook['id']}/deliveries", status="failed").json()
    finally:
        release.set()
        for server in (first, second):
            if server is not None and server.process.poll() is None:
                server.stop()
        receiver.close()

    assert page["deliveries"] == [] and failed["deliveries"] == []
    assert all(r.signed for r in receiver.received)
    arrivals = Counter(receiver.ids())
    bodies: dict[str, bytes] = {}
    for got in receiver.received:
        # A delivery sent again is the same body: dedupe by id loses nothing.
        assert bodies.setdefault(got.event_id, got.body) == got.body
    unique = {event_id: got.json for got in receiver.received for event_id in [got.event_id]}

    logged = {f"{game['id']}:{e['seq']}" for e in log if e["type"] in TYPES}
    assert logged <= set(unique), sorted(logged - set(unique))[:5]
    assert any(e["type"] == "game_ended" for e in log)
    # One turn_started per turn: in Carcassonne each turn begins with its seat's draw.
    draws = [e["data"]["seat"] for e in carcassonne_turns(log)]
    turns = sorted(
        (body["seq"], body["seat"]) for body in unique.values() if body["type"] == "turn_started"
    )
    assert [seat for _, seat in turns] == draws
    assert set(unique) == logged | {f"{game['id']}:{s}:turn_started:{t}" for s, t in turns}
    # The deliveries in flight when the server died were sent again after the restart.
    assert max(arrivals.values()) >= 2

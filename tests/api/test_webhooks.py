"""Webhooks over HTTP (the Flask test client) against PostgreSQL: an API key's endpoints
(create, list, read, delete, one key never seeing another's), the outbox filled in the
same transaction as the events, the turn_started notices derived from who is awaited,
and the delivery worker against a local receiver: signatures, retries with backoff,
giving up, and the delivery list with its cursor."""

from __future__ import annotations

from contextlib import contextmanager
from datetime import timedelta

import psycopg
import pytest

from service.app.delivery import DeliveryPolicy, DeliveryWorker
from service.app.sealing import SecretSeal, is_sealed
from service.cli import main
from service.store import DatabaseUnavailable
from service.store.webhooks import PENDING
from tests.api.test_errors import assert_problem
from tests.client import carcassonne_turns
from tests.conftest import WEBHOOK_SECRETS_KEY, new_api_key
from tests.webhook_receiver import Receiver, signature_ok

HOOK = "https://portal.example/hooks"


@pytest.fixture
def other_key(database_url) -> dict[str, str]:
    return {"X-API-Key": new_api_key(database_url, "other portal")[1]}


@pytest.fixture
def own_key(database_url) -> dict[str, str]:
    """A key of its own for each test, so deliveries of other tests' games never mix in."""
    return {"X-API-Key": new_api_key(database_url, "portal")[1]}


@pytest.fixture(autouse=True)
def fresh_outbox(database_url):
    """Each test's worker sees only that test's deliveries: a worker claims whatever is
    due, whichever key it is for."""
    with psycopg.connect(database_url) as conn:
        conn.execute("DELETE FROM webhook_outbox")


OUTCOMES = ("delivered", "retrying", "failed")


@pytest.fixture
def receiver():
    running = Receiver()
    yield running
    running.close()


def register(client, key, url=HOOK, types=("game_ended",), **extra):
    response = client.post(
        "/v1/webhooks", json={"url": url, "event_types": list(types), **extra}, headers=key
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def create_game(client, key, ruleset="carcassonne", seats=None, options=None):
    body = {"ruleset": ruleset, "seats": seats or [{"name": "Ada"}, {"bot": "greedy"}]}
    response = client.post("/v1/games", json={**body, "options": options or {}}, headers=key)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def outbox(database_url, webhook_id):
    with psycopg.connect(database_url) as conn:
        return conn.execute(
            "SELECT game_id::text, seq, type, seat, status, attempts FROM webhook_outbox"
            " WHERE endpoint_id = %s ORDER BY id",
            (webhook_id,),
        ).fetchall()


def worker(app, **policy) -> DeliveryWorker:
    runtime = app.extensions["tilegames"]
    policy = DeliveryPolicy(**{"batch": 8, "allow_loopback": True, **policy})
    return DeliveryWorker(runtime.db, runtime.rulesets, policy, runtime.webhooks.seal)


def deliver_all(app, **policy) -> int:
    """Send every due delivery (each once, as one worker would); how many went out."""
    sender, sent = worker(app, **policy), 0
    while claimed := sender.run_once():
        sent += claimed
    return sent


def make_due(database_url, webhook_id):
    """Bring the endpoint's retries forward to now (instead of sleeping through backoff)."""
    with psycopg.connect(database_url) as conn:
        conn.execute(
            "UPDATE webhook_outbox SET next_attempt_at = now()"
            " WHERE endpoint_id = %s AND status = 'pending'",
            (webhook_id,),
        )


def database_clock(database_url):
    with psycopg.connect(database_url) as conn:
        return conn.execute("SELECT clock_timestamp()").fetchone()[0]


def next_attempts(database_url, webhook_id) -> list:
    """For each pending delivery: when its next attempt is due."""
    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT next_attempt_at FROM webhook_outbox"
            " WHERE endpoint_id = %s AND status = 'pending' ORDER BY id",
            (webhook_id,),
        ).fetchall()
    return [row[0] for row in rows]


# -- endpoints: create, list, read, delete ------------------------------------------------


def test_an_endpoint_is_created_with_its_secret_shown_once(client, own_key):
    created = register(client, own_key, types=["game_ended", "turn_started", "game_ended"])
    assert created["secret"].startswith("whsec_") and len(created["secret"]) > 40
    assert created["event_types"] == ["game_ended", "turn_started"]  # each once
    assert created["url"] == HOOK

    listed = client.get("/v1/webhooks", headers=own_key).get_json()["webhooks"]
    read = client.get(f"/v1/webhooks/{created['id']}", headers=own_key).get_json()
    assert [item["id"] for item in listed] == [created["id"]]
    assert "secret" not in listed[0] and "secret" not in read
    assert read == {k: v for k, v in created.items() if k != "secret"}


def test_a_deleted_endpoint_is_gone_with_its_deliveries(client, own_key, database_url):
    hook = register(client, own_key, types=["turn_started"])
    create_game(client, own_key)
    assert outbox(database_url, hook["id"])

    deleted = client.delete(f"/v1/webhooks/{hook['id']}", headers=own_key)
    assert deleted.status_code == 204
    assert client.get("/v1/webhooks", headers=own_key).get_json() == {"webhooks": []}
    for path in ("", "/deliveries"):
        gone = client.get(f"/v1/webhooks/{hook['id']}{path}", headers=own_key)
        assert_problem(gone, 404, "unknown_webhook")
    assert_problem(
        client.delete(f"/v1/webhooks/{hook['id']}", headers=own_key), 404, "unknown_webhook"
    )
    assert outbox(database_url, hook["id"]) == []


def test_one_key_cannot_see_or_delete_another_keys_endpoints(client, own_key, other_key):
    hook = register(client, own_key)
    assert client.get("/v1/webhooks", headers=other_key).get_json() == {"webhooks": []}
    for method, path in [
        ("get", ""),
        ("delete", ""),
        ("get", "/deliveries"),
    ]:
        answer = getattr(client, method)(f"/v1/webhooks/{hook['id']}{path}", headers=other_key)
        assert_problem(answer, 404, "unknown_webhook")
    assert client.get(f"/v1/webhooks/{hook['id']}", headers=own_key).status_code == 200


def test_webhooks_need_an_api_key(client, own_key):
    game = create_game(client, own_key)
    seat = {"X-Seat-Token": game["seat_tokens"][0]["token"]}
    assert_problem(client.get("/v1/webhooks"), 401, "unauthorized")
    body = {"url": HOOK, "event_types": ["game_ended"]}
    assert_problem(client.post("/v1/webhooks", json=body), 401, "unauthorized")
    assert_problem(client.get("/v1/webhooks", headers=seat), 403, "forbidden")
    assert_problem(client.post("/v1/webhooks", json=body, headers=seat), 403, "forbidden")


def test_an_unknown_endpoint_id_is_unknown_whatever_its_spelling(client, own_key):
    for webhook_id in ("00000000-0000-0000-0000-000000000000", "nope", "0" * 32):
        answer = client.get(f"/v1/webhooks/{webhook_id}", headers=own_key)
        assert_problem(answer, 404, "unknown_webhook")


@pytest.mark.parametrize(
    "url",
    [
        "http://portal.example/hooks",  # plain http to another machine
        "http://10.0.0.7/hooks",
        "ftp://portal.example/hooks",
        "https://user:pw@portal.example/hooks",
        "https://portal.example/hooks#part",
        "https:///no-host",
        "portal.example/hooks",
        "https://portal.example:99999/",
    ],
)
def test_an_endpoint_url_must_be_https_or_loopback_http(client, own_key, url):
    answer = client.post("/v1/webhooks", json={"url": url, "event_types": ["x"]}, headers=own_key)
    problem = assert_problem(answer, 422, "validation_error")
    assert problem["errors"][0]["field"] == "url"


@pytest.mark.parametrize(
    "url",
    [
        "https://portal.example/hooks?app=1",
        "http://127.0.0.1:9000/hooks",
        "http://localhost:9000/",
        "http://[::1]:9000/",
    ],
)
def test_https_and_loopback_http_urls_are_taken(client, own_key, url):
    assert register(client, own_key, url=url)["url"] == url


def test_loopback_http_is_refused_where_the_operator_forbids_it(settings):
    from dataclasses import replace

    from service.api import create_app

    strict = create_app(replace(settings, webhook_allow_loopback=False)).test_client()
    key = {"X-API-Key": new_api_key(settings.database_url)[1]}
    body = {"url": "http://127.0.0.1:9000/hooks", "event_types": ["game_ended"]}
    answer = strict.post("/v1/webhooks", json=body, headers=key)
    assert (
        assert_problem(answer, 422, "validation_error")["errors"][0]["message"]
        == "must be an https:// URL"
    )


@pytest.mark.parametrize("types", [[], ["Game_Ended"], ["game-ended"], ["x" * 65], [""]])
def test_event_types_are_lower_case_names_and_at_least_one(client, own_key, types):
    answer = client.post("/v1/webhooks", json={"url": HOOK, "event_types": types}, headers=own_key)
    assert_problem(answer, 422, "validation_error")


def test_a_key_has_at_most_twenty_endpoints(client, own_key):
    for n in range(20):
        register(client, own_key, url=f"{HOOK}/{n}")
    answer = client.post(
        "/v1/webhooks", json={"url": HOOK, "event_types": ["game_ended"]}, headers=own_key
    )
    assert_problem(answer, 409, "too_many_webhooks")


# -- the outbox: written with the events ----------------------------------------------


def test_each_subscribed_event_of_the_keys_games_is_queued(client, own_key, database_url):
    hook = register(client, own_key, types=["game_ended", "tile_placed"])
    game = create_game(client, own_key, seats=[{"bot": "greedy"}, {"bot": "random"}])
    with psycopg.connect(database_url) as conn:
        logged = conn.execute(
            "SELECT seq, type FROM events WHERE game_id = %s AND type = ANY (%s) ORDER BY seq",
            (game["id"], ["game_ended", "tile_placed"]),
        ).fetchall()
    queued = outbox(database_url, hook["id"])
    assert [(seq, type_) for _, seq, type_, _, _, _ in queued] == logged
    assert logged[-1][1] == "game_ended" and len(logged) > 50
    assert {(game_id, status) for game_id, _, _, _, status, _ in queued} == {(game["id"], PENDING)}


def test_other_keys_games_and_other_types_queue_nothing(client, own_key, other_key, database_url):
    hook = register(client, own_key, types=["game_ended"])
    create_game(client, other_key, seats=[{"bot": "greedy"}, {"bot": "random"}])
    create_game(client, own_key)  # in play: no game_ended yet
    assert outbox(database_url, hook["id"]) == []


def test_a_revoked_keys_endpoints_get_nothing_more(client, own_key, database_url):
    from service.store import keys

    hook = register(client, own_key, types=["turn_started", "tile_placed"])
    game = create_game(client, own_key)
    queued = outbox(database_url, hook["id"])
    with psycopg.connect(database_url) as conn:
        assert keys.revoke_key(conn, own_key["X-API-Key"].split("_")[1])
    play(client, game, moves=2)  # the seat tokens still play
    assert outbox(database_url, hook["id"]) == queued


def test_a_refused_move_queues_nothing(client, own_key, database_url):
    hook = register(client, own_key, types=["tile_placed", "turn_started"])
    game = create_game(client, own_key)
    before = outbox(database_url, hook["id"])
    token = game["seat_tokens"][0]["token"]
    for command, version in [
        ({"type": "place_tile", "x": 0, "y": 0, "rotation": 0}, game["version"]),  # illegal
        ({"type": "skip"}, game["version"] - 1),  # stale version: a conflict
    ]:
        answer = client.post(
            f"/v1/games/{game['id']}/moves",
            json={"command": command},
            headers={"X-Seat-Token": token, "If-Match": f'"{version}"'},
        )
        assert answer.status_code in (409, 422)
    assert outbox(database_url, hook["id"]) == before


# -- turn_started: derived from who is awaited ------------------------------------------


def play(client, game, moves=8):
    """Ada's first ``moves`` moves: the first placement of each tile, and no figure."""
    token = game["seat_tokens"][0]["token"]
    version = game["version"]
    for _ in range(moves):
        legal = client.get(f"/v1/games/{game['id']}/legal-moves", headers={"X-Seat-Token": token})
        decision = legal.get_json()["commands"]["decisions"][0]
        command = {"type": "skip"}
        if "place_tile" in decision["commands"]:
            placement = decision["commands"]["place_tile"]["placements"][0]
            command = {"type": "place_tile", **{k: placement[k] for k in ("x", "y", "rotation")}}
        answer = client.post(
            f"/v1/games/{game['id']}/moves",
            json={"command": command},
            headers={"X-Seat-Token": token, "If-Match": f'"{version}"'},
        )
        assert answer.status_code == 200, answer.get_json()
        version = answer.get_json()["version"]
        if answer.get_json()["status"] == "finished":
            break


def test_a_turn_starts_for_each_seat_that_comes_to_be_awaited(client, own_key, database_url):
    hook = register(client, own_key, types=["turn_started"])
    game = create_game(client, own_key)
    play(client, game, moves=8)
    turns = [(seq, seat) for _, seq, _, seat, _, _ in outbox(database_url, hook["id"])]
    log = client.get(f"/v1/games/{game['id']}/events?limit=1000", headers=own_key).get_json()
    # Carcassonne: each turn begins with the tile its seat draws.
    draws = [(e["seq"], e["data"]["seat"]) for e in carcassonne_turns(log["events"])]
    # The game starts with Ada's turn; then the bot's and hers take turns, each notice
    # following the command that ended the turn before (the draw is in its events).
    assert turns[0] == (draws[0][0], 0)
    assert [seat for _, seat in turns] == [seat for _, seat in draws]
    pairs = zip(turns, draws, strict=True)
    assert all(turn_seq >= draw_seq for (turn_seq, _), (draw_seq, _) in pairs)
    assert [seat for _, seat in turns][:4] == [0, 1, 0, 1]


def test_a_seat_playing_again_starts_a_new_turn():
    """Carcassonne's builder: ``turn_ended`` names the same seat next, and it stays
    awaited through the command; the second turn is announced all the same."""
    from service.app.turns import TurnWatch
    from service.rules.core import Event
    from service.rules.decisions import Decision
    from service.rules.seating import Seating

    class Awaiting:
        def __init__(self, seats):
            self.seats = seats

        def decisions(self, state):
            return [Decision(f"d{s}", s, "place_tile", ("place_tile",)) for s in state]

    seats = [{"name": "Ada", "bot": None}, {"name": "Bo", "bot": None}]
    watch = TurnWatch(Awaiting(seats), seats, Seating.of(seats), [0])
    watch.step([0], [Event("tile_placed", {}), Event("follower_placed", {})], 5)
    assert watch.notices == []  # the same turn goes on
    again = [Event("turn_ended", {"seat": 0, "next": 0, "extra": "builder"})]
    watch.step([0], again, 7)
    watch.step([1], [Event("turn_ended", {"seat": 0, "next": 1})], 9)
    assert [(n.seq, n.seat) for n in watch.notices] == [(7, 0), (9, 1)]
    assert watch.notices[1].data["name"] == "Bo"
    assert watch.notices[1].data["decisions"][0]["kind"] == "place_tile"


# -- the worker: signed deliveries, retries, failures --------------------------------


def test_deliveries_are_signed_with_the_endpoints_secret(app, client, own_key, receiver):
    hook = register(client, own_key, url=receiver.url, types=["revealed", "dealt"])
    receiver.secret = hook["secret"]
    bots = [{"bot": "random"}, {"bot": "random"}]
    # 20 turns: the random bots reveal a card on some (each turn's odds are even)
    game = create_game(client, own_key, "secret-cards", bots, {"rounds": 10})
    assert deliver_all(app) == len(receiver.received) > 2
    assert all(r.signed for r in receiver.received)

    first = receiver.received[0]
    assert not signature_ok("whsec_another", first.headers, first.body)
    assert not signature_ok(hook["secret"], first.headers, first.body + b" ")
    stale = int(first.headers["Tilegames-Timestamp"]) + 301
    assert not signature_ok(hook["secret"], first.headers, first.body, now=stale)

    bodies = [r.json for r in receiver.received]
    revealed = next(b for b in bodies if b["type"] == "revealed")
    assert revealed["id"] == f"{game['id']}:{revealed['seq']}"
    assert revealed["game_id"] == game["id"] and revealed["ruleset"] == "secret-cards"
    assert revealed["webhook_id"] == hook["id"] and revealed["redacted"] is False
    assert revealed["data"]["card"].startswith("card-")
    assert {r.headers["Tilegames-Event-Id"] for r in receiver.received} == {b["id"] for b in bodies}
    assert first.headers["Tilegames-Delivery-Attempt"] == "1"
    # A card dealt is secret: the key sees what a spectator sees (who got one, not which).
    dealt = [b for b in bodies if b["type"] == "dealt"]
    assert dealt and all(b["redacted"] and set(b["data"]) == {"seat"} for b in dealt)


def stored_secret(database_url, webhook_id) -> str:
    with psycopg.connect(database_url) as conn:
        return conn.execute(
            "SELECT secret FROM webhook_endpoints WHERE id = %s", (webhook_id,)
        ).fetchone()[0]


def test_a_secret_is_kept_sealed_in_the_database(client, own_key, database_url):
    hook = register(client, own_key)
    stored = stored_secret(database_url, hook["id"])
    assert is_sealed(stored) and hook["secret"] not in stored
    assert SecretSeal(WEBHOOK_SECRETS_KEY).open(stored, hook["id"]) == hook["secret"]


def test_a_secret_stored_before_the_key_signs_as_it_is_until_the_cli_seals_it(
    app, client, own_key, receiver, database_url, monkeypatch, capsys
):
    hook = register(client, own_key, url=receiver.url, types=["turn_started"])
    receiver.secret = hook["secret"]
    with psycopg.connect(database_url) as conn:  # as a service without a key stored it
        conn.execute(
            "UPDATE webhook_endpoints SET secret = %s WHERE id = %s",
            (hook["secret"], hook["id"]),
        )
    create_game(client, own_key)
    assert deliver_all(app) == 1 and receiver.received[-1].signed

    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("WEBHOOK_SECRETS_KEY", WEBHOOK_SECRETS_KEY)
    assert main(["seal-webhook-secrets"]) == 0
    assert "sealed 1 webhook secrets" in capsys.readouterr().out
    assert is_sealed(stored_secret(database_url, hook["id"]))
    assert main(["seal-webhook-secrets"]) == 0
    assert "sealed 0 webhook secrets" in capsys.readouterr().out
    create_game(client, own_key)
    assert deliver_all(app) == 1 and receiver.received[-1].signed


def test_sealing_needs_the_key(database_url, monkeypatch, capsys):
    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.delenv("WEBHOOK_SECRETS_KEY", raising=False)
    assert main(["seal-webhook-secrets"]) == 2
    assert "WEBHOOK_SECRETS_KEY is not set" in capsys.readouterr().err


def test_a_secret_that_does_not_open_sends_nothing_and_waits_for_the_right_key(
    app, client, own_key, receiver, database_url
):
    hook = register(client, own_key, url=receiver.url, types=["turn_started"])
    receiver.secret = hook["secret"]
    create_game(client, own_key)
    runtime = app.extensions["tilegames"]
    # One attempt allowed, yet tried again and again: an unopened secret sends nothing,
    # so it counts no attempt, and the delivery is never given up for it.
    rekeyed = DeliveryWorker(
        runtime.db,
        runtime.rulesets,
        DeliveryPolicy(max_attempts=1, unopened_wait=120),
        SecretSeal("a key from elsewhere"),
    )
    for _ in range(3):
        before = database_clock(database_url)
        assert rekeyed.run_once() == 1 and receiver.received == []
        after = database_clock(database_url)
        (due,) = next_attempts(database_url, hook["id"])
        assert before.timestamp() + 120 <= due.timestamp() <= after.timestamp() + 120
        make_due(database_url, hook["id"])
    (pending,) = client.get(f"/v1/webhooks/{hook['id']}/deliveries", headers=own_key).get_json()[
        "deliveries"
    ]
    assert pending["status"] == "pending" and pending["attempts"] == 0
    assert "another WEBHOOK_SECRETS_KEY" in pending["last_error"]

    assert deliver_all(app, max_attempts=1) == 1  # the right key is back
    assert receiver.received[-1].signed
    assert receiver.received[-1].headers["Tilegames-Delivery-Attempt"] == "1"
    (delivered,) = client.get(f"/v1/webhooks/{hook['id']}/deliveries", headers=own_key).get_json()[
        "deliveries"
    ]
    assert delivered["status"] == "delivered" and delivered["attempts"] == 1


def test_a_receiver_error_is_retried_with_growing_waits_then_delivered(
    app, client, own_key, receiver, database_url
):
    hook = register(client, own_key, url=receiver.url, types=["turn_started"])
    create_game(client, own_key)  # Ada's first turn: one delivery
    receiver.answer = lambda got: 503 if len(receiver.received) <= 3 else 204
    policy = {"backoff": 10, "backoff_max": 30}
    waits = []
    for _ in range(3):
        # The failure is recorded between these two readings of the database's clock, so
        # its wait lies between them however slowly the machine goes (no rounding).
        before = database_clock(database_url)
        assert deliver_all(app, **policy) == 1
        after = database_clock(database_url)
        (due,) = next_attempts(database_url, hook["id"])
        waits.append(((due - after).total_seconds(), (due - before).total_seconds()))
        make_due(database_url, hook["id"])
    # 10 s after the first failure, 20 after the second, 40 capped at 30 after the third
    expected = [10, 20, 30]
    assert all(low <= wait <= high for (low, high), wait in zip(waits, expected, strict=True)), (
        waits
    )
    assert deliver_all(app, **policy) == 1

    page = client.get(f"/v1/webhooks/{hook['id']}/deliveries", headers=own_key).get_json()
    (delivery,) = page["deliveries"]
    assert delivery["status"] == "delivered" and delivery["attempts"] == 4
    assert delivery["last_status"] == 204 and delivery["last_error"] is None
    assert len(set(receiver.ids())) == 1 and len(receiver.ids()) == 4  # one event, 4 tries
    assert [r.headers["Tilegames-Delivery-Attempt"] for r in receiver.received] == [
        "1",
        "2",
        "3",
        "4",
    ]


def test_a_delivery_fails_after_its_last_attempt(app, client, own_key, receiver, database_url):
    hook = register(client, own_key, url=receiver.url, types=["turn_started"])
    create_game(client, own_key)
    receiver.answer = lambda got: 500
    for _ in range(3):
        assert deliver_all(app, max_attempts=3) == 1
        make_due(database_url, hook["id"])
    assert deliver_all(app, max_attempts=3) == 0  # given up: not due any more

    query = f"/v1/webhooks/{hook['id']}/deliveries?status=failed"
    (failed,) = client.get(query, headers=own_key).get_json()["deliveries"]
    assert failed["status"] == "failed" and failed["attempts"] == 3
    assert failed["last_status"] == 500 and failed["last_error"] == "HTTP 500: busy"
    assert failed["next_attempt_at"] is None and failed["delivered_at"] is None


def metric(client, sample: str) -> float:
    """A sample's value on /metrics (0 while the series does not exist yet)."""
    for line in client.get("/metrics").get_data(as_text=True).splitlines():
        if line.startswith(sample + " "):
            return float(line.split()[-1])
    return 0.0


def test_every_attempt_is_counted_in_the_metrics_by_its_outcome(
    app, client, own_key, receiver, database_url
):
    series = [
        *(f'tilegames_webhook_attempts_total{{outcome="{o}"}}' for o in OUTCOMES),
        "tilegames_webhook_send_seconds_count",
    ]
    before = [metric(client, sample) for sample in series]
    hook = register(client, own_key, url=receiver.url, types=["turn_started"])
    create_game(client, own_key)
    receiver.answer = lambda got: 500 if len(receiver.received) <= 2 else 204
    assert deliver_all(app, max_attempts=2) == 1  # retrying
    make_due(database_url, hook["id"])
    assert deliver_all(app, max_attempts=2) == 1  # failed: its last try
    create_game(client, own_key)
    assert deliver_all(app, max_attempts=2) == 1  # delivered
    after = [metric(client, sample) for sample in series]
    assert [a - b for a, b in zip(after, before, strict=True)] == [1, 1, 1, 3]


class GoneAfterTheClaim:
    """The service's database, which goes away once a batch has been claimed."""

    def __init__(self, db) -> None:
        self.db, self.claimed = db, False

    @contextmanager
    def connection(self):
        if self.claimed:
            raise DatabaseUnavailable("connection refused")
        self.claimed = True
        with self.db.connection() as conn:
            yield conn


def test_an_attempt_whose_outcome_could_not_be_written_is_counted_and_sent_again(
    app, client, own_key, receiver, database_url
):
    unrecorded = 'tilegames_webhook_attempts_total{outcome="unrecorded"}'
    before = metric(client, unrecorded)
    hook = register(client, own_key, url=receiver.url, types=["turn_started"])
    create_game(client, own_key)
    runtime = app.extensions["tilegames"]
    gone = DeliveryWorker(
        GoneAfterTheClaim(runtime.db),
        runtime.rulesets,
        DeliveryPolicy(allow_loopback=True),
        runtime.webhooks.seal,
    )
    assert gone.run_once() == 1 and len(receiver.received) == 1
    assert metric(client, unrecorded) - before == 1
    assert deliver_all(app) == 0  # still leased to the worker that lost its database
    make_due(database_url, hook["id"])  # its lease over
    assert deliver_all(app) == 1 and len(set(receiver.ids())) == 1


def test_an_unreachable_endpoint_is_retried(app, client, own_key, receiver):
    hook = register(client, own_key, url=receiver.url, types=["turn_started"])
    receiver.close()  # nobody listens there any more
    create_game(client, own_key)
    assert deliver_all(app, timeout=2) == 1
    (pending,) = client.get(f"/v1/webhooks/{hook['id']}/deliveries", headers=own_key).get_json()[
        "deliveries"
    ]
    assert pending["status"] == "pending" and pending["attempts"] == 1
    assert pending["last_status"] is None and "Connection refused" in pending["last_error"]


def test_a_claimed_delivery_is_not_claimed_again_until_its_lease_ends(
    app, client, own_key, database_url
):
    from service.store import webhooks as store

    hook = register(client, own_key, url="http://127.0.0.1:9/", types=["turn_started"])
    create_game(client, own_key)
    db, lease = app.extensions["tilegames"].db, timedelta(seconds=60)
    with db.connection() as conn:
        (first,) = store.claim_due(conn, 10, lease)
    with db.connection() as conn:
        assert store.claim_due(conn, 10, lease) == []
    (due,) = next_attempts(database_url, hook["id"])
    assert (due - database_clock(database_url)).total_seconds() > 55  # leased for a minute
    make_due(database_url, hook["id"])  # the lease is over: its worker must have died
    with db.connection() as conn:
        (again,) = store.claim_due(conn, 10, lease)
    assert again.delivery.id == first.delivery.id and again.delivery.attempts == 2


def test_a_claim_takes_no_more_than_its_limit_whatever_the_plan(app, client, own_key, database_url):
    """With statistics that say the outbox holds one row, PostgreSQL joined the claim's
    ``LIMIT ... FOR UPDATE SKIP LOCKED`` subquery as a nested loop and ran it again for
    every row, each run past the rows the last had taken: a claim of 20 took every due
    delivery (126 in the run that found it). The ids are now chosen once."""
    import psycopg

    from service.store import webhooks as store

    register(client, own_key, url="http://127.0.0.1:9/", types=["tile_placed", "turn_started"])
    create_game(client, own_key, seats=[{"bot": "greedy"}, {"bot": "random"}])
    with psycopg.connect(database_url) as conn:  # the owner, who may mislead the planner
        conn.execute(
            "UPDATE pg_class SET reltuples = 1,"
            " relpages = greatest(1, pg_relation_size(oid) / current_setting('block_size')::int)"
            " WHERE oid = 'webhook_outbox'::regclass"
        )
        claimed = store.claim_due(conn, 20, timedelta(seconds=60))
        conn.rollback()  # the statistics and the leases as they were
    assert len(claimed) == 20


def test_two_workers_at_once_never_claim_the_same_delivery(app, client, own_key):
    from service.store import webhooks as store

    register(client, own_key, url="http://127.0.0.1:9/", types=["tile_placed", "turn_started"])
    create_game(client, own_key, seats=[{"bot": "greedy"}, {"bot": "random"}])
    db = app.extensions["tilegames"].db
    with db.connection() as one, db.connection() as two:
        # Both transactions are open at once: the second skips the first's locked rows.
        first = store.claim_due(one, 20, timedelta(seconds=60))
        second = store.claim_due(two, 20, timedelta(seconds=60))
    assert len(first) == 20 and len(second) == 20
    assert not {c.delivery.id for c in first} & {c.delivery.id for c in second}


def test_api_keys_take_turns_so_one_keys_backlog_does_not_hold_up_anothers(
    app, client, own_key, database_url
):
    """A key with hundreds of deliveries queued, to receivers that may hold each
    attempt to the timeout, and another key's one delivery, queued after them all: it
    goes out in the next claim, beside the busy key's oldest."""
    from service.store import webhooks as store

    register(client, own_key, url="http://127.0.0.1:9/", types=["tile_placed", "turn_started"])
    create_game(client, own_key, seats=[{"bot": "greedy"}, {"bot": "random"}])
    other = {"X-API-Key": new_api_key(database_url, "another portal")[1]}
    register(client, other, url="http://127.0.0.1:9/other", types=["game_started"])
    late = create_game(client, other, seats=[{"bot": "random"}, {"bot": "random"}])
    db = app.extensions["tilegames"].db
    with db.connection() as conn:
        (queued,) = conn.execute("SELECT count(*) FROM webhook_outbox").fetchone()
        claimed = store.claim_due(conn, 4, timedelta(seconds=60))
        conn.rollback()
    assert queued > 100 and len(claimed) == 4
    assert [c.delivery.game_id for c in claimed].count(late["id"]) == 1
    # the busy key's oldest three come with it, in the order they were queued
    busy = [c.delivery.id for c in claimed if c.delivery.game_id != late["id"]]
    assert busy == sorted(busy) and len(busy) == 3


# -- the delivery list -----------------------------------------------------------------


def test_deliveries_are_listed_newest_first_a_page_at_a_time(app, client, own_key, receiver):
    hook = register(client, own_key, url=receiver.url, types=["tile_placed", "game_ended"])
    create_game(client, own_key, seats=[{"bot": "greedy"}, {"bot": "random"}])
    path = f"/v1/webhooks/{hook['id']}/deliveries"
    everything = []
    query = f"{path}?limit=30"
    while query:
        answer = client.get(query, headers=own_key)
        assert answer.status_code == 200
        page = answer.get_json()
        everything += page["deliveries"]
        if page["next_cursor"] is None:
            assert "Link" not in answer.headers
            query = None
        else:
            link = answer.headers["Link"]
            assert link.endswith('>; rel="next"') and "limit=30" in link
            query = link[1 : link.index(">")]
    ids = [d["id"] for d in everything]
    assert ids == sorted(ids, reverse=True) and len(ids) == len(set(ids)) > 60
    assert everything[0]["type"] == "game_ended"
    assert {d["status"] for d in everything} == {"pending"}

    receiver.answer = lambda got: 204
    deliver_all(app)
    delivered = client.get(f"{path}?status=delivered&limit=100", headers=own_key).get_json()
    assert len(delivered["deliveries"]) == len(ids)
    assert all(d["delivered_at"] and d["next_attempt_at"] is None for d in delivered["deliveries"])
    pending = client.get(f"{path}?status=pending", headers=own_key).get_json()
    assert pending == {"webhook_id": hook["id"], "deliveries": [], "next_cursor": None}


@pytest.mark.parametrize("cursor", ["eA", "ZDA", "ZC0x", "!!"])
def test_a_cursor_the_service_did_not_give_is_refused(client, own_key, cursor):
    hook = register(client, own_key)
    answer = client.get(f"/v1/webhooks/{hook['id']}/deliveries?cursor={cursor}", headers=own_key)
    assert_problem(answer, 400, "invalid_cursor")


def test_the_documented_turn_started_body_is_the_shape_of_a_real_one(
    app, client, own_key, receiver
):
    from service.api import examples as ex
    from tests.api.test_openapi_examples import shape_errors

    register(client, own_key, url=receiver.url, types=["turn_started"])
    create_game(client, own_key)
    deliver_all(app)
    (got,) = receiver.received
    assert shape_errors(ex.TURN_STARTED_DELIVERY, got.json) == []
    assert got.json["data"]["name"] == "Ada" and got.json["data"]["decisions"][0]["seat"] == 0


def test_an_event_nobody_sees_whole_is_redacted_in_its_delivery(app, client, own_key, receiver):
    """The tile under a hill is stored with visibility [] (nobody sees it): a delivery
    carries what GET .../events shows the API key, not the tile and its salt."""
    register(client, own_key, url=receiver.url, types=["tile_hidden"])
    options = {"expansions": ["hills_sheep"], "randomness": "external"}
    game = create_game(client, own_key, options=options, seats=[{"name": "Ada"}, {"name": "Bo"}])
    token = game["seat_tokens"][0]["token"]
    draw = {"type": "draw_tile", "tile": "HS/RFR.h", "under": "BA/RFr"}
    response = client.post(
        f"/v1/games/{game['id']}/moves",
        json={"command": draw},
        headers={"X-Seat-Token": token, "If-Match": f'"{game["version"]}"'},
    )
    assert response.status_code == 200, response.get_json()
    assert deliver_all(app) == 1
    (got,) = receiver.received
    events = client.get(f"/v1/games/{game['id']}/events", headers=own_key).get_json()["events"]
    (shown,) = [e for e in events if e["type"] == "tile_hidden"]
    assert got.json["redacted"] is True and got.json["data"] == shown["data"]
    assert "BA/RFr" not in got.body.decode() and "salt" not in got.json["data"]


def test_a_receivers_answer_holding_nul_is_recorded_with_the_rest_of_its_batch(
    app, client, own_key, receiver
):
    """PostgreSQL text holds no NUL: the answer's excerpt is made storable, and the
    other deliveries of the batch are recorded as they went."""
    hook = register(client, own_key, url=receiver.url, types=["turn_started", "tile_placed"])
    create_game(client, own_key)  # Ada's first turn
    receiver.error_body = b"no\x00thanks"
    receiver.answer = lambda got: 500 if got.json["type"] == "turn_started" else 204
    game = create_game(client, own_key)
    token = game["seat_tokens"][0]["token"]
    moves = client.get(f"/v1/games/{game['id']}/legal-moves", headers={"X-Seat-Token": token})
    place = moves.get_json()["commands"]["decisions"][0]["commands"]["place_tile"]
    first = place["placements"][0]
    command = {
        "type": "place_tile",
        "x": first["x"],
        "y": first["y"],
        "rotation": first["rotation"],
    }
    response = client.post(
        f"/v1/games/{game['id']}/moves",
        json={"command": command},
        headers={"X-Seat-Token": token, "If-Match": f'"{game["version"]}"'},
    )
    assert response.status_code == 200, response.get_json()
    assert deliver_all(app) == 3  # two turn_started, one tile_placed: one batch
    page = client.get(f"/v1/webhooks/{hook['id']}/deliveries", headers=own_key).get_json()
    outcomes = sorted((d["type"], d["status"], d["last_error"]) for d in page["deliveries"])
    assert outcomes == [
        ("tile_placed", "delivered", None),
        ("turn_started", "pending", "HTTP 500: no\ufffdthanks"),
        ("turn_started", "pending", "HTTP 500: no\ufffdthanks"),
    ]


def test_a_receiver_trickling_its_answer_is_cut_off_at_the_timeout():
    """WEBHOOK_TIMEOUT bounds the whole POST, not each read: a receiver sending a byte
    every 0.2 s does not hold the worker past it."""
    import socket
    import threading
    import time

    from service.app.delivery import post

    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def trickle() -> None:
        conn, _ = listener.accept()
        with conn:
            conn.recv(65536)
            for byte in b"HTTP/1.1 200 OK\r\nX-Slow: " + b"a" * 1000:
                if stop.is_set():
                    return
                try:
                    conn.sendall(bytes([byte]))
                except OSError:
                    return
                time.sleep(0.2)

    thread = threading.Thread(target=trickle, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{listener.getsockname()[1]}/hooks"
    started = time.monotonic()
    answer = post(url, b"{}", {"Content-Type": "application/json"}, 1.0, allow_loopback=True)
    took = time.monotonic() - started
    stop.set()
    listener.close()
    assert answer.status is None and answer.error.startswith("TimeoutError"), answer
    assert took < 3.0, took


@pytest.mark.parametrize(
    "url",
    [
        "https://127.0.0.1:8000/",
        "https://[::1]/",
        "https://169.254.169.254/latest/meta-data/",
        "https://10.0.0.5:6443/",
        "https://0.0.0.0:8443/",
        "https://[::ffff:169.254.169.254]/",
        "https://[64:ff9b::a00:5]/",
        "https://[64:ff9b:1::a00:5]/",
        "https://[::ffff:0:7f00:1]/",
        "https://[::7f00:1]/",
        "https://[fec0::1]/",
        "https://192.0.0.8/",
        "https://100.64.0.1/",
        "https://localhost/",
    ],
)
def test_an_endpoint_on_the_services_own_networks_is_refused_where_loopback_is(settings, url):
    """A webhook is a request the service makes for a customer: to the service's own
    machine, its private networks or the cloud's metadata address, it would let the
    customer call, scan and read what only the service can reach."""
    from dataclasses import replace

    from service.api import create_app

    strict = create_app(replace(settings, webhook_allow_loopback=False)).test_client()
    key = {"X-API-Key": new_api_key(settings.database_url)[1]}
    answer = strict.post("/v1/webhooks", json={"url": url, "event_types": ["x"]}, headers=key)
    assert "public internet address" in assert_problem(answer, 422, "validation_error")["detail"]


@pytest.mark.parametrize(
    "host", ["2130706433", "0x7f.1", "127.1", "0177.0.0.1", "0x7f000001", "8.8.2056"]
)
def test_an_ipv4_address_in_an_older_spelling_is_refused(client, own_key, host):
    """Resolvers read these as IPv4 addresses (2130706433 is 127.0.0.1), so they are
    not names to check at delivery: an address is written a.b.c.d, and then checked."""
    answer = client.post(
        "/v1/webhooks", json={"url": f"https://{host}/hooks", "event_types": ["x"]}, headers=own_key
    )
    assert "four decimal numbers" in assert_problem(answer, 422, "validation_error")["detail"]


def test_private_addresses_are_refused_even_where_loopback_is_allowed(client, own_key):
    for url in ("https://10.0.0.5/", "https://[fe80::1]/", "https://192.168.1.1/"):
        answer = client.post(
            "/v1/webhooks", json={"url": url, "event_types": ["x"]}, headers=own_key
        )
        assert_problem(answer, 422, "validation_error")


def test_a_name_that_resolves_to_a_refused_address_is_not_sent_to(monkeypatch):
    """A name is resolved at each delivery, every address it gives must be public, and
    the connection goes to the address checked, so a name that turns private later
    (DNS rebinding) is refused then, and nothing is sent."""
    import socket

    from service.app import delivery

    def resolve(host, port, *args, **kwargs):
        found = {"portal.example": ["93.184.216.34", "10.1.2.3"], "inside.example": ["::1"]}
        family = {True: socket.AF_INET6, False: socket.AF_INET}
        return [(family[":" in a], socket.SOCK_STREAM, 6, "", (a, port)) for a in found[host]]

    def no_connection(*args, **kwargs):
        raise AssertionError("connected to a refused address")

    monkeypatch.setattr(socket, "getaddrinfo", resolve)
    monkeypatch.setattr(socket, "create_connection", no_connection)
    for url in ("https://portal.example/hooks", "http://inside.example/hooks"):
        answer = delivery.post(url, b"{}", {}, 1.0)
        assert answer.status is None and answer.error.startswith("RefusedAddress"), answer
        assert "not a public internet address" in answer.error


def test_a_name_with_several_addresses_is_reached_on_the_first_that_answers(monkeypatch, receiver):
    """A receiver whose first address does not answer is reached on the next, as a
    connection to the name would be: the receiver listens on 127.0.0.1 only, so on
    127.0.0.2 its port is closed."""
    import socket

    from service.app import delivery

    port = int(receiver.url.rsplit(":", 1)[1].split("/")[0])
    real = socket.getaddrinfo

    def resolve(host, p, *args, **kwargs):
        if host != "two.example":  # the addresses themselves, when connecting
            return real(host, p, *args, **kwargs)
        return [
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.2", p)),
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", p)),
        ]

    monkeypatch.setattr(socket, "getaddrinfo", resolve)
    answer = delivery.post(f"http://two.example:{port}/hooks", b"{}", {}, 5.0, allow_loopback=True)
    assert answer.ok, answer
    assert receiver.received[-1].headers["Host"] == f"two.example:{port}"


def test_the_connection_goes_to_the_address_checked_with_the_urls_host(monkeypatch, receiver):
    """The name is resolved once, to the loopback receiver, and the request still names
    the URL's host: what the receiver sees is what a receiver behind that name would."""
    import socket

    from service.app import delivery

    port = int(receiver.url.rsplit(":", 1)[1].split("/")[0])
    real = socket.getaddrinfo
    monkeypatch.setattr(socket, "getaddrinfo", lambda host, *a, **k: real("127.0.0.1", *a, **k))
    answer = delivery.post(
        f"http://hooks.example:{port}/hooks", b"{}", {}, 5.0, allow_loopback=True
    )
    assert answer.ok, answer
    assert receiver.received[-1].headers["Host"] == f"hooks.example:{port}"


def test_an_outcome_the_database_refuses_does_not_void_the_others_of_its_batch(
    app, client, own_key, receiver, monkeypatch
):
    from service.app import delivery

    hook = register(client, own_key, url=receiver.url, types=["turn_started"])
    create_game(client, own_key)
    create_game(client, own_key)
    receiver.answer = lambda got: 503
    page = client.get(f"/v1/webhooks/{hook['id']}/deliveries", headers=own_key).get_json()
    refused, other = sorted(d["id"] for d in page["deliveries"])
    record_failure = delivery.store.record_failure

    def failing_for_one(conn, delivery_id, *args):
        if delivery_id == refused:
            conn.execute("SELECT 1 / 0")  # the database refuses this outcome
        record_failure(conn, delivery_id, *args)

    monkeypatch.setattr(delivery.store, "record_failure", failing_for_one)
    assert deliver_all(app) == 2
    page = client.get(f"/v1/webhooks/{hook['id']}/deliveries", headers=own_key).get_json()
    errors = {d["id"]: d["last_error"] for d in page["deliveries"]}
    assert errors == {refused: None, other: "HTTP 503: busy"}

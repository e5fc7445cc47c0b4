"""What webhooks cost the append path: one move's write (three events and a turn notice,
committed) through the event store, for games whose API key has no webhook endpoint,
an endpoint for other event types, or an endpoint that takes these events, beside a
game no API key owns (whose write has no outbox part at all: the statement as it was
before webhooks). The cases take turns in rounds, so the machine's load falls on all.
Then how fast one delivery worker (one process, ``WEBHOOK_BATCH`` 4) empties the
queued deliveries into a local receiver that answers 204 at once.

    python bench/outbox_bench.py                      # embedded PostgreSQL under var/
    python bench/outbox_bench.py --database-url postgresql://postgres@127.0.0.1:5432/postgres

Results: bench/results/outbox.json.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import secrets
import statistics
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import psycopg
from machine import machine
from postgres import create_database, server_for

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

CASES = {
    "no API key (no outbox part)": None,
    "API key without endpoints": [],
    "endpoint for other types": [["game_ended"]],
    "endpoint taking these events": [["tile_placed", "turn_started"]],
}


class Accept(BaseHTTPRequestHandler):
    """A receiver that reads each delivery and answers 204."""

    def do_POST(self) -> None:  # noqa: N802 (the standard library's name)
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args) -> None:
        pass


def delivery_rate(url: str, endpoint_id: str) -> dict:
    """Deliveries a second of one worker, emptying the endpoint's queue."""
    from service.app.delivery import DeliveryWorker
    from service.rules.registry import all_rulesets
    from service.store import Database

    receiver = ThreadingHTTPServer(("127.0.0.1", 0), Accept)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    with psycopg.connect(url) as conn:
        conn.execute(
            "UPDATE webhook_endpoints SET url = %s WHERE id = %s",
            (f"http://127.0.0.1:{receiver.server_address[1]}/", endpoint_id),
        )
    rulesets = {r.name: r for r in all_rulesets()}
    db = Database(url, max_size=5)
    worker = DeliveryWorker(db, rulesets.get)
    sent, started = 0, time.perf_counter()
    while claimed := worker.run_once():
        sent += claimed
    seconds = time.perf_counter() - started
    db.close()
    receiver.shutdown()
    return {"deliveries": sent, "seconds": round(seconds, 2), "per_second": round(sent / seconds)}


def write_times(url: str, rounds: int, writes: int) -> tuple[dict, dict, int, str]:
    """Per case, the seconds of each write's statement and of it with its commit; the
    deliveries queued; the id of the endpoint that took the moves' events."""
    from service.store import EventStore, HeadSigner, NewEvent, NewGame, keys
    from service.store import webhooks as hooks

    store = EventStore(HeadSigner(secrets.token_hex(16)))
    move = [
        NewEvent("tile_placed", {"seat": 0, "tile": "BA/CRr", "x": 1, "y": 0, "rotation": 90}),
        NewEvent("turn_ended", {"seat": 0, "next": 1}),
        NewEvent("tile_drawn", {"seat": 1, "tile": "BA/RCr"}),
    ]
    games, endpoint_ids = {}, []
    with psycopg.connect(url) as conn:
        for name, endpoints in CASES.items():
            key_id = None
            if endpoints is not None:
                key, _ = keys.create_key(conn, name)
                key_id = key.id
                for types in endpoints:
                    created = hooks.create_endpoint(
                        conn,
                        str(uuid.uuid4()),
                        key_id,
                        "https://bench.example/",
                        types,
                        "whsec_bench",
                        "",
                    )
                    endpoint_ids.append(created.id)
            game = NewGame("carcassonne", {}, [{}, {}], b"s" * 32, "0" * 64, key_id)
            games[name] = store.create_game(conn, game)
        conn.commit()

        seconds: dict[str, list[float]] = {name: [] for name in CASES}
        statement: dict[str, list[float]] = {name: [] for name in CASES}
        for _ in range(rounds):
            for name in CASES:
                game = games[name]
                for _ in range(writes):
                    notice = hooks.Notice(game.version + 3, "turn_started", 1, {"seat": 1})
                    started = time.perf_counter()
                    stored = store.append(conn, game, game.version, move, notices=[notice])
                    written = time.perf_counter()
                    conn.commit()
                    seconds[name].append(time.perf_counter() - started)
                    statement[name].append(written - started)
                    game = dataclasses.replace(
                        game, version=stored[-1].seq, head_hash=stored[-1].hash
                    )
                games[name] = game
        queued = conn.execute("SELECT count(*) FROM webhook_outbox").fetchone()[0]
    (taking,) = [e for e in endpoint_ids if e != endpoint_ids[0]]
    return statement, seconds, queued, taking


def micros(values: list[float], percentile: int) -> float:
    return round(statistics.quantiles(values, n=100)[percentile - 1] * 1e6)


def main() -> None:
    from service.store.migrate import migrate

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--database-url", help="a server to create the bench database on")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--writes", type=int, default=100, help="writes per case and round")
    args = parser.parse_args()

    server_url, label, server = server_for(args.database_url)
    url, name = create_database(server_url, "tilegames_outbox_bench")
    try:
        migrate(url)
        statement, seconds, queued, taking = write_times(url, args.rounds, args.writes)
        delivering = delivery_rate(url, taking)
    finally:
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if server is not None:
            server.cleanup()

    baseline = statistics.median(statement["no API key (no outbox part)"])
    results = {
        case: {
            "writes": len(values),
            "statement_p50_us": micros(statement[case], 50),
            "statement_p99_us": micros(statement[case], 99),
            "statement_p50_over_no_outbox_us": round(
                (statistics.median(statement[case]) - baseline) * 1e6
            ),
            "with_commit_p50_us": micros(values, 50),
            "with_commit_p99_us": micros(values, 99),
        }
        for case, values in seconds.items()
    }
    report = {
        "what": "one move's write (3 events + 1 turn notice): the statement, and with its"
        " commit, per case",
        "server": label,
        "machine": machine(),
        "outbox_rows_queued": queued,
        "cases": results,
        "one_worker_delivering": delivering,
    }
    print(json.dumps(report, indent=2))
    out = REPO / "bench" / "results" / "outbox.json"
    out.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()

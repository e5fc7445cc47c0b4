"""Service benchmark: moves per second and latency through gunicorn + PostgreSQL.

N client processes each play whole two-seat Carcassonne games over HTTP (choosing moves
with the ruleset's own random bot, folding the events they receive), for a fixed time.
Beside it, the same script measures the machine's ceiling on the same PostgreSQL
server: single-row INSERT commits per second with the same number of connections.

    python bench/service_bench.py                      # embedded PostgreSQL under var/
    python bench/service_bench.py --database-url postgresql://postgres@127.0.0.1:5432/test

Results are merged into bench/results/service.json under a label (embedded/system).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

import psycopg
import requests
from machine import machine
from postgres import create_database, server_for
from serving import commit_ceiling, migrated_with_key, percentile, service

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def play_games(args: tuple[str, str, float, int]) -> dict:
    """One client: play games until the deadline; return latencies and counts."""
    from service.rules import get_ruleset, rng_for
    from service.rules.core import Event

    base, api_key, deadline, client_id = args
    ruleset = get_ruleset("carcassonne")
    http = requests.Session()
    latencies: list[float] = []
    games = conflicts = 0
    while time.time() < deadline:
        created = http.post(
            f"{base}/v1/games",
            json={"ruleset": "carcassonne", "seats": [{}, {}]},
            headers={"X-API-Key": api_key},
        ).json()
        tokens = {t["seat"]: t["token"] for t in created["seat_tokens"]}
        page = http.get(
            f"{base}/v1/games/{created['id']}/events",
            params={"limit": 1000},
            headers={"X-Seat-Token": tokens[0]},
        ).json()
        state = ruleset.fold(Event(e["type"], e["data"]) for e in page["events"])
        version, awaiting = created["version"], created["awaiting"]
        while awaiting and time.time() < deadline:
            seat = awaiting[0]["seat"]
            command = ruleset.bot_command(state, seat, "random", rng_for(b"bench", version))
            started = time.perf_counter()
            response = http.post(
                f"{base}/v1/games/{created['id']}/moves",
                json={"command": command},
                headers={
                    "X-Seat-Token": tokens[seat],
                    "If-Match": f'"{version}"',
                    "Idempotency-Key": uuid.uuid4().hex,
                },
            )
            latencies.append(time.perf_counter() - started)
            if response.status_code != 200:
                conflicts += 1
                break
            body = response.json()
            for item in body["events"]:
                state = ruleset.evolve(state, Event(item["type"], item["data"]))
            version, awaiting = body["version"], body["awaiting"]
        else:
            games += 1 if not awaiting else 0
    return {"latencies": latencies, "games": games, "errors": conflicts, "client": client_id}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL"))
    parser.add_argument("--label", help="result key (default: embedded or system)")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--output", default=str(REPO / "bench" / "results" / "service.json"))
    args = parser.parse_args()

    server_url, label, server = server_for(args.database_url, args.label)
    url, name = create_database(server_url, "tilegames_bench")
    with psycopg.connect(server_url) as conn:
        pg_version = conn.execute("SHOW server_version").fetchone()[0]
        sync_commit = conn.execute("SHOW synchronous_commit").fetchone()[0]
        fsync = conn.execute("SHOW fsync").fetchone()[0]
    try:
        api_key = migrated_with_key(url)
        with service(url, args.workers) as served:
            base = served.base
            print(f"[{label}] {args.clients} clients for {args.seconds:.0f}s against {base}")
            deadline = time.time() + args.seconds
            started = time.time()
            with multiprocessing.Pool(args.clients) as pool:
                work = [(base, api_key, deadline, i) for i in range(args.clients)]
                runs = pool.map(play_games, work)
            elapsed = time.time() - started
        latencies = [x for run in runs for x in run["latencies"]]
        moves_per_second = len(latencies) / elapsed
        print(f"[{label}] measuring single-row commit ceiling with {args.clients} connections")
        ceiling = commit_ceiling(url, args.clients, min(args.seconds, 10))
    finally:
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if server is not None:
            server.cleanup()

    result = {
        "database": label,
        "postgres": pg_version,
        "synchronous_commit": sync_commit,
        "fsync": fsync,
        "machine": machine(),
        "clients": args.clients,
        "gunicorn_workers": args.workers,
        "seconds": round(elapsed, 1),
        "moves": len(latencies),
        "games_completed": sum(run["games"] for run in runs),
        "errors": sum(run["errors"] for run in runs),
        "moves_per_second": round(moves_per_second, 1),
        "latency_ms": {
            "p50": round(statistics.median(latencies) * 1000, 2),
            "p99": round(percentile(latencies, 0.99) * 1000, 2),
        },
        "single_row_commits_per_second": round(ceiling, 1),
        "ratio_moves_to_commit_ceiling": round(moves_per_second / ceiling, 3),
    }
    print(json.dumps(result, indent=2))
    output = Path(args.output)
    merged = json.loads(output.read_text()) if output.exists() else {}
    merged[label] = result
    output.write_text(json.dumps(merged, indent=2, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

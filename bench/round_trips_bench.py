"""psycopg's pipeline mode against plain statements, for a transaction shaped like a
move's: lock a row ``FOR UPDATE``, update it, commit.

- ``plain``: ``BEGIN`` (sent by psycopg), the lock, the update, ``COMMIT``: four round
  trips;
- ``pipelined``: the lock with its ``BEGIN`` in one pipeline, the update with the
  ``COMMIT`` in another: two round trips;
- ``one pipeline``: the whole transaction in one pipeline, the lock's row fetched inside;
- ``one statement``: the update alone, on a connection in autocommit: one round trip (a
  move written without taking the row lock first).

Each is run 2,000 times per round, five rounds interleaved (the first three on one
connection); reported per transaction (medians of the rounds): this process's CPU, the
server backend's CPU (``/proc/<pid>/stat``, so the server must run on this machine) and
the wall time. Run it
pinned to a core: ``taskset -c 1 python bench/round_trips_bench.py --database-url ...``.
Results: ``bench/results/round_trips.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

import psycopg
from machine import machine

REPO = Path(__file__).resolve().parents[1]
TICKS = os.sysconf("SC_CLK_TCK")


def backend_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL"), required=True)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--transactions", type=int, default=2000)
    args = parser.parse_args()
    with psycopg.connect(args.database_url, autocommit=True) as setup:
        setup.execute("CREATE TABLE IF NOT EXISTS bench_round_trips (id int PRIMARY KEY, v int)")
        setup.execute("INSERT INTO bench_round_trips VALUES (1, 0) ON CONFLICT DO NOTHING")
    conn = psycopg.connect(args.database_url)
    lock = "SELECT v FROM bench_round_trips WHERE id = %s FOR UPDATE"
    update = "UPDATE bench_round_trips SET v = v + 1 WHERE id = %s RETURNING v"

    def plain() -> None:
        conn.execute(lock, (1,)).fetchone()
        conn.execute(update, (1,)).fetchall()
        conn.commit()

    def pipelined() -> None:
        with conn.pipeline():
            cur = conn.execute(lock, (1,))
        cur.fetchone()
        with conn.pipeline():
            cur = conn.execute(update, (1,))
            conn.execute(b"COMMIT", prepare=False)
        cur.fetchall()

    def one_pipeline() -> None:
        with conn.pipeline():
            conn.execute(lock, (1,)).fetchone()
            cur = conn.execute(update, (1,))
            conn.execute(b"COMMIT", prepare=False)
        cur.fetchall()

    # one connection per way: autocommit is a connection's mode
    auto = psycopg.connect(args.database_url, autocommit=True)

    def one_statement() -> None:
        auto.execute(update, (1,)).fetchall()

    cases = {
        "plain": plain,
        "pipelined": pipelined,
        "one pipeline": one_pipeline,
        "one statement": one_statement,
    }
    seen: dict[str, list[tuple[float, float, float]]] = {name: [] for name in cases}
    pids = {name: conn.info.backend_pid for name in cases}
    pids["one statement"] = auto.info.backend_pid
    n = args.transactions
    for _ in range(args.rounds):
        for name, run in cases.items():
            pid = pids[name]
            for _ in range(100):
                run()
            cpu, server, wall = time.process_time(), backend_cpu(pid), time.perf_counter()
            for _ in range(n):
                run()
            seen[name].append(
                (
                    (time.process_time() - cpu) / n * 1e6,
                    (backend_cpu(pid) - server) / n * 1e6,
                    (time.perf_counter() - wall) / n * 1e6,
                )
            )
    result = {
        "machine": machine(),
        "postgres": conn.execute("SHOW server_version").fetchone()[0],
        "psycopg": psycopg.__version__,
        "rounds": args.rounds,
        "transactions_per_round": n,
        "us_per_transaction_median": {
            name: {
                key: round(statistics.median(r[i] for r in rows), 1)
                for i, key in enumerate(("client_cpu", "backend_cpu", "wall"))
            }
            for name, rows in seen.items()
        },
    }
    conn.close()
    auto.close()
    out = REPO / "bench" / "results" / "round_trips.json"
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result["us_per_transaction_median"], indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

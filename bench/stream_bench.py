"""Event streams beside moves: move latency with no stream open, then with 1,000.

The service runs under gunicorn as `make run` starts it. First, clients play whole
two-seat Carcassonne games over HTTP for a while and every move's latency is recorded
(as in service_bench.py). Then 1,000 event streams are opened (spectators of 100 games,
10 each, held by one reader process that checks every stream stays open and counts what
arrives) and the same clients play again for the same time; then the streams close and
the clients play a third time, so that two runs without streams bracket the one with.
A stream that held a worker thread, as before the stream hub, would leave none for the
moves past the first few dozen streams.

    python bench/stream_bench.py                       # embedded PostgreSQL under var/
    python bench/stream_bench.py --database-url postgresql://postgres@127.0.0.1:5432/test

Results are merged into bench/results/streams.json under a label (embedded/system).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import selectors
import socket
import sys
import time
from pathlib import Path

import psycopg
import requests
from machine import machine
from postgres import create_database, server_for
from service_bench import percentile, play_games
from serving import migrated_with_key, service

REPO = Path(__file__).resolve().parents[1]


def hold_streams(port: int, api_key: str, games: list[str], count: int, stop, report) -> None:
    """Open ``count`` streams spread over ``games`` and read them all from one thread
    until ``stop`` is set; report how many opened, how many closed early, what came."""
    selector = selectors.DefaultSelector()
    opened = closed = 0
    received = 0
    heads_pending: dict[socket.socket, bytes] = {}
    for n in range(count):
        sock = socket.create_connection(("127.0.0.1", port))
        game = games[n % len(games)]
        sock.sendall(
            f"GET /v1/games/{game}/events HTTP/1.1\r\nHost: bench\r\n"
            f"X-API-Key: {api_key}\r\nAccept: text/event-stream\r\n\r\n".encode()
        )
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)
        heads_pending[sock] = b""
    report.put(("opening", count))
    while not stop.is_set():
        for key, _ in selector.select(0.5):
            sock = key.fileobj
            try:
                data = sock.recv(65536)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if not data:
                closed += 1
                selector.unregister(sock)
                sock.close()
                continue
            received += len(data)
            if sock in heads_pending:
                head = heads_pending[sock] + data
                if b"\r\n\r\n" in head:
                    del heads_pending[sock]
                    opened += head.startswith(b"HTTP/1.1 200")
                    if opened == count:
                        report.put(("open", count))
                else:
                    heads_pending[sock] = head
    report.put(("done", {"opened": opened, "closed_early": closed, "bytes": received}))


def run_clients(base: str, api_key: str, clients: int, seconds: float) -> dict:
    deadline = time.time() + seconds
    started = time.time()
    with multiprocessing.Pool(clients) as pool:
        runs = pool.map(play_games, [(base, api_key, deadline, i) for i in range(clients)])
    elapsed = time.time() - started
    latencies = [x for run in runs for x in run["latencies"]]
    if not latencies:
        raise SystemExit(f"no move was answered in {seconds:.0f} s: give the clients longer")
    return {
        "moves": len(latencies),
        "moves_per_second": round(len(latencies) / elapsed, 1),
        "p50_ms": round(percentile(latencies, 0.50) * 1000, 1),
        "p99_ms": round(percentile(latencies, 0.99) * 1000, 1),
        "errors": sum(run["errors"] for run in runs),
    }


def measure(base: str, api_key: str, label: str, args: argparse.Namespace) -> dict:
    """The three runs of clients (without streams, with them, without again)."""
    port = int(base.rsplit(":", 1)[1])
    print(f"[{label}] {args.clients} clients, {args.seconds:.0f} s, no stream open")
    without = run_clients(base, api_key, args.clients, args.seconds)
    print(f"  {without}")

    watched = [
        requests.post(
            f"{base}/v1/games",
            json={"ruleset": "carcassonne", "seats": [{}, {}]},
            headers={"X-API-Key": api_key},
            timeout=30,
        ).json()["id"]
        for _ in range(args.stream_games)
    ]
    report: multiprocessing.Queue = multiprocessing.Queue()
    stop = multiprocessing.Event()
    reader = multiprocessing.Process(
        target=hold_streams, args=(port, api_key, watched, args.streams, stop, report)
    )
    reader.start()
    opening = time.time()
    while report.get(timeout=120)[0] != "open":
        pass
    open_seconds = time.time() - opening
    print(f"[{label}] {args.streams} streams open in {open_seconds:.1f} s; clients again")
    with_streams = run_clients(base, api_key, args.clients, args.seconds)
    print(f"  {with_streams}")
    stop.set()
    while (message := report.get(timeout=30))[0] != "done":
        pass
    print(f"  streams: {message[1]}")
    reader.join(10)
    # Once more without: on a shared machine the load of others moves the figures,
    # and the two runs without streams bracket the one with them.
    print(f"[{label}] streams closed; clients once more")
    without_again = run_clients(base, api_key, args.clients, args.seconds)
    print(f"  {without_again}")
    return {
        "streams_opened_in_seconds": round(open_seconds, 1),
        "streams_held": message[1],
        "without_streams": without,
        "with_streams": with_streams,
        "without_streams_again": without_again,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL"))
    parser.add_argument("--label", help="result key (default: embedded or system)")
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--stream-games", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--output", default=str(REPO / "bench" / "results" / "streams.json"))
    args = parser.parse_args()

    server_url, label, server = server_for(args.database_url, args.label)
    url, name = create_database(server_url, "tilegames_streams")
    try:
        api_key = migrated_with_key(url)
        settings = {"SSE_STREAMS_PER_CREDENTIAL": str(args.streams), "SSE_MAX_SECONDS": "3600"}
        with service(url, args.workers, settings) as served:
            runs = measure(served.base, api_key, label, args)
    finally:
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if server is not None:
            server.cleanup()

    result = {
        "database": label,
        "machine": machine(),
        "clients": args.clients,
        "gunicorn_workers": args.workers,
        "seconds_each": args.seconds,
        "streams": args.streams,
        **runs,
        "load_average_after": os.getloadavg(),
    }
    output = Path(args.output)
    results = json.loads(output.read_text()) if output.exists() else {}
    results[label] = result
    output.write_text(json.dumps(results, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

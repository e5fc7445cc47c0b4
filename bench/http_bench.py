"""HTTP benchmark: moves per second, latency and the server's CPU time per move, with a
load generator that costs the server's cores as little as it can.

Before anything is timed, the rules core plays a few two-seat Carcassonne games between
random bots in external randomness mode (``"randomness": "external"``: the seats send
their draws as ``draw_tile`` commands, so a game is its list of commands and replays the
same against any server), and the games to be played are created over HTTP, each
given one of those lists of commands. Then, timed, one client process sends the moves over
``--clients`` keep-alive connections from one ``selectors`` loop: every request is bytes
built in advance (seat token, ``If-Match``, ``Idempotency-Key``, body), and a response
is read only as far as its status line and ``Content-Length``. The client folds nothing
and decodes no JSON, so the two cores go to gunicorn and PostgreSQL.

Measured in the timed window: moves per second, latency p50/p99 (request sent to
response read), errors (any answer but 200), and the CPU time (``/proc/<pid>/stat``
utime + stime) of the gunicorn workers and of the PostgreSQL backends serving the
benchmark's database, per accepted move; the client's own CPU beside them. After each
case, the single-row commit ceiling of the same PostgreSQL with as many connections.

    python bench/http_bench.py                          # embedded PostgreSQL under var/
    python bench/http_bench.py --database-url postgresql://postgres@127.0.0.1:5432/postgres
    python bench/http_bench.py --clients 16 64 --seconds 20 --profile

``--profile`` samples the workers with py-spy (``pip install py-spy``) during the
first case and writes the functions with the most own time, and with the most time
including their callees, to ``bench/results/http_profile_<label>.txt``.

``--compare DIR`` also measures another commit's service the same way, in the same run
(``git archive <commit> service migrations | tar -x -C DIR``), so that before and after
are taken on the same machine at the same time. ``--rounds N`` measures each checkout
N times, interleaved and in alternating order (before, this; this, before; ...): whichever
goes second in a pair has measured some percent slower on a quiet machine, so a single
pair favours the first. Each label then holds every round and the median of each figure,
and the run prints the ratio of this checkout to the other per round.

Results are merged into bench/results/http.json under a label (embedded/system).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import selectors
import shutil
import socket
import statistics
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
import requests
from machine import machine
from postgres import create_database, server_for
from serving import (
    backend_pids,
    commit_ceiling,
    cpu_seconds,
    migrated_with_key,
    percentile,
    service,
    spent_between,
)

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

OPTIONS = {"randomness": "external"}
SEATS = [{"name": "A"}, {"name": "B"}]


@dataclass(frozen=True)
class Script:
    """A game computed in advance: the version after setup, then each move as
    ``(seat, command body, version it expects)``."""

    start_version: int
    moves: list[tuple[int, bytes, int]]


def compute_games(count: int) -> list[Script]:
    """``count`` whole games between random bots, played by the rules core alone."""
    from service.rules import get_ruleset
    from service.rules.core import bot_rng_for, rng_for

    ruleset = get_ruleset("carcassonne")
    options = ruleset.normalize_options(OPTIONS)
    scripts = []
    for n in range(count):
        seed = hashlib.sha256(f"http-bench:{n}".encode()).digest()
        events = ruleset.setup(options, len(SEATS), rng_for(seed, 1))
        state = ruleset.fold(events)
        start, moves = len(events), []
        while not ruleset.is_over(state):
            seat = ruleset.decisions(state)[0].seat
            version = len(events)
            command = ruleset.bot_command(state, seat, "random", bot_rng_for(seed, version + 1))
            events += ruleset.apply(state, seat, command, rng_for(seed, version + 1))
            body = json.dumps({"command": command}, separators=(",", ":")).encode()
            moves.append((seat, body, version))
        scripts.append(Script(start, moves))
    return scripts


def create_games(base: str, api_key: str, scripts: list[Script], count: int) -> list[list[bytes]]:
    """``count`` games created over HTTP, game ``i`` to replay ``scripts[i % len]``; for
    each, its moves as complete HTTP requests."""

    def create(i: int) -> list[bytes]:
        script = scripts[i % len(scripts)]
        created = requests.post(
            f"{base}/v1/games",
            json={"ruleset": "carcassonne", "options": OPTIONS, "seats": SEATS},
            headers={"X-API-Key": api_key},
            timeout=60,
        ).json()
        if created["version"] != script.start_version:
            raise SystemExit(f"setup wrote {created['version']} events, not {script.start_version}")
        tokens = {t["seat"]: t["token"] for t in created["seat_tokens"]}
        path = f"/v1/games/{created['id']}/moves"
        return [
            (
                f"POST {path} HTTP/1.1\r\nHost: bench\r\nX-Seat-Token: {tokens[seat]}\r\n"
                f'If-Match: "{version}"\r\nIdempotency-Key: move-{version}\r\n'
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
            ).encode()
            + body
            for seat, body, version in script.moves
        ]

    with ThreadPoolExecutor(8) as pool:
        return list(pool.map(create, range(count)))


@dataclass
class Connection:
    """One client: a keep-alive connection playing its games' moves one at a time."""

    address: tuple[str, int]
    games: list[list[bytes]]
    sock: socket.socket | None = None
    game: int = 0
    move: int = 0
    sent_at: float = 0.0
    buffer: bytearray = field(default_factory=bytearray)

    def connect(self) -> None:
        self.sock = socket.create_connection(self.address)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def next_request(self) -> bytes | None:
        while self.game < len(self.games):
            moves = self.games[self.game]
            if self.move < len(moves):
                return moves[self.move]
            self.game, self.move = self.game + 1, 0
        return None

    def response(self) -> tuple[int, bool] | None:
        """``(status, keep_alive)`` once a whole response is in the buffer (and drop it
        from there), else ``None``."""
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0:
            return None
        head = bytes(self.buffer[:end]).lower()
        length = 0
        at = head.find(b"\r\ncontent-length:")
        if at >= 0:
            line_end = head.find(b"\r\n", at + 2)
            length = int(head[at + 17 : line_end if line_end > 0 else len(head)])
        if len(self.buffer) < end + 4 + length:
            return None
        status = int(head[9:12])
        del self.buffer[: end + 4 + length]
        return status, b"\r\nconnection: close" not in head


@dataclass
class Load:
    latencies: list[float]
    statuses: Counter
    elapsed: float
    client_cpu: float


def drive(address: tuple[str, int], games: list[list[list[bytes]]], seconds: float) -> Load:
    """Send every connection's moves until ``seconds`` have passed, then wait for the
    answers under way. A move answered with anything but 200 ends its game (the rest of
    its script expects that move's events)."""
    selector = selectors.DefaultSelector()
    connections = [Connection(address, mine) for mine in games]
    latencies: list[float] = []
    statuses: Counter = Counter()
    cpu_before = sum(os.times()[:2])
    started = time.perf_counter()
    deadline = started + seconds

    def send(conn: Connection) -> None:
        request = conn.next_request()
        if request is None or time.perf_counter() >= deadline:
            if conn.sock is not None:
                selector.unregister(conn.sock)
                conn.sock.close()
                conn.sock = None
            return
        if conn.sock is None:
            conn.connect()
            selector.register(conn.sock, selectors.EVENT_READ, conn)
        conn.sent_at = time.perf_counter()
        conn.sock.sendall(request)

    for conn in connections:
        send(conn)
    while selector.get_map():
        for key, _ in selector.select(timeout=1.0):
            conn = key.data
            chunk = conn.sock.recv(262144)
            if not chunk:  # closed by the server: reconnect and send the move again
                selector.unregister(conn.sock)
                conn.sock.close()
                conn.sock = None
                conn.buffer.clear()
                send(conn)
                continue
            conn.buffer += chunk
            answer = conn.response()
            if answer is None:
                continue
            status, keep_alive = answer
            latencies.append(time.perf_counter() - conn.sent_at)
            statuses[status] += 1
            if status == 200:
                conn.move += 1
            else:
                conn.game, conn.move = conn.game + 1, 0
            if not keep_alive:
                selector.unregister(conn.sock)
                conn.sock.close()
                conn.sock = None
            send(conn)
    elapsed = time.perf_counter() - started
    return Load(latencies, statuses, elapsed, sum(os.times()[:2]) - cpu_before)


def games_needed(clients: int, seconds: float, ceiling: float, moves_per_game: float) -> int:
    """Games per connection so that none runs out at ``ceiling`` moves per second."""
    return int(ceiling * seconds / clients / moves_per_game) + 2


def run_case(
    served, url: str, database: str, api_key: str, scripts: list[Script], args, clients: int
) -> dict:
    moves_per_game = statistics.mean(len(s.moves) for s in scripts)
    per_client = games_needed(clients, args.seconds + args.warmup, args.max_rate, moves_per_game)
    print(f"  creating {per_client * clients} games for {clients} clients...", flush=True)
    made = create_games(served.base, api_key, scripts, per_client * clients)
    host, port = served.base.removeprefix("http://").split(":")
    address = (host, int(port))
    games = [made[i::clients] for i in range(clients)]
    if args.warmup:
        # each connection's first game, untimed: the workers import, fill their caches
        # and open their pools' connections; the timed part starts with fresh games
        warm = drive(address, [[g[0]] for g in games], args.warmup)
        print(f"  warm-up: {len(warm.latencies)} moves", flush=True)
        games = [g[1:] for g in games]
    workers = served.worker_pids()
    backends = backend_pids(url, database)
    app_before, db_before = cpu_seconds(workers), cpu_seconds(backends)
    profiler = start_profile(workers, args) if args.profile and clients == args.clients[0] else None
    load = drive(address, games, args.seconds)
    app_after = cpu_seconds(served.worker_pids())
    db_after = cpu_seconds(backend_pids(url, database))
    if profiler is not None:
        finish_profile(profiler, args)
    accepted = load.statuses.get(200, 0)
    app_cpu = spent_between(app_before, app_after)
    db_cpu = spent_between(db_before, db_after)
    moves_per_second = accepted / load.elapsed
    result = {
        "clients": clients,
        "seconds": round(load.elapsed, 1),
        "moves": accepted,
        "errors": sum(n for status, n in load.statuses.items() if status != 200),
        "statuses": {str(k): v for k, v in sorted(load.statuses.items())},
        "moves_per_second": round(moves_per_second, 1),
        "latency_ms": {
            "p50": round(statistics.median(load.latencies) * 1000, 2),
            "p99": round(percentile(load.latencies, 0.99) * 1000, 2),
        },
        "server_cpu_ms_per_move": {
            "gunicorn_workers": round(app_cpu * 1000 / max(accepted, 1), 3),
            "postgres_backends": round(db_cpu * 1000 / max(accepted, 1), 3),
        },
        "client_cpu_ms_per_move": round(load.client_cpu * 1000 / max(accepted, 1), 3),
    }
    print(f"  {json.dumps(result)}", flush=True)
    return result


def start_profile(workers: list[int], args) -> list[tuple[subprocess.Popen, Path]]:
    """One py-spy per worker, sampling for the timed window (raw collapsed stacks)."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(spy).exists():
        raise SystemExit("--profile needs py-spy: pip install py-spy")
    runs = []
    for pid in workers:
        out = Path(f"/tmp/http-bench-{pid}.txt")
        command = [spy, "record", "-p", str(pid), "-r", "200", "-d", str(int(args.seconds))]
        command += ["-f", "raw", "-o", str(out), "--nonblocking", "--gil"]
        runs.append((subprocess.Popen(command, stdout=subprocess.DEVNULL), out))
    return runs


def finish_profile(runs: list[tuple[subprocess.Popen, Path]], args) -> None:
    """Own time and inclusive time by function over every worker's samples; idle
    threads (waiting in ``select``, ``accept``, a lock or a queue) are left out."""
    own: Counter = Counter()
    inclusive: Counter = Counter()
    total = 0
    for process, out in runs:
        process.wait(args.seconds + 30)
        for line in out.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            frames = stack.split(";")
            leaf = frames[-1]
            if any(idle in leaf for idle in IDLE):
                continue
            n = int(count)
            total += n
            own[_name(leaf)] += n
            for name in {_name(frame) for frame in frames}:
                inclusive[name] += n
        out.unlink()
    lines = [f"samples holding the GIL: {total} (200 per second per worker)", ""]
    lines.append("own time, top 40:")
    for name, n in own.most_common(40):
        lines.append(f"  {100 * n / total:5.1f}%  {name}")
    lines += ["", "including callees, top 60:"]
    for name, n in inclusive.most_common(60):
        lines.append(f"  {100 * n / total:5.1f}%  {name}")
    path = REPO / "bench" / "results" / f"http_profile_{args.label_used}.txt"
    path.write_text("\n".join(lines) + "\n")
    print(f"  profile written to {path}", flush=True)


#: leaf frames of a thread that waits for work, not one that does it
IDLE = ("select (", "accept (", "wait (", "poll (", "_wait_for_tstate_lock", "sleep (")


def _name(frame: str) -> str:
    """``function (path/to/module.py:line)`` -> ``function (module.py)``."""
    function, _, where = frame.partition(" (")
    module = where.rsplit("/", 1)[-1].split(":", 1)[0]
    return f"{function} ({module}" + ")"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL"))
    parser.add_argument("--label", help="result key (default: embedded or system)")
    parser.add_argument("--clients", type=int, nargs="+", default=[16, 64])
    parser.add_argument(
        "--workers", type=int, help="gunicorn workers (default: as the service starts them)"
    )
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--warmup", type=float, default=3)
    parser.add_argument("--scripts", type=int, default=8, help="distinct games computed")
    parser.add_argument(
        "--max-rate", type=float, default=3000, help="moves/s the games made must last at"
    )
    parser.add_argument("--profile", action="store_true")
    parser.add_argument(
        "--compare",
        metavar="DIR",
        help="also measure the service in DIR (another commit's service/ and migrations/,"
        " e.g. from git archive), under the label '<label>, before'",
    )
    parser.add_argument(
        "--rounds", type=int, default=1, help="measurements of each checkout, interleaved"
    )
    parser.add_argument("--output", default=str(REPO / "bench" / "results" / "http.json"))
    args = parser.parse_args()
    load_before = [round(x, 2) for x in os.getloadavg()]

    print(f"computing {args.scripts} games with the rules core...", flush=True)
    scripts = compute_games(args.scripts)
    server_url, label, server = server_for(args.database_url, args.label)
    runs = [(label, REPO)]
    if args.compare:
        runs.insert(0, (f"{label}, before", Path(args.compare).resolve()))
    with psycopg.connect(server_url) as conn:
        pg_version = conn.execute("SHOW server_version").fetchone()[0]
        sync_commit = conn.execute("SHOW synchronous_commit").fetchone()[0]
    output = Path(args.output)
    merged = json.loads(output.read_text()) if output.exists() else {}
    measured: dict[str, list[tuple[list[dict], dict]]] = {run_label: [] for run_label, _ in runs}
    try:
        for round_number in range(args.rounds):
            in_order = runs if round_number % 2 == 0 else runs[::-1]
            for run_label, checkout in in_order:
                args.label_used = run_label.replace(", ", "_").replace(" ", "_")
                if args.rounds > 1:
                    print(f"round {round_number + 1} of {args.rounds}", flush=True)
                measured[run_label].append(
                    measure_checkout(server_url, run_label, checkout, scripts, args)
                )
                merged[run_label] = {
                    "database": label,
                    "postgres": pg_version,
                    "synchronous_commit": sync_commit,
                    "machine": machine(),
                    "load_average_before": load_before,
                    "gunicorn_workers": args.workers_seen,
                    "moves_per_game": round(statistics.mean(len(s.moves) for s in scripts), 1),
                    "service": "this checkout" if checkout == REPO else f"--compare {args.compare}",
                    **summarised(measured[run_label]),
                }
                output.write_text(json.dumps(merged, indent=2, sort_keys=True) + "\n")
    finally:
        if server is not None:
            server.cleanup()
    output.write_text(json.dumps(merged, indent=2, sort_keys=True) + "\n")
    if args.compare:
        print_ratios(measured[runs[0][0]], measured[runs[1][0]])
    print(f"written {output}")
    return 0


#: each case's figures that a round gives and the summary takes the median of
_FIGURES = {
    "moves_per_second": lambda case: case["moves_per_second"],
    "p50_ms": lambda case: case["latency_ms"]["p50"],
    "p99_ms": lambda case: case["latency_ms"]["p99"],
    "worker_cpu_ms_per_move": lambda case: case["server_cpu_ms_per_move"]["gunicorn_workers"],
    "postgres_cpu_ms_per_move": lambda case: case["server_cpu_ms_per_move"]["postgres_backends"],
    "single_row_commits_per_second": lambda case: case["single_row_commits_per_second"],
}


def summarised(rounds: list[tuple[list[dict], dict]]) -> dict:
    """One checkout's rounds: the first round's cases as before (``cases``,
    ``framework_floor``), and with several rounds, every round and each figure's median."""
    cases, floor = rounds[0]
    summary: dict = {"cases": cases, "framework_floor": floor}
    if len(rounds) > 1:
        summary["rounds"] = [{"cases": c, "framework_floor": f} for c, f in rounds]
        summary["medians"] = {
            str(case["clients"]): {
                name: statistics.median(figure(r[0][i]) for r in rounds)
                for name, figure in _FIGURES.items()
            }
            | {"errors": sum(r[0][i]["errors"] for r in rounds)}
            for i, case in enumerate(cases)
        }
        summary["medians"]["healthz_cpu_ms_per_request"] = statistics.median(
            f["gunicorn_cpu_ms_per_request"] for _, f in rounds
        )
    return summary


def print_ratios(
    before: list[tuple[list[dict], dict]], after: list[tuple[list[dict], dict]]
) -> None:
    """This checkout over the other, per round and as the median of the rounds."""
    for i, case in enumerate(before[0][0]):
        print(f"{case['clients']} clients, this checkout / the other (rounds; median):")
        for name, figure in _FIGURES.items():
            ratios = [figure(a[0][i]) / figure(b[0][i]) for b, a in zip(before, after, strict=True)]
            listed = " ".join(f"{r:.3f}" for r in ratios)
            print(f"  {name:30} {listed}; {statistics.median(ratios):.3f}")
    ratios = [
        a[1]["gunicorn_cpu_ms_per_request"] / b[1]["gunicorn_cpu_ms_per_request"]
        for b, a in zip(before, after, strict=True)
    ]
    listed = " ".join(f"{r:.3f}" for r in ratios)
    print(f"GET /healthz worker CPU, this / the other: {listed}; {statistics.median(ratios):.3f}")


def framework_floor(served, clients: int, seconds: float) -> dict:
    """The same client asking ``GET /healthz`` (no credentials, no database, no rate
    limit) over ``clients`` connections: what gunicorn and Flask cost per request before
    any of the service's own work, beside the moves' figure."""
    host, port = served.base.removeprefix("http://").split(":")
    request = b"GET /healthz HTTP/1.1\r\nHost: bench\r\n\r\n"
    plenty = [[[request] * 50_000] for _ in range(clients)]
    drive((host, int(port)), [[[request] * 200] for _ in range(clients)], 1)
    workers = served.worker_pids()
    before = cpu_seconds(workers)
    load = drive((host, int(port)), plenty, seconds)
    answered = load.statuses.get(200, 0)
    spent = spent_between(before, cpu_seconds(served.worker_pids()))
    result = {
        "clients": clients,
        "requests_per_second": round(answered / load.elapsed, 1),
        "gunicorn_cpu_ms_per_request": round(spent * 1000 / max(answered, 1), 3),
    }
    print(f"  GET /healthz: {json.dumps(result)}", flush=True)
    return result


def measure_checkout(
    server_url: str, label: str, checkout: Path, scripts, args
) -> tuple[list[dict], dict]:
    """Every case against the service of ``checkout``, on a fresh database migrated with
    that checkout's migrations."""
    url, name = create_database(server_url, "tilegames_http_bench")
    cases = []
    try:
        api_key = migrated_with_key(url, checkout / "migrations")
        with service(url, args.workers, checkout=checkout) as served:
            args.workers_seen = len(served.worker_pids())
            for clients in args.clients:
                print(f"[{label}] {clients} clients for {args.seconds:.0f}s", flush=True)
                cases.append(run_case(served, server_url, name, api_key, scripts, args, clients))
            floor = framework_floor(served, args.clients[0], min(args.seconds, 10))
        # With the service stopped, so that its pools' connections leave room for these.
        for case in cases:
            clients = case["clients"]
            print(f"  single-row commit ceiling with {clients} connections", flush=True)
            ceiling = commit_ceiling(url, clients, min(args.seconds, 10))
            case["single_row_commits_per_second"] = round(ceiling, 1)
            case["ratio_moves_to_commit_ceiling"] = round(case["moves_per_second"] / ceiling, 3)
    finally:
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    return cases, floor


if __name__ == "__main__":
    sys.exit(main())

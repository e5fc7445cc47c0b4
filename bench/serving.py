"""What the HTTP benchmarks share: the service under gunicorn on a fresh database, the
CPU time its processes spent, and the machine's single-row commit ceiling.

Imported by the scripts in bench/ (run as ``python bench/<script>.py``, so this folder is on
``sys.path``).
"""

from __future__ import annotations

import multiprocessing
import os
import secrets
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psycopg
import requests

REPO = Path(__file__).resolve().parents[1]
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def migrated_with_key(url: str, migrations: Path = REPO / "migrations") -> str:
    """Migrate the database at ``url`` (with ``migrations``, another checkout's to
    measure it) and return a new API key's plaintext."""
    from service.store import keys
    from service.store.migrate import migrate

    migrate(url, migrations)
    with psycopg.connect(url) as conn:
        _, api_key = keys.create_key(conn, "bench")
    return api_key


@dataclass
class Service:
    base: str
    process: subprocess.Popen

    def worker_pids(self) -> list[int]:
        """The gunicorn workers: the children of the master process."""
        return children(self.process.pid)


#: where the service's warnings and errors go while a benchmark runs
SERVICE_LOG = Path("/tmp/tilegames-bench-service.log")


@contextmanager
def service(
    url: str, workers: int | None, extra_env: dict[str, str] | None = None, checkout: Path = REPO
) -> Iterator[Service]:
    """The service under gunicorn (``service.cli serve``, no migration) on ``url``, with
    ``workers`` gunicorn workers (``None``: as many as the checkout's own settings start),
    rate limits out of the way and warnings-only logs (in :data:`SERVICE_LOG`);
    stopped on leaving. ``checkout``: the folder whose ``service`` package runs (another
    commit's, made with ``git archive``, to measure before and after in one run)."""
    port = 18000 + secrets.randbelow(1000)
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "RATE_LIMIT": "10000000 per minute",
        "LOG_LEVEL": "WARNING",
        "DB_POOL_MAX": "16",
        **(extra_env or {}),
    }
    command = [sys.executable, "-m", "service.cli", "serve", "--no-migrate"]
    command += ["--bind", f"127.0.0.1:{port}"]
    if workers is not None:
        command += ["--workers", str(workers)]
    process = subprocess.Popen(
        command,
        cwd=checkout,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=SERVICE_LOG.open("w"),
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(150):
            try:
                if requests.get(base + "/readyz", timeout=5).status_code == 200:
                    break
            except requests.RequestException:
                time.sleep(0.2)
        yield Service(base, process)
    finally:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found += [int(child) for child in text]
    return found


def cpu_seconds(pids: list[int]) -> dict[int, float]:
    """User + system CPU seconds each process has spent so far (``/proc/<pid>/stat``);
    a process that has gone is left out."""
    spent = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        # after the command name: state is field 3, utime and stime are fields 14 and 15
        spent[pid] = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    return spent


def spent_between(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds spent between two :func:`cpu_seconds` readings (a process that
    started in between counts from zero)."""
    return sum(after[pid] - before.get(pid, 0.0) for pid in after)


def backend_pids(url: str, database: str) -> list[int]:
    """The PostgreSQL server processes serving connections to ``database``."""
    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            (database,),
        ).fetchall()
    return [row[0] for row in rows]


def commit_ceiling(url: str, connections: int, seconds: float) -> float:
    """Single-row INSERT + COMMIT per second over ``connections`` parallel sessions."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            "CREATE TABLE IF NOT EXISTS bench_commits (id bigserial PRIMARY KEY, payload jsonb)"
        )
    with multiprocessing.Pool(connections) as pool:
        counts = pool.map(_commit_loop, [(url, time.time() + seconds)] * connections)
    return sum(counts) / seconds


def _commit_loop(args: tuple[str, float]) -> int:
    url, deadline = args
    count = 0
    with psycopg.connect(url, autocommit=True) as conn:
        while time.time() < deadline:
            conn.execute("INSERT INTO bench_commits (payload) VALUES (%s)", ('{"n": 1}',))
            count += 1
    return count

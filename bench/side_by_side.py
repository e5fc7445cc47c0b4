"""What the side-by-side benchmarks share: rounds in fresh pinned interpreters, their
sizes, the median and range of a figure, the code measured, and a profile's top lines.

A side-by-side script runs itself as a child (``--child NAME --games N --round R``) for
each round of each engine, one at a time, interleaved, while the parent stays pinned to
one core (bench/machine.py); each child re-asserts the pinning and prints its figures as
one JSON line. Imported by the scripts in bench/ (run as ``python bench/<script>.py``, so
this folder is on ``sys.path``).
"""

from __future__ import annotations

import json
import math
import re
import statistics
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
Figures = dict[str, Any]


def run_child(
    python: str,
    script: Path,
    engine: str,
    games: int,
    round_index: int,
    timeout: float | None = None,
    extra: Sequence[str] = (),
) -> Figures:
    """Run ``script --child engine`` in a fresh interpreter; its figures (the last line
    it prints, as JSON), or ``{"error": ...}``."""
    command = [python, str(script), "--child", engine, "--games", str(games)]
    command += ["--round", str(round_index), *extra]
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=timeout, cwd=BENCH.parent
        )
    except subprocess.TimeoutExpired:
        return {"error": f"{engine}: {games} games did not finish in {timeout:.0f} s"}
    if done.returncode != 0 or not done.stdout.strip():
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return {"error": f"{engine} exited {done.returncode}: {last}"}
    return json.loads(done.stdout.strip().splitlines()[-1])


def instructions_per_game(
    python: str, script: Path, engine: str, games: int, extra: Sequence[str] = ()
) -> float:
    """Instructions one game of ``engine`` takes, counted by valgrind's callgrind: the
    child playing ``games`` games (round 0's seeds, after its warm-up game) minus the
    same child playing none, divided by ``games``. Unlike wall time, the count does
    not depend on what else runs on the machine."""

    def counted(n: int) -> int:
        command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
        command += [python, str(script), "--child", engine, "--games", str(n)]
        command += ["--round", "0", *extra]
        done = subprocess.run(command, capture_output=True, text=True, cwd=BENCH.parent)
        found = re.search(r"Collected : (\d+)", done.stderr)
        if done.returncode != 0 or found is None:
            raise RuntimeError(f"callgrind on {engine}: {done.stderr.strip()[-300:]}")
        return int(found.group(1))

    return (counted(games) - counted(0)) / games


def games_for(calibration: Figures, seconds: float) -> int:
    """Games that take at least ``seconds`` at the calibration's pace (a few games,
    so 20% more), and at least 10."""
    per_game = calibration["seconds"] / calibration["games"]
    return max(10, math.ceil(1.2 * seconds / per_game))


def spread(values: Sequence[float], digits: int = 2) -> Figures:
    """The median, min and max of one figure over rounds."""
    return {
        "median": round(statistics.median(values), digits),
        "min": round(min(values), digits),
        "max": round(max(values), digits),
    }


def git_state() -> Figures:
    """The commit measured and where ``service`` was imported from (and, when from this
    work tree, whether service/ has uncommitted changes)."""
    root = BENCH.parent

    def git(*args: str) -> str:
        try:
            done = subprocess.run(
                ["git", *args], cwd=root, capture_output=True, text=True, check=True
            )
        except (OSError, subprocess.CalledProcessError):
            return ""
        return done.stdout.strip()

    import service

    source = Path(service.__path__[0]).resolve()
    state = {"commit": git("rev-parse", "HEAD"), "service_source": str(source)}
    if source == root / "service":
        state["service_dirty"] = bool(git("status", "--porcelain", "--", "service"))
    return state


def profile_top(profiler: Any, top: int) -> str:
    """The ``top`` functions of a cProfile run by own time, each with its share of the
    run's total, then pstats' own table of them."""
    import io
    import pstats

    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    total = stats.total_tt  # type: ignore[attr-defined]
    rows = sorted(stats.stats.items(), key=lambda item: item[1][2], reverse=True)  # type: ignore[attr-defined]
    lines = [f"total {total:.3f} s of own time; share of it, own seconds, calls, function:"]
    for (path, line, name), (_, calls, own, _, _) in rows[:top]:
        where = f"{short_path(path)}:{line}({name})" if line else name
        lines.append(f"{100 * own / total:5.1f}%  {own:7.3f}  {calls:9,}  {where}")
    return "\n".join(lines) + "\n"


def short_path(path: str) -> str:
    """A path under this repository from its root, a standard library one by its name."""
    for marker in ("/service/", "/bench/"):
        if marker in path:
            return marker[1:] + path.split(marker, 1)[1]
    return Path(path).name

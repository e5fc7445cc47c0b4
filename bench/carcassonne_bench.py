"""Carcassonne rules-core benchmark (not a test): games per second and move generation.

Measures, on one core (the process pins itself to one CPU where the OS allows):

- complete two-player base games (farmers on) between random bots per second, through
  the public decider path (``play_game``: setup, bot_command, decide, evolve);
- the time of ``legal_commands`` at each tile placement (every placement with its
  follower spots): mean, p50 and p99.

The baseline named by issue 3 is wingedsheep/carcassonne, about 0.07 such games per
second on this machine class (shared/reference/performance.md). Results are printed and
written to bench/results/carcassonne.json.

    .venv/bin/python bench/carcassonne_bench.py [--games 300]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from datetime import UTC, datetime
from pathlib import Path

from service.rules.carcassonne import CARCASSONNE
from service.rules.carcassonne.state import PHASE_TILE
from service.rules.play import play_game

BASELINE_GAMES_PER_SECOND = 0.07
RESULTS = Path(__file__).parent / "results" / "carcassonne.json"


def machine() -> dict:
    model = "unknown"
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return {
        "cpu": model,
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
    }


def games_per_second(games: int) -> dict:
    start = time.perf_counter()
    cpu = time.process_time()
    turns = 0
    for n in range(games):
        events, _ = play_game(CARCASSONNE, {}, 2, f"bench-{n}".encode(), ["random", "random"])
        turns += sum(e.type == "tile_placed" for e in events)
    wall = time.perf_counter() - start
    return {
        "games": games,
        "seconds": round(wall, 3),
        "cpu_seconds": round(time.process_time() - cpu, 3),
        "games_per_second": round(games / wall, 1),
        "turns_per_game": round(turns / games, 1),
    }


def move_generation(games: int) -> dict:
    """Time ``legal_commands`` at every tile placement of some random-bot games."""
    samples: list[float] = []
    for n in range(games):
        events, _ = play_game(CARCASSONNE, {}, 2, f"legal-{n}".encode(), ["random", "random"])
        state = CARCASSONNE.initial_state()
        for event in events:
            CARCASSONNE.evolve(state, event)
            if state.phase == PHASE_TILE:
                start = time.perf_counter()
                CARCASSONNE.legal_commands(state, state.seat)
                samples.append(time.perf_counter() - start)
    samples.sort()

    def micros(value: float) -> float:
        return round(value * 1e6, 1)

    return {
        "turns": len(samples),
        "mean_us": micros(statistics.fmean(samples)),
        "p50_us": micros(samples[len(samples) // 2]),
        "p99_us": micros(samples[int(len(samples) * 0.99)]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    play_game(CARCASSONNE, {}, 2, b"warm-up", ["random", "random"])  # loads tile data
    speed = games_per_second(args.games)
    legal = move_generation(max(1, args.games // 10))
    ratio = speed["games_per_second"] / BASELINE_GAMES_PER_SECOND
    result = {
        "benchmark": "carcassonne base game, 2 random bots, farmers on, one core",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "games": speed,
        "legal_commands": legal,
        "baseline": {
            "engine": "wingedsheep/carcassonne",
            "games_per_second": BASELINE_GAMES_PER_SECOND,
        },
        "ratio_to_baseline": round(ratio),
        "target_games_per_second": 100,
    }
    print(
        f"{speed['games_per_second']} games/s ({speed['games']} games in {speed['seconds']} s, "
        f"{speed['turns_per_game']} turns each); {ratio:,.0f}x the baseline "
        f"{BASELINE_GAMES_PER_SECOND} games/s"
    )
    print(
        f"legal_commands per turn: mean {legal['mean_us']} us, p50 {legal['p50_us']} us, "
        f"p99 {legal['p99_us']} us over {legal['turns']} turns"
    )
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()

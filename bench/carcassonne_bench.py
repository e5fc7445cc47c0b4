"""Carcassonne rules-core benchmark (not a test): games per second and move generation.

Measures, on one core (the process pins itself to one CPU where the OS allows):

- complete two-player base games (farmers on) between random bots per second, through
  the public decider path (``play_game``: setup, bot_command, decide, evolve);
- the time of ``legal_commands`` at each tile placement (every placement with its
  follower spots): mean, p50 and p99.

The baseline named by issue 3 is wingedsheep/carcassonne, about 0.07 such games per
second on this machine class (shared/reference/performance.md). Results are printed and
written to bench/results/carcassonne.json.

With ``--expansions`` (names, or ``all``) the games switch those expansions on, and the
results go to bench/results/carcassonne_expansions.json (target: 50 games/s with all).

    .venv/bin/python bench/carcassonne_bench.py [--games 300] [--expansions all]
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
from service.rules.carcassonne.expansions import EXPANSIONS
from service.rules.carcassonne.state import PHASE_TILE
from service.rules.play import play_game

BASELINE_GAMES_PER_SECOND = 0.07
RESULTS = Path(__file__).parent / "results" / "carcassonne.json"
EXPANSION_RESULTS = Path(__file__).parent / "results" / "carcassonne_expansions.json"


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


def games_per_second(games: int, options: dict) -> dict:
    start = time.perf_counter()
    cpu = time.process_time()
    turns = 0
    for n in range(games):
        seed = f"bench-{n}".encode()
        events, _ = play_game(CARCASSONNE, options, 2, seed, ["random", "random"])
        turns += sum(e.type == "tile_placed" for e in events)
    wall = time.perf_counter() - start
    return {
        "games": games,
        "seconds": round(wall, 3),
        "cpu_seconds": round(time.process_time() - cpu, 3),
        "games_per_second": round(games / wall, 1),
        "turns_per_game": round(turns / games, 1),
    }


def move_generation(games: int, options: dict) -> dict:
    """Time ``legal_commands`` at every tile placement of some random-bot games."""
    samples: list[float] = []
    for n in range(games):
        seed = f"legal-{n}".encode()
        events, _ = play_game(CARCASSONNE, options, 2, seed, ["random", "random"])
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
    parser.add_argument("--output", type=Path)
    parser.add_argument(
        "--expansions", nargs="+", choices=[*EXPANSIONS, "all"], help="expansions to switch on"
    )
    args = parser.parse_args()
    expansions = list(EXPANSIONS) if args.expansions == ["all"] else args.expansions or []
    options = {"expansions": expansions}
    output = args.output or (EXPANSION_RESULTS if expansions else RESULTS)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    play_game(CARCASSONNE, options, 2, b"warm-up", ["random", "random"])  # loads tile data
    speed = games_per_second(args.games, options)
    legal = move_generation(max(1, args.games // 10), options)
    ratio = speed["games_per_second"] / BASELINE_GAMES_PER_SECOND
    result = {
        "benchmark": "carcassonne "
        + (f"with {', '.join(expansions)}" if expansions else "base game")
        + ", 2 random bots, farmers on, one core",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "games": speed,
        "legal_commands": legal,
        "baseline": {
            "engine": "wingedsheep/carcassonne",
            "games_per_second": BASELINE_GAMES_PER_SECOND,
        },
        "ratio_to_baseline": round(ratio),
        "target_games_per_second": 50 if expansions else 100,
        # the base game measured in the same run, to compare on a noisy machine
        **({"base_game": games_per_second(args.games, {})} if expansions else {}),
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
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()

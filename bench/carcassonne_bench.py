"""Carcassonne rules-core benchmark (not a test): games per second and move generation.

Measures, on one core (the process pins itself to one CPU where the OS allows):

- complete two-player base games (farmers on) between random bots per second, through
  the public decider path (``play_game``: setup, bot_command, decide, evolve);
- the time of ``legal_commands`` at each tile placement (every placement with its
  follower spots): mean, p50 and p99.

The baseline named by issue 3 is wingedsheep/carcassonne; the issue quotes about 0.07 such
games per second (shared/reference/performance.md). That quoted figure is kept as the named
reference (``QUOTED_BASELINE_GAMES_PER_SECOND``), not measured here. The baseline measured
on this machine, interleaved with ours on one core, is what bench/baseline_side_by_side.py
reports; when its bench/results/baseline_side_by_side.json exists, its baseline median is
read and the ratio to it reported too. Results are printed and written to
bench/results/carcassonne.json.

With ``--expansions`` (names, or ``all``) the games switch those expansions on, and the
results go to bench/results/carcassonne_expansions.json (target: 50 games/s with all).

    .venv/bin/python bench/carcassonne_bench.py [--games 300] [--expansions all]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from datetime import UTC, datetime
from pathlib import Path

from machine import machine, pin_to_one_cpu

from service.rules.carcassonne import CARCASSONNE
from service.rules.carcassonne.expansions import EXPANSIONS
from service.rules.carcassonne.state import PHASE_TILE
from service.rules.play import play_game

# The figure issue 3 quotes for wingedsheep/carcassonne; bench/baseline_side_by_side.py
# measures the baseline itself (about 0.19 games/s on this machine class).
QUOTED_BASELINE_GAMES_PER_SECOND = 0.07
RESULTS = Path(__file__).parent / "results" / "carcassonne.json"
EXPANSION_RESULTS = Path(__file__).parent / "results" / "carcassonne_expansions.json"
SIDE_BY_SIDE_RESULTS = Path(__file__).parent / "results" / "baseline_side_by_side.json"


def measured_baseline() -> dict | None:
    """The baseline's games/s as last measured by bench/baseline_side_by_side.py, if any."""
    if not SIDE_BY_SIDE_RESULTS.exists():
        return None
    side_by_side = json.loads(SIDE_BY_SIDE_RESULTS.read_text())
    return {
        "games_per_second": side_by_side["baseline"]["games_per_second_median"],
        "source": "bench/results/baseline_side_by_side.json (median over rounds)",
        "date": side_by_side.get("date"),
        "ours_in_that_run_games_per_second": side_by_side["ours"]["games_per_second_median"],
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
    pin_to_one_cpu()
    play_game(CARCASSONNE, options, 2, b"warm-up", ["random", "random"])  # loads tile data
    speed = games_per_second(args.games, options)
    legal = move_generation(max(1, args.games // 10), options)
    quoted_ratio = speed["games_per_second"] / QUOTED_BASELINE_GAMES_PER_SECOND
    measured = measured_baseline()
    measured_ratio = measured and speed["games_per_second"] / measured["games_per_second"]
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
            "quoted": {
                "games_per_second": QUOTED_BASELINE_GAMES_PER_SECOND,
                "source": "the figure quoted by issue 3 (shared/reference/performance.md), "
                "not measured here",
            },
            "measured": measured
            or {"note": "not measured yet: run bench/baseline_side_by_side.py"},
        },
        "ratio_to_quoted_baseline": round(quoted_ratio),
        "ratio_to_measured_baseline": measured_ratio and round(measured_ratio),
        "target_games_per_second": 50 if expansions else 100,
        # the base game measured in the same run, to compare on a noisy machine
        **({"base_game": games_per_second(args.games, {})} if expansions else {}),
    }
    print(
        f"{speed['games_per_second']} games/s ({speed['games']} games in {speed['seconds']} s, "
        f"{speed['turns_per_game']} turns each); {quoted_ratio:,.0f}x the baseline's "
        f"{QUOTED_BASELINE_GAMES_PER_SECOND} games/s quoted by issue 3"
    )
    if measured:
        print(
            f"{measured_ratio:,.0f}x the baseline's {measured['games_per_second']} games/s "
            f"measured by bench/baseline_side_by_side.py on {measured['date']}"
        )
    else:
        print("baseline not measured here: run bench/baseline_side_by_side.py for that ratio")
    print(
        f"legal_commands per turn: mean {legal['mean_us']} us, p50 {legal['p50_us']} us, "
        f"p99 {legal['p99_us']} us over {legal['turns']} turns"
    )
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()

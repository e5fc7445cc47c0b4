"""Catan Seafarers scenarios measured beside the base game, in one run.

Every case plays complete games between ``random`` bots through ``play_game`` (the
service's own path: a hashed random stream per command), internal randomness, the
scenario's random set-up: the base game for 4 seats, and each scenario for each player
count it has. The process pins itself to one core (bench/machine.py); the cases run one
at a time, interleaved round by round (base, 1/3p, 1/4p, ..., base, 1/3p, ...), each
round timing ``--games`` games with fixed seeds after one untimed warm-up game per case.
Reported per case: games/s and decisions/s (median and min-max over the rounds), and the
ratio of its games/s to the base game's in the same run (only ratios within one run
count: machines of this class vary 2x between runs).

    .venv/bin/python bench/seafarers_bench.py [--rounds 3] [--games 20]

Results are printed and written to bench/results/seafarers.{json,txt}.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import time
from datetime import UTC, datetime
from pathlib import Path

from machine import machine, pin_to_one_cpu

from service.rules.catan.game import CATAN, SCENARIOS
from service.rules.play import play_game

RESULTS = Path(__file__).parent / "results"
#: (label, options, seats): the base game first, then every scenario and player count
CASES = [("base game, 4p", {}, 4)] + [
    (f"scenario {n} ({info.title_en}), {seats}p", {"scenario": n}, seats)
    for n, info in SCENARIOS.items()
    for seats in info.players
]


def play_round(options: dict, seats: int, games: int, tag: str) -> dict:
    bots = ["random"] * seats
    calls = 0

    def observe(state: object, events: object) -> None:
        nonlocal calls
        calls += 1

    decisions = 0
    start = time.perf_counter()
    for n in range(games):
        calls = 0
        _, state = play_game(CATAN, options, seats, f"{tag}-{n}".encode(), bots, observe)
        assert CATAN.is_over(state), (options, n)
        decisions += calls - 1
    seconds = time.perf_counter() - start
    return {"games": games, "seconds": seconds, "decisions": decisions}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    cpu = pin_to_one_cpu()
    for _label, options, seats in CASES:  # warm-up: data files, caches
        play_game(CATAN, options, seats, b"warm-up", ["random"] * seats)
    rounds: dict[str, list[dict]] = {label: [] for label, _, _ in CASES}
    for r in range(args.rounds):
        for label, options, seats in CASES:
            figures = play_round(options, seats, args.games, f"seafarers-{r}")
            rounds[label].append(figures)
            rate = figures["games"] / figures["seconds"]
            print(f"round {r + 1}: {label:<45} {rate:7.1f} games/s", flush=True)
    summary = {}
    for label, figures in rounds.items():
        games = [f["games"] / f["seconds"] for f in figures]
        decisions = [f["decisions"] / f["seconds"] for f in figures]
        summary[label] = {
            "games_per_s": statistics.median(games),
            "games_per_s_range": [min(games), max(games)],
            "decisions_per_s": statistics.median(decisions),
            "decisions_per_game": sum(f["decisions"] for f in figures)
            / sum(f["games"] for f in figures),
        }
    base = summary[CASES[0][0]]["games_per_s"]
    lines = [
        f"Seafarers beside the base game: {args.rounds} rounds x {args.games} random-bot "
        f"games per case, pinned to cpu {cpu}",
        f"{'case':<45} {'games/s':>9} {'(min-max)':>15} {'decisions/s':>12} "
        f"{'dec/game':>9} {'vs base':>8}",
    ]
    for label, s in summary.items():
        low, high = s["games_per_s_range"]
        lines.append(
            f"{label:<45} {s['games_per_s']:9.1f} {f'({low:.1f}-{high:.1f})':>15} "
            f"{s['decisions_per_s']:12.0f} {s['decisions_per_game']:9.0f} "
            f"{s['games_per_s'] / base:7.2f}x"
        )
    text = "\n".join(lines)
    print(text)
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    RESULTS.mkdir(exist_ok=True)
    result = {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "commit": commit,
        "machine": machine(),
        "rounds": args.rounds,
        "games_per_round": args.games,
        "summary": summary,
        "per_round": rounds,
    }
    (RESULTS / "seafarers.json").write_text(json.dumps(result, indent=1) + "\n")
    (RESULTS / "seafarers.txt").write_text(text + "\n")


if __name__ == "__main__":
    main()

"""South Seas rules-core benchmark (not a test): complete games per second on one core.

Measures complete four-player games between random bots through the public decider
path (``play_game``: setup, bot_command, decide, evolve), on one core (the process pins
itself to one CPU where the OS allows). The target named by the issue is 100 games per
second. Results are printed and written to bench/results/south_seas.json.

    .venv/bin/python bench/south_seas_bench.py [--games 300]
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

from machine import machine, pin_to_one_cpu

from service.rules.play import play_game
from service.rules.south_seas import SOUTH_SEAS

TARGET_GAMES_PER_SECOND = 100
RESULTS = Path(__file__).parent / "results" / "south_seas.json"


def games_per_second(games: int, seats: int) -> dict:
    counts: Counter[str] = Counter()
    start = time.perf_counter()
    cpu = time.process_time()
    for n in range(games):
        events, _ = play_game(SOUTH_SEAS, {}, seats, f"bench-{n}".encode(), ["random"] * seats)
        counts.update(e.type for e in events)
    wall = time.perf_counter() - start
    return {
        "games": games,
        "seats": seats,
        "seconds": round(wall, 3),
        "cpu_seconds": round(time.process_time() - cpu, 3),
        "games_per_second": round(games / wall, 1),
        "per_game": {kind: round(n / games, 1) for kind, n in sorted(counts.items())},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args()
    pin_to_one_cpu()
    play_game(SOUTH_SEAS, {}, 4, b"warm-up", ["random"] * 4)  # loads tiles and ships
    speed = games_per_second(args.games, 4)
    ratio = speed["games_per_second"] / TARGET_GAMES_PER_SECOND
    result = {
        "benchmark": "carcassonne-south-seas, 4 random bots, provisional catalogue, one core",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "games": speed,
        "target_games_per_second": TARGET_GAMES_PER_SECOND,
        "ratio_to_target": round(ratio, 2),
    }
    print(
        f"{speed['games_per_second']} games/s ({speed['games']} four-player games in "
        f"{speed['seconds']} s); {ratio:.2f}x the target of {TARGET_GAMES_PER_SECOND} games/s"
    )
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()

"""Memory: the resident memory a worker spends holding N games' folded states in its
cache (service/app/cache.py), as it does when N games are played through it.

Plays a few bot games with the rules core, then fills a ``StateCache`` of capacity N with
N independent states, each the fold of one of those games up to a point drawn uniformly
(games in progress, from the first move to the last), and reads the process's resident
set size (``VmRSS``) before and after, with the garbage collected.

    python bench/memory_bench.py                 # 10,000 Carcassonne games, then Catan
    python bench/memory_bench.py --games 2000 --rulesets catan

Results: bench/results/memory.json.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import random
import sys
import time
from pathlib import Path

from machine import machine

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

CASES = {
    "carcassonne": ("carcassonne", {}, 2),
    "carcassonne-south-seas": ("carcassonne-south-seas", {}, 3),
    "catan": ("catan", {}, 4),
}


def resident_bytes() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def measure(name: str, games: int, distinct: int) -> dict:
    from service.app.cache import StateCache
    from service.app.games import Folded
    from service.rules import get_ruleset
    from service.rules.play import play_game
    from service.rules.seating import Seating

    ruleset_name, options, seats = CASES[name]
    ruleset = get_ruleset(ruleset_name)
    logs = []
    for n in range(distinct):
        seed = hashlib.sha256(f"memory:{name}:{n}".encode()).digest()
        events, _ = play_game(ruleset, options, seats, seed, ["random"] * seats)
        logs.append(events)
    rng = random.Random(7)
    cache = StateCache(games)
    gc.collect()
    before = resident_bytes()
    started = time.perf_counter()
    folded_events = 0
    for i in range(games):
        log = logs[i % distinct]
        upto = rng.randint(len(log) // 10, len(log))
        folded_events += upto
        state = ruleset.fold(log[:upto])
        seating = Seating.of([{"bot": "random"}] * seats)
        cache.put(f"game-{i}", upto, Folded(state, ruleset.rules_version, seating))
    gc.collect()
    after = resident_bytes()
    result = {
        "games_cached": len(cache),
        "average_events_folded": round(folded_events / games, 1),
        "resident_bytes_before": before,
        "resident_bytes_after": after,
        "resident_bytes_per_game": round((after - before) / games),
        "seconds_to_fold": round(time.perf_counter() - started, 1),
    }
    print(f"{name}: {json.dumps(result)}", flush=True)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--distinct", type=int, default=40, help="distinct games played")
    parser.add_argument("--rulesets", nargs="+", choices=list(CASES), default=["carcassonne"])
    args = parser.parse_args()
    results = {"machine": machine(), "cases": {}}
    for name in args.rulesets:
        # one ruleset per process would be cleaner; the cache of the first is dropped
        # and collected before the next is measured
        results["cases"][name] = measure(name, args.games, args.distinct)
        gc.collect()
    out = REPO / "bench" / "results" / "memory.json"
    merged = json.loads(out.read_text()) if out.exists() else {}
    merged.setdefault("cases", {}).update(results["cases"])
    merged["machine"] = results["machine"]
    out.write_text(json.dumps(merged, indent=1) + "\n")
    print(f"written {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

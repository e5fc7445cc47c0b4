"""Instructions per Catan game, ours and catanatron's, counted by callgrind.

Wall-clock figures on this shared machine swing with the other sessions; the number of
instructions a game executes does not. For each engine this runs, under
``valgrind --tool=callgrind``, a child that imports the engine, plays one warm-up game
and then ``--games`` games with the same fixed seeds as bench/catan_side_by_side.py
(round 0), and the same child with 0 games; the difference divided by ``--games`` is
the figure. The same seeds before and after a change play the same games only where
the change keeps the games the same, so compare over enough games (20 by default).

    .venv/bin/python bench/catan_instructions.py [--games 20] [--engines ours catanatron]

catanatron runs in bench/.venv-catanatron (``bench/catan_side_by_side.py --setup``).
Results: printed, and written to bench/results/catan_instructions.json.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from side_by_side import BENCH, git_state

SCRIPT = Path(__file__).resolve()
SIDE_BY_SIDE = BENCH / "catan_side_by_side.py"
CATANATRON_PYTHON = BENCH / ".venv-catanatron" / "bin" / "python"
RESULTS = BENCH / "results" / "catan_instructions.json"


def count(python: str, engine: str, games: int) -> tuple[int, int]:
    """Instructions callgrind counts for a child playing ``games`` games (and a
    warm-up), and the decisions of those games."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        done = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                python,
                str(SIDE_BY_SIDE),
                "--child",
                engine,
                "--games",
                str(games),
                "--round",
                "0",
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            sys.exit(f"callgrind failed for {engine}:\n{done.stderr[-2000:]}")
        found = re.search(r"Collected : (\d+)", done.stderr)
        if found is None:
            sys.exit(f"no instruction count in callgrind's output:\n{done.stderr[-2000:]}")
        return int(found.group(1)), json.loads(done.stdout)["decisions"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--engines", nargs="+", default=["ours", "catanatron"])
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args()
    result: dict = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "games": args.games,
        **git_state(),
    }
    for engine in args.engines:
        python = sys.executable if engine == "ours" else str(CATANATRON_PYTHON)
        base, _ = count(python, engine, 0)
        played, decisions = count(python, engine, args.games)
        per_game = (played - base) / args.games
        result[engine] = {
            "instructions_per_game": round(per_game),
            "decisions_per_game": decisions / args.games,
            "instructions_per_decision": round((played - base) / decisions),
            "baseline": base,
        }
        print(
            f"{engine}: {per_game / 1e6:.1f} M instructions per game, "
            f"{decisions / args.games:.0f} decisions per game, "
            f"{(played - base) / decisions / 1e3:.0f} k instructions per decision",
            flush=True,
        )
    if "ours" in result and "catanatron" in result:
        theirs, ours = result["catanatron"], result["ours"]
        ratio = theirs["instructions_per_game"] / ours["instructions_per_game"]
        result["ratio_catanatron_to_ours"] = round(ratio, 2)
        per_decision = theirs["instructions_per_decision"] / ours["instructions_per_decision"]
        result["ratio_per_decision"] = round(per_decision, 2)
        print(f"catanatron / ours: {ratio:.2f}x per game, {per_decision:.2f}x per decision")
    args.output.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()

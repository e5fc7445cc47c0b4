"""Our Carcassonne engine and the baseline wingedsheep/carcassonne, measured side by side.

Both engines play complete two-player base games (72 tiles, farmers on, no other expansion or
supplementary rule) between uniformly random players, on one core: this process pins itself
to one CPU and the baseline runs in a child process that inherits (and re-asserts) the same
pinning. The measurements are interleaved, ours then the baseline's, round after round, so
both see the same machine state. Results are printed and written to
bench/results/baseline_side_by_side.json: games/s of each (median and min-max over rounds),
the ratio ours/baseline of the medians, the machine and the date.

Ours is played through ``play_game`` (setup, bot_command, decide, evolve), as in
bench/carcassonne_bench.py. The baseline is driven by a small driver passed to its
interpreter with ``-c`` (``BASELINE_DRIVER`` below; none of the baseline's code is in this
repository): it imports the package ``wingedsheep.carcassonne`` from ``--baseline-dir``,
builds ``CarcassonneGame(players=2, tile_sets=[TileSet.BASE],
supplementary_rules=[SupplementaryRule.FARMERS])`` and loops, as the baseline's README and
examples/two_player_game_random_moves.py do, ``random.choice(game.get_possible_actions())``
then ``game.step(player, action)`` until ``game.is_finished()``. Two things differ from that
example: the visualiser (Tk window and tile images, needed only by ``render``) is replaced by
a no-op stand-in registered in ``sys.modules`` before the import, and the baseline's scoring
log (``print`` calls in its points collector) goes to /dev/null instead of a terminal. Only
the games are timed, not the imports.

Getting the baseline (it is not vendored here): the package directory
``wingedsheep/carcassonne/`` of the public GitHub repository wingedsheep/carcassonne, laid
out under ``--baseline-dir`` with its paths kept (so ``<dir>/wingedsheep/carcassonne/...``;
it is a namespace package, no ``__init__.py`` needed). The copy measured here was read file
by file from a stored index of the repository; its files carry the commits
d7ce099729db877a31af07048b7ffdf37b09e0ea (possible_move_finder.py, points_collector.py,
supplementary_rules.py, the newest), a1d9987ba077e8abba3e7532285db6d194f62a87
(carcassonne_game_state.py), 6768c7075b107e1951db6c70fed0bbab32a47a74 (tile_action.py,
action_util.py), 15680a0ca8e3a0d6a440aae41b15bed7bb3b5574 (tile_position_finder.py) and
da2556cbc8c52fc4820f9ce6e7ba9b1aee393042 (the rest); a checkout of
d7ce099729db877a31af07048b7ffdf37b09e0ea should be equivalent. The enum modules the index
holds only under the repository's older ``main/`` layout (coordinate, side, rotation,
terrain_type, meeple_type, game_phase, tile_sets) have no imports and were taken from there;
``objects/actions/action.py``, absent from the index, is the empty base class
``class Action: pass``. Its only dependency for a game is numpy; numpy 2 breaks its
``get_winning_player`` (``int()`` of a one-element array), so use numpy<1.25 (1.24.4 here):

    python3 -m venv /tmp/wsvenv && /tmp/wsvenv/bin/pip install "numpy==1.24.4"
    .venv/bin/python bench/baseline_side_by_side.py --baseline-dir /tmp/wingedsheep \\
        --baseline-python /tmp/wsvenv/bin/python [--games 200] [--baseline-games 3] [--rounds 3]

The JSON records the commit and where ``service`` was imported from (and, when from this
work tree, whether service/ has uncommitted changes); to measure HEAD while the work tree has
uncommitted changes, put an export of it first on the path, e.g.
``git archive HEAD service | tar -x -C /tmp/ours_head`` then ``PYTHONPATH=/tmp/ours_head``.

Rules are close but not identical: the baseline's deck is the 72 base tiles (eight of them
carry its Abbot-expansion gardens, inert without the abbot rule) shuffled whole, the first
drawn tile being the start tile, where ours starts from the rulebook's start tile; both place
all 72 tiles in a game.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from machine import machine, pin_to_one_cpu
from side_by_side import git_state

from service.rules.carcassonne import CARCASSONNE
from service.rules.play import play_game

RESULTS = Path(__file__).parent / "results" / "baseline_side_by_side.json"
OPTIONS = {"farmers": True}

BASELINE_DRIVER = r"""
import contextlib, json, os, platform, random, sys, time, types

baseline_dir, games, seed, cpu = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
if hasattr(os, "sched_setaffinity"):
    os.sched_setaffinity(0, {cpu})
sys.path.insert(0, baseline_dir)

# The visualiser opens a Tk window and loads tile images; it is only used by render().
stub = types.ModuleType("wingedsheep.carcassonne.carcassonne_visualiser")
class CarcassonneVisualiser:
    def draw_game_state(self, game_state):
        pass
stub.CarcassonneVisualiser = CarcassonneVisualiser
sys.modules[stub.__name__] = stub

import numpy
from wingedsheep.carcassonne.carcassonne_game import CarcassonneGame
from wingedsheep.carcassonne.objects.actions.tile_action import TileAction
from wingedsheep.carcassonne.tile_sets.supplementary_rules import SupplementaryRule
from wingedsheep.carcassonne.tile_sets.tile_sets import TileSet

random.seed(seed)
tiles = 0
with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
    start = time.perf_counter()
    cpu_start = time.process_time()
    for _ in range(games):
        game = CarcassonneGame(
            players=2,
            tile_sets=[TileSet.BASE],
            supplementary_rules=[SupplementaryRule.FARMERS],
        )
        while not game.is_finished():
            player = game.get_current_player()
            action = random.choice(game.get_possible_actions())
            tiles += isinstance(action, TileAction)
            game.step(player, action)
    wall = time.perf_counter() - start
    cpu_seconds = time.process_time() - cpu_start
print(json.dumps({
    "games": games,
    "seconds": wall,
    "cpu_seconds": cpu_seconds,
    "games_per_second": games / wall,
    "tiles_per_game": tiles / games,
    "python": platform.python_version(),
    "numpy": numpy.__version__,
}))
"""


def ours(games: int, round_index: int) -> dict:
    tiles = 0
    start = time.perf_counter()
    cpu = time.process_time()
    for n in range(games):
        seed = f"side-by-side-{round_index}-{n}".encode()
        events, _ = play_game(CARCASSONNE, OPTIONS, 2, seed, ["random", "random"])
        tiles += sum(e.type == "tile_placed" for e in events)
    wall = time.perf_counter() - start
    return {
        "games": games,
        "seconds": wall,
        "cpu_seconds": time.process_time() - cpu,
        "games_per_second": games / wall,
        # The start tile is laid by setup, not by a tile_placed event.
        "tiles_per_game": 1 + tiles / games,
    }


def baseline(python: str, baseline_dir: Path, games: int, round_index: int, cpu: int) -> dict:
    seed = f"side-by-side-{round_index}"
    done = subprocess.run(
        [python, "-c", BASELINE_DRIVER, str(baseline_dir), str(games), seed, str(cpu)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        sys.exit(f"baseline driver failed ({done.returncode}):\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def summary(rounds: list[dict]) -> dict:
    speeds = [r["games_per_second"] for r in rounds]
    return {
        "games_per_round": rounds[0]["games"],
        "rounds": len(rounds),
        "games_per_second_median": round(statistics.median(speeds), 4),
        "games_per_second_min": round(min(speeds), 4),
        "games_per_second_max": round(max(speeds), 4),
        "tiles_per_game": round(statistics.fmean(r["tiles_per_game"] for r in rounds), 2),
        "per_round": [
            {
                "games_per_second": round(r["games_per_second"], 4),
                "seconds": round(r["seconds"], 3),
                "cpu_seconds": round(r["cpu_seconds"], 3),
            }
            for r in rounds
        ],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline-dir", type=Path, default=Path("/tmp/wingedsheep"))
    parser.add_argument("--baseline-python", default=sys.executable)
    parser.add_argument("--games", type=int, default=200, help="our games per round")
    parser.add_argument("--baseline-games", type=int, default=3, help="baseline games per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args()
    package = args.baseline_dir / "wingedsheep" / "carcassonne" / "carcassonne_game.py"
    if not package.exists():
        sys.exit(f"no baseline at {args.baseline_dir}: {package} is missing (see --help)")

    cpu = pin_to_one_cpu()
    play_game(CARCASSONNE, OPTIONS, 2, b"warm-up", ["random", "random"])  # loads tile data
    our_rounds: list[dict] = []
    baseline_rounds: list[dict] = []
    for r in range(args.rounds):
        our_rounds.append(ours(args.games, r))
        print(f"round {r + 1}: ours {our_rounds[-1]['games_per_second']:.1f} games/s", flush=True)
        baseline_rounds.append(
            baseline(args.baseline_python, args.baseline_dir, args.baseline_games, r, cpu)
        )
        print(
            f"round {r + 1}: baseline {baseline_rounds[-1]['games_per_second']:.4f} games/s",
            flush=True,
        )

    our = summary(our_rounds)
    base = summary(baseline_rounds)
    ratio = our["games_per_second_median"] / base["games_per_second_median"]
    result = {
        "benchmark": "carcassonne base game, 2 random players, farmers on, one core, "
        "ours and the baseline interleaved round by round",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {**machine(), "pinned_cpu": cpu},
        "ours": {
            "engine": "service.rules.carcassonne via play_game",
            "options": OPTIONS,
            **git_state(),
            **our,
        },
        "baseline": {
            "engine": "wingedsheep/carcassonne (random.choice over get_possible_actions)",
            "commit": "d7ce099729db877a31af07048b7ffdf37b09e0ea (newest file; see docstring)",
            "rules": "tile_sets=[BASE], supplementary_rules=[FARMERS]",
            "python": baseline_rounds[0]["python"],
            "numpy": baseline_rounds[0]["numpy"],
            **base,
        },
        "ratio_ours_to_baseline": round(ratio),
    }
    print(
        f"ours {our['games_per_second_median']:.1f} games/s "
        f"({our['games_per_second_min']:.1f}-{our['games_per_second_max']:.1f}), "
        f"baseline {base['games_per_second_median']:.4f} games/s "
        f"({base['games_per_second_min']:.4f}-{base['games_per_second_max']:.4f}): "
        f"{ratio:,.0f}x over {args.rounds} rounds"
    )
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()

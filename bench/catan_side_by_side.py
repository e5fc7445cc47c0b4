"""Our Catan engine and catanatron, measured side by side.

Both engines play complete four-seat base games between uniformly random players: ours is
the ruleset ``catan`` (default options) played through ``play_game`` with four ``random``
bots; catanatron plays ``Game([RandomPlayer(c) for c in Color], seed=...).play()`` on its
default base map. Each round of
each engine runs in a fresh child interpreter pinned to one core (this process pins itself
with bench/machine.py and the children inherit and re-assert the pinning), one engine at a
time, interleaved: ours, catanatron, ours, catanatron... Each child plays one untimed
warm-up game, then times N games with fixed seeds. Reported per engine: games/s and
decisions/s (median and min-max over the rounds), and the ratio ours/catanatron of the
medians; games per cpu second too, since wall time also counts whatever else runs on the
core. Only ratios taken in one run count: machines of this class vary 2x between runs.

Decisions are what a player chose: for ours, the commands applied (the calls of
``play_game``'s ``observe`` minus the one after setup); for catanatron, the length of the
game's action log (``game.state.action_records`` where the installed version has it, else
``game.state.actions``). Both count the set-up placements, every roll and every end of
turn. catanatron stops a game at ``TURNS_LIMIT`` turns (1000) without a winner; such
games are counted and reported as ``games_cut_at_turns_limit``.

Getting catanatron (GPL-3.0; never vendored here, never a dependency of the service): it
is installed by name from the package registry into the benchmark's own virtualenv,
bench/.venv-catanatron (the script writes a ``.gitignore`` of ``*`` inside it, as Python
3.13's venv does, so git ignores it). ``--setup`` creates it with this interpreter and
installs ``catanatron==3.3.0``, or, where the registry does not have that version, the
nearest it has (3.2.1); the version measured is recorded in the results. Another
interpreter that has catanatron can be named with ``--catanatron-python``.

    .venv/bin/python bench/catan_side_by_side.py --setup
    .venv/bin/python bench/catan_side_by_side.py [--rounds 3] [--seconds 10] [--profile]

Games per round are chosen from a short calibration run so that each round of each
engine takes at least ``--seconds`` (or given with ``--games`` / ``--catanatron-games``).
Prefix ``taskset -c 1`` to choose the core. When the ruleset ``catan`` is not available
or cannot finish a game, the script says so and measures catanatron alone. With
``--profile`` our engine also plays ``--profile-games`` games under cProfile (after the
timed rounds, not timed) and the 25 functions with the most own time are recorded.
Results are printed and written to bench/results/catan_side_by_side.{json,txt}, or to
bench/results/catan_catanatron_only.{json,txt} when catanatron was measured alone.

The results record the commit and where ``service`` was imported from. To measure a fixed
copy while the work tree changes, copy ``service/`` aside and put it first on the path:
``cp -r service /tmp/snap/ && PYTHONPATH=/tmp/snap .venv/bin/python bench/...``.
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
from typing import TYPE_CHECKING

import side_by_side
from machine import machine, pin_to_one_cpu
from side_by_side import BENCH, Figures, games_for, git_state

SCRIPT = Path(__file__).resolve()
RESULTS = BENCH / "results"
CATANATRON_VENV = BENCH / ".venv-catanatron"
# The version the issue names first; the registry may only have older ones.
CATANATRON_VERSIONS = ("3.3.0", "3.2.1")
SEATS = 4
PROFILE_TOP = 25


if TYPE_CHECKING:
    from cProfile import Profile


# --- the children: one engine, N games, one clean interpreter ---------------------------


def play_ours(games: int, round_index: int, profiler: Profile | None = None) -> Figures:
    """Play ``games`` four-seat random games of the ruleset ``catan``; time them (and
    profile them with ``profiler``, if given: the imports and warm-up are left out)."""
    from service.rules.play import play_game
    from service.rules.registry import get_ruleset

    ruleset = get_ruleset("catan")
    if ruleset is None:
        raise SystemExit("the ruleset 'catan' is not registered")
    bots = ["random"] * SEATS
    calls = 0

    def observe(state: object, events: object) -> None:
        nonlocal calls
        calls += 1

    play_game(ruleset, {}, SEATS, b"catan-warm-up", bots)  # loads data, fills caches
    no_winner = 0
    decisions = 0
    start = time.perf_counter()
    cpu = time.process_time()
    if profiler is not None:
        profiler.enable()
    for n in range(games):
        calls = 0
        seed = f"catan-side-by-side-{round_index}-{n}".encode()
        _, state = play_game(ruleset, {}, SEATS, seed, bots, observe)
        decisions += calls - 1
        no_winner += not ruleset.result(state).get("winners")
    if profiler is not None:
        profiler.disable()
    wall = time.perf_counter() - start
    return {
        "games": games,
        "seconds": wall,
        "cpu_seconds": time.process_time() - cpu,
        "decisions": decisions,
        "games_without_winner": no_winner,
    }


def play_catanatron(games: int, round_index: int) -> Figures:
    """Play ``games`` four-player RandomPlayer games of catanatron; time them."""
    from importlib.metadata import version

    from catanatron import Color, Game, RandomPlayer
    from catanatron.game import TURNS_LIMIT

    def new_game(seed: int) -> Game:
        # Game(seed=...) seeds the random module, which RandomPlayer draws from.
        return Game([RandomPlayer(color) for color in Color], seed=seed)

    def actions(game: Game) -> int:
        records = getattr(game.state, "action_records", None)
        return len(records if records is not None else game.state.actions)

    new_game(999_999_999).play()  # warm-up
    cut = 0
    decisions = 0
    start = time.perf_counter()
    cpu = time.process_time()
    for n in range(games):
        game = new_game(1 + round_index * 1_000_000 + n)  # seed 0 would mean "random"
        cut += game.play() is None
        decisions += actions(game)
    wall = time.perf_counter() - start
    return {
        "games": games,
        "seconds": wall,
        "cpu_seconds": time.process_time() - cpu,
        "decisions": decisions,
        "games_cut_at_turns_limit": cut,
        "turns_limit": TURNS_LIMIT,
        "catanatron": version("catanatron"),
    }


def profile_ours(games: int) -> Figures:
    """Play ``games`` of ours under cProfile; the top functions by own time, as text."""
    import cProfile
    import io
    import pstats

    profiler = cProfile.Profile()
    figures = play_ours(games, round_index=-1, profiler=profiler)
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(PROFILE_TOP)
    figures["profile"] = out.getvalue()
    return figures


def child(engine: str, games: int, round_index: int) -> None:
    pin_to_one_cpu()
    if engine == "ours":
        figures = play_ours(games, round_index)
    elif engine == "catanatron":
        figures = play_catanatron(games, round_index)
    else:
        figures = profile_ours(games)
    figures["python"] = sys.version.split()[0]
    print(json.dumps(figures))


# --- the parent: set-up, calibration, interleaved rounds, the report --------------------


def setup() -> None:
    python = CATANATRON_VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(CATANATRON_VENV)], check=True)
    (CATANATRON_VENV / ".gitignore").write_text("*\n")
    for wanted in CATANATRON_VERSIONS:
        done = subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", f"catanatron=={wanted}"]
        )
        if done.returncode == 0:
            break
        print(f"catanatron {wanted} could not be installed; trying an older version")
    else:
        sys.exit(f"could not install catanatron {' or '.join(CATANATRON_VERSIONS)}")
    check = run_child(str(python), "catanatron", 2, 0)
    if "error" in check:
        sys.exit(f"catanatron installed but does not play:\n{check['error']}")
    print(
        f"catanatron {check['catanatron']} in {CATANATRON_VENV}: 2 games in "
        f"{check['seconds']:.2f} s, {check['decisions'] / 2:.0f} decisions per game"
    )


def run_child(
    python: str, engine: str, games: int, round_index: int, timeout: float | None = None
) -> Figures:
    """Run one engine in a fresh interpreter; its figures, or {"error": ...}."""
    return side_by_side.run_child(python, SCRIPT, engine, games, round_index, timeout)


def summary(rounds: list[Figures]) -> Figures:
    games = [r["games"] / r["seconds"] for r in rounds]
    decisions = [r["decisions"] / r["seconds"] for r in rounds]
    per_cpu_second = [r["games"] / r["cpu_seconds"] for r in rounds]
    total_games = sum(r["games"] for r in rounds)
    result: Figures = {
        "games_per_round": rounds[0]["games"],
        "rounds": len(rounds),
        "games_per_second_median": round(statistics.median(games), 2),
        "games_per_second_min": round(min(games), 2),
        "games_per_second_max": round(max(games), 2),
        "decisions_per_second_median": round(statistics.median(decisions)),
        "decisions_per_second_min": round(min(decisions)),
        "decisions_per_second_max": round(max(decisions)),
        "decisions_per_game": round(sum(r["decisions"] for r in rounds) / total_games, 1),
        # On a shared machine wall time also counts other processes on the core.
        "games_per_cpu_second_median": round(statistics.median(per_cpu_second), 2),
    }
    for key in ("games_cut_at_turns_limit", "games_without_winner"):
        if key in rounds[0]:
            result[key] = sum(r[key] for r in rounds)
    result["per_round"] = [
        {
            "games_per_second": round(r["games"] / r["seconds"], 2),
            "decisions_per_second": round(r["decisions"] / r["seconds"]),
            "seconds": round(r["seconds"], 3),
            "cpu_seconds": round(r["cpu_seconds"], 3),
        }
        for r in rounds
    ]
    return result


def line(name: str, s: Figures) -> str:
    return (
        f"{name}: {s['games_per_second_median']:.2f} games/s "
        f"({s['games_per_second_min']:.2f}-{s['games_per_second_max']:.2f}), "
        f"{s['decisions_per_second_median']:,} decisions/s "
        f"({s['decisions_per_second_min']:,}-{s['decisions_per_second_max']:,}), "
        f"{s['decisions_per_game']:.0f} decisions per game, "
        f"{s['games_per_cpu_second_median']:.2f} games per cpu second, "
        f"{s['rounds']} rounds of {s['games_per_round']} games"
    )


def rounds(per_round: list[Figures]) -> list[str]:
    return [
        f"  round {i + 1}: {r['games_per_second']:.2f} games/s, "
        f"{r['decisions_per_second']:,} decisions/s, {r['seconds']:.2f} s "
        f"(cpu {r['cpu_seconds']:.2f} s)"
        for i, r in enumerate(per_round)
    ]


def report(result: Figures) -> str:
    lines = [result["benchmark"], f"date: {result['date']}"]
    m = result["machine"]
    lines.append(
        f"machine: {m['cpu']}, {m['cpus']} cpus, pinned to cpu {m['pinned_cpu']}, "
        f"{m['implementation']} {m['python']}, {m['platform']}"
    )
    if "ours" in result:
        o = result["ours"]
        lines.append(line("ours", o))
        dirty = f" (uncommitted changes: {o['service_dirty']})" if "service_dirty" in o else ""
        lines.append(
            f"  commit {o['commit']}, service imported from "
            f"{o['service_source']}{dirty}, games without a winner: "
            f"{o['games_without_winner']}"
        )
        lines += rounds(o["per_round"])
    else:
        lines.append(f"ours: not measured ({result['ours_not_measured']})")
    c = result["catanatron"]
    lines.append(line(f"catanatron {c['version']}", c))
    lines.append(f"  games cut at TURNS_LIMIT={c['turns_limit']}: {c['games_cut_at_turns_limit']}")
    lines += rounds(c["per_round"])
    if "ratio_ours_to_catanatron" in result:
        ratio = result["ratio_ours_to_catanatron"]
        lines.append(
            f"ratio ours/catanatron (medians): {ratio['games_per_second']}x games/s, "
            f"{ratio['decisions_per_second']}x decisions/s, "
            f"{ratio['games_per_cpu_second']}x games per cpu second "
            f"(target: at least 8x games/s)"
        )
    if "ours_profile" in result:
        p = result["ours_profile"]
        lines.append(
            f"\nprofile of ours, {p['games']} games under cProfile, top {PROFILE_TOP} by own time:"
        )
        lines.append(p["text"])
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--setup",
        action="store_true",
        help=f"create {CATANATRON_VENV.name} with catanatron, then stop",
    )
    parser.add_argument("--catanatron-python", default=str(CATANATRON_VENV / "bin" / "python"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--seconds",
        type=float,
        default=10.0,
        help="target seconds per round per engine, to size the rounds",
    )
    parser.add_argument("--games", type=int, help="our games per round (default: calibrated)")
    parser.add_argument(
        "--catanatron-games", type=int, help="catanatron games per round (default: calibrated)"
    )
    parser.add_argument("--profile", action="store_true", help="also profile ours")
    parser.add_argument("--profile-games", type=int, default=20)
    parser.add_argument("--output", type=Path, help="JSON path (the .txt goes beside it)")
    parser.add_argument(
        "--child", choices=["ours", "catanatron", "profile"], help=argparse.SUPPRESS
    )
    parser.add_argument("--round", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.games, args.round)
        return
    if args.setup:
        setup()
        return
    if not Path(args.catanatron_python).exists():
        sys.exit(f"no catanatron interpreter at {args.catanatron_python}: run with --setup")

    cpu = pin_to_one_cpu()
    theirs_python = args.catanatron_python
    calibration = run_child(theirs_python, "catanatron", 5, -1, timeout=300)
    if "error" in calibration:
        sys.exit(f"catanatron does not play:\n{calibration['error']}")
    theirs_games = args.catanatron_games or games_for(calibration, args.seconds)
    ours_probe = run_child(sys.executable, "ours", 3, -1, timeout=300)
    ours_available = "error" not in ours_probe
    if ours_available:
        ours_games = args.games or games_for(ours_probe, args.seconds)
    else:
        print(f"ours not available, measuring catanatron alone: {ours_probe['error']}", flush=True)

    our_rounds: list[Figures] = []
    their_rounds: list[Figures] = []
    for r in range(args.rounds):
        if ours_available:
            our_rounds.append(run_child(sys.executable, "ours", ours_games, r))
            if "error" in our_rounds[-1]:
                sys.exit(our_rounds[-1]["error"])
            o = our_rounds[-1]
            print(
                f"round {r + 1}: ours {o['games'] / o['seconds']:.2f} games/s, "
                f"{o['decisions'] / o['seconds']:,.0f} decisions/s",
                flush=True,
            )
        their_rounds.append(run_child(theirs_python, "catanatron", theirs_games, r))
        if "error" in their_rounds[-1]:
            sys.exit(their_rounds[-1]["error"])
        t = their_rounds[-1]
        print(
            f"round {r + 1}: catanatron {t['games'] / t['seconds']:.2f} games/s, "
            f"{t['decisions'] / t['seconds']:,.0f} decisions/s",
            flush=True,
        )

    theirs = summary(their_rounds)
    result: Figures = {
        "benchmark": "catan base game, 4 random players, one core, each round of each engine "
        "in a fresh interpreter, ours and catanatron interleaved round by round",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {**machine(), "pinned_cpu": cpu},
    }
    if ours_available:
        ours = summary(our_rounds)
        result["ours"] = {
            "engine": "service.rules registry 'catan' via play_game, 4 'random' bots",
            "options": {},
            "python": our_rounds[0]["python"],
            **git_state(),
            **ours,
        }
    else:
        result["ours_not_measured"] = ours_probe["error"]
    result["catanatron"] = {
        "engine": "catanatron Game([RandomPlayer(c) for c in Color], seed=...).play(), "
        "default base map",
        "version": their_rounds[0]["catanatron"],
        "python": their_rounds[0]["python"],
        "turns_limit": their_rounds[0]["turns_limit"],
        **theirs,
    }
    if ours_available:
        result["ratio_ours_to_catanatron"] = {
            "games_per_second": round(
                ours["games_per_second_median"] / theirs["games_per_second_median"], 2
            ),
            "decisions_per_second": round(
                ours["decisions_per_second_median"] / theirs["decisions_per_second_median"], 2
            ),
            "games_per_cpu_second": round(
                ours["games_per_cpu_second_median"] / theirs["games_per_cpu_second_median"], 2
            ),
        }
        if args.profile:
            profiled = run_child(sys.executable, "profile", args.profile_games, -1)
            if "error" in profiled:
                sys.exit(profiled["error"])
            result["ours_profile"] = {"games": args.profile_games, "text": profiled["profile"]}

    text = report(result)
    print(text, end="")
    default = "catan_side_by_side.json" if ours_available else "catan_catanatron_only.json"
    output: Path = args.output or RESULTS / default
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(result, indent=2) + "\n")
    output.with_suffix(".txt").write_text(text)


if __name__ == "__main__":
    main()

"""Our Carcassonne family and cschnelz/CarcassoneAI, measured side by side.

cschnelz/CarcassoneAI is the fastest pure-Python Carcassonne engine issue 13 found. It
plays the base game only (72 tiles, two players, farmers scored at the end), so each of
our cases is set against its base game, played in the same run:

- ``base``: ours, the base game, two ``random`` bots, farmers on;
- ``expansions``: ours with all five Big Box expansions on (Inns & Cathedrals, Traders &
  Builders, the River, Hills & Sheep, the Wheel of Fortune), two ``random`` bots;
- ``south-seas``: ours, Carcassonne South Seas with four ``random`` bots.

Ours is played through ``play_game`` (setup, bot_command, decide, evolve, with the
service's SHA-256 random streams). cschnelz's is driven as its README's API example
does, with its ``RandomAgent``'s choice: ``Game(players=[RandomAgent(), RandomAgent()])``,
then ``game.applyAction(random.choice(game.getActions()))`` until ``game.gameOver()``,
then ``game.finalScore()``; ``random`` (which also shuffles its deck) is seeded per
round. Its renderer (``Render``, which needs PIL and a Tk window) is replaced by a no-op
stand-in in ``sys.modules`` before the import, and its scoring log (``print``) goes to
/dev/null. Each of its games reads its tile file (``importTiles``) as its ``State``
does; that is part of starting one of its games, as ``setup`` is of ours.

Every round of every engine and case runs in a fresh interpreter pinned to one core
(this process pins itself with bench/machine.py and the children inherit and re-assert
it), one at a time, interleaved: cschnelz, ours base, ours expansions, ours South Seas,
then the ``legal_commands`` timing, round after round. Each child plays one untimed
warm-up game, then times N games with fixed seeds; N is sized from a short calibration
so that each round takes at least ``--seconds``. Reported per engine and case: games
per second, median and min-max over the rounds, and games per cpu second; then the
ratio of each of our cases to cschnelz's base game, of the medians and the range of the
per-round ratios. The machine has 2 cores shared with other work, so absolute figures
are noisy and only the ratios taken in one run count.

``legal_commands``: at every decision of some base games, on the state after each command
(what a client asks about between two commands), ``legal_commands(state, seat)`` is
called three times and the fastest call kept, so that a moment when another process
has the core is not counted; p50, p99 and max per decision kind over a round's games,
and of the first calls too (target: p99 under 100 µs on the base game).

Getting cschnelz/CarcassoneAI (never vendored here): its source is public on GitHub.
Either clone it (``git clone <its GitHub URL> /tmp/CarcassoneAI``) and pass the checkout,
or pass a bare git directory of it (such as the mirror the team's ``fetch`` tool makes,
/work/.mirror/cschnelz+CarcassoneAI/repo): the script exports its HEAD to a temporary
directory. Either way it needs only the standard library once its renderer is stubbed
(its ``Game`` and ``Action`` import ``turtle``; where Tk is missing, that import is
stubbed too). The commit measured is recorded.

    .venv/bin/python bench/carcassonne_side_by_side.py \\
        --cschnelz /work/.mirror/cschnelz+CarcassoneAI/repo [--rounds 3] [--seconds 5] \\
        [--profile] [--callgrind 10]

``--callgrind N`` also counts each engine's instructions per game under valgrind's
callgrind (N games of round 0's seeds after the warm-up game, minus the same child with
none), the figure the machine's load does not move. ``--profile`` also plays
``--profile-games`` games of each of our cases under cProfile
(after the timed rounds, not timed) and records the functions with the most own time
and their share. Results: bench/results/carcassonne_side_by_side.{json,txt}. The results
record the commit and where ``service`` was imported from; to measure a fixed copy
while the work tree changes, copy ``service/`` aside and put it first on the path:
``cp -r service /tmp/snap/ && PYTHONPATH=/tmp/snap .venv/bin/python bench/...``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import types
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from machine import machine, pin_to_one_cpu
from side_by_side import (
    BENCH,
    Figures,
    games_for,
    git_state,
    instructions_per_game,
    profile_top,
    run_child,
    spread,
)

SCRIPT = Path(__file__).resolve()
RESULTS = BENCH / "results" / "carcassonne_side_by_side.json"
#: our cases: (ruleset, options, seats), and the ratio to cschnelz's base game asked
CASES: dict[str, tuple[str, dict[str, Any], int]] = {
    "base": ("carcassonne", {"farmers": True}, 2),
    "expansions": ("carcassonne", {"farmers": True, "expansions": "all"}, 2),
    "south-seas": ("carcassonne-south-seas", {}, 4),
}
TARGETS = {"base": 10, "expansions": 5, "south-seas": 5}
LEGAL_TARGET_P99_US = 100
PROFILE_TOP = 25


# --- the children: one engine, N games, one clean interpreter ---------------------------


def ours_game(case: str) -> Any:
    """A function playing one game of ``case`` for a seed: its events."""
    from service.rules.carcassonne.expansions import EXPANSIONS
    from service.rules.play import play_game
    from service.rules.registry import get_ruleset

    name, options, seats = CASES[case]
    ruleset = get_ruleset(name)
    if options.get("expansions") == "all":
        options = {**options, "expansions": list(EXPANSIONS)}
    bots = ["random"] * seats

    def play(seed: bytes) -> Any:
        return play_game(ruleset, options, seats, seed, bots)[0]

    return play


def play_ours(case: str, games: int, round_index: int, profiler: Any = None) -> Figures:
    play = ours_game(case)
    play(b"warm-up")  # loads tile data, fills caches
    events = 0
    start = time.perf_counter()
    cpu = time.process_time()
    if profiler is not None:
        profiler.enable()
    for n in range(games):
        events += len(play(f"carcassonne-side-by-side-{case}-{round_index}-{n}".encode()))
    if profiler is not None:
        profiler.disable()
    return {
        "games": games,
        "seconds": time.perf_counter() - start,
        "cpu_seconds": time.process_time() - cpu,
        "events_per_game": events / max(games, 1),  # none: a callgrind baseline
    }


def time_legal_commands(games: int, round_index: int) -> Figures:
    """``legal_commands`` at every decision of ``games`` base games, as a client asks it
    between two commands: the fastest of three calls on each state (so that another
    process taking the core for a moment is not counted), in microseconds by decision
    kind; the first call on each state too."""
    from service.rules.carcassonne import CARCASSONNE as ruleset
    from service.rules.play import play_game

    best: dict[str, list[float]] = {}
    first: list[float] = []

    def observe(state: Any, events: Any) -> None:
        for decision in ruleset.decisions(state):
            took = []
            for _ in range(3):
                start = time.perf_counter_ns()
                ruleset.legal_commands(state, decision.seat)
                took.append((time.perf_counter_ns() - start) / 1000)
            first.append(took[0])
            best.setdefault(decision.kind, []).append(min(took))

    _, options, seats = CASES["base"]
    play_game(ruleset, options, seats, b"warm-up", ["random"] * seats)
    for n in range(games):
        seed = f"carcassonne-legal-commands-{round_index}-{n}".encode()
        play_game(ruleset, options, seats, seed, ["random"] * seats, observe)
    best["all"] = [t for kind in list(best) for t in best[kind]]
    us = {kind: percentiles(found) for kind, found in best.items()}
    us["all, first call"] = percentiles(first)
    return {"games": games, "us": us}


def percentiles(samples: list[float]) -> Figures:
    samples = sorted(samples)
    return {
        "decisions": len(samples),
        "mean": round(sum(samples) / len(samples), 1),
        "p50": round(samples[len(samples) // 2], 1),
        "p99": round(samples[min(len(samples) - 1, int(len(samples) * 0.99))], 1),
        "max": round(samples[-1], 1),
    }


def play_cschnelz(source: Path, games: int, round_index: int) -> Figures:
    """Play ``games`` two-player RandomAgent games of cschnelz/CarcassoneAI; time them."""
    package = source / "CarcassonneAI"
    os.chdir(package)  # its State reads TileSetSepRoads.json from the working directory
    sys.path.insert(0, str(package))
    render = types.ModuleType("Render")  # needs PIL and Tk; only used to draw a game
    render.Renderer = type("Renderer", (), {})  # type: ignore[attr-defined]
    sys.modules["Render"] = render
    try:
        import turtle  # noqa: F401  (its Game and Action import turtle.back, unused)
    except ImportError:
        stub = types.ModuleType("turtle")
        stub.back = None  # type: ignore[attr-defined]
        sys.modules["turtle"] = stub
    from Agents.Agent import RandomAgent
    from Game import Game

    def play() -> int:
        game = Game(players=[RandomAgent(), RandomAgent()])
        actions = 0
        while not game.gameOver():
            game.applyAction(random.choice(game.getActions()))
            actions += 1
        game.finalScore()
        return actions

    with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
        random.seed("carcassonne-side-by-side-warm-up")
        play()
        random.seed(f"carcassonne-side-by-side-{round_index}")
        actions = 0
        start = time.perf_counter()
        cpu = time.process_time()
        for _ in range(games):
            actions += play()
        wall = time.perf_counter() - start
        cpu_seconds = time.process_time() - cpu
    return {
        "games": games,
        "seconds": wall,
        "cpu_seconds": cpu_seconds,
        "actions_per_game": actions / max(games, 1),
    }


def profile_ours(case: str, games: int) -> Figures:
    import cProfile

    profiler = cProfile.Profile()
    figures = play_ours(case, games, round_index=-1, profiler=profiler)
    figures["profile"] = profile_top(profiler, PROFILE_TOP)
    return figures


def child(args: argparse.Namespace) -> None:
    pin_to_one_cpu()
    engine = args.child
    if engine == "cschnelz":
        figures = play_cschnelz(args.cschnelz, args.games, args.round)
    elif engine == "legal":
        figures = time_legal_commands(args.games, args.round)
    elif engine.startswith("profile-"):
        figures = profile_ours(engine.removeprefix("profile-"), args.games)
    else:
        figures = play_ours(engine, args.games, args.round)
    figures["python"] = sys.version.split()[0]
    print(json.dumps(figures))


# --- the parent: the source, calibration, interleaved rounds, the report -----------------


def cschnelz_source(path: Path, keep: list[Any]) -> tuple[Path, str]:
    """The directory holding cschnelz's ``CarcassonneAI/`` and the commit measured:
    ``path`` itself if it is a checkout, else ``path``'s HEAD exported to a temporary
    directory (``keep`` holds it until the run ends)."""

    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], capture_output=True, text=True)
        return done.stdout.strip() if done.returncode == 0 else ""

    if (path / "CarcassonneAI" / "Game.py").exists():
        return path, git("-C", str(path), "rev-parse", "HEAD") or "unknown"
    commit = git("--git-dir", str(path), "rev-parse", "HEAD")
    if not commit:
        sys.exit(f"{path} is neither a checkout of cschnelz/CarcassoneAI nor a git dir of it")
    export = tempfile.TemporaryDirectory(prefix="cschnelz-")
    keep.append(export)
    archive = subprocess.run(
        ["git", "--git-dir", str(path), "archive", commit, "CarcassonneAI"],
        capture_output=True,
        check=True,
    )
    subprocess.run(["tar", "-x", "-C", export.name], input=archive.stdout, check=True)
    return Path(export.name), commit


def per_second(rounds: list[Figures]) -> Figures:
    games = [r["games"] / r["seconds"] for r in rounds]
    per_cpu = [r["games"] / r["cpu_seconds"] for r in rounds]
    return {
        "games_per_round": rounds[0]["games"],
        "rounds": len(rounds),
        "games_per_second": spread(games),
        "games_per_cpu_second": spread(per_cpu),
        "per_round": [round(g, 2) for g in games],
    }


def report(result: Figures) -> str:
    m = result["machine"]
    lines = [
        result["benchmark"],
        f"date: {result['date']}",
        f"machine: {m['cpu']}, {m['cpus']} cpus, pinned to cpu {m['pinned_cpu']}, "
        f"{m['implementation']} {m['python']}, {m['platform']}",
        f"ours: commit {result['ours']['commit']}, service from "
        f"{result['ours']['service_source']}"
        + (
            f" (uncommitted changes: {result['ours']['service_dirty']})"
            if "service_dirty" in result["ours"]
            else ""
        ),
        f"cschnelz/CarcassoneAI: commit {result['cschnelz']['commit']}",
        "",
        "engine, case: games/s median (min-max) | games per cpu second median | rounds x games",
    ]

    def line(name: str, s: Figures) -> str:
        g, c = s["games_per_second"], s["games_per_cpu_second"]
        return (
            f"{name}: {g['median']:.2f} ({g['min']:.2f}-{g['max']:.2f}) | {c['median']:.2f} "
            f"| {s['rounds']} x {s['games_per_round']}; per round {s['per_round']}"
        )

    lines.append(line("cschnelz, base game", result["cschnelz"]))
    for case, figures in result["ours"]["cases"].items():
        lines.append(line(f"ours, {case}", figures))
    lines += ["", "ratio to cschnelz's base game: of the medians (per-round min-max), target"]
    for case, ratio in result["ratios"].items():
        lines.append(
            f"{case}: {ratio['of_medians']}x ({ratio['per_round']['min']}-"
            f"{ratio['per_round']['max']}), cpu seconds {ratio['of_cpu_medians']}x, "
            f"target {ratio['target']}x: {'met' if ratio['met'] else 'NOT met'}"
        )
    legal = result["legal_commands"]
    lines += ["", f"legal_commands on the base game, µs, {legal['games']} games a round:"]
    for kind, figures in legal["us"].items():
        lines.append(
            f"{kind}: p50 {figures['p50']} | p99 {figures['p99']} | mean {figures['mean']} "
            f"| max {figures['max']} (medians over rounds; {figures['decisions']} decisions)"
        )
    lines.append(
        f"p99 over every decision: target under {LEGAL_TARGET_P99_US} µs: "
        f"{'met' if legal['us']['all']['p99'] < LEGAL_TARGET_P99_US else 'NOT met'}"
    )
    counted = result.get("instructions_per_game")
    if counted:
        lines += ["", f"instructions per game (callgrind, {counted['games']} games, millions):"]
        for engine, millions in counted["millions"].items():
            ratio = counted["ratios"].get(engine)
            lines.append(
                f"{engine}: {millions}"
                + (f" | cschnelz's base game / this: {ratio}x" if ratio else "")
            )
    for case, profile in result.get("profiles", {}).items():
        lines += ["", f"profile of ours, {case}, {profile['games']} games under cProfile:"]
        lines.append(profile["text"].rstrip())
    return "\n".join(lines) + "\n"


def legal_summary(rounds: list[Figures]) -> Figures:
    """Each figure of each decision kind: the median over the rounds."""
    kinds = rounds[0]["us"]
    return {
        "games": rounds[0]["games"],
        "us": {
            kind: {
                key: spread([r["us"][kind][key] for r in rounds], 1)["median"]
                for key in kinds[kind]
            }
            for kind in kinds
        },
        "per_round": [r["us"] for r in rounds],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--cschnelz",
        type=Path,
        default=Path("/work/.mirror/cschnelz+CarcassoneAI/repo"),
        help="a checkout of cschnelz/CarcassoneAI, or a git directory of it",
    )
    parser.add_argument(
        "--cschnelz-python", default=sys.executable, help="the interpreter that runs it"
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per round")
    parser.add_argument("--legal-games", type=int, default=20, help="base games a round")
    parser.add_argument("--profile", action="store_true", help="also profile our cases")
    parser.add_argument("--profile-games", type=int, default=20)
    parser.add_argument(
        "--callgrind",
        type=int,
        default=0,
        metavar="GAMES",
        help="also count instructions per game under valgrind's callgrind, over GAMES "
        "games of each engine and case (about a minute per engine for 10)",
    )
    parser.add_argument("--output", type=Path, default=RESULTS, help="JSON (.txt beside)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--games", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--round", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return

    keep: list[Any] = []
    source, commit = cschnelz_source(args.cschnelz.resolve(), keep)
    theirs = [args.cschnelz_python, "--cschnelz", str(source)]
    cpu = pin_to_one_cpu()

    def run(engine: str, games: int, round_index: int, timeout: float | None = None) -> Figures:
        python, *extra = theirs if engine == "cschnelz" else [sys.executable]
        figures = run_child(python, SCRIPT, engine, games, round_index, timeout, extra)
        if "error" in figures:
            sys.exit(figures["error"])
        return figures

    engines = ["cschnelz", *CASES]
    sizes = {e: games_for(run(e, 3, -1, timeout=300), args.seconds) for e in engines}
    rounds: dict[str, list[Figures]] = {e: [] for e in [*engines, "legal"]}
    for r in range(args.rounds):
        for engine in engines:
            rounds[engine].append(run(engine, sizes[engine], r))
            f = rounds[engine][-1]
            print(f"round {r + 1}: {engine} {f['games'] / f['seconds']:.2f} games/s", flush=True)
        rounds["legal"].append(run("legal", args.legal_games, r))
        print(f"round {r + 1}: legal_commands p99 {rounds['legal'][-1]['us']['all']['p99']} µs")

    cschnelz = per_second(rounds["cschnelz"])
    cases = {case: per_second(rounds[case]) for case in CASES}
    ratios = {}
    for case, figures in cases.items():
        pairs = zip(figures["per_round"], cschnelz["per_round"], strict=True)
        per_round = [ours / theirs for ours, theirs in pairs]
        of_medians = figures["games_per_second"]["median"] / cschnelz["games_per_second"]["median"]
        ratios[case] = {
            "of_medians": round(of_medians, 2),
            "per_round": spread(per_round),
            "of_cpu_medians": round(
                figures["games_per_cpu_second"]["median"]
                / cschnelz["games_per_cpu_second"]["median"],
                2,
            ),
            "target": TARGETS[case],
            "met": of_medians >= TARGETS[case],
        }
    result: Figures = {
        "benchmark": "carcassonne family vs cschnelz/CarcassoneAI's base game, random players, "
        "one core, each round of each engine in a fresh interpreter, interleaved",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {**machine(), "pinned_cpu": cpu},
        "cschnelz": {
            "engine": "cschnelz/CarcassoneAI Game(players=[RandomAgent(), RandomAgent()]), "
            "random.choice(getActions()) until gameOver(), then finalScore()",
            "commit": commit,
            "python": rounds["cschnelz"][0]["python"],
            "actions_per_game": rounds["cschnelz"][0]["actions_per_game"],
            **cschnelz,
        },
        "ours": {
            "engine": "service.rules via play_game, random bots",
            "python": rounds["base"][0]["python"],
            **git_state(),
            "cases": {
                case: {
                    "ruleset": CASES[case][0],
                    "options": CASES[case][1],
                    "seats": CASES[case][2],
                    "events_per_game": round(rounds[case][0]["events_per_game"], 1),
                    **figures,
                }
                for case, figures in cases.items()
            },
        },
        "ratios": ratios,
        "legal_commands": legal_summary(rounds["legal"]),
    }
    if args.profile:
        result["profiles"] = {
            case: {
                "games": args.profile_games,
                "text": run(f"profile-{case}", args.profile_games, -1)["profile"],
            }
            for case in CASES
        }
    if args.callgrind:
        counts = {
            engine: instructions_per_game(
                *(theirs[:1] if engine == "cschnelz" else [sys.executable]),
                SCRIPT,
                engine,
                args.callgrind,
                theirs[1:] if engine == "cschnelz" else (),
            )
            for engine in engines
        }
        result["instructions_per_game"] = {
            "games": args.callgrind,
            "millions": {engine: round(n / 1e6, 2) for engine, n in counts.items()},
            "ratios": {case: round(counts["cschnelz"] / counts[case], 2) for case in CASES},
        }
    text = report(result)
    print(text, end="")
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    args.output.with_suffix(".txt").write_text(text)


if __name__ == "__main__":
    main()

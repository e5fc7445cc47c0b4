"""The ``play`` command: bot-only games in process, reproducible from a seed."""

from __future__ import annotations

import re
import subprocess
import sys

from service.rules import get_ruleset
from service.rules.play import play_game

SEED = "00ff" * 8


def play(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "service.cli", "play", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_play_prints_each_result_and_a_tally():
    run = play("--games", "2", "--seats", "3", "--bots", "greedy,random")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.strip().splitlines()
    assert [line.split(":")[0] for line in lines[:2]] == ["game 1", "game 2"]
    assert "'over': True" in lines[0]
    assert re.match(
        r"2 games in [\d.]+ s; wins \(ties count for each\): seat 0 \(greedy\)", lines[2]
    )


def test_play_with_a_seed_and_options_plays_the_game_the_library_plays():
    options = '{"expansions": ["river", "inns_cathedrals"]}'
    run = play("--seed", SEED, "--options", options, "--bots", "random,greedy")
    assert run.returncode == 0, run.stderr
    carcassonne = get_ruleset("carcassonne")
    events, state = play_game(
        carcassonne,
        {"expansions": ["river", "inns_cathedrals"]},
        2,
        bytes.fromhex(SEED),
        ["random", "greedy"],
    )
    expected = f"-> {carcassonne.result(state)} (seed {SEED}, {len(events)} events)"
    assert expected in run.stdout.splitlines()[0]


def test_play_plays_catan_bot_games_the_library_plays():
    run = play("--ruleset", "catan", "--seed", SEED, "--seats", "3", "--bots", "value,random")
    assert run.returncode == 0, run.stderr
    catan = get_ruleset("catan")
    events, state = play_game(catan, {}, 3, bytes.fromhex(SEED), ["value", "random", "value"])
    assert catan.result(state)["over"]
    expected = f"-> {catan.result(state)} (seed {SEED}, {len(events)} events)"
    assert expected in run.stdout.splitlines()[0]


def test_play_refuses_unknown_options_bots_and_rulesets():
    bad_options = play("--options", '{"expansions": ["dragons"]}')
    assert bad_options.returncode == 2
    assert "bad --options: expansions must be a list drawn from" in bad_options.stderr
    assert play("--bots", "genius").returncode == 2
    assert "has no bot 'genius'" in play("--bots", "genius").stderr
    assert play("--ruleset", "chess").returncode == 2


def test_a_game_its_bots_never_end_is_told_in_a_line_and_the_exit_status():
    """Bots may never reach a Catan target of 20 points: that game is told as such,
    the others go on, and the exit status says that one had no end."""
    run = play(
        "--ruleset",
        "catan",
        "--seed",
        SEED,
        "--seats",
        "4",
        "--bots",
        "random",
        "--options",
        '{"victory_points": 20}',
        "--games",
        "2",
    )
    assert run.returncode == 1, run.stderr
    lines = run.stdout.strip().splitlines()
    assert lines[0] == (
        f"game 1: seats ['random', 'random', 'random', 'random'] -> no end after 100,000"
        f" commands (seed {SEED}): these bots may never reach its end"
    )
    assert lines[1].startswith("game 2: ")
    assert lines[2].endswith("without an end") and "2 without an end" in lines[2]
    assert "Traceback" not in run.stderr

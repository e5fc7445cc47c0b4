"""Whether a change to a rules core still plays the same games: one hash per case.

Plays bot games of the Carcassonne and Catan families with fixed seeds through ``play_game`` and
hashes, per case, every event (type, data, who may see it), each final view and, for
every fifth game, the ``legal_commands`` of every decision on the way. Run it on two
commits and compare the lines: a speed-up must leave every hash as it was.

    .venv/bin/python bench/same_games.py [--games 300]
    PYTHONPATH=/tmp/before .venv/bin/python bench/same_games.py   # another copy of service/

Cases: the base game with random bots (``--games``), greedy bots at three seats (a
thirtieth), external randomness without farmers, all five expansions and South Seas at four
seats (a third each); Catan's base game with random bots at four seats (a third), value
bots at three seats with shuffled numbers (a thirtieth), and each Seafarers scenario with
random bots at four seats (at least 3 games each).
"""

from __future__ import annotations

import argparse
import hashlib
import json
from typing import Any

from service.rules.carcassonne.expansions import EXPANSIONS
from service.rules.play import play_game
from service.rules.registry import get_ruleset

#: name -> (ruleset, options, seats, bot, share of --games)
CASES: dict[str, tuple[str, dict[str, Any], int, str, float]] = {
    "base": ("carcassonne", {"farmers": True}, 2, "random", 1),
    "base, greedy, 3 seats": ("carcassonne", {"farmers": True}, 3, "greedy", 1 / 30),
    "external, no farmers": (
        "carcassonne",
        {"farmers": False, "randomness": "external"},
        2,
        "random",
        1 / 3,
    ),
    "all expansions": ("carcassonne", {"expansions": list(EXPANSIONS)}, 2, "random", 1 / 3),
    "south seas": ("carcassonne-south-seas", {}, 4, "random", 1 / 3),
    "catan": ("catan", {}, 4, "random", 1 / 3),
    "catan, value, 3 seats, shuffled numbers": (
        "catan",
        {"numbers": "shuffled", "no_adjacent_red_numbers": True},
        3,
        "value",
        1 / 30,
    ),
    **{
        f"seafarers scenario {n}": ("catan", {"scenario": n}, 4, "random", 1 / 100)
        for n in range(1, 10)
    },
}


def case_hash(name: str, games: int) -> str:
    ruleset_name, options, seats, bot, _ = CASES[name]
    ruleset = get_ruleset(ruleset_name)
    digest = hashlib.sha256()

    def add(value: Any) -> None:
        digest.update(json.dumps(value, sort_keys=True, default=str).encode())

    def menus(state: Any, events: Any) -> None:
        for decision in ruleset.decisions(state):
            add(ruleset.legal_commands(state, decision.seat))

    for n in range(games):
        seed = f"same-games-{name}-{n}".encode()
        observe = menus if n % 5 == 0 else None
        events, state = play_game(ruleset, options, seats, seed, [bot] * seats, observe)
        for event in events:
            add([event.type, event.data, event.visible_to])
        add(ruleset.view(state, None))
    return digest.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="base games (others: a share)")
    args = parser.parse_args()
    for name, (*_, share) in CASES.items():
        games = max(3, round(args.games * share))
        print(f"{name}: {games} games, {case_hash(name, games)}", flush=True)


if __name__ == "__main__":
    main()

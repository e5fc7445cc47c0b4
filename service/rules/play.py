"""Playing a whole game between bots through the public decider path, for any ruleset.

For the CLI ``play`` command, benchmarks and property tests::

    from service.rules.carcassonne import CARCASSONNE
    from service.rules.play import play_game

    events, state = play_game(CARCASSONNE, {}, seats=2, seed=b"42", bots=["random", "greedy"])
    CARCASSONNE.result(state)   # {"scores": [...], "over": True, "winners": [...]}
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from service.rules.core import Event, Ruleset, rng_for

State = TypeVar("State")


def play_game(
    ruleset: Ruleset[State],
    options: Mapping[str, Any],
    seats: int,
    seed: bytes,
    bots: Sequence[str],
) -> tuple[list[Event], State]:
    """Play a whole game between bots through the public decider path.

    ``bots[i]`` names the bot of seat ``i``; the first awaited seat acts each time (a
    seat may be awaited outside its turn). Randomness is numbered as the service numbers
    it: setup draws from ``rng_for(seed, 1)`` and each command from ``rng_for(seed, n)``
    with ``n`` the seq its first event will get, so a seed replays the same game here
    and over HTTP; the bots draw from their own generator seeded from ``seed``. Returns the
    events and the final state; same arguments, same game.
    """
    normalised = ruleset.normalize_options(options)
    events = ruleset.setup(normalised, seats, rng_for(seed, 1))
    state = ruleset.fold(events)
    bot_rng = random.Random(seed + b"/bots")
    while not ruleset.is_over(state):
        seat = ruleset.awaiting(state)[0]["seat"]
        command = ruleset.bot_command(state, seat, bots[seat], bot_rng)
        new = ruleset.decide(state, seat, command, rng_for(seed, len(events) + 1))
        for event in new:
            ruleset.evolve(state, event)
        events += new
    return events, state

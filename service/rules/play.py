"""Playing a whole game between bots through the public decider path, for any ruleset.

For the CLI ``play`` command, benchmarks and property tests::

    from service.rules.carcassonne import CARCASSONNE
    from service.rules.play import play_game

    events, state = play_game(CARCASSONNE, {}, seats=2, seed=b"42", bots=["random", "greedy"])
    CARCASSONNE.result(state)   # {"scores": [...], "over": True, "winners": [...]}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from service.rules.core import Event, Ruleset, bot_rng_for, rng_for

State = TypeVar("State")


#: commands a bot game may take before it counts as one that never ends: far beyond any
#: game that does (a Wonders of Catan game at 3 seats takes about 2,400 decisions)
MAX_COMMANDS = 100_000


class NoEnd(RuntimeError):
    """A bot game still going after its command budget: bots that can never end it (a
    Catan target of 20 points they never reach), or a rules bug."""


def play_game(
    ruleset: Ruleset[State],
    options: Mapping[str, Any],
    seats: int,
    seed: bytes,
    bots: Sequence[str],
    observe: Callable[[State, list[Event]], None] | None = None,
    max_commands: int = MAX_COMMANDS,
) -> tuple[list[Event], State]:
    """Play a whole game between bots through the public decider path.

    ``bots[i]`` names the bot of seat ``i``; the first awaited seat acts each time (a
    seat may be awaited outside its turn). Randomness is numbered as the service numbers
    it: setup draws from ``rng_for(seed, 1)``, each command from ``rng_for(seed, n)`` and
    the bot choosing it from ``bot_rng_for(seed, n)``, with ``n`` the seq its first event
    will get; so a seed replays here exactly the bot game the service played with it.
    ``observe(state, events)``, if given, sees the state after setup and after every
    command (property tests check invariants there). Returns the events and the final
    state; same arguments, same game. A game still going after ``max_commands``
    commands raises :class:`NoEnd` rather than play on for ever.
    """
    normalised = ruleset.normalize_options(options)
    events = ruleset.setup(normalised, seats, rng_for(seed, 1))
    state = ruleset.fold(events)
    if observe is not None:
        observe(state, events)
    # (decisions are open until the game is over: asked once a move, not is_over too)
    commands = 0
    while awaited := ruleset.decisions(state):
        commands += 1
        if commands > max_commands:
            raise NoEnd(f"{ruleset.name}: no end after {max_commands} commands")
        seat = awaited[0].seat
        seq = len(events) + 1
        command = ruleset.bot_command(state, seat, bots[seat], bot_rng_for(seed, seq))
        events += ruleset.apply(state, seat, command, rng_for(seed, seq))
        if observe is not None:
            observe(state, events)
    if not ruleset.is_over(state):
        raise RuntimeError(f"{ruleset.name}: no decision open in a game not over")
    return events, state

"""The start of a game's log, checked the same way for a hosted game (``POST /v1/games``)
and for a record validated statelessly (``POST /v1/validate``): the ruleset, the seat
count, the options and the setup events, each refused with the field at fault."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from service.app.errors import ValidationFailed
from service.rules.clock import TimeControlError, normalize_clock
from service.rules.core import JSON, Event, InvalidOptions, RulesError, Ruleset, rng_for

RulesetLookup = Callable[[str], Ruleset | None]


def find_ruleset(rulesets: RulesetLookup, name: str) -> Ruleset:
    ruleset = rulesets(name)
    if ruleset is None:
        raise ValidationFailed("ruleset", f"unknown ruleset {name!r}")
    return ruleset


def check_seat_count(ruleset: Ruleset, count: int) -> None:
    if not ruleset.min_seats <= count <= ruleset.max_seats:
        raise ValidationFailed(
            "seats",
            f"{ruleset.name} takes {ruleset.min_seats} to {ruleset.max_seats} seats, not {count}",
        )


def rules_options(options: dict[str, Any]) -> dict[str, Any]:
    """A game's normalised options as its ruleset took them: without the service's
    ``clock``."""
    return {name: value for name, value in options.items() if name != "clock"}


def genesis(
    ruleset: Ruleset, options: dict[str, Any], seats: int, seed: bytes
) -> tuple[JSON, list[Event]]:
    """The normalised options and the setup events (drawn from ``rng_for(seed, 1)``).
    The option ``clock`` (a time control, :mod:`service.rules.clock`) is the service's,
    the same for every ruleset: checked here, kept in the options, not given to the
    ruleset's setup."""
    options = dict(options)
    try:
        clock = normalize_clock(options.pop("clock", None), ruleset.bots)
    except TimeControlError as exc:
        raise ValidationFailed("options.clock", str(exc)) from exc
    try:
        normalized = ruleset.normalize_options(options)
    except InvalidOptions as exc:
        raise ValidationFailed(f"options.{exc.field}", exc.message) from exc
    try:
        events = ruleset.setup(normalized, seats, rng_for(seed, 1))
        if clock is not None:
            ruleset.seat_count(ruleset.fold(events))  # a ruleset with the table's commands
    except RulesError as exc:
        raise ValidationFailed("options", exc.message) from exc
    if clock is not None:
        if clock["on_timeout"] != "forfeit" and not bots_may_play(ruleset, normalized):
            raise ValidationFailed("options.clock.on_timeout", NO_BOTS_EXTERNAL)
        normalized = {**normalized, "clock": clock}
    return normalized, events


#: why a seat of such a game cannot be a bot's, be handed to one or skip a timeout
NO_BOTS_EXTERNAL = (
    "with external randomness a seat of this ruleset is played by its person only:"
    " its bots (and a timeout's skip, which answers as a bot) cannot send the outcomes"
    " only the client knows; a seat out of time can only forfeit"
)


def bots_may_play(ruleset: Ruleset, options: JSON) -> bool:
    """Whether bots may play a seat of a game with these (normalised) options."""
    return ruleset.bots_play_external or options.get("randomness") != "external"

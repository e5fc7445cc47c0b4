"""The start of a game's log, checked the same way for a hosted game (``POST /v1/games``)
and for a record validated statelessly (``POST /v1/validate``): the ruleset, the seat
count, the options and the setup events, each refused with the field at fault."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from service.app.errors import ValidationFailed
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


def genesis(
    ruleset: Ruleset, options: dict[str, Any], seats: int, seed: bytes
) -> tuple[JSON, list[Event]]:
    """The normalised options and the setup events (drawn from ``rng_for(seed, 1)``)."""
    try:
        normalized = ruleset.normalize_options(options)
    except InvalidOptions as exc:
        raise ValidationFailed(f"options.{exc.field}", exc.message) from exc
    try:
        return normalized, ruleset.setup(normalized, seats, rng_for(seed, 1))
    except RulesError as exc:
        raise ValidationFailed("options", exc.message) from exc

"""The rulesets the service offers, by name."""

from __future__ import annotations

from functools import cache

from service.rules.core import Ruleset


@cache
def _registry() -> dict[str, Ruleset]:
    # Imported here so that importing the core never pays for loading every game's data.
    from service.rules.carcassonne import CARCASSONNE
    from service.rules.catan.game import CATAN
    from service.rules.south_seas import SOUTH_SEAS

    rulesets: list[Ruleset] = [CARCASSONNE, SOUTH_SEAS, CATAN]
    return {ruleset.name: ruleset for ruleset in rulesets}


def all_rulesets() -> list[Ruleset]:
    return list(_registry().values())


def get_ruleset(name: str) -> Ruleset | None:
    return _registry().get(name)

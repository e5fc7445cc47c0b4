"""The pure rules core: one decider per game, no I/O.

``get_ruleset(name)`` returns the decider registered under ``name``; see
:mod:`service.rules.core` for the protocol.
"""

from service.rules.core import Event, IllegalMove, InvalidOptions, RulesError, Ruleset, rng_for
from service.rules.registry import all_rulesets, get_ruleset

__all__ = [
    "Event",
    "IllegalMove",
    "InvalidOptions",
    "Ruleset",
    "RulesError",
    "all_rulesets",
    "get_ruleset",
    "rng_for",
]

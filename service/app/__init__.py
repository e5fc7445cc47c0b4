"""Use cases: create a game, submit a command, read views, verify, validate a record.

Each use case loads from the store, asks the ruleset, and appends in one transaction.
Nothing here knows about HTTP; errors are :mod:`service.app.errors`.
"""

from service.app.games import GameService, Outcome
from service.app.validate import validate_record

__all__ = ["GameService", "Outcome", "validate_record"]

"""What a running app holds: settings, the pool, the use cases, the NOTIFY listener."""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app

from service.app import GameService
from service.app.genesis import RulesetLookup
from service.config import Settings
from service.store import Database
from service.store.notify import Listener


@dataclass
class Runtime:
    settings: Settings
    db: Database
    games: GameService
    listener: Listener
    rulesets: RulesetLookup
    ruleset_names: list[str]


def runtime() -> Runtime:
    return current_app.extensions["tilegames"]

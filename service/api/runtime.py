"""What a running app holds: settings, the pool, the use cases, the NOTIFY listener,
the event streams, the webhook delivery worker."""

from __future__ import annotations

from dataclasses import dataclass, field

from flask import current_app

from service.api.ratelimit import AcceptedSeats
from service.api.stream_hub import StreamHub, StreamSlots
from service.app import GameService
from service.app.delivery import DeliveryWorker
from service.app.genesis import RulesetLookup
from service.app.webhooks import Webhooks
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
    #: the event streams this process serves, and how many each credential has open
    streams: StreamHub
    stream_slots: StreamSlots
    webhooks: Webhooks
    #: sends webhook deliveries; started in each gunicorn worker (gunicorn_conf.py)
    deliveries: DeliveryWorker
    #: seat tokens a game has accepted in this process: each has a rate limit of its own
    accepted_seats: AcceptedSeats = field(default_factory=AcceptedSeats)


def runtime() -> Runtime:
    return current_app.extensions["tilegames"]

"""Rate limiting: who a request counts against, the headers that let a client pace
itself, and the ``memory://`` counters without a thread per request.

A request counts against its API key, else its seat token once this process has seen
that token accepted by a game, else its client address: so made-up tokens share their
address's limit instead of each getting a fresh one. Every route but the health probes
draws on the same limit, counted in fixed windows by the ``limits`` library, and with
``RATELIMIT_STORAGE_URI=redis://…`` every worker and replica counts together.

:class:`RateLimiter` does only that. It replaced flask-limiter, whose general machinery
(per-route and per-blueprint limits, meta limits, exemption scopes, fallbacks) cost about
a quarter of the CPU of a request to ``/healthz``, an exempt route, and a tenth of a move's
(``bench/http_bench.py``).

The storage:

``limits``' :class:`MemoryStorage` starts a fresh ``threading.Timer(0.01)`` to sweep
expired keys whenever the previous one has finished, which under steady traffic means
starting a thread on nearly every request. Expiry never depends on that sweep (a
counter is checked against its expiry when read, a moving window against its entries'
times), so sweeping at most once a second keeps the same limits and bounds memory the
same way, for a fraction of the cost.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from flask import Flask, Response, g, request
from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage, storage_from_string
from limits.strategies import FixedWindowRateLimiter
from werkzeug.exceptions import TooManyRequests

from service.app.seats import hash_token

AfterRequest = Callable[[Response], Response]

MEMORY_SCHEME = "tilegames-memory"
SWEEP_SECONDS = 1.0


class SweptMemoryStorage(MemoryStorage):
    """:class:`MemoryStorage` whose sweeper runs at most once per ``SWEEP_SECONDS``."""

    STORAGE_SCHEME = [MEMORY_SCHEME]

    def _MemoryStorage__schedule_expiry(self) -> None:  # overrides the private hook
        if not self.timer.is_alive():
            # (limits' private sweeper, which mypy cannot see by its mangled name)
            expire = self._MemoryStorage__expire_events  # type: ignore[attr-defined]
            self.timer = threading.Timer(SWEEP_SECONDS, expire)
            self.timer.daemon = True
            self.timer.start()


def storage_uri(configured: str) -> str:
    """The storage to use for a configured URI: ours in place of plain ``memory://``."""
    return f"{MEMORY_SCHEME}://" if configured == "memory://" else configured


class AcceptedSeats:
    """Hashes of the seat tokens a game has accepted in this process (bounded, most
    recent kept): only those get a limit of their own."""

    def __init__(self, capacity: int = 100_000) -> None:
        self.capacity = capacity
        self._hashes: OrderedDict[str, None] = OrderedDict()
        self._lock = threading.Lock()

    def __contains__(self, token_hash: str) -> bool:
        return token_hash in self._hashes

    def add(self, token_hash: str) -> None:
        with self._lock:
            self._hashes[token_hash] = None
            self._hashes.move_to_end(token_hash)
            if len(self._hashes) > self.capacity:
                self._hashes.popitem(last=False)


class RateLimiter:
    """``limit`` (``"6000 per minute"``, or several separated by ``;``) per caller, as
    ``key()`` names the caller, on every request except those to the ``exempt``
    blueprints; counted in fixed windows in the storage at ``storage_uri``."""

    def __init__(
        self, limit: str, storage_uri: str, key: Callable[[], str], exempt: frozenset[str]
    ) -> None:
        self.limits = sorted(parse_many(limit))
        self.counter = FixedWindowRateLimiter(storage_from_string(storage_uri))
        self.key = key
        self.exempt = exempt

    def count(self, who: str) -> tuple[RateLimitItem, bool]:
        """Count a request of ``who`` against each limit: the first spent one (and
        ``False``), else the tightest (and ``True``)."""
        for limit in self.limits:
            if not self.counter.hit(limit, KEY_PREFIX, who):
                return limit, False
        return limit, True

    def check(self) -> None:
        """``before_request``: count the request against each limit; 429 once one is
        spent (:func:`service.api.problems.handle_http_exception` says so). A request
        the fast path counted already (``COUNTED`` in its environ) is not counted again."""
        if request.blueprint in self.exempt:
            return
        counted = request.environ.get(COUNTED)
        limit, allowed = counted[1:] if counted else self.count(who := self.key())
        g.rate_limit = (limit, counted[0] if counted else who)
        if not allowed:
            raise TooManyRequests(str(limit))

    def window(self, limit: RateLimitItem, who: str, status: int) -> list[tuple[str, str]]:
        """The IETF draft's ``RateLimit-Limit``, ``RateLimit-Remaining`` and
        ``RateLimit-Reset`` (seconds until the window resets), and ``Retry-After`` on a
        429."""
        stats = self.counter.get_window_stats(limit, KEY_PREFIX, who)
        reset = max(0, int(stats.reset_time - time.time()))
        headers = [
            ("RateLimit-Limit", str(limit.amount)),
            ("RateLimit-Remaining", str(stats.remaining)),
            ("RateLimit-Reset", str(reset)),
        ]
        if status == 429:
            headers.append(("Retry-After", str(max(1, reset))))
        return headers

    def headers(self, response: Response) -> Response:
        """``after_request``: :meth:`window`'s headers on every limited response."""
        counted = g.get("rate_limit")
        if counted is None:
            return response
        limit, who = counted
        for name, value in self.window(limit, who, response.status_code):
            response.headers[name] = value
        return response


#: the environ key under which the fast path (``service/api/fast.py``) hands Flask a
#: request it counted already: ``(who, limit, allowed)``
COUNTED = "tilegames.rate_counted"
#: what the counters' keys start with in the storage (shared by replicas over Redis)
KEY_PREFIX = "tilegames-rate"


def remember_accepted_seats(seats: AcceptedSeats) -> AfterRequest:
    """``after_request``: a game route that answered a request carrying only a seat
    token with success accepted that token (every game route checks it against the
    game's seats and refuses a stranger's with 403). Not an OPTIONS request: Flask
    answers those itself, without the route, so no token was checked."""

    def remember(response: Response) -> Response:
        token = g.get("rate_limit_seat_token")
        on_a_game = "game_id" in (request.view_args or {}) and request.method != "OPTIONS"
        if token is not None and response.status_code < 400 and on_a_game:
            seats.add(hash_token(token))
        return response

    return remember


def install(app: Flask, limiter: RateLimiter, seats: AcceptedSeats) -> None:
    app.before_request(limiter.check)
    app.after_request(limiter.headers)
    app.after_request(remember_accepted_seats(seats))

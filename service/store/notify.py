"""One LISTEN connection per process that wakes every local subscriber of a game.

Appends run ``pg_notify('game_events', '<game_id>:<version>')`` inside their
transaction, so PostgreSQL delivers the notice on commit to every replica. Each SSE
stream waits on its game's condition here; a notice (or a periodic timeout, in case a
notice was missed while reconnecting) makes it read the new events from the table,
which stays the only truth. A subscriber (the process's stream hub) is called instead
on every notice, and with ``None`` whenever the listener has (re)connected, since
notices sent while it was away are lost.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

import psycopg

from service.store.events import NOTIFY_CHANNEL

log = logging.getLogger(__name__)
MAX_TRACKED_GAMES = 10_000
#: called with (game_id, version) on a notice, or (None, 0) after (re)connecting
Subscriber = Callable[[str | None, int], None]


class Listener:
    def __init__(self, url: str) -> None:
        self.url = url
        self._lock = threading.Lock()
        # Latest announced version per game, bounded: every process hears every append.
        self._versions: OrderedDict[str, int] = OrderedDict()
        self._changed = threading.Condition(self._lock)
        self._thread: threading.Thread | None = None
        self._listening = threading.Event()
        self._subscribers: list[Subscriber] = []

    def subscribe(self, subscriber: Subscriber) -> None:
        """Call ``subscriber`` from the listener's thread on every notice from now on."""
        with self._lock:
            self._subscribers.append(subscriber)

    def start(self, timeout: float = 2.0) -> None:
        """Start the background thread once, in the process that serves requests, and
        wait until it listens, so a first subscriber misses no notice."""
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="pg-listen", daemon=True)
                self._thread.start()
        self._listening.wait(timeout)

    def wait(self, game_id: str, known_version: int, timeout: float) -> int:
        """Block until a notice says ``game_id`` passed ``known_version`` or ``timeout``
        elapses; return the highest version announced so far (maybe still old)."""
        self.start()
        deadline = time.monotonic() + timeout
        with self._changed:
            while self._versions.get(game_id, 0) <= known_version:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                self._changed.wait(remaining)
            return self._versions.get(game_id, 0)

    def _run(self) -> None:
        while True:
            try:
                with psycopg.connect(self.url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    self._listening.set()
                    self._tell(None, 0)  # whatever was sent before now may be unheard
                    for notice in conn.notifies():
                        self._deliver(notice.payload)
            except psycopg.Error as exc:
                self._listening.clear()
                log.warning("listener connection lost, retrying", extra={"error": str(exc)})
                time.sleep(1.0)

    def _deliver(self, payload: str) -> None:
        game_id, _, version = payload.partition(":")
        if not version.isdigit():
            return
        with self._changed:
            self._versions[game_id] = max(self._versions.get(game_id, 0), int(version))
            self._versions.move_to_end(game_id)
            while len(self._versions) > MAX_TRACKED_GAMES:
                self._versions.popitem(last=False)
            self._changed.notify_all()
        self._tell(game_id, int(version))

    def _tell(self, game_id: str | None, version: int) -> None:
        for subscriber in list(self._subscribers):
            subscriber(game_id, version)

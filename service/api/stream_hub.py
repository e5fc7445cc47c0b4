"""Event streams that pin no worker thread: one hub thread per worker process serves
every stream that process has open.

A stream request is checked on a worker thread like any other request (``sse.py``):
credentials, the game, the caller's seat, the per-credential cap. Under the service's
own gunicorn worker (``framing.BoundedThreadWorker``) that thread then hands the
connection over and goes back to serving moves. The hub adopts the socket, writes the
response head and the events after ``after``, and from then on waits on one selector for
all of its streams, woken by the process's NOTIFY listener. A new event costs one read
of the log per game, whatever the number of viewers; a quiet stream costs a keep-alive
comment every ``SSE_POLL_SECONDS`` and nothing else. When the listener (re)connects, a
notice may have been lost meanwhile, so every game with viewers is read again.

A stream ends (the hub closes the connection, and the client reconnects with
``Last-Event-ID``) when its game is over (after ``event: end``), after
``SSE_MAX_SECONDS``, when the database cannot be read, or when the client reads so
slowly that more than :data:`MAX_UNSENT` bytes wait for it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import selectors
import socket
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from service.app import GameService
from service.app.auth import revoked_keys
from service.app.games import event_item
from service.rules.core import Ruleset
from service.store import DatabaseUnavailable
from service.store.notify import Listener

log = logging.getLogger(__name__)

#: events read from the log at once
PAGE = 500
#: bytes a stream may have waiting for a slow client before the hub drops it
MAX_UNSENT = 4 << 20
#: a long log is sent a page at a time: the next page is read once every viewer of the
#: game has fewer bytes than this waiting
BACKLOG_BYTES = 256 << 10
#: the longest the hub sleeps between checks of keep-alives and lifetimes
TICK_SECONDS = 1.0
RETRY = "retry: 1000\n\n"
KEEP_ALIVE = ": keep-alive\n\n"


def event_message(ruleset: Ruleset, event, seat: int | None) -> str:
    """One SSE message: the event as ``seat`` may see it."""
    item = event_item(ruleset, event, seat)
    return f"id: {event.seq}\nevent: {event.type}\ndata: {json.dumps(item)}\n\n"


def end_message(version: int) -> str:
    return f"id: {version}\nevent: end\ndata: {json.dumps({'version': version})}\n\n"


class StreamSlots:
    """How many streams each credential has open in this process, within a cap."""

    def __init__(self, per_credential: int) -> None:
        self.per_credential = per_credential
        self._open: dict[str, int] = defaultdict(int)
        self._lock = threading.Lock()

    def take(self, credential: str) -> Callable[[], None] | None:
        """A slot for ``credential`` (call the result once to free it), or ``None``
        when it has its cap open already."""
        with self._lock:
            if self._open[credential] >= self.per_credential:
                return None
            self._open[credential] += 1
        freed = threading.Event()

        def free() -> None:
            if freed.is_set():
                return
            freed.set()
            with self._lock:
                self._open[credential] -= 1
                if not self._open[credential]:
                    del self._open[credential]

        return free

    def open_for(self, credential: str) -> int:
        with self._lock:
            return self._open.get(credential, 0)


@dataclass(eq=False)
class Stream:
    """One adopted connection: who watches which game, and what is still to send."""

    sock: socket.socket
    game_id: str
    ruleset: Ruleset
    seat: int | None
    last: int
    deadline: float
    free_slot: Callable[[], None]
    #: the body in HTTP/1.1 chunks (else it runs until the connection closes, for
    #: HTTP/1.0); chunks reach a reader as they come, where some clients read a body
    #: that has no framing in fixed-size blocks
    chunked: bool = True
    unsent: bytearray = field(default_factory=bytearray)
    next_keep_alive: float = 0.0
    ending: bool = False  # nothing more to add: close once the rest is sent
    #: the API key the stream was opened with (None: a seat token's): checked at each
    #: keep-alive, and the stream ends once it has been revoked
    api_key_id: str | None = None

    def add(self, text: str) -> None:
        data = text.encode()
        if self.chunked:
            self.unsent += b"%x\r\n%b\r\n" % (len(data), data)
        else:
            self.unsent += data

    def finish(self) -> None:
        """Nothing more will be added: the body's end, then the connection closes."""
        if self.chunked and not self.ending:
            self.unsent += b"0\r\n\r\n"
        self.ending = True


class StreamHub:
    """The process's streams, served by one thread (started with the first stream)."""

    def __init__(
        self, games: GameService, listener: Listener, poll_seconds: float, max_seconds: float
    ) -> None:
        self.games = games
        self.listener = listener
        self.poll_seconds = poll_seconds
        self.max_seconds = max_seconds
        self._lock = threading.Lock()
        self._arrivals: list[Stream] = []
        self._noticed: dict[str | None, int] = {}
        self._thread: threading.Thread | None = None
        self._selector = selectors.DefaultSelector()
        self._wake_reader, self._wake_writer = socket.socketpair()
        self._wake_reader.setblocking(False)
        self._wake_writer.setblocking(False)
        self._by_game: dict[str, set[Stream]] = defaultdict(set)
        #: games whose viewers have not had the whole log yet (a long one, paged)
        self._behind: set[str] = set()
        listener.subscribe(self._notice)

    # --- called from other threads -----------------------------------------------------

    def adopt(
        self,
        sock: socket.socket,
        head: bytes,
        game_id: str,
        ruleset: Ruleset,
        seat: int | None,
        after: int,
        free_slot: Callable[[], None],
        chunked: bool,
        api_key_id: str | None = None,
    ) -> None:
        """Take over ``sock``, whose response nothing has been written to yet; ``head``
        is its status line and headers."""
        now = time.monotonic()
        stream = Stream(
            sock, game_id, ruleset, seat, after, now + self.max_seconds, free_slot, chunked
        )
        stream.api_key_id = api_key_id
        stream.unsent += head
        stream.add(RETRY)
        stream.next_keep_alive = now + self.poll_seconds
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="stream-hub", daemon=True)
                self._thread.start()
            self._arrivals.append(stream)
        self._wake()

    def _notice(self, game_id: str | None, version: int) -> None:
        """The listener's callback: ``game_id`` reached ``version`` (``None``: any game
        may have moved)."""
        with self._lock:
            if self._thread is None:
                return  # no stream has been opened in this process
            self._noticed[game_id] = max(version, self._noticed.get(game_id, 0))
        self._wake()

    def _wake(self) -> None:
        with contextlib.suppress(BlockingIOError):  # else a wake-up is pending already
            self._wake_writer.send(b"\0")

    # --- the hub's thread ------------------------------------------------------------

    def _run(self) -> None:
        self._selector.register(self._wake_reader, selectors.EVENT_READ, None)
        while True:
            try:
                self._turn()
            except Exception:  # the hub must outlive any one stream's trouble
                log.exception("stream hub")

    def _turn(self) -> None:
        for key, mask in self._selector.select(TICK_SECONDS):
            stream = key.data
            if stream is None:
                self._drain_wake_ups()
            elif stream.sock.fileno() != -1:
                if mask & selectors.EVENT_READ:
                    self._read(stream)
                if mask & selectors.EVENT_WRITE and stream.sock.fileno() != -1:
                    self._send(stream)
        with self._lock:
            arrivals, self._arrivals = self._arrivals, []
            noticed, self._noticed = self._noticed, {}
        for stream in arrivals:
            self._by_game[stream.game_id].add(stream)
            self._selector.register(stream.sock, selectors.EVENT_READ, stream)
            stream.sock.setblocking(False)
        games: set[str] = (
            set(self._by_game)
            if None in noticed
            else {game for game in noticed if game is not None}
        )
        games |= {stream.game_id for stream in arrivals}
        resumed = {game for game in self._behind if not self._waiting_on_backlog(game)}
        games |= resumed
        self._behind -= games
        for game_id in games:
            self._catch_up(game_id, arrivals, resumed=game_id in resumed)
        self._tick(time.monotonic())

    def _drain_wake_ups(self) -> None:
        try:
            while self._wake_reader.recv(4096):
                pass
        except BlockingIOError:
            pass

    def _waiting_on_backlog(self, game_id: str) -> bool:
        return any(len(s.unsent) > BACKLOG_BYTES for s in self._by_game.get(game_id, ()))

    def _catch_up(self, game_id: str, arrivals: list[Stream], resumed: bool = False) -> None:
        """Send every viewer of ``game_id`` what was committed since its last event; one
        read of the log for all of them, and ``end`` once the game is over. ``resumed``:
        the game was left behind after a full page, whose end was not looked at then (the
        page may have been its last, so nothing may be left to read now)."""
        streams = [s for s in self._by_game.get(game_id, ()) if not s.ending]
        if not streams:
            return
        try:
            after = min(s.last for s in streams)
            sent_any = resumed or any(s in arrivals for s in streams)
            while True:
                batch = self.games.read_after(game_id, after, limit=PAGE)
                for stream in streams:
                    for event in batch:
                        if event.seq > stream.last:
                            stream.add(event_message(stream.ruleset, event, stream.seat))
                            stream.last = event.seq
                sent_any = sent_any or bool(batch)
                if len(batch) < PAGE:
                    break
                if self._waiting_on_backlog(game_id):
                    self._behind.add(game_id)  # the next page once they have read this
                    sent_any = False  # and the end of the game after the last page
                    break
                after = batch[-1].seq
            if sent_any:
                status, version = self.games.status(game_id)
                for stream in streams:
                    if status == "finished" and stream.last >= version:
                        stream.add(end_message(stream.last))
                        stream.finish()
        except DatabaseUnavailable:
            for stream in streams:
                stream.finish()  # the client reconnects once the database is back
        for stream in streams:
            self._send(stream)

    def _tick(self, now: float) -> None:
        idle = []
        for streams in list(self._by_game.values()):
            for stream in list(streams):
                if now >= stream.deadline and not stream.ending:
                    stream.finish()
                    self._send(stream)
                elif now >= stream.next_keep_alive and not stream.unsent:
                    idle.append(stream)
        revoked = self._revoked({s.api_key_id for s in idle if s.api_key_id is not None})
        for stream in idle:
            if stream.api_key_id in revoked:
                stream.finish()  # its key was revoked: it follows the game no more
            else:
                stream.add(KEEP_ALIVE)
                stream.next_keep_alive = now + self.poll_seconds
            self._send(stream)

    def _revoked(self, key_ids: set[str]) -> set[str]:
        """Which of the streams' API keys have been revoked (none known while the
        database is away: the streams go on)."""
        try:
            return revoked_keys(self.games.db, key_ids)
        except DatabaseUnavailable:
            return set()

    def _send(self, stream: Stream) -> None:
        try:
            while stream.unsent:
                sent = stream.sock.send(stream.unsent)
                del stream.unsent[:sent]
        except BlockingIOError:
            pass
        except OSError:
            self._close(stream)  # the client has gone
            return
        if len(stream.unsent) > MAX_UNSENT or (stream.ending and not stream.unsent):
            self._close(stream)
            return
        wanted = selectors.EVENT_READ | (selectors.EVENT_WRITE if stream.unsent else 0)
        if self._selector.get_key(stream.sock).events != wanted:
            self._selector.modify(stream.sock, wanted, stream)

    def _read(self, stream: Stream) -> None:
        """A client sends nothing after its request: readable means it closed (or sent
        bytes no one will read)."""
        try:
            if stream.sock.recv(4096):
                return
        except BlockingIOError:
            return
        except OSError:
            pass
        self._close(stream)

    def _close(self, stream: Stream) -> None:
        streams = self._by_game.get(stream.game_id)
        if streams is not None:
            streams.discard(stream)
            if not streams:
                del self._by_game[stream.game_id]
        with contextlib.suppress(KeyError, ValueError):
            self._selector.unregister(stream.sock)
        with contextlib.suppress(OSError):
            stream.sock.shutdown(socket.SHUT_WR)
        stream.sock.close()
        stream.free_slot()

"""Following a game live over Server-Sent Events.

The stream first sends the events after ``after`` (or ``Last-Event-ID``), then each
event as it is committed, redacted for the viewer, with ``: keep-alive`` comments while
nothing happens. It ends when the game is over (``event: end``), after
``SSE_MAX_SECONDS`` (clients reconnect with ``Last-Event-ID``), or, for a stream opened
with an API key, at its first keep-alive after the key is revoked.

Each credential (an API key, or a seat token) may have ``SSE_STREAMS_PER_CREDENTIAL``
streams open in a worker process; one more gets 429 ``too_many_streams``.

Served by the service's gunicorn worker, the request's thread only checks the request:
it then hands the connection to the process's :class:`~service.api.stream_hub.StreamHub`,
which serves every open stream from one thread, so streams pin no worker thread
(``framing.BoundedThreadWorker`` lets the connection go). Anywhere else (Flask's test
client, another WSGI server) the stream is a generator that holds its thread, waiting
on the process's NOTIFY listener.
"""

from __future__ import annotations

import errno
import time
from collections.abc import Callable, Generator, Iterator
from typing import Any

from flask import Response, request

from service.api.problems import problem
from service.api.runtime import Runtime, runtime
from service.api.stream_hub import KEEP_ALIVE, PAGE, RETRY, end_message, event_message
from service.app.auth import revoked_keys
from service.app.errors import ValidationFailed
from service.app.seats import hash_token
from service.store import DatabaseUnavailable

#: WSGI environ keys set by the service's gunicorn worker (``framing.py``): a callable
#: that releases the request's socket from gunicorn and returns it, and the status and
#: headers the application started its response with
HAND_OVER = "tilegames.hand_over"
RESPONSE_HEAD = "tilegames.response_head"
HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}


class HandedOver(BrokenPipeError):
    """Raised by a stream's body once the hub has its connection. gunicorn takes a
    broken pipe for a client that went away: it writes nothing more and lets the
    connection go (the worker does not close it: ``framing.BoundedThreadWorker``)."""


def event_stream(
    game_id: str, seat_token: str | None, api_key_id: str | None, after: int, named: str
):
    """The stream of the game's events after ``after`` (given as the field ``named``),
    which must not be past the game's last event: the stream would wait for events
    numbered beyond it and skip those in between."""
    rt = runtime()
    game, ruleset, seat = rt.games.viewer(game_id, seat_token)  # authorise before streaming
    if after > game.version:
        raise ValidationFailed(
            named, f"the game's last event is {game.version}: no event after {after} was sent"
        )
    credential = f"seat:{hash_token(seat_token)}" if seat_token else f"key:{api_key_id}"
    free_slot = rt.stream_slots.take(credential)
    if free_slot is None:
        cap = rt.stream_slots.per_credential
        return problem(
            429,
            "too_many_streams",
            f"this credential has {cap} event streams open already; close one first",
            headers={"Retry-After": str(max(1, int(rt.settings.sse_poll_seconds)))},
        )
    rt.listener.start()  # listening before the first read, so no notice is missed
    hand_over = request.environ.get(HAND_OVER)
    body: _Held | _HandOver
    if hand_over is None:
        key = None if seat_token else api_key_id
        body = _Held(_held_stream(rt, game.id, ruleset, seat, after, key), free_slot)
    else:
        environ = request.environ

        chunked = environ.get("SERVER_PROTOCOL") != "HTTP/1.0"

        def adopt() -> None:
            status, headers = environ[RESPONSE_HEAD]
            head = response_head(status, headers, chunked)
            sock = hand_over()
            key = None if seat_token else api_key_id
            rt.streams.adopt(sock, head, game.id, ruleset, seat, after, free_slot, chunked, key)

        body = _HandOver(adopt, free_slot)
    return Response(body, mimetype="text/event-stream", headers=HEADERS)


def response_head(status: str, headers: list[tuple[str, str]], chunked: bool) -> bytes:
    """The status line and headers as the application gave them, the body in chunks
    (HTTP/1.1) or running until the connection closes (HTTP/1.0)."""
    lines = [f"HTTP/1.1 {status}"]
    lines += [
        f"{name}: {value}"
        for name, value in headers
        if name.lower() not in ("connection", "content-length", "transfer-encoding")
    ]
    if chunked:
        lines.append("Transfer-Encoding: chunked")
    lines += ["Connection: close", "", ""]
    return "\r\n".join(lines).encode("latin-1")


class _HandOver:
    """The body of a stream the hub serves: iterating it hands the connection over."""

    def __init__(self, adopt: Callable[[], None], free_slot: Callable[[], None]) -> None:
        self.adopt, self.free_slot = adopt, free_slot
        self.adopted = False

    def __iter__(self) -> Iterator[bytes]:
        self.adopt()
        self.adopted = True
        raise HandedOver(errno.EPIPE, "the event stream is served by the stream hub")

    def close(self) -> None:
        if not self.adopted:  # the response was never sent (an error before it)
            self.free_slot()


class _Held:
    """The body of a stream that holds its thread; its slot is free when it closes."""

    def __init__(self, body: Generator[str, None, None], free_slot: Callable[[], None]) -> None:
        self.body, self.free_slot = body, free_slot

    def __iter__(self) -> Iterator[str]:
        return self.body

    def close(self) -> None:
        self.body.close()
        self.free_slot()


def _held_stream(
    rt: Runtime, game_id: str, ruleset: Any, seat: int | None, after: int, api_key_id: str | None
) -> Generator[str, None, None]:
    poll, max_seconds = rt.settings.sse_poll_seconds, rt.settings.sse_max_seconds
    last = after
    deadline = time.monotonic() + max_seconds
    try:
        yield RETRY
        while True:
            batch = rt.games.read_after(game_id, last, limit=PAGE)
            for event in batch:
                yield event_message(ruleset, event, seat)
                last = event.seq
            if len(batch) == PAGE:
                continue  # more are already stored: no need to wait for a notice
            status, version = rt.games.status(game_id)
            if status == "finished" and last >= version:
                yield end_message(last)
                return
            if time.monotonic() >= deadline:
                return
            if rt.listener.wait(game_id, last, timeout=poll) <= last:
                if api_key_id is not None and revoked_keys(rt.games.db, {api_key_id}):
                    return  # its key was revoked: it follows the game no more
                yield KEEP_ALIVE
    except DatabaseUnavailable:
        return

"""Following a game live over Server-Sent Events.

The stream first sends the events after ``after`` (or ``Last-Event-ID``), then waits on
the process's NOTIFY listener and reads whatever was committed since, redacting each
event for the viewer. A periodic poll covers notices missed while the listener was
reconnecting. The stream ends when the game is over, or after ``SSE_MAX_SECONDS``
(clients reconnect with ``Last-Event-ID``). Served by gunicorn's gthread workers, a
waiting stream holds one thread, not a whole worker.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

from flask import Response

from service.api.runtime import runtime
from service.app.games import event_item
from service.store import DatabaseUnavailable

PAGE = 500


def event_stream(game_id: str, seat_token: str | None, after: int) -> Response:
    rt = runtime()
    game, ruleset, seat = rt.games.viewer(game_id, seat_token)  # authorise before streaming
    rt.listener.start()
    poll, max_seconds = rt.settings.sse_poll_seconds, rt.settings.sse_max_seconds

    def generate() -> Iterator[str]:
        last = after
        deadline = time.monotonic() + max_seconds
        yield "retry: 1000\n\n"
        try:
            while True:
                batch = rt.games.read_after(game.id, last, limit=PAGE)
                for event in batch:
                    item = event_item(ruleset, event, seat)
                    yield f"id: {event.seq}\nevent: {event.type}\ndata: {json.dumps(item)}\n\n"
                    last = event.seq
                if len(batch) == PAGE:
                    continue  # more are already stored: no need to wait for a notice
                summary = rt.games.status(game.id)
                if summary[0] == "finished" and last >= summary[1]:
                    yield f"id: {last}\nevent: end\ndata: {json.dumps({'version': last})}\n\n"
                    return
                if time.monotonic() >= deadline:
                    return
                if rt.listener.wait(game.id, last, timeout=poll) <= last:
                    yield ": keep-alive\n\n"
        except DatabaseUnavailable:
            return

    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    return Response(generate(), mimetype="text/event-stream", headers=headers)

"""A webhook receiver for the tests, written as a portal would write one: it checks each
delivery's signature and timestamp with nothing but the standard library (not the
service's code, so a mistake in one cannot hide in the other), records it, and answers
with the status the test asks for."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

#: how old a delivery's timestamp may be before the receiver refuses it (replays)
TOLERANCE_SECONDS = 300


def signature_ok(secret: str, headers, body: bytes, now: float | None = None) -> bool:
    """The check docs/webhooks.md shows: HMAC-SHA256 over "<timestamp>.<body>" keyed with
    the endpoint's secret, compared in constant time, with a recent timestamp."""
    timestamp = headers.get("Tilegames-Timestamp", "")
    scheme, _, received = headers.get("Tilegames-Signature", "").partition("=")
    if scheme != "v1" or not timestamp.isdigit():
        return False
    if abs((now or time.time()) - int(timestamp)) > TOLERANCE_SECONDS:
        return False
    expected = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return hmac.compare_digest(expected.hexdigest(), received)


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes
    signed: bool  # the signature checked out with the receiver's secret

    @property
    def json(self) -> dict:
        return json.loads(self.body)

    @property
    def event_id(self) -> str:
        return self.headers["Tilegames-Event-Id"]


class Receiver:
    """An HTTP server on 127.0.0.1 in a thread. ``answer(received) -> status`` decides
    each answer (default 204); ``received`` lists every request in arrival order."""

    def __init__(self, secret: str = "") -> None:
        self.secret = secret
        self.received: list[Received] = []
        self.answer: Callable[[Received], int] = lambda _: 204
        #: the body of an answer other than 2xx
        self.error_body = b"busy"
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the standard library's name)
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                headers = dict(self.headers.items())
                got = Received(headers, body, signature_ok(receiver.secret, headers, body))
                with receiver.lock:
                    receiver.received.append(got)
                status = receiver.answer(got)
                reply = receiver.error_body if status >= 300 else b"ok!\n"
                try:
                    self.send_response(status)
                    self.send_header("Content-Length", str(len(reply)))
                    self.end_headers()
                    self.wfile.write(reply)
                except OSError:
                    pass  # the sender is gone (killed mid-delivery): nobody to answer

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def ids(self) -> list[str]:
        with self.lock:
            return [r.event_id for r in self.received]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

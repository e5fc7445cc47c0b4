"""Text and helpers for the OpenAPI document: the API-level description, shared
parameter and header docs, and problem+json error responses with examples."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_smorest import Blueprint

from service.api import examples as ex
from service.api.schemas import ProblemSchema

API_DESCRIPTION = """\
Tilegames referees tile-laying and island-trading board games: Carcassonne (the base
game and the Big Box expansions: The River, Inns & Cathedrals, Traders & Builders, Hills
& Sheep, Wheel of Fortune), Carcassonne: South Seas, and Catan with the Seafarers
scenarios 1 to 9. A game is an append-only log of events; its state
is the fold of that log through the ruleset. Clients send commands; the service checks
them against the rules, writes the events they cause (including the turns of the
service's bots) and tells every viewer only what it may see. `GET /v1/rulesets` lists
what can be played: options, seat counts, bots and command shapes.

A typical client: create a game (`POST /v1/games`, API key), keep each seat's token, then
for the awaited seat ask `GET .../legal-moves` and send one of those commands to
`POST .../moves` with `If-Match: "<version>"`; follow the game with
`GET .../events` (paginated, or live over Server-Sent Events).

## Pictures

`GET /v1/games/{game_id}/board.svg` draws the board as SVG, as the caller may see it:
the same credentials, the same view and the same `?at=` as `GET .../state`, so a
secret the caller may not see is not in the picture. `GET
/v1/rulesets/{name}/tiles/{tile}.svg` draws one tile (with `rotation`) or Catan hex
(with `number`), the drawings the boards are made of.

## Credentials

- **API key** (a client app): `tgk_<id>_<secret>`, sent as `X-API-Key: tgk_...` or
  `Authorization: Bearer tgk_...`. Creates games, validates records, and reads any game
  as a **spectator** (no seat's secrets; no legal moves, no moves).
- **Seat token** (one seat of one game): `tgs_...`, sent as `X-Seat-Token: tgs_...` or
  `Authorization: Bearer tgs_...`. Reads the game as that seat (its secrets included),
  lists its legal moves and moves for it.

The prefix tells them apart, so one `Authorization` header serves either; both may be sent
together (the key in `X-API-Key`). Seat tokens are returned **once**, when the game is
created, one per human seat; bot seats have none. Both are stored only as SHA-256
hashes. A missing, malformed, unknown or revoked credential gets 401 `unauthorized`; a
valid one that may not do this (an API key alone on `/moves` or `/legal-moves`) gets 403
`forbidden`. A seat token is checked against the game it names: one that is not among
that game's seats (another game's, or mistyped) gets 403 too. API keys are issued by the operator
(`python -m service.cli keys create NAME`).

## Versions, ETag and If-Match

A game's `version` is the `seq` of its last event (1 is `game_started`). Game responses
carry it as `ETag: "<version>"`. `POST /v1/games/{game_id}/moves` must say which version
the move was decided against, as `If-Match: "<version>"` or `expected_version` in the body
(both may be sent if they agree). If-Match is read as the quoted version in ASCII digits
and nothing else: a weak tag (`W/"12"`, which never matches in If-Match) or another
spelling gets 422 `validation_error` naming `If-Match`. Without either it gets **428**
`precondition_required`; if the game has moved on it gets **409** `version_conflict`
with `current_version`, and nothing is written. Re-read the game (or the events after
your version) and decide again.
One move may write many events: scoring, the next draw, and every bot turn up to the
next human decision happen in the same transaction and come back in the same answer.

## Idempotency-Key

`POST /moves` accepts an `Idempotency-Key` header (1-255 characters). Keys belong to
the credential that sends them: each seat token of a game, and the game's API key for
its table commands, has its own, so two seats may pick the same key. A repeat of a
successful move with the same key (same seat, command and expected version) returns the
stored first response with `Idempotent-Replayed: true` and writes nothing; the same key
with a different request gets 422 `idempotency_key_reused`. Concurrent duplicates wait
for the first to commit and then replay it. Rejected moves are not stored, so they may be
retried with the same key. Keys are kept for a retention period set by the operator
(e.g. 24 hours); a retry after that gets a fresh answer (usually 409
`version_conflict`), never a second write.

## Errors

Every error is `application/problem+json` (RFC 9457):
`{type, title, status, detail, code, instance, request_id}`, plus `reason` and `rule` for
rule violations, `errors: [{field, message}]` for validation errors and
`current_version` for version conflicts. `type` is `urn:tilegames:problem:<code>`. Branch on
`code`, which is stable:

- `illegal_move` (422): the rules forbid the command; `reason` is the ruleset's code
  (e.g. `tile_does_not_fit`), `rule` the rule in plain words.
- `not_your_turn` (409): the seat is not awaited now.
- `game_over` (409): the game has ended.
- `game_not_finished` (409): an export of a game still in play (its seed is secret).
- `record_unavailable` (409): an export of a game created before commands were
  recorded, or whose log crossed a rules upgrade.
- `version_conflict` (409): `If-Match`/`expected_version` is stale; see
  `current_version`.
- `decision_closed` (409): the `decision` a move names was answered (or closed)
  meanwhile.
- `seat_conflict` (409): a seat handed to the bot that plays it already, or handed back
  when no person holds it.
- `precondition_required` (428): a move without an expected version.
- `idempotency_key_reused` (422): the `Idempotency-Key` was used for another request.
- `validation_error` (422): a malformed field, an unknown ruleset, option or bot, a seat
  count the ruleset does not take, a `Last-Event-ID` no stream sent; see `errors`.
- `bad_request` (400): a body that is not JSON.
- `invalid_cursor` (400): a page cursor this service did not give out.
- `json_too_deep` (400): arrays and objects nested more than 32 levels deep.
- `number_out_of_range` (400): an integer of more than 30 digits, a number beyond a
  double's range (`1e999`), or `NaN`/`Infinity` (which JSON does not have).
- `duplicate_key` (400): an object naming the same key twice.
- `invalid_text` (400): a body that is not UTF-8, or a `\\uXXXX` escape leaving half of
  a UTF-16 surrogate pair alone.
- `body_timeout` (408): a body shorter than its `Content-Length`, or slower than the
  server's read timeout (`REQUEST_READ_TIMEOUT`, 10 s by default).
- `payload_too_large` (413): a body over the limit, with or without a `Content-Length`.
- `bad_request_framing` (400), `uri_too_long` (414), `headers_too_large` (431),
  `expectation_failed` (417), `not_implemented` (501): requests the HTTP server refuses
  before reading them (a malformed request line or `Content-Length`, a URL or header
  block over its limits, an `Expect` other than `100-continue`, a transfer coding it
  does not know).
- `precondition_failed` (412): a picture's `If-Match` that names another picture.
- `unauthorized` (401): missing, malformed, unknown or revoked credentials.
- `forbidden` (403): valid credentials that may not do this, or a seat token that is not
  one of the game's.
- `unknown_webhook` (404): no webhook endpoint with this id among the API key's own.
- `too_many_webhooks` (409): the API key has as many webhook endpoints as it may (20).
- `unknown_game` (404): no game with this id. A game id is a UUID in its canonical form
  (lower case, hyphens at 8-4-4-4-12); any other spelling names no game.
- `not_found` (404), `method_not_allowed` (405): no such path or method.
- `unsupported_media_type` (415): a body must be sent as `Content-Type:
  application/json`. `Accept` is not negotiated: an answer is JSON (SVG for a picture,
  an event stream where `Accept: text/event-stream` asks for one) whatever it says.
- `payload_too_large` (413): a body over the size limit (1 MiB by default).
- `rate_limited` (429): too many requests for this credential; retry after
  `Retry-After` seconds.
- `too_many_streams` (429): this credential has as many event streams open as it may
  (`SSE_STREAMS_PER_CREDENTIAL`, 20 by default); close one first.
- `database_unavailable` (503): the database is unreachable; retry after
  `Retry-After`.
- `bots_busy` (503): the bots would play on long after this request (a whole game of
  bots, say: eight greedy bots with every expansion take seconds), while this worker's
  bots already do so for another; nothing was written: retry after `Retry-After`.
- `internal_error` (500): a bug; quote `request_id` (also the `X-Request-Id` header).
- `conflict` (409), `service_unavailable` (503): any other refusal of these statuses
  (none is expected; a client may treat them as their status says).

## Pagination

`GET /v1/games` lists the API key's games newest first, at most `limit` (default 20,
max 100). While more remain, the page has `next_cursor` (opaque; pass it as `cursor`
with the same filters) and a `Link: <...>; rel="next"` header; on the last page
`next_cursor` is `null`.

`GET /v1/games/{game_id}/events?after=<seq>&limit=<n>` returns the events after `seq`,
oldest first, at most `limit` (default 100, max 1000). While more remain, the page has
`next_after` (pass it as `after`) and a `Link: <...>; rel="next"` header; on the last page
`next_after` is `null`.

## Live updates (Server-Sent Events)

The same `GET .../events` with `Accept: text/event-stream` streams the log: first the
events after `after` (or after the `Last-Event-ID` header, when reconnecting), then each
new event as it is committed. Each SSE message has `id: <seq>`, `event: <type>` and
`data:` the event JSON as in a page. Comments (`: keep-alive`) keep the connection
open; when the game is over the stream sends `event: end` (`data: {"version": n}`) and
closes. A stream also closes after a server-set lifetime (10 minutes by default):
reconnect with `Last-Event-ID` to resume without gaps. Events are redacted for the
viewer exactly as in a page.

## Webhooks

An API key registers endpoints (`POST /v1/webhooks`: an https URL and event types) and
from then on gets a signed `POST` for every event of its games of those types:
`game_ended`, `seat_timed_out`, any type a ruleset logs, or `turn_started`, a notice
derived for each seat that starts to be awaited. Deliveries are queued in the same
transaction as the events, retried with exponential backoff and listed with their status
(`GET /v1/webhooks/{webhook_id}/deliveries`). Each carries `Tilegames-Event-Id` (the
same on every retry: deliveries come at least once), `Tilegames-Timestamp` and
`Tilegames-Signature: v1=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`, keyed with
the endpoint's secret, which `POST` returns once.

## Hash chain

Each event carries `prev_hash` and
`hash = sha256(prev_hash || canonical_json({game_id, seq, type, data, visibility}))`,
where `prev_hash` is the previous event's hash as 64 lowercase hex characters (ASCII),
64 zeros before seq 1, and canonical JSON means sorted keys, separators `,` and `:`,
UTF-8, no ASCII escaping. `GET .../verify` recomputes the chain, checks the first events
against the seed and replays the whole log. An event redacted for a viewer
(`redacted: true`) cannot be rehashed by that viewer.

## Randomness and fairness

Each game has a secret 32-byte seed. Its SHA-256 (`seed_sha256`) is returned at creation;
the seed itself (`seed`, hex) appears in the game summary once the game has ended, so
anyone can check it against the hash. The command whose first event will be `seq` n
draws from `rng_for(seed, n)`: SHA-256 in counter mode keyed with HMAC-SHA256(seed, n as
8 big-endian bytes), exactly as `service.rules.core` specifies (setup uses n = 1), so the
whole game can be redrawn once the seed is out.
Random outcomes (tiles, dice, cards) are written into events, so a client replays the
log without the seed.

With `options.randomness: "external"` the service draws nothing: the awaited seat sends
each outcome, checked against what could have come. In Carcassonne and South Seas each
draw is a command of its own: `draw_tile` (with `under` for the tile under a hill and
`wheel` for a Wheel of Fortune icon), Hills & Sheep's `draw_sheep`, South Seas'
`reveal_ship`. In Catan the outcome rides on the command that meets chance: `roll`
with `dice`, `buy_development` with `card`, a steal with `resource`, a board with
`set_board`, and the scenarios' own (the fields marked `x-external-randomness` in the
command schemas); with internal randomness those fields are refused. `POST
/v1/validate` replays such a record statelessly, or an internal-randomness record given
its revealed seed.

## Export

`GET /v1/games/{game_id}/export` gives a finished game as one record (format
`tilegames-record`, version 1): ruleset, options, seats, players, the revealed seed and
every command in the order the game took them. `POST /v1/validate` takes it as it is
and replays it to the same version and result. A game in play gets 409
`game_not_finished`: its seed is secret until the end.
"""

#: The document's tags, in the order the docs page lists them. Every operation names one
#: of these (``@blp.doc(tags=[...])``) and an ``operationId`` spelled as a generated
#: client's method would be (``createGame``, ``submitMove``); client generators group
#: operations into modules by tag. This list replaces the one flask-smorest builds from
#: the blueprints' names.
TAGS = [
    {"name": "rulesets", "description": "What can be played: rulesets, options, bots, commands."},
    {
        "name": "games",
        "description": "Create a game, read its summary or its state as a seat or a spectator,"
        " verify its record.",
    },
    {
        "name": "moves",
        "description": "A seat's legal moves, and moves: one command answering one awaited"
        " decision.",
    },
    {
        "name": "table",
        "description": "The game owner's commands beside the board: abandon a game, hand a"
        " seat to a bot and back (a seat resigns with the move `resign`).",
    },
    {
        "name": "events",
        "description": "The event log, page by page or live over Server-Sent Events.",
    },
    {"name": "validation", "description": "Stateless checks of records played elsewhere."},
    {
        "name": "webhooks",
        "description": "Endpoints an API key registers for event types of its games, and the"
        " signed deliveries made to them.",
    },
    {
        "name": "health",
        "description": "Probes and metrics for operators: no credentials, no rate limit.",
    },
]

#: The ``game_id`` path parameter, shared by every ``/v1/games/{game_id}...`` route.
GAME_ID_PARAMETER = {
    "in": "path",
    "name": "game_id",
    "description": "The game's id (a UUID), from `POST /v1/games` (`id`, `Location`).",
    "example": ex.GAME_ID,
}

_VERSION_HEADER = {
    "ETag": {
        "description": 'The game version (seq of its last event) as an entity tag: "12".'
        " Send it back as If-Match when moving.",
        "schema": {"type": "string"},
        "example": '"3"',
    }
}
_NO_STORE = {"Cache-Control": {"description": "Always `no-store`.", "schema": {"type": "string"}}}
GAME_HEADERS = {**_VERSION_HEADER, **_NO_STORE}
CREATED_HEADERS = {
    **GAME_HEADERS,
    "Location": {
        "description": "The new game: /v1/games/{id}",
        "schema": {"type": "string"},
        "example": f"/v1/games/{ex.GAME_ID}",
    },
}
EVENT_PAGE_HEADERS = {
    **GAME_HEADERS,
    "Link": {
        "description": "The next page, while there is one:"
        ' `</v1/games/{id}/events?after=3&limit=3>; rel="next"`',
        "schema": {"type": "string"},
    },
}
GAME_PAGE_HEADERS = {
    **_NO_STORE,
    "Link": {
        "description": "The next page, while there is one:"
        ' `</v1/games?status=finished&limit=1&cursor=...>; rel="next"`',
        "schema": {"type": "string"},
    },
}
MOVE_HEADERS = {
    **GAME_HEADERS,
    "Idempotent-Replayed": {
        "description": "`true` when this is the stored response to an earlier request with"
        " the same Idempotency-Key (nothing was written).",
        "schema": {"type": "string"},
    },
}

#: Problem examples by ``code``, as the service answered them.
PROBLEMS: dict[str, tuple[str, dict[str, Any]]] = {
    "illegal_move": ("A tile placed on an occupied space", ex.PROBLEM_ILLEGAL_MOVE),
    "not_your_turn": ("A seat that is not awaited", ex.PROBLEM_NOT_YOUR_TURN),
    "version_conflict": ("A stale If-Match", ex.PROBLEM_VERSION_CONFLICT),
    "decision_closed": ("A decision answered meanwhile", ex.PROBLEM_DECISION_CLOSED),
    "validation_error": ("A malformed field", ex.PROBLEM_VALIDATION_ERROR),
    "invalid_options": ("An unknown expansion", ex.PROBLEM_INVALID_OPTIONS),
    "bad_if_match": ("An If-Match that is not a version", ex.PROBLEM_BAD_IF_MATCH),
    "precondition_required": ("No expected version", ex.PROBLEM_PRECONDITION_REQUIRED),
    "precondition_failed": ("If-Match of another picture", ex.PROBLEM_PRECONDITION_FAILED),
    "idempotency_key_reused": (
        "A key reused for another command",
        ex.PROBLEM_IDEMPOTENCY_KEY_REUSED,
    ),
    "unauthorized": ("No API key", ex.PROBLEM_UNAUTHORIZED),
    "forbidden": ("An API key alone where a seat token is needed", ex.PROBLEM_FORBIDDEN),
    "forbidden_move": ("Moving with an API key only", ex.PROBLEM_FORBIDDEN_MOVE),
    "forbidden_listing": ("Listing games with a seat token", ex.PROBLEM_FORBIDDEN_LISTING),
    "invalid_cursor": ("A cursor that was altered", ex.PROBLEM_INVALID_CURSOR),
    "game_not_finished": ("Exporting a game in play", ex.PROBLEM_GAME_NOT_FINISHED),
    "record_unavailable": (
        "Exporting a game stored before commands were recorded",
        ex.PROBLEM_RECORD_UNAVAILABLE,
    ),
    "unknown_game": ("No such game", ex.PROBLEM_UNKNOWN_GAME),
    "unknown_webhook": (
        "No such endpoint (or another API key's)",
        ex.PROBLEM_UNKNOWN_WEBHOOK,
    ),
    "too_many_webhooks": ("An API key with all its endpoints", ex.PROBLEM_TOO_MANY_WEBHOOKS),
    "webhook_url": ("A plain-http URL to another machine", ex.PROBLEM_WEBHOOK_URL),
    "game_over": ("A move after the end", ex.PROBLEM_GAME_OVER),
    "seat_conflict": ("A seat handed to the bot that plays it", ex.PROBLEM_SEAT_CONFLICT),
}

_STATUS_TEXT = {
    400: "Bad request (`bad_request`): the body is not JSON.",
    401: "Missing, malformed, unknown or revoked credentials (`unauthorized`).",
    429: "Too many requests for this credential (`rate_limited`); see `Retry-After`.",
    503: "The database is unavailable (`database_unavailable`), or, where bots play, they"
    " are busy with another long game (`bots_busy`); see `Retry-After`.",
}


def problem_response(blp: Blueprint, status: int, description: str, *codes: str):
    """Document one error status as problem+json, with an example for each ``code``."""
    examples = {}
    for code in codes:
        summary, value = PROBLEMS[code]
        examples[code] = {"summary": summary, "value": value}
    return blp.alt_response(
        status,
        schema=ProblemSchema,
        content_type="application/problem+json",
        description=description,
        examples=examples or None,
    )


def errors(blp: Blueprint, documented: Mapping[int, tuple[str, ...] | str], *, common=True):
    """Document an operation's errors: ``{status: description or (description, code,
    ...)}``, plus 400, 401, 429 and 503, which every authenticated operation may give."""

    def decorate(func):
        entries = dict(documented)
        if common:
            for status in (400, 401, 429, 503):
                entries.setdefault(status, _STATUS_TEXT[status])
        for status, entry in entries.items():
            if isinstance(entry, str):
                entry = (entry,)
            description, *codes = entry
            if status == 401 and not codes:
                codes = ["unauthorized"]
            func = problem_response(blp, status, description, *codes)(func)
        return func

    return decorate

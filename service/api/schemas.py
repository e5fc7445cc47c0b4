"""Marshmallow schemas for every request and response of the v1 API.

Game-specific payloads (commands, events, views, legal moves, open decisions) are
:class:`~service.api.contract.Typed` fields: the document names the schemas generated
from the rulesets' own shapes (``service/api/contract.py``). Options stay free-form
objects, described by ``GET /v1/rulesets``.
"""

from __future__ import annotations

import re
from typing import Any

from marshmallow import INCLUDE, Schema, ValidationError, fields, validate

from service.api.contract import Typed
from service.api.examples import GAME_ID
from service.app.export import MAX_RECORD_STEPS, RECORD_FORMAT, RECORD_FORMAT_VERSION
from service.rules.registry import all_rulesets
from service.store.webhooks import STATUSES as DELIVERY_STATUSES

HEX64 = validate.Regexp(r"^[0-9a-f]{64}$")


def storable_text(value: str) -> None:
    """PostgreSQL text cannot hold NUL or unpaired surrogates: refuse them (422), not 500."""
    if "\x00" in value or any("\ud800" <= char <= "\udfff" for char in value):
        raise ValidationError("must not contain NUL or unpaired surrogate characters")


def storable_json(value: object) -> None:
    """:func:`storable_text` for every string in a JSON value, keys included (a move's
    command is stored as jsonb, which cannot hold NUL either)."""
    if isinstance(value, str):
        storable_text(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            storable_text(key)
            storable_json(item)
    elif isinstance(value, list):
        for item in value:
            storable_json(item)


def _each_ruleset(says: Any) -> str:
    """What ``says(ruleset)`` says of each built-in ruleset, in one line for a field's
    description (the contract follows the rulesets instead of naming them by hand)."""
    return "; ".join(f"{ruleset.name}: {says(ruleset)}" for ruleset in all_rulesets())


class QueryInt(fields.Integer):
    """An integer in a query string, written in ASCII digits with an optional minus:
    ``int()`` alone also reads other scripts' digits, underscores and spaces
    (``?at=\u0663``, ``?at=1_0``, ``?at= 3``), which no client means."""

    _DIGITS = re.compile(r"-?[0-9]+")

    def _validated(self, value: Any) -> int:
        if isinstance(value, str) and not self._DIGITS.fullmatch(value):
            raise self.make_error("invalid", input=value)
        return super()._validated(value)


_AWAITING = {
    "description": "The open decisions, in the order they opened; empty once the game is"
    " over. Several may be open at once, for several seats. Each names its `id` (send it"
    " as the move's `decision` to answer it whatever else is written meanwhile), the"
    " `seat` that must decide, its `kind` (also as `decision`, the name earlier releases"
    " used), the `commands` that answer it, and the ruleset's details (the tile to place,"
    " the ships offered...)",
}
_VERSION = {"description": "The game version: the seq of the last event", "example": 3}
#: the game's ruleset, beside what is typed by ruleset: it names the answer's variant
_RULESET = {
    "description": "The game's ruleset: which ruleset's commands, events, view or legal"
    " moves this answer holds (its variant in the document)",
    "example": "carcassonne",
}
_GAME_ID = {"description": "The game's id (UUID)", "example": GAME_ID}


class FieldErrorSchema(Schema):
    field = fields.String(
        required=True,
        metadata={
            "description": "The field as the client wrote it (dotted path; headers and query"
            " parameters prefixed with their location)",
            "example": "seats.1.bot",
        },
    )
    message = fields.String(required=True, metadata={"example": "Length must be between 1 and 64."})


class ProblemSchema(Schema):
    """RFC 9457 problem details with a stable machine ``code``."""

    type = fields.String(
        required=True,
        metadata={
            "description": "urn:tilegames:problem:<code>",
            "example": "urn:tilegames:problem:illegal_move",
        },
    )
    title = fields.String(
        required=True,
        metadata={"description": "Short, human-readable", "example": "The rules forbid this move"},
    )
    status = fields.Integer(
        required=True, metadata={"description": "The HTTP status", "example": 422}
    )
    detail = fields.String(
        required=True,
        metadata={
            "description": "What went wrong with this request, in words",
            "example": "BA/RCr (D) cannot go at (0, 0) turned 0",
        },
    )
    code = fields.String(
        required=True,
        metadata={
            "description": "Stable error code (GET /docs says what each means):"
            " illegal_move, not_your_turn, game_over, game_not_finished,"
            " record_unavailable, version_conflict, decision_closed, seat_conflict,"
            " precondition_required, idempotency_key_reused, validation_error,"
            " bad_request, invalid_cursor, json_too_deep, number_out_of_range,"
            " duplicate_key, invalid_text, body_timeout, payload_too_large,"
            " bad_request_framing, uri_too_long, headers_too_large, expectation_failed,"
            " not_implemented, precondition_failed, unauthorized, forbidden,"
            " unknown_webhook, too_many_webhooks, unknown_game, not_found,"
            " method_not_allowed, unsupported_media_type, rate_limited, too_many_streams,"
            " database_unavailable, bots_busy, internal_error, conflict,"
            " service_unavailable",
            "example": "illegal_move",
        },
    )
    instance = fields.String(
        metadata={"description": "The request path", "example": f"/v1/games/{GAME_ID}/moves"}
    )
    request_id = fields.String(
        metadata={
            "description": "The request's id (also the X-Request-Id header); quote it when"
            " reporting a problem",
            "example": "9be83af72329458598132b36dbfeeeff",
        }
    )
    reason = fields.String(
        allow_none=True,
        metadata={
            "description": "For rule errors (illegal_move, not_your_turn, game_over): the"
            " ruleset's own code, e.g. position_occupied, tile_does_not_fit, unknown_spot",
            "example": "position_occupied",
        },
    )
    rule = fields.String(
        allow_none=True,
        metadata={
            "description": "For rule errors: the rule that forbids the move, in plain words",
            "example": "A tile is placed on an empty space.",
        },
    )
    errors = fields.List(
        fields.Nested(FieldErrorSchema),
        metadata={"description": "For validation_error: every invalid field"},
    )
    current_version = fields.Integer(
        allow_none=True,
        metadata={"description": "For version_conflict: the game's version now"},
    )


class RulesetSchema(Schema):
    name = fields.String(
        required=True,
        metadata={"description": "What POST /v1/games takes as ruleset", "example": "carcassonne"},
    )
    title = fields.String(
        required=True, metadata={"example": "Carcassonne (base game, first edition)"}
    )
    min_seats = fields.Integer(required=True, metadata={"example": 2})
    max_seats = fields.Integer(required=True, metadata={"example": 8})
    bots = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "Bots a seat may be given", "example": ["random", "greedy"]},
    )
    description = fields.Dict(
        required=True,
        metadata={
            "description": "Machine-readable: `options` (type, default, enum/items,"
            " description), `expansions`, `commands` (shape of each command),"
            " `decisions` (decision kind -> the commands that answer it), `rules` (each"
            " refusal code -> the rule in words), `rules_version`, `seats`"
        },
    )


class RulesetListSchema(Schema):
    rulesets = fields.List(fields.Nested(RulesetSchema), required=True)


class SeatSpecSchema(Schema):
    name = fields.String(
        validate=[validate.Length(min=1, max=64), storable_text],
        metadata={
            "description": "Display name, 1-64 characters (no NUL); default `Seat <n>` (or"
            " `<bot> bot`)",
            "example": "Ada",
        },
    )
    bot = fields.String(
        allow_none=True,
        validate=validate.Length(min=1, max=64),
        metadata={
            "description": "Make this a bot seat played by the service: one of the ruleset's"
            f" `bots` ({_each_ruleset(lambda r: ', '.join(r.bots))}). Omit (or null) for a"
            " person, who gets a seat token",
            "example": "greedy",
        },
    )


class CreateGameSchema(Schema):
    ruleset = fields.String(
        required=True,
        metadata={
            "description": "A ruleset name from GET /v1/rulesets: "
            + ", ".join(ruleset.name for ruleset in all_rulesets()),
            "example": "carcassonne",
        },
    )
    options = fields.Dict(
        load_default=dict,
        metadata={
            "description": "The ruleset's options (GET /v1/rulesets); unknown ones are"
            " refused. "
            + _each_ruleset(lambda r: ", ".join(r.describe()["options"]))
            + ". Every ruleset also takes clock, a time control (docs/matches.md)."
            " randomness: internal (default, the server draws) or external (the seats"
            " send the outcomes)",
            "example": {"expansions": ["river", "inns_cathedrals"], "farmers": True},
        },
    )
    seats = fields.List(
        fields.Nested(SeatSpecSchema),
        required=True,
        validate=validate.Length(min=1, max=16),
        metadata={
            "description": "The seats in play order (seat 0 plays first); the ruleset sets"
            " the allowed count ("
            + _each_ruleset(lambda r: f"{r.min_seats}-{r.max_seats}")
            + "; a scenario may narrow it)",
            "example": [{"name": "Ada"}, {"bot": "greedy"}],
        },
    )


class SeatSchema(Schema):
    seat = fields.Integer(required=True, metadata={"description": "Index, 0 plays first"})
    name = fields.String(required=True, metadata={"example": "Ada"})
    bot = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "The bot playing this seat; null for a person"},
    )


class SeatNowSchema(SeatSchema):
    """A seat as the game's log says it is now."""

    bot = fields.String(
        allow_none=True,
        required=True,
        metadata={
            "description": "The bot playing this seat now: the one it was created for, or"
            " the one its owner handed it to; null while its person plays it"
        },
    )
    resigned = fields.Boolean(
        required=True, metadata={"description": "The seat has resigned: it plays no more"}
    )


class SeatTokenSchema(Schema):
    seat = fields.Integer(required=True, metadata={"example": 0})
    token = fields.String(
        required=True,
        metadata={
            "description": "Send as X-Seat-Token or Authorization: Bearer",
            "example": "tgs_RLH3yPsL3UFkzFwSMl6qiGSGfJYYB4Ex",
        },
    )


class HeadSchema(Schema):
    """The game's head after a write, as every answer that moves it returns it."""

    head_hash = fields.String(
        required=True,
        metadata={
            "description": "The hash of the game's last event (see GET .../verify); a client"
            " that keeps it can tell later whether the log it was shown was rewritten"
        },
    )
    head_signature = fields.String(
        allow_none=True,
        required=True,
        metadata={
            "description": "HMAC-SHA256 of `<game_id>:<version>:<head_hash>` under the"
            " service's HEAD_SIGNING_KEY, a key the database never holds; null when the"
            " service signs no heads"
        },
    )


class GameItemSchema(HeadSchema):
    """A game as its row describes it: the summary without what folding its log adds."""

    id = fields.String(required=True, metadata={"format": "uuid", **_GAME_ID})
    ruleset = fields.String(required=True, metadata={"example": "carcassonne"})
    options = fields.Dict(
        required=True, metadata={"description": "The options, normalised (defaults filled in)"}
    )
    seats = fields.List(fields.Nested(SeatNowSchema), required=True)
    status = fields.String(required=True, validate=validate.OneOf(["active", "finished"]))
    version = fields.Integer(required=True, metadata=_VERSION)
    seed_sha256 = fields.String(
        required=True,
        validate=HEX64,
        metadata={
            "description": "SHA-256 of the secret 32-byte seed, published at creation",
            "example": "1ef594af91db4c250a0b9c4b1d24960f7d9903356a557fa0773d0264d84f563b",
        },
    )
    seed = fields.String(
        allow_none=True,
        required=True,
        metadata={
            "description": "The secret seed (hex), revealed once the game has ended; null before"
        },
    )
    created_at = fields.String(
        required=True, metadata={"example": "2026-11-21T02:52:41.641161+00:00"}
    )
    updated_at = fields.String(
        required=True, metadata={"example": "2026-11-21T02:52:41.641161+00:00"}
    )


class GameSummarySchema(GameItemSchema):
    abandoned = fields.Boolean(
        required=True,
        metadata={"description": "The game's owner abandoned it: it ended with no winner"},
    )
    clocks = fields.List(
        fields.Dict(
            metadata={
                "example": {
                    "seat": 0,
                    "remaining_ms": 291000,
                    "move_remaining_ms": 21000,
                    "running": True,
                }
            }
        ),
        allow_none=True,
        required=True,
        metadata={
            "description": "With a time control (`options.clock`): each seat's time left"
            " now, `{seat, remaining_ms, move_remaining_ms, running}` (`remaining_ms`: of"
            " the total, null without one; `move_remaining_ms`: of the move under way, null"
            " unless its clock runs and there is a per-move limit). Null without a clock"
        },
    )
    awaiting = fields.List(Typed("Decision"), required=True, metadata=_AWAITING)
    result = fields.Dict(
        allow_none=True,
        required=True,
        metadata={
            "description": "Once finished: `{over, scores, winners}` (winners are seat"
            " indices); null while active"
        },
    )


class PageQuerySchema(Schema):
    """A cursor-paginated list's page: its position and size."""

    cursor = fields.String(
        validate=validate.Length(min=1, max=200),
        metadata={
            "description": "The previous page's next_cursor (opaque); with the same filters."
            " Omit for the first page"
        },
    )
    limit = QueryInt(
        load_default=20,
        validate=validate.Range(min=1, max=100),
        metadata={"description": "Page size", "example": 20},
    )


class GamesQuerySchema(PageQuerySchema):
    ruleset = fields.String(
        validate=validate.Length(min=1, max=64),
        metadata={"description": "Only games of this ruleset", "example": "carcassonne"},
    )
    status = fields.String(
        validate=validate.OneOf(["active", "finished"]),
        metadata={"description": "Only games in this status", "example": "active"},
    )
    seat = fields.String(
        validate=[validate.Length(min=1, max=64), storable_text],
        metadata={
            "description": "Only games with a seat of this name (exactly, case included)",
            "example": "Ada",
        },
    )


class GamePageSchema(Schema):
    games = fields.List(
        fields.Nested(GameItemSchema),
        required=True,
        metadata={"description": "The page, newest first"},
    )
    next_cursor = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "Pass as ?cursor= for the next page; null on the last page"},
    )


class CreatedGameSchema(GameSummarySchema):
    seat_tokens = fields.List(
        fields.Nested(SeatTokenSchema),
        required=True,
        metadata={
            "description": "One secret token per human seat, shown only once (the service"
            " keeps only its hash); empty for a bot-only game"
        },
    )


class StateQuerySchema(Schema):
    at = QueryInt(
        validate=validate.Range(min=1, max=2**62),
        metadata={
            "description": "Show the state just after this event seq (1 is game_started);"
            " default: now. Beyond the current version: 422",
            "example": 1,
        },
    )


class StateSchema(Schema):
    game_id = fields.String(required=True, metadata=_GAME_ID)
    ruleset = fields.String(required=True, metadata=_RULESET)
    version = fields.Integer(
        required=True, metadata={"description": "The version shown (`at`, or the current one)"}
    )
    seat = fields.Integer(
        allow_none=True,
        required=True,
        metadata={"description": "The viewer's seat; null for a spectator (API key alone)"},
    )
    status = fields.String(required=True, metadata={"example": "active"})
    awaiting = fields.List(Typed("Decision"), required=True, metadata=_AWAITING)
    #: the ruleset's view for this viewer (the same as the view of the fold of the log
    #: this viewer reads)
    state = Typed("View", required=True)


class BoardQuerySchema(Schema):
    at = QueryInt(
        validate=validate.Range(min=1, max=2**62),
        metadata={
            "description": "Draw the board just after this event seq (1 is game_started);"
            " default: now. Beyond the current version: 422",
            "example": 12,
        },
    )


class TileQuerySchema(Schema):
    rotation = QueryInt(
        validate=validate.OneOf([0, 90, 180, 270]),
        metadata={
            "description": "Carcassonne and South Seas: the tile turned clockwise by this many"
            " degrees, as in `place_tile` (default 0). Catan hexes take none",
            "example": 90,
        },
    )
    number = QueryInt(
        validate=validate.OneOf([2, 3, 4, 5, 6, 8, 9, 10, 11, 12]),
        metadata={
            "description": "Catan only: the number token on the hex (none by default)",
            "example": 8,
        },
    )


class EventsQuerySchema(Schema):
    after = QueryInt(
        load_default=0,
        validate=validate.Range(min=0, max=2**62),
        metadata={
            "description": "Return the events after this seq (0: from the start); pass the"
            " previous page's next_after. For SSE, Last-Event-ID wins when later",
            "example": 0,
        },
    )
    limit = QueryInt(
        load_default=100,
        validate=validate.Range(min=1, max=1000),
        metadata={"description": "Page size (JSON pages only)", "example": 100},
    )


class EventEnvelopeSchema(Schema):
    """What every event carries besides its ``type`` and ``data``, which each ruleset's
    event schemas add (``<Ruleset><Type>Event``: ``allOf`` this and them, so this one
    must leave room for them)."""

    class Meta:
        unknown = INCLUDE

    seq = fields.Integer(
        required=True, metadata={"description": "Position in the log, from 1", "example": 3}
    )
    redacted = fields.Boolean(
        required=True, metadata={"description": "True if data was cut for this viewer"}
    )
    visibility = fields.List(
        fields.Integer(),
        allow_none=True,
        required=True,
        metadata={"description": "null: public; else the seats that may see the full data"},
    )
    prev_hash = fields.String(
        required=True,
        validate=HEX64,
        metadata={"description": "The previous event's hash (64 zeros before seq 1)"},
    )
    hash = fields.String(
        required=True,
        validate=HEX64,
        metadata={
            "description": "sha256(prev_hash || canonical_json({game_id, seq, type, data,"
            " visibility}))"
        },
    )
    recorded_at = fields.String(
        required=True, metadata={"example": "2026-11-21T02:52:41.649518+00:00"}
    )


class EventPageSchema(Schema):
    game_id = fields.String(required=True, metadata=_GAME_ID)
    ruleset = fields.String(required=True, metadata=_RULESET)
    version = fields.Integer(required=True, metadata=_VERSION)
    seat = fields.Integer(
        allow_none=True,
        required=True,
        metadata={"description": "The viewer's seat; null for a spectator"},
    )
    events = fields.List(Typed("Event"), required=True)
    next_after = fields.Integer(
        allow_none=True,
        required=True,
        metadata={"description": "Pass as ?after= for the next page; null at the end"},
    )


class LegalMovesSchema(Schema):
    game_id = fields.String(required=True, metadata=_GAME_ID)
    ruleset = fields.String(required=True, metadata=_RULESET)
    version = fields.Integer(
        required=True,
        metadata={"description": "The version these moves are for: send it as If-Match"},
    )
    seat = fields.Integer(required=True, metadata={"description": "The token's seat"})
    awaiting = fields.List(Typed("Decision"), required=True, metadata=_AWAITING)
    #: the seat's open decisions and every legal way to make each; no decisions when
    #: the seat is not awaited
    commands = Typed("LegalCommands", required=True)


class MoveHeadersSchema(Schema):
    if_match = fields.String(
        data_key="If-Match",
        validate=validate.Length(max=40),
        metadata={
            "description": 'The version the move was decided against, as an ETag: "12" (the'
            " ETag of the game or legal-moves response). Required unless expected_version"
            " is in the body",
            "example": '"2"',
        },
    )
    idempotency_key = fields.String(
        data_key="Idempotency-Key",
        validate=validate.Length(min=1, max=255),
        metadata={
            "description": "Makes the request safe to retry: a repeat (same seat, command"
            " and version) returns the stored first response with Idempotent-Replayed:"
            " true; the same key with another request gets 422 idempotency_key_reused",
            "example": "7d1c-first-move",
        },
    )


class OwnerHeadersSchema(Schema):
    idempotency_key = fields.String(
        data_key="Idempotency-Key",
        validate=validate.Length(min=1, max=255),
        metadata={
            "description": "Makes the request safe to retry: a repeat returns the stored"
            " first response with Idempotent-Replayed: true; the same key with another"
            " request gets 422 idempotency_key_reused",
            "example": "a1b2-abandon",
        },
    )


class HandToBotSchema(Schema):
    bot = fields.String(
        required=True,
        validate=validate.Length(min=1, max=64),
        metadata={
            "description": "One of the ruleset's bots (GET /v1/rulesets)",
            "example": "greedy",
        },
    )


class MoveSchema(Schema):
    #: one of the ruleset's commands, by ``type`` (see legal-moves and GET /v1/rulesets)
    command = Typed("Command", required=True, validate=storable_json)
    expected_version = fields.Integer(
        strict=True,
        validate=validate.Range(min=0, max=2**62),
        metadata={"description": "Alternative to If-Match (both may be sent if they agree)"},
    )
    decision = fields.String(
        validate=[validate.Length(min=1, max=40), storable_text],
        metadata={
            "description": "The id of the open decision this command answers (from"
            " `awaiting` or legal-moves). A precondition instead of, or beside, the"
            " version: the move is accepted while that decision is open, whatever other"
            " seats wrote meanwhile (simultaneous decisions such as discards), and gets 409"
            " decision_closed once it has closed",
            "example": "d12",
        },
    )
    seat = fields.Integer(
        strict=True,
        validate=validate.Range(min=0, max=64),
        metadata={"description": "Optional; must be the seat of the token"},
    )


class MoveResultSchema(HeadSchema):
    game_id = fields.String(required=True, metadata=_GAME_ID)
    ruleset = fields.String(required=True, metadata=_RULESET)
    seat = fields.Integer(
        allow_none=True,
        required=True,
        metadata={
            "description": "The seat that moved; null for a command of the game's owner"
            " (its events are shown as a spectator sees them)"
        },
    )
    version = fields.Integer(
        required=True, metadata={"description": "The new version (also the ETag)"}
    )
    status = fields.String(required=True, metadata={"example": "active"})
    events = fields.List(
        Typed("Event"),
        required=True,
        metadata={
            "description": "Every event this move wrote: its own, scoring, the bots' turns"
            " and the next draw, redacted for the mover"
        },
    )
    awaiting = fields.List(Typed("Decision"), required=True, metadata=_AWAITING)
    result = fields.Dict(
        allow_none=True,
        required=True,
        metadata={"description": "`{over, scores, winners}` once the game is over, else null"},
    )


class CheckSchema(Schema):
    name = fields.String(
        required=True,
        metadata={
            "description": "hash_chain, head_signature, seed_commitment, genesis_from_seed"
            " or replay",
            "example": "replay",
        },
    )
    ok = fields.Boolean(required=True)
    detail = fields.String(
        required=True, metadata={"description": "`ok`, or what failed", "example": "ok"}
    )


class VerifySchema(Schema):
    game_id = fields.String(required=True, metadata=_GAME_ID)
    valid = fields.Boolean(required=True, metadata={"description": "Every check passed"})
    version = fields.Integer(required=True, metadata=_VERSION)
    events = fields.Integer(required=True, metadata={"description": "Events read"})
    head_hash = fields.String(
        required=True, metadata={"description": "The game's stored hash of its last event"}
    )
    head_signature = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "The game's stored signature of its head, or null"},
    )
    first_bad_seq = fields.Integer(
        allow_none=True,
        required=True,
        metadata={
            "description": "The first seq that breaks the hash chain (a bad event, the first"
            " missing or extra one, or the last if the game's head differs), or null"
        },
    )
    checks = fields.List(fields.Nested(CheckSchema), required=True)


class RecordStepSchema(Schema):
    seat = fields.Integer(
        required=True,
        strict=True,
        allow_none=True,
        validate=validate.Range(min=0, max=64),
        metadata={
            "description": "The seat that sends the command (or that a hand_to_bot or"
            " hand_back concerns); null for the owner's abandon",
            "example": 0,
        },
    )
    #: a command as POST /moves takes it
    command = Typed("Command", required=True)
    decision = fields.String(
        validate=[validate.Length(min=1, max=40), storable_text],
        metadata={
            "description": "The id of the open decision the command answers, as a move's"
            " `decision`; only where the move named one (a seat with several decisions"
            " open that take the same command). Default: the seat's first such decision",
            "example": "d12",
        },
    )


class ValidateRequestSchema(Schema):
    ruleset = fields.String(required=True, metadata={"example": "carcassonne"})
    options = fields.Dict(
        load_default=dict,
        metadata={
            "description": "The game's options, as for POST /v1/games",
            "example": {"randomness": "external"},
        },
    )
    seats = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(min=1, max=64),
        metadata={"description": "How many seats played", "example": 2},
    )
    record = fields.List(
        fields.Nested(RecordStepSchema),
        required=True,
        validate=validate.Length(max=MAX_RECORD_STEPS),
        metadata={"description": f"The steps in play order (at most {MAX_RECORD_STEPS:,})"},
    )
    seed = fields.String(
        allow_none=True,
        validate=validate.Length(max=128),
        metadata={
            "description": "Revealed seed (hex) for a record played with internal randomness"
        },
    )
    # What GET /v1/games/{game_id}/export adds, so that its record is taken as it is.
    format = fields.String(
        validate=validate.OneOf([RECORD_FORMAT]),
        metadata={"description": "An exported record's format name", "example": RECORD_FORMAT},
    )
    format_version = fields.Integer(
        strict=True,
        validate=validate.OneOf([RECORD_FORMAT_VERSION]),
        metadata={
            "description": "The version of that format this service reads",
            "example": RECORD_FORMAT_VERSION,
        },
    )
    seed_sha256 = fields.String(
        validate=HEX64,
        metadata={
            "description": "The seed's SHA-256 as the game published it: checked against"
            " `seed` when both are given (422 otherwise)"
        },
    )
    game_id = fields.String(
        validate=validate.Length(max=64),
        metadata={
            "description": "The game the record was exported from: the replay's events are"
            " hash-chained under it, as the game's were"
        },
    )
    players = fields.List(
        fields.Nested(SeatSchema),
        validate=validate.Length(max=64),
        metadata={"description": "Informational: the seats' names and bots"},
    )
    version = fields.Integer(
        strict=True,
        metadata={
            "description": "The exported game's version, which a faithful replay's `version` equals"
        },
    )
    head_hash = fields.String(
        validate=HEX64,
        metadata={
            "description": "The exported game's last event hash, which a faithful replay"
            " reaches (with `game_id`)"
        },
    )
    head_signature = fields.String(
        allow_none=True,
        validate=validate.Length(max=128),
        metadata={
            "description": "The service's signature of the exported game's head (null"
            " where it signs none): checked against the replay's head (`head_signed`)"
        },
    )


class GameExportSchema(ValidateRequestSchema):
    """A finished game as one record that POST /v1/validate takes as it is."""

    format = fields.String(
        required=True,
        validate=validate.OneOf([RECORD_FORMAT]),
        metadata={"example": RECORD_FORMAT},
    )
    format_version = fields.Integer(
        required=True,
        validate=validate.OneOf([RECORD_FORMAT_VERSION]),
        metadata={"example": RECORD_FORMAT_VERSION},
    )
    game_id = fields.String(required=True, metadata=_GAME_ID)
    options = fields.Dict(required=True, metadata={"description": "The game's options, normalised"})
    players = fields.List(fields.Nested(SeatSchema), required=True)
    seed = fields.String(
        required=True, metadata={"description": "The game's seed (hex), revealed at its end"}
    )
    seed_sha256 = fields.String(required=True, validate=HEX64)
    version = fields.Integer(
        required=True, metadata={"description": "The game's version: its number of events"}
    )
    head_hash = fields.String(
        required=True, validate=HEX64, metadata={"description": "The hash of its last event"}
    )
    head_signature = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "The service's signature of that head, or null"},
    )


class StepErrorSchema(Schema):
    step = fields.Integer(
        required=True, metadata={"description": "Index of the refused step, from 0"}
    )
    code = fields.String(
        required=True,
        metadata={"description": "The ruleset's code", "example": "unexpected_command"},
    )
    message = fields.String(required=True)
    rule = fields.String(allow_none=True, metadata={"description": "The rule, in words"})


class ValidateResultSchema(Schema):
    valid = fields.Boolean(required=True, metadata={"description": "Every step was legal"})
    ruleset = fields.String(required=True, metadata={"example": "carcassonne"})
    steps = fields.Integer(required=True, metadata={"description": "Steps applied"})
    version = fields.Integer(
        required=True, metadata={"description": "Events the record produced (setup included)"}
    )
    finished = fields.Boolean(required=True, metadata={"description": "The game is over"})
    result = fields.Dict(required=True, metadata={"description": "`{over, scores, winners}`"})
    awaiting = fields.List(Typed("Decision"), required=True, metadata=_AWAITING)
    #: the final state, spectator view (before a refused step)
    state = Typed("View", required=True)
    error = fields.Nested(
        StepErrorSchema,
        allow_none=True,
        required=True,
        metadata={"description": "The first refused step; null when valid"},
    )
    head_hash = fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "The hash of the replay's last event, its events chained under"
            " the request's `game_id`; null without one"
        },
    )
    matches_export = fields.Boolean(
        required=True,
        allow_none=True,
        metadata={
            "description": "Every step was legal and the replay ends at the request's"
            " `version` and `head_hash`: the document agrees with itself (whoever edits a"
            " record can put its new head in it: see `head_signed`). Null unless"
            " `game_id`, `version` and `head_hash` are all given"
        },
    )
    head_signed = fields.Boolean(
        required=True,
        allow_none=True,
        metadata={
            "description": "Every step was legal and the request's `head_signature` is this"
            " service's signature of the head the replay reaches: the record is the game"
            " this service hosted, event for event. Null without a signature, or where"
            " the service signs no heads"
        },
    )


# -- webhooks ----------------------------------------------------------------------------

_WEBHOOK_ID = {
    "description": "The endpoint's id (UUID)",
    "example": "5f0c6a1e-9d3b-4d8e-a4a7-0c1b2d3e4f50",
}


class CreateWebhookSchema(Schema):
    url = fields.String(
        required=True,
        validate=[validate.Length(min=1, max=2048), storable_text],
        metadata={
            "description": "Where to POST: an https:// URL of a public internet address"
            " (or http:// to 127.0.0.1, ::1 or localhost, where the operator allows it:"
            " tests, development)",
            "example": "https://portal.example/hooks/tilegames",
        },
    )
    event_types = fields.List(
        fields.String(validate=validate.Length(min=1, max=64)),
        required=True,
        validate=validate.Length(min=1, max=50),
        metadata={
            "description": "What to deliver: any event type the rulesets log (`game_ended`,"
            " `seat_timed_out`, `tile_placed`...), or `turn_started`, a notice derived for"
            " each seat that starts to be awaited (docs/webhooks.md)",
            "example": ["game_ended", "turn_started"],
        },
    )
    description = fields.String(
        load_default="",
        validate=[validate.Length(max=200), storable_text],
        metadata={"description": "A note for yourself", "example": "portal production"},
    )


class WebhookSchema(Schema):
    id = fields.String(required=True, metadata={"format": "uuid", **_WEBHOOK_ID})
    url = fields.String(
        required=True, metadata={"example": "https://portal.example/hooks/tilegames"}
    )
    event_types = fields.List(
        fields.String(), required=True, metadata={"example": ["game_ended", "turn_started"]}
    )
    description = fields.String(required=True, metadata={"example": "portal production"})
    created_at = fields.String(
        required=True, metadata={"example": "2026-11-21T02:52:41.641161+00:00"}
    )


class CreatedWebhookSchema(WebhookSchema):
    secret = fields.String(
        required=True,
        metadata={
            "description": "The key of the endpoint's signatures (`whsec_...`), shown only this"
            " once: verify each delivery's `Tilegames-Signature` with it",
            "example": "whsec_kx5Yw2S0bq7u1Yx3nQ9r0m8Z4c6v2b1n7a5s3d9f0gE",
        },
    )


class WebhookListSchema(Schema):
    webhooks = fields.List(
        fields.Nested(WebhookSchema),
        required=True,
        metadata={"description": "The API key's endpoints, oldest first"},
    )


class DeliveriesQuerySchema(PageQuerySchema):
    status = fields.String(
        validate=validate.OneOf(DELIVERY_STATUSES),
        metadata={"description": "Only deliveries in this status", "example": "failed"},
    )


class DeliverySchema(Schema):
    id = fields.Integer(
        required=True,
        metadata={"description": "The delivery's id (`Tilegames-Delivery-Id`)", "example": 4711},
    )
    event_id = fields.String(
        required=True,
        metadata={
            "description": "What a receiver deduplicates on (`Tilegames-Event-Id`, the body's"
            " `id`): `<game_id>:<seq>` for an event, `<game_id>:<seq>:turn_started:<seat>`"
            " for a turn starting",
            "example": f"{GAME_ID}:57",
        },
    )
    type = fields.String(required=True, metadata={"example": "game_ended"})
    game_id = fields.String(required=True, metadata={"format": "uuid", **_GAME_ID})
    seq = fields.Integer(
        required=True,
        metadata={"description": "The event's seq (for a notice: the event it follows)"},
    )
    seat = fields.Integer(
        allow_none=True,
        required=True,
        metadata={"description": "The seat a turn_started notice is about; null for events"},
    )
    status = fields.String(required=True, validate=validate.OneOf(DELIVERY_STATUSES))
    attempts = fields.Integer(
        required=True, metadata={"description": "Attempts made so far", "example": 1}
    )
    next_attempt_at = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "While pending: when it is tried (again); else null"},
    )
    last_status = fields.Integer(
        allow_none=True,
        required=True,
        metadata={"description": "The HTTP status of the last answer; null if none came"},
    )
    last_error = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "What went wrong with the last attempt; null once delivered"},
    )
    delivered_at = fields.String(allow_none=True, required=True)
    created_at = fields.String(
        required=True, metadata={"description": "When the event was written"}
    )


class DeliveryPageSchema(Schema):
    webhook_id = fields.String(required=True, metadata={"format": "uuid", **_WEBHOOK_ID})
    deliveries = fields.List(
        fields.Nested(DeliverySchema),
        required=True,
        metadata={"description": "The page, newest first"},
    )
    next_cursor = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "Pass as ?cursor= for the next page; null on the last page"},
    )


class HealthSchema(Schema):
    status = fields.String(
        required=True, metadata={"description": "ok, ready or unavailable", "example": "ok"}
    )
    checks = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        metadata={"description": "Readiness: each dependency's status"},
    )

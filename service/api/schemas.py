"""Marshmallow schemas for every request and response of the v1 API.

Game-specific payloads (options, commands, views, event data) are defined by each
ruleset and described by ``GET /v1/rulesets``; here they are free-form objects.
"""

from __future__ import annotations

from marshmallow import Schema, fields, validate

HEX64 = validate.Regexp(r"^[0-9a-f]{64}$")


class FieldErrorSchema(Schema):
    field = fields.String(required=True, metadata={"example": "seats.0.bot"})
    message = fields.String(required=True)


class ProblemSchema(Schema):
    """RFC 9457 problem details with a stable machine ``code``."""

    type = fields.String(required=True, metadata={"example": "urn:tilegames:problem:illegal_move"})
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String(required=True)
    code = fields.String(
        required=True,
        metadata={
            "description": "Stable error code: illegal_move, not_your_turn, version_conflict,"
            " unknown_game, unauthorized, forbidden, validation_error, bad_request,"
            " idempotency_key_reused, precondition_required, game_over, rate_limited,"
            " database_unavailable, not_found, method_not_allowed, payload_too_large,"
            " unsupported_media_type, not_acceptable, internal_error",
            "example": "illegal_move",
        },
    )
    instance = fields.String(metadata={"description": "The request path"})
    request_id = fields.String()
    reason = fields.String(
        allow_none=True,
        metadata={"description": "For rule errors: the ruleset's own code, e.g. tile_does_not_fit"},
    )
    rule = fields.String(
        allow_none=True, metadata={"description": "For illegal moves: the rule that forbids it"}
    )
    errors = fields.List(
        fields.Nested(FieldErrorSchema), metadata={"description": "Validation errors by field"}
    )
    current_version = fields.Integer(allow_none=True)


class RulesetSchema(Schema):
    name = fields.String(required=True, metadata={"example": "carcassonne"})
    title = fields.String(required=True)
    min_seats = fields.Integer(required=True)
    max_seats = fields.Integer(required=True)
    bots = fields.List(fields.String(), required=True)
    description = fields.Dict(
        required=True, metadata={"description": "Options, expansions and command shapes"}
    )


class RulesetListSchema(Schema):
    rulesets = fields.List(fields.Nested(RulesetSchema), required=True)


class SeatSpecSchema(Schema):
    name = fields.String(validate=validate.Length(min=1, max=64))
    bot = fields.String(
        allow_none=True,
        validate=validate.Length(min=1, max=64),
        metadata={"description": "Make this a bot seat played by the service, e.g. 'random'"},
    )


class CreateGameSchema(Schema):
    ruleset = fields.String(required=True, metadata={"example": "carcassonne"})
    options = fields.Dict(
        load_default=dict,
        metadata={"description": "Ruleset options; randomness: internal (default) or external"},
    )
    seats = fields.List(
        fields.Nested(SeatSpecSchema),
        required=True,
        validate=validate.Length(min=1, max=16),
        metadata={"example": [{"name": "Ada"}, {"bot": "random"}]},
    )


class SeatSchema(Schema):
    seat = fields.Integer(required=True)
    name = fields.String(required=True)
    bot = fields.String(allow_none=True, required=True)


class SeatTokenSchema(Schema):
    seat = fields.Integer(required=True)
    token = fields.String(required=True, metadata={"example": "tgs_Q2hhbmdlIG1lIQ..."})


class GameSummarySchema(Schema):
    id = fields.String(required=True, metadata={"format": "uuid"})
    ruleset = fields.String(required=True)
    options = fields.Dict(required=True)
    seats = fields.List(fields.Nested(SeatSchema), required=True)
    status = fields.String(required=True, validate=validate.OneOf(["active", "finished"]))
    version = fields.Integer(required=True, metadata={"description": "seq of the last event"})
    awaiting = fields.List(fields.Dict(), required=True)
    result = fields.Dict(allow_none=True, required=True)
    seed_sha256 = fields.String(required=True, validate=HEX64)
    seed = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "The secret seed (hex), revealed once the game has ended"},
    )
    created_at = fields.String(required=True)
    updated_at = fields.String(required=True)


class CreatedGameSchema(GameSummarySchema):
    seat_tokens = fields.List(
        fields.Nested(SeatTokenSchema),
        required=True,
        metadata={"description": "One secret token per human seat, shown only once"},
    )


class StateQuerySchema(Schema):
    at = fields.Integer(
        validate=validate.Range(min=1, max=2**62),
        metadata={"description": "Version (event seq) to show the state at; 1 is the first"},
    )


class StateSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    seat = fields.Integer(allow_none=True, required=True)
    status = fields.String(required=True)
    awaiting = fields.List(fields.Dict(), required=True)
    state = fields.Dict(required=True, metadata={"description": "The ruleset's view"})


class EventsQuerySchema(Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=2**62))
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))


class EventSchema(Schema):
    seq = fields.Integer(required=True)
    type = fields.String(required=True)
    data = fields.Dict(required=True)
    redacted = fields.Boolean(
        required=True, metadata={"description": "True if data was cut for this viewer"}
    )
    visibility = fields.List(fields.Integer(), allow_none=True, required=True)
    prev_hash = fields.String(required=True, validate=HEX64)
    hash = fields.String(required=True, validate=HEX64)
    recorded_at = fields.String(required=True)


class EventPageSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    seat = fields.Integer(allow_none=True, required=True)
    events = fields.List(fields.Nested(EventSchema), required=True)
    next_after = fields.Integer(
        allow_none=True,
        required=True,
        metadata={"description": "Pass as ?after= for the next page; null at the end"},
    )


class LegalMovesSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    seat = fields.Integer(required=True)
    awaiting = fields.List(fields.Dict(), required=True)
    commands = fields.Dict(required=True)


class MoveHeadersSchema(Schema):
    if_match = fields.String(
        data_key="If-Match",
        validate=validate.Length(max=40),
        metadata={"description": 'Expected version as an ETag: "12"'},
    )
    idempotency_key = fields.String(
        data_key="Idempotency-Key",
        validate=validate.Length(min=1, max=255),
        metadata={"description": "Retry-safe key: a repeat returns the stored first response"},
    )


class MoveSchema(Schema):
    command = fields.Dict(
        required=True,
        metadata={"example": {"type": "place_tile", "x": 1, "y": 0, "rotation": 90}},
    )
    expected_version = fields.Integer(
        validate=validate.Range(min=0, max=2**62),
        metadata={"description": "Alternative to If-Match"},
    )
    seat = fields.Integer(
        validate=validate.Range(min=0, max=64),
        metadata={"description": "Optional; must be the seat of the token"},
    )


class MoveResultSchema(Schema):
    game_id = fields.String(required=True)
    seat = fields.Integer(required=True)
    version = fields.Integer(required=True)
    status = fields.String(required=True)
    events = fields.List(fields.Nested(EventSchema), required=True)
    awaiting = fields.List(fields.Dict(), required=True)
    result = fields.Dict(allow_none=True, required=True)


class CheckSchema(Schema):
    name = fields.String(required=True)
    ok = fields.Boolean(required=True)
    detail = fields.String(required=True)


class VerifySchema(Schema):
    game_id = fields.String(required=True)
    valid = fields.Boolean(required=True)
    version = fields.Integer(required=True)
    events = fields.Integer(required=True)
    head_hash = fields.String(required=True)
    first_bad_seq = fields.Integer(allow_none=True, required=True)
    checks = fields.List(fields.Nested(CheckSchema), required=True)


class RecordStepSchema(Schema):
    seat = fields.Integer(required=True, validate=validate.Range(min=0, max=64))
    command = fields.Dict(required=True)


class ValidateRequestSchema(Schema):
    ruleset = fields.String(required=True)
    options = fields.Dict(load_default=dict)
    seats = fields.Integer(required=True, validate=validate.Range(min=1, max=64))
    record = fields.List(
        fields.Nested(RecordStepSchema), required=True, validate=validate.Length(max=10_000)
    )
    seed = fields.String(
        allow_none=True,
        validate=validate.Length(max=128),
        metadata={
            "description": "Revealed seed (hex) for a record played with internal randomness"
        },
    )


class StepErrorSchema(Schema):
    step = fields.Integer(required=True)
    code = fields.String(required=True)
    message = fields.String(required=True)
    rule = fields.String(allow_none=True)


class ValidateResultSchema(Schema):
    valid = fields.Boolean(required=True)
    ruleset = fields.String(required=True)
    steps = fields.Integer(required=True, metadata={"description": "Steps applied"})
    version = fields.Integer(required=True)
    finished = fields.Boolean(required=True)
    result = fields.Dict(required=True)
    awaiting = fields.List(fields.Dict(), required=True)
    state = fields.Dict(required=True)
    error = fields.Nested(StepErrorSchema, allow_none=True, required=True)


class HealthSchema(Schema):
    status = fields.String(required=True)
    checks = fields.Dict(keys=fields.String(), values=fields.String())

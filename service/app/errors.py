"""Application errors, each with the HTTP status and stable code the API reports."""

from __future__ import annotations

from typing import Any


class AppError(Exception):
    status = 400
    code = "bad_request"
    title = "Bad request"
    #: seconds to wait before trying again (``Retry-After``), for a refusal that passes
    retry_after: int | None = None

    def __init__(self, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.detail = detail
        self.extra = extra


class Unauthorized(AppError):
    status, code, title = 401, "unauthorized", "Missing or invalid credentials"


class Forbidden(AppError):
    status, code, title = 403, "forbidden", "Not allowed for these credentials"


class UnknownGameError(AppError):
    status, code, title = 404, "unknown_game", "No such game"


class NotFound(AppError):
    """A path that names nothing: no such ruleset, tile, or picture."""

    status, code, title = 404, "not_found", "Not found"


class InvalidCursor(AppError):
    """A page cursor the service did not give out (or that was altered)."""

    status, code, title = 400, "invalid_cursor", "The cursor is not valid"


class ValidationFailed(AppError):
    """Bad input; ``errors`` names each field at fault."""

    status, code, title = 422, "validation_error", "The request is not valid"

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}", errors=[{"field": field, "message": message}])


class IllegalMoveError(AppError):
    status, code, title = 422, "illegal_move", "The rules forbid this move"


class NotYourTurn(AppError):
    status, code, title = 409, "not_your_turn", "This seat is not awaited now"


class GameOver(AppError):
    status, code, title = 409, "game_over", "The game has ended"


class GameNotFinished(AppError):
    status, code, title = 409, "game_not_finished", "The game has not ended yet"


class RecordUnavailable(AppError):
    """A finished game whose commands cannot be exported as a record that replays."""

    status, code, title = 409, "record_unavailable", "No replayable record of this game"


class SeatConflict(AppError):
    """A seat handed over to whoever plays it already, or back to a person it lacks."""

    status, code, title = 409, "seat_conflict", "The seat cannot be handed over so"


class VersionConflictError(AppError):
    status, code, title = 409, "version_conflict", "The game has moved on"


class DecisionClosed(AppError):
    """The decision a move named has been answered (or cancelled) since: the move was
    decided on a state that is gone, like a stale version."""

    status, code, title = 409, "decision_closed", "The decision is no longer open"


class IdempotencyKeyReused(AppError):
    status, code, title = 422, "idempotency_key_reused", "Idempotency key used for another request"


class PreconditionRequired(AppError):
    status, code, title = 428, "precondition_required", "An expected version is required"


class BotsBusy(AppError):
    """A request whose bots would play long while this process's bots already do so
    for another: refused whole (nothing written), to be sent again shortly."""

    status, code, title = 503, "bots_busy", "The bots are busy with another long game"
    retry_after = 1

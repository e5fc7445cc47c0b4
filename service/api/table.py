"""The game owner's commands of the table: abandon a game, hand a seat to a bot and
back. (A seat resigns with the command ``resign`` sent to ``POST .../moves``.) No game
logic: authorise the API key, call the use case, shape the answer."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint

from service.api import examples as ex
from service.api import schemas as s
from service.api.apidoc import GAME_ID_PARAMETER, MOVE_HEADERS, errors
from service.api.auth import API_KEY_ONLY, require_api_key
from service.api.games import reply
from service.api.runtime import runtime
from service.rules.seating import ABANDON, HAND_BACK, HAND_TO_BOT

blp = Blueprint(
    "table",
    __name__,
    url_prefix="/v1/games",
    description="The game owner's commands of the table: abandon a game, hand a seat to a"
    " bot and back.",
)
_SEAT_PARAMETER = {
    "in": "path",
    "name": "seat",
    "description": "The seat's index (0 plays first).",
    "schema": {"type": "integer", "minimum": 0},
    "example": 1,
}
_OWNER_ERRORS = {
    403: (
        "`forbidden`: an API key that did not create the game (or a seat token alone).",
        "forbidden",
    ),
    404: ("No game with this id (`unknown_game`).", "unknown_game"),
    409: ("`game_over`: the game has ended.", "game_over"),
    422: (
        "`illegal_move` (`reason` `resigned`: the seat has resigned; `unknown_bot`;"
        " `unknown_seat`), `validation_error`, `idempotency_key_reused`.",
        "illegal_move",
        "validation_error",
    ),
}
_SEAT_ERRORS = {
    **_OWNER_ERRORS,
    409: (
        "`game_over`: the game has ended; `seat_conflict`: the seat is played by that bot"
        " already, or (handing back) by its person already, or it was created for a bot and"
        " has no person; `version_conflict`: in a game with a clock, seats kept running out"
        " of time while the hand-over was decided (nothing is written: send it again).",
        "game_over",
        "seat_conflict",
        "version_conflict",
    ),
}


def _owner_command(game_id: str, headers: dict[str, Any], seat: int | None, command: dict):
    key = require_api_key()
    outcome = runtime().games.owner_command(
        game_id, key.id, seat, command, headers.get("idempotency_key")
    )
    return reply(outcome)


@blp.route("/<game_id>/abandon", parameters=[GAME_ID_PARAMETER])
class Abandon(MethodView):
    @blp.doc(operationId="abandonGame", tags=["table"], security=API_KEY_ONLY)
    @blp.arguments(s.OwnerHeadersSchema, location="headers")
    @blp.response(
        200,
        s.MoveResultSchema,
        headers=MOVE_HEADERS,
        description="The game has ended with no winner.",
        examples={"abandoned": {"summary": "A game abandoned", "value": ex.ABANDONED}},
    )
    @errors(blp, _OWNER_ERRORS)
    def post(self, headers: dict[str, Any], game_id: str):
        """Abandon a game

        **Who:** the API key that created the game.

        The game ends at once with no winner: `game_abandoned`, then the ruleset's
        `game_ended` with `winners: []` and `reason: "abandoned"` (scores as they
        stand). The seed is revealed as for any finished game, and the game can be
        exported; its record carries the abandon as a step with `seat: null`.

        **Errors:** 401 without an API key; 403 `forbidden` for another key; 404
        `unknown_game`; 409 `game_over` once the game has ended.
        """
        return _owner_command(game_id, headers, None, {"type": ABANDON})


@blp.route("/<game_id>/seats/<int:seat>/bot", parameters=[GAME_ID_PARAMETER, _SEAT_PARAMETER])
class SeatBot(MethodView):
    @blp.doc(operationId="handSeatToBot", tags=["table"], security=API_KEY_ONLY)
    @blp.arguments(s.OwnerHeadersSchema, location="headers")
    @blp.arguments(s.HandToBotSchema, examples=ex.HAND_TO_BOT_REQUESTS)
    @blp.response(
        200,
        s.MoveResultSchema,
        headers=MOVE_HEADERS,
        description="The seat is played by the bot now; if it was awaited, the bot has played.",
        examples={"handed": {"summary": "Seat 1 handed to the greedy bot", "value": ex.HANDED}},
    )
    @errors(blp, _SEAT_ERRORS)
    def put(self, headers: dict[str, Any], body: dict[str, Any], game_id: str, seat: int):
        """Hand a seat to a bot

        **Who:** the API key that created the game.

        From now on the service plays the seat with `bot` (one of the ruleset's bots, as
        `GET /v1/rulesets` lists them), as it plays a seat created for a bot:
        `seat_handed_to_bot {seat, bot}` is written and, if the seat is awaited, the
        bot answers in the same transaction, and whenever the seat is awaited later. The
        seat's token still reads the game as that seat, and may still `resign` it; its
        other moves get 409 `not_your_turn`, since the bot has always answered already.
        A seat created for a bot may be given another bot the same way. `GET
        /v1/games/{id}` shows the seat's `bot`.

        **Errors:** 401 without an API key; 403 `forbidden` for another key; 404
        `unknown_game`; 409 `game_over`, `seat_conflict` (that bot plays it already);
        422 `illegal_move` (`resigned`, `unknown_bot`, `unknown_seat`).
        """
        return _owner_command(game_id, headers, seat, {"type": HAND_TO_BOT, "bot": body["bot"]})

    @blp.doc(operationId="handSeatBack", tags=["table"], security=API_KEY_ONLY)
    @blp.arguments(s.OwnerHeadersSchema, location="headers")
    @blp.response(
        200,
        s.MoveResultSchema,
        headers=MOVE_HEADERS,
        description="The seat is its person's again.",
        examples={"handed_back": {"summary": "Seat 1 handed back", "value": ex.HANDED_BACK}},
    )
    @errors(blp, _SEAT_ERRORS)
    def delete(self, headers: dict[str, Any], game_id: str, seat: int):
        """Hand a seat back to its person

        **Who:** the API key that created the game.

        `seat_handed_back {seat}` is written: the service stops playing the seat, and
        its seat token moves for it again. Only a seat created for a person can be
        handed back.

        **Errors:** 401 without an API key; 403 `forbidden` for another key; 404
        `unknown_game`; 409 `game_over`, `seat_conflict` (played by its person already,
        or created for a bot); 422 `illegal_move` (`resigned`).
        """
        return _owner_command(game_id, headers, seat, {"type": HAND_BACK})

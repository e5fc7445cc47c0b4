"""Pictures: ``GET /v1/games/{game_id}/board.svg`` (the board as the caller may see
it, now or at ``?at=``) and ``GET /v1/rulesets/{name}/tiles/{tile}.svg`` (one tile or
hex). SVG drawn by :mod:`service.pictures`; no game logic here."""

from __future__ import annotations

from typing import Any

import werkzeug
from flask import Response, request
from flask.views import MethodView
from flask_smorest import Blueprint

from service.api import schemas as s
from service.api.apidoc import GAME_ID_PARAMETER, errors
from service.api.auth import ANY_CREDENTIAL, require_credential
from service.api.problems import problem
from service.api.runtime import runtime
from service.app.pictures import Picture, board_picture, tile_picture
from service.pictures import CONTENT_TYPE

blp = Blueprint(
    "pictures",
    __name__,
    url_prefix="/v1",
    description="Pictures of boards and tiles, as SVG.",
)

#: a picture of the game now: the browser keeps it but asks again (ETag) every time
NOW = "private, no-cache"
#: a picture at ``?at=``: that part of the log never changes, only a new release of the
#: drawing code would draw it differently, so a week
FIXED = "private, max-age=604800"
#: a tile depends on nothing but the release
TILE = "public, max-age=86400"
#: what a picture may load: nothing (it is self-contained, with no script)
PICTURE_POLICY = "default-src 'none'; frame-ancestors 'none'"
#: the credentials the board picture depends on
VARY = ("Authorization", "X-API-Key", "X-Seat-Token")

_ETAG = {
    "ETag": {
        "description": "A strong entity tag of the picture's bytes; send it back as"
        " If-None-Match to get 304 when nothing changed.",
        "schema": {"type": "string"},
    },
    "Cache-Control": {
        "description": "Board now: `private, no-cache`; board at `?at=`: `private,"
        " max-age=604800`; tiles: `public, max-age=86400`.",
        "schema": {"type": "string"},
    },
}


def _svg_response(description: str, example: str) -> dict[str, Any]:
    return {
        "200": {
            "description": description,
            "headers": _ETAG,
            "content": {CONTENT_TYPE: {"schema": {"type": "string"}, "example": example}},
        },
        "304": {"description": "Not modified (If-None-Match matched the ETag).", "headers": _ETAG},
    }


def send(picture: Picture, cache_control: str, vary: tuple[str, ...] = ()) -> werkzeug.Response:
    response = Response(picture.data, content_type=f"{CONTENT_TYPE}; charset=utf-8")
    response.headers["Cache-Control"] = cache_control
    response.headers["Content-Security-Policy"] = PICTURE_POLICY
    response.set_etag(picture.etag)
    for header in vary:
        response.vary.add(header)
    conditional = response.make_conditional(request)
    if conditional.status_code == 412:  # If-Match named another picture: a problem, no SVG
        return problem(412, "precondition_failed", "If-Match does not match the picture's ETag")
    return conditional


BOARD_EXAMPLE = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg"'
    ' width="1510" height="980" viewBox="0 0 1510 980" role="img">'
    "<title>Carcassonne, version 168</title>...</svg>"
)
TILE_EXAMPLE = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg"'
    ' width="240" height="272" viewBox="0 0 120 136" role="img">'
    "<title>Carcassonne tile BA/RCr (D), turned 90°</title>...</svg>"
)


TILE_PARAMETERS = [
    {
        "in": "path",
        "name": "name",
        "description": "A ruleset: `carcassonne`, `carcassonne-south-seas` or `catan`.",
        "example": "carcassonne",
    },
    {
        "in": "path",
        "name": "tile",
        "description": "A tile id (`BA/RCr`, its slash as is or as `%2F`) or"
        " rulebook letter (`D`); for Catan a terrain (`forest`, `pasture`,"
        " `fields`, `hills`, `mountains`, `desert`, `gold`, `sea`, `fog`).",
        "example": "BA/RCr",
    },
]


@blp.route("/games/<game_id>/board.svg", parameters=[GAME_ID_PARAMETER])
class BoardPicture(MethodView):
    @blp.doc(
        operationId="getBoardPicture",
        tags=["games"],
        security=ANY_CREDENTIAL,
        responses=_svg_response("The board as an SVG picture.", BOARD_EXAMPLE),
    )
    @blp.arguments(s.BoardQuerySchema, location="query")
    @errors(
        blp,
        {
            403: ("The seat token belongs to another game (`forbidden`).", "forbidden"),
            404: (
                "No game with this id (`unknown_game`), or no pictures for its ruleset"
                " (`not_found`).",
                "unknown_game",
            ),
            412: (
                "`precondition_failed`: `If-Match` names another picture than this ETag's.",
                "precondition_failed",
            ),
            422: ("`validation_error`: `at` is beyond the game's version.", "validation_error"),
        },
    )
    def get(self, query: dict[str, Any], game_id: str):
        """Draw the board as the caller may see it

        **Who:** an API key (the spectator's picture) or a seat token of this game (that
        seat's picture).

        The board drawn from the same view as `GET .../state` (and `?at=<seq>` as
        there): placed tiles with their roads, cities, fields and the expansions'
        features (Carcassonne, South Seas), or the hexes, numbers, harbours, robber,
        pirate, roads, ships, settlements and cities (Catan); every figure in its seat's
        colour with the seat's letter; the last move framed; scores beside the board. A
        secret the viewer may not see (another seat's hand, the tile under a hill, what
        lies under the fog) is not in the view, so it is not in the picture; a seat's
        own hand is listed in its own picture only.

        Elements carry classes and data attributes for tools and tests: `tile` (with
        `data-x`, `data-y`, `data-tile`, `data-rotation`), `figure` (`data-seat`,
        `data-figure`, `data-spot`), `hex` (`data-hex`, `data-terrain`,
        `data-number`), `building`, `road`, `ship`, `harbour`, `robber`, `pirate`,
        `last-move`, `score` (`data-seat`, `data-score`). The root says where the board
        lies on the picture, for clients that draw on it: `data-origin-x` and
        `data-origin-y` (the top-left corner of cell (0, 0), or the centre of hex
        (0, 0) inside the `board-area` group), `data-cell` (a square's side) or
        `data-hex-size` (a hex's radius), and `data-board-width` (where the `panel`
        group of scores begins).

        The same state always gives the same bytes, tagged by a strong `ETag`. Now:
        `Cache-Control: private, no-cache` (revalidate with If-None-Match); at `?at=`:
        `private, max-age=604800`.

        **Errors:** 401 without credentials; 403 for a seat token of another game; 404
        `unknown_game`, or `not_found` for a ruleset without pictures; 422
        `validation_error` when `at` is beyond the current version.
        """
        found = require_credential()
        picture = board_picture(runtime().games, game_id, found.seat_token, query.get("at"))
        return send(picture, FIXED if picture.fixed else NOW, VARY)


@blp.route("/rulesets/<name>/tiles/<path:tile>.svg", parameters=TILE_PARAMETERS)
class TilePicture(MethodView):
    @blp.doc(
        operationId="getTilePicture",
        tags=["rulesets"],
        security=[],
        responses=_svg_response("The tile as an SVG picture.", TILE_EXAMPLE),
    )
    @blp.arguments(s.TileQuerySchema, location="query")
    @errors(
        blp,
        {
            404: "`not_found`: no such ruleset, tile or terrain.",
            412: (
                "`precondition_failed`: `If-Match` names another picture than this ETag's.",
                "precondition_failed",
            ),
            422: (
                "`validation_error`: a rotation other than 0, 90, 180, 270 (Catan: none),"
                " or a number on a tile that takes none.",
                "validation_error",
            ),
            429: "Too many requests (`rate_limited`); see `Retry-After`.",
        },
        common=False,
    )
    def get(self, query: dict[str, Any], name: str, tile: str):
        """Draw one tile or hex

        **Who:** anyone; no credentials.

        One tile of a ruleset as the board pictures draw it, for app developers who
        want the same drawings: a Carcassonne tile (base game or any expansion, by id
        or letter) or a South Seas tile, turned by `rotation`; or a Catan hex of a
        terrain, with an optional `number` token. Cached a day (`public,
        max-age=86400`) with a strong `ETag`. A square tile's `tile` group lists in
        `data-spots` where the boards stand a figure on each of its spots, in the
        tile's own 100 x 100 frame (`city:N 50 14;road:E,W 50 50`).

        **Errors:** 404 `not_found` for an unknown ruleset, tile or terrain; 422
        `validation_error` for a bad `rotation` or `number`.
        """
        picture = tile_picture(
            runtime().rulesets, name, tile, query.get("rotation"), query.get("number")
        )
        return send(picture, TILE)

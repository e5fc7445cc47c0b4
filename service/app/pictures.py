"""Pictures as use cases: a game's board as the caller may see it, and one tile.

The board goes through :meth:`GameService.viewed`, the path ``state`` reads a game by,
so a picture checks the same credentials and draws from the same view: a secret the
viewer may not see is not in the view, so it cannot be in the picture. The last move
is read from the recent events as that viewer receives them (redacted).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from service import pictures
from service.app.errors import NotFound, ValidationFailed
from service.app.games import GameService, event_item
from service.app.genesis import RulesetLookup

#: how many of the last events are read to find the last move
RECENT_EVENTS = 300


@dataclass(frozen=True, slots=True)
class Picture:
    data: bytes
    #: a strong entity tag: the SHA-256 of the bytes (same picture, same tag)
    etag: str
    #: the version drawn (``None`` for a tile)
    version: int | None = None
    #: drawn at a version the caller named (``?at=``): the log never changes there
    fixed: bool = False


def _picture(svg: str, version: int | None = None, fixed: bool = False) -> Picture:
    data = svg.encode("utf-8")
    return Picture(data, hashlib.sha256(data).hexdigest()[:32], version, fixed)


def _json(value: Any) -> Any:
    """As a client receives it over HTTP (tuples become lists, keys strings)."""
    return json.loads(json.dumps(value))


def board_picture(games: GameService, game_id: str, token: str | None, at: int | None):
    with games.viewed(game_id, token, at, recent=RECENT_EVENTS) as viewed:
        game, ruleset, seat = viewed.game, viewed.ruleset, viewed.seat
        if not pictures.has_pictures(game.ruleset):
            raise NotFound(f"no board pictures for the ruleset {game.ruleset}")
        view = _json(ruleset.view(viewed.state, seat))
    recent = [event_item(ruleset, e, seat) for e in viewed.recent]
    svg = pictures.board_svg(
        game.ruleset,
        view,
        seat=seat,
        names=[s["name"] for s in game.seats],
        version=viewed.version,
        options=game.options,
        recent=[{"type": e["type"], "data": _json(e["data"])} for e in recent],
    )
    return _picture(svg, viewed.version, fixed=at is not None)


def tile_picture(
    rulesets: RulesetLookup, name: str, tile: str, rotation: int | None, number: int | None
) -> Picture:
    if rulesets(name) is None or not pictures.has_pictures(name):
        raise NotFound(f"no tile pictures for a ruleset named {name!r}")
    hexes = name == "catan"
    if hexes and rotation not in (None, 0):
        raise ValidationFailed("query.rotation", "Catan hexes are drawn in one orientation")
    if not hexes and number is not None:
        raise ValidationFailed("query.number", "only Catan hexes carry a number token")
    try:
        svg = pictures.tile_svg(name, tile, rotation or 0, number)
    except pictures.UnknownPicture as exc:
        raise NotFound(str(exc)) from exc
    except ValueError as exc:
        raise ValidationFailed("query.number" if hexes else "query.rotation", str(exc)) from exc
    return _picture(svg)

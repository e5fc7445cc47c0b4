"""Pictures of boards and tiles, drawn as SVG from the rules' own data.

A board picture is drawn from a ruleset's ``view(state, seat)`` (what that viewer may
see, nothing more) and the public parts of the game record (seat names, the options
that name its tiles); the last move is found in the events as that viewer received
them. A tile picture is drawn from the ruleset's tile data. Nothing here knows about
HTTP or the database; the same input always gives the same bytes.

One module per game family: :mod:`.carcassonne`, :mod:`.south_seas`, :mod:`.catan`;
:mod:`.squares` draws a square tile from its data, :mod:`.svg` writes SVG.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

CONTENT_TYPE = "image/svg+xml"


class UnknownPicture(LookupError):
    """No picture for this ruleset, or no such tile in it."""


def has_pictures(ruleset: str) -> bool:
    return ruleset in ("carcassonne", "carcassonne-south-seas", "catan")


def board_svg(
    ruleset: str,
    view: Mapping[str, Any],
    *,
    seat: int | None,
    names: Sequence[str],
    version: int,
    options: Mapping[str, Any],
    recent: Sequence[Mapping[str, Any]] = (),
) -> str:
    """The board of a game as ``view`` shows it, for the viewer ``seat`` (``None``: a
    spectator). ``names`` are the seats' public names, ``options`` the game's options
    (public, in the game summary), ``recent`` the last events as the viewer received
    them (for the last move)."""
    if ruleset == "carcassonne":
        from service.pictures import carcassonne

        return carcassonne.render(view, seat=seat, names=names, version=version, recent=recent)
    if ruleset == "carcassonne-south-seas":
        from service.pictures import south_seas

        return south_seas.render(
            view, seat=seat, names=names, version=version, recent=recent, options=options
        )
    if ruleset == "catan":
        from service.pictures import catan

        return catan.render(view, seat=seat, names=names, version=version, recent=recent)
    raise UnknownPicture(f"no board pictures for the ruleset {ruleset!r}")


def tile_svg(ruleset: str, tile: str, rotation: int = 0, number: int | None = None) -> str:
    """One tile (Carcassonne, South Seas) at a rotation, or one Catan hex (a terrain,
    with a number token if given)."""
    if ruleset == "carcassonne":
        from service.pictures import carcassonne

        return carcassonne.tile_picture(tile, rotation)
    if ruleset == "carcassonne-south-seas":
        from service.pictures import south_seas

        return south_seas.tile_picture(tile, rotation)
    if ruleset == "catan":
        from service.pictures import catan

        return catan.hex_picture(tile, number)
    raise UnknownPicture(f"no tile pictures for the ruleset {ruleset!r}")

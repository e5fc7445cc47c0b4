"""The shapes of Carcassonne's commands and events, by the part of the game that adds
them: the base game, then each expansion with commands or events of its own (The River
and Inns & Cathedrals add none; the inns and cathedrals add fields to
``feature_scored``). See :mod:`service.rules.shapes`."""

from __future__ import annotations

from service.rules.carcassonne.expansions import EXPANSIONS
from service.rules.shapes import (
    ANY,
    BOOL,
    ENDED_EARLY,
    INT,
    NO_FIELDS,
    SEAT,
    STR,
    VIEW_COMMON,
    Part,
    Shape,
    about,
    array,
    command,
    counts,
    event,
    mapping,
    nullable,
    one_of,
    optional,
    record,
)
from service.rules.tiling.shapes import (
    AT,
    FIGURE_AT,
    PLACE_TILE,
    PLACEMENT,
    SKIP,
    SPOT,
    TILE,
    TILE_DRAWN,
    TILE_PLACED,
    TILE_SET_ASIDE,
    TILES,
    TURN_ENDED,
    X,
    Y,
)

FIGURE = one_of(
    "follower",
    "big_follower",
    "builder",
    "pig",
    "shepherd",
    description="a figure: a follower, or an expansion's big follower, builder, pig, shepherd",
)
FEATURE_KIND = about(STR, "road, city, cloister or field")
SEATS = array(SEAT)
GOODS = ("wine", "grain", "cloth")
SHEEP_TOKEN = about(STR, "a sheep token: 1, 2, 3, 4 or wolf")
#: a seat and where its shepherd stands
SHEPHERD = {"seat": SEAT, "x": X, "y": Y, "spot": SPOT}

#: a spot a figure may take, in a menu
SPOT_CHOICE = record(
    {"spot": SPOT, "kind": FEATURE_KIND, "sides": array(STR, "the sides it touches")}
)
BASE_MENUS = {
    "draw_tile": record(
        {
            "tiles": mapping(INT, "tile id -> copies that may be drawn"),
            "under": optional(
                array(TILE, "Hills & Sheep: the hills whose draw names the tile under them")
            ),
            "wheel": optional(
                mapping(
                    record(
                        {
                            "icons": array(INT, "the icons of the copies left"),
                            "plain": about(INT, "copies left without one"),
                        }
                    ),
                    "The Wheel of Fortune: tile id -> its copies' icons; with no plain copy"
                    " left, the draw names one in wheel",
                )
            ),
        }
    ),
    "place_tile": record(
        {
            "tile": TILE,
            "placements": array(
                record(
                    {
                        "x": X,
                        "y": Y,
                        "rotation": PLACE_TILE.fields["rotation"],
                        "spots": array(SPOT_CHOICE, "where a follower could then go"),
                    }
                ),
                "every place and rotation where the tile fits",
            ),
        }
    ),
    "place_follower": record(
        {
            "x": X,
            "y": Y,
            "spots": array(SPOT_CHOICE, "where a follower may go"),
            "figures": optional(mapping(array(SPOT_CHOICE), "figure -> where it may go")),
        }
    ),
    "skip": NO_FIELDS,
}

BASE = Part(
    "base",
    "Carcassonne",
    commands={
        "draw_tile": command(
            "Name the tile drawn (external randomness only).",
            {
                "tile": about(STR, "the tile drawn: an id or the rulebook letter"),
                "under": optional(
                    about(TILE, "Hills & Sheep: the tile drawn blind to go under a hill")
                ),
                "wheel": optional(
                    about(INT, "The Wheel of Fortune: the wheel icon on the copy drawn")
                ),
            },
        ),
        "place_tile": PLACE_TILE,
        "place_follower": command(
            "Place a figure on the tile just placed.",
            {
                "spot": SPOT,
                "figure": optional(
                    about(
                        FIGURE,
                        "default follower; the expansions' big_follower, builder, pig, shepherd",
                    )
                ),
            },
        ),
        "skip": SKIP,
    },
    menus=BASE_MENUS,
    events={
        "game_started": event(
            "The game's set-up: options, seats, figures per seat, the start tile and the stack.",
            {
                "ruleset": STR,
                "rules_version": INT,
                "options": mapping(ANY, "the game's options, normalised"),
                "seats": INT,
                "figures": mapping(INT, "figure -> how many each seat has"),
                "start": PLACEMENT,
                "stack": mapping(INT, "tile id -> copies in the stack"),
                "layout": optional(array(PLACEMENT, "start tiles beside the start tile")),
            },
        ),
        "tile_drawn": event(
            "The seat drew a tile.",
            {**TILE_DRAWN, "wheel": optional(about(INT, "The Wheel of Fortune: its icon"))},
        ),
        "tile_set_aside": TILE_SET_ASIDE,
        "tile_placed": TILE_PLACED,
        "follower_placed": event(
            "A figure placed on the tile just placed.",
            {"seat": SEAT, "figure": FIGURE, "x": X, "y": Y, "spot": SPOT, "kind": FEATURE_KIND},
        ),
        "feature_scored": event(
            "A feature scored: its tiles, the figures on it, who won and why.",
            {
                "kind": about(STR, "road, city, cloister, field, or pig and goods"),
                "at": optional(AT),
                "complete": BOOL,
                "tiles": TILES,
                "figures": array(
                    record(
                        {
                            "seat": SEAT,
                            "figure": FIGURE,
                            "weight": INT,
                            "x": X,
                            "y": Y,
                            "spot": SPOT,
                        }
                    )
                ),
                "winners": SEATS,
                "points": INT,
                "reason": STR,
                "returned": about(BOOL, "whether the figures go back to their owners"),
                "shields": optional(INT),
                "surrounding": optional(INT),
                "cities": optional(array(TILES, "a field's completed cities")),
                "inns": optional(about(INT, "Inns & Cathedrals: inns on the road")),
                "cathedrals": optional(about(INT, "Inns & Cathedrals: cathedrals in the city")),
                "vineyards": optional(about(INT, "Hills & Sheep: vineyards by the cloister")),
                "good": optional(about(one_of(*GOODS), "Traders & Builders: the good")),
                "counts": optional(array(INT, "Traders & Builders: each seat's tokens")),
            },
        ),
        "turn_ended": event(
            "The seat's turn is over.",
            {
                **TURN_ENDED,
                "extra": optional(about(STR, "why the same seat plays again (a builder)")),
            },
        ),
        "game_ended": event(
            "The final scores and the winners.",
            {"scores": array(INT), "winners": SEATS, "reason": optional(ENDED_EARLY)},
        ),
    },
)

HILLS_SHEEP = Part(
    "hills_sheep",
    EXPANSIONS["hills_sheep"].title,
    commands={
        "tend_flock": command(
            "Grow the flock (draw a sheep) or gather it (score it).",
            {"action": one_of("grow", "gather")},
        ),
        "draw_sheep": command(
            "Name the sheep token drawn (external randomness only).", {"token": SHEEP_TOKEN}
        ),
    },
    menus={
        "tend_flock": record({"action": array(one_of("grow", "gather"))}),
        "draw_sheep": record({"tokens": mapping(INT, "token -> how many are in the bag")}),
    },
    events={
        "tile_hidden": event(
            "A tile drawn blind went under the hill just drawn. Only its tile is secret:"
            " other viewers see null (and no salt).",
            {
                "seat": SEAT,
                "tile": nullable(TILE),
                "under": about(TILE, "the hill"),
                "salt": optional(STR),
            },
        ),
        "sheep_due": event("The shepherd's seat draws a sheep token.", SHEPHERD),
        "sheep_drawn": event(
            "A sheep token joined the flock (or a wolf came).",
            {"seat": SEAT, "x": X, "y": Y, "spot": SPOT, "token": SHEEP_TOKEN},
        ),
        "flock_scored": event(
            "A flock gathered: a point per sheep to each shepherd.",
            {
                "kind": one_of("flock"),
                "tiles": TILES,
                "shepherds": array(FIGURE_AT),
                "tokens": array(SHEEP_TOKEN),
                "painted": INT,
                "sheep": INT,
                "winners": SEATS,
                "points": INT,
                "reason": STR,
            },
        ),
        "flock_lost": event(
            "A wolf: the flock is lost and the shepherds go home.",
            {
                "tiles": TILES,
                "shepherds": array(FIGURE_AT),
                "tokens": array(SHEEP_TOKEN),
                "reason": STR,
            },
        ),
        "flock_to_tend": event("The seat's shepherd tends its flock.", SHEPHERD),
        "flock_tended": event(
            "The seat grew or gathered its flock.",
            {"seat": SEAT, "action": one_of("grow", "gather")},
        ),
    },
)

TRADERS_BUILDERS = Part(
    "traders_builders",
    EXPANSIONS["traders_builders"].title,
    events={
        "goods_taken": event(
            "Goods tokens for completing a city with goods.",
            {"seat": SEAT, "tiles": TILES, "goods": counts(GOODS)},
        ),
    },
)

WHEEL_OF_FORTUNE = Part(
    "wheel_of_fortune",
    EXPANSIONS["wheel_of_fortune"].title,
    commands={
        "place_on_wheel": command(
            "Put a follower on a free crown space of the wheel instead of on the tile.",
            {
                "sector": about(STR, "a sector of the wheel"),
                "space": about(INT, "one of the sector's crown spaces, from 0"),
            },
        ),
        "remove_follower": command(
            "The plague: take back one of your followers on the land.",
            {"x": X, "y": Y, "spot": SPOT},
        ),
    },
    menus={
        "place_on_wheel": array(record({"sector": STR, "space": INT}), "the free crown spaces"),
        "remove_follower": array(record({"x": X, "y": Y, "spot": SPOT}), "your followers"),
    },
    events={
        "wheel_turned": event(
            "The pig moved on the wheel by the drawn tile's icon.",
            {"seat": SEAT, "icon": INT, "from": STR, "to": STR},
        ),
        "wheel_scored": event(
            "The sector's action scored.",
            {
                "sector": STR,
                "points": array(INT, "each seat's points"),
                "reason": STR,
                "figures": array(
                    record({"seat": SEAT, "x": X, "y": Y, "spot": SPOT, "points": INT})
                ),
            },
        ),
        "crown_scored": event(
            "The followers on the sector's crown spaces scored.",
            {
                "sector": STR,
                "figures": array(record({"seat": SEAT, "space": INT})),
                "winners": SEATS,
                "points": INT,
                "reason": STR,
                "returned": BOOL,
            },
        ),
        "crown_taken": event(
            "A follower put on a crown space.", {"seat": SEAT, "sector": STR, "space": INT}
        ),
        "plague": event(
            "The plague: these seats, in order, each take back a follower.",
            {"seat": SEAT, "queue": SEATS},
        ),
        "follower_removed": event(
            "A follower taken back.",
            {"seat": SEAT, "x": X, "y": Y, "spot": SPOT, "figure": FIGURE, "reason": STR},
        ),
        "figure_returned": event(
            "A builder or pig goes home with the last follower beside it.",
            {"seat": SEAT, "figure": FIGURE, "x": X, "y": Y, "spot": SPOT, "reason": STR},
        ),
    },
)

PARTS = (BASE, HILLS_SHEEP, TRADERS_BUILDERS, WHEEL_OF_FORTUNE)

VIEW = Shape.of(
    "The game as a seat or a spectator sees it.",
    {
        **VIEW_COMMON,
        "turn": INT,
        "seat": about(SEAT, "whose turn it is"),
        "phase": about(STR, "the step of the turn: draw_tile, place_tile, place_follower..."),
        "tile": about(nullable(TILE), "the tile to place"),
        "placed": about(nullable(array(INT)), "[x, y] of the tile just placed"),
        "board": array(PLACEMENT, "every tile on the board"),
        "followers": array(
            record({"seat": SEAT, "figure": FIGURE, "x": X, "y": Y, "spot": SPOT, "kind": STR}),
            "every figure on the board",
        ),
        "scores": array(INT),
        "supply": array(mapping(INT), "each seat's figures in hand, by figure"),
        "stack": mapping(INT, "tile id -> copies nobody has seen yet"),
        "remaining": about(INT, "tiles that can still be drawn"),
        "set_aside": array(TILE),
        "hidden": about(INT, "tiles under hills"),
        "extra_turn": BOOL,
        "expansions": mapping(ANY, "each expansion's own part of the game, by name"),
    },
)

"""The shapes of South Seas' commands and events. See :mod:`service.rules.shapes`."""

from __future__ import annotations

from service.rules.shapes import (
    ANY,
    BOOL,
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
from service.rules.south_seas.ships import WARES
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

SHIP = about(STR, "a ship id")
SEATS = array(SEAT)
WARE_COUNTS = counts(WARES, "wares by kind")
KIND = about(STR, "bridge, island, sea or market")
ROLE = about(STR, "shell_collector, banana_picker, fisherman or merchant")
#: a ship's demand: wares by kind, any wares, or several of one kind
DEMAND = {
    "type": "object",
    "properties": {
        **{ware: {"type": "integer", "minimum": 0} for ware in WARES},
        "any": about(INT, "wares of any kind"),
        "same": array(INT, "groups of wares, each of one kind"),
    },
    "additionalProperties": False,
}

BASE = Part(
    "base",
    "Carcassonne: South Seas",
    commands={
        "reveal_ship": command(
            "Name the ship turned face up (external randomness only).", {"ship": SHIP}
        ),
        "draw_tile": command(
            "Name the tile drawn (external randomness only).", {"tile": about(STR, "a tile id")}
        ),
        "place_tile": PLACE_TILE,
        "place_islander": command(
            "Place an islander on the tile just placed.",
            {"spot": about(STR, "e.g. bridge:N,S island:N sea:EL,ER market")},
        ),
        "retrieve_islander": command(
            "Take back one of your islanders (it brings nothing back with it).",
            {"x": X, "y": Y, "spot": SPOT},
        ),
        "skip": SKIP,
        "choose_ship": command(
            "Take one of the tied highest-valued face-up ships for your merchant.",
            {"ship": SHIP},
        ),
        "deliver": command(
            "Deliver exactly a face-up ship's demand.", {"ship": SHIP, "wares": WARE_COUNTS}
        ),
        "pass": command("Deliver nothing this turn."),
    },
    menus={
        "reveal_ship": array(record({"ship": SHIP}), "the ships that may be turned up"),
        "draw_tile": array(
            record({"tile": TILE, "left": about(INT, "copies left: the odds of the draw")}),
            "the tiles that may be drawn",
        ),
        "place_tile": array(
            record({"x": X, "y": Y, "rotation": PLACE_TILE.fields["rotation"]}),
            "every place and rotation where the tile fits",
        ),
        "place_islander": array(
            record({"spot": SPOT, "kind": KIND, "role": ROLE}),
            "where an islander may go, and what it would do there",
        ),
        "retrieve_islander": array(record({"x": X, "y": Y, "spot": SPOT}), "your islanders"),
        "skip": NO_FIELDS,
        "choose_ship": array(record({"ship": SHIP}), "the ships the merchant may take"),
        "deliver": array(
            record({"ship": SHIP, "wares": WARE_COUNTS}),
            "for each ship you can pay, one delivery that would do",
        ),
        "pass": NO_FIELDS,
    },
    events={
        "game_started": event(
            "The game's set-up: options, seats, islanders and boats, the start tile, the"
            " stack and the ships.",
            {
                "ruleset": STR,
                "rules_version": INT,
                "options": mapping(ANY, "the game's options, normalised"),
                "seats": INT,
                "islanders": INT,
                "fishing_boats": INT,
                "start": PLACEMENT,
                "stack": mapping(INT, "tile id -> copies in the stack"),
                "ships": array(SHIP, "the ship deck, in the order it is turned up"),
            },
        ),
        "ship_revealed": event(
            "A ship turned face up.",
            {"id": SHIP, "ship": SHIP, "points": INT, "demand": DEMAND},
        ),
        "tile_drawn": event("The seat drew a tile.", TILE_DRAWN),
        "tile_set_aside": TILE_SET_ASIDE,
        "tile_placed": TILE_PLACED,
        "islander_placed": event(
            "An islander placed on the tile just placed.",
            {
                "seat": SEAT,
                "x": X,
                "y": Y,
                "spot": SPOT,
                "kind": KIND,
                "role": ROLE,
            },
        ),
        "islander_retrieved": event(
            "An islander taken back.", {"seat": SEAT, "x": X, "y": Y, "spot": SPOT, "kind": KIND}
        ),
        "feature_evaluated": event(
            "A feature evaluated: who collects which wares, or whose merchant takes a ship.",
            {
                "kind": KIND,
                "trigger": one_of("completed", "fishing_boat", "end_of_game"),
                "complete": BOOL,
                "at": AT,
                "tiles": TILES,
                "islanders": array(FIGURE_AT),
                "winners": SEATS,
                "ware": nullable(one_of(*WARES)),
                "icons": INT,
                "wares": INT,
                "returned": BOOL,
                "reason": STR,
                "ship_owed": optional(BOOL),
                "boat": optional(AT),
                "cover": optional(nullable(record({"x": X, "y": Y, "spot": SPOT, "group": INT}))),
                "cover_reason": optional(STR),
            },
        ),
        "ship_awarded": event(
            "A completed market's merchant took a ship (or none was left).",
            {
                "seat": SEAT,
                "market": record({"x": X, "y": Y}),
                "ship": nullable(SHIP),
                "highest": array(SHIP),
                "points": INT,
                "reason": STR,
            },
        ),
        "delivery_offered": event(
            "The face-up ships the seat may deliver to.", {"seat": SEAT, "ships": array(SHIP)}
        ),
        "wares_delivered": event(
            "Wares delivered to a ship, for its points.",
            {"seat": SEAT, "ship": SHIP, "points": INT, "demand": DEMAND, "wares": WARE_COUNTS},
        ),
        "turn_ended": event("The seat's turn is over.", TURN_ENDED),
        "game_ended": event(
            "The final scores and the winners.",
            {
                "because": STR,
                "scores": array(INT),
                "ship_points": array(INT),
                "wares": array(INT, "each seat's wares left"),
                "reason": STR,
                "winners": SEATS,
            },
        ),
    },
)

PARTS = (BASE,)

#: a ship as the view shows it
SHIP_CARD = record({"id": SHIP, "points": INT, "demand": DEMAND})

VIEW = Shape.of(
    "The game as a seat or a spectator sees it.",
    {
        **VIEW_COMMON,
        "custom_catalogue": record({"tiles": BOOL, "ships": BOOL}),
        "turn": INT,
        "seat": about(SEAT, "whose turn it is"),
        "decision": nullable(STR),
        "tile": about(nullable(TILE), "the tile to place"),
        "placed": about(nullable(array(INT)), "[x, y] of the tile just placed"),
        "board": array(PLACEMENT, "every tile on the board"),
        "islanders": array(
            record({"seat": SEAT, "x": X, "y": Y, "spot": SPOT, "kind": KIND}),
            "every islander on the board",
        ),
        "supply": array(INT, "each seat's islanders in hand"),
        "wares": array(WARE_COUNTS, "each seat's wares"),
        "display": array(SHIP_CARD, "the face-up ships"),
        "ships_face_down": INT,
        "held": array(array(SHIP_CARD), "each seat's ships"),
        "owed": array(mapping(ANY), "merchants still to take a ship"),
        "fishing_boats_left": INT,
        "covered": array(mapping(ANY), "fish covered by fishing boats"),
        "stack": mapping(INT, "tile id -> copies left"),
        "remaining": INT,
        "set_aside": array(TILE),
        "scores": array(INT),
        "ended_because": nullable(STR),
    },
)

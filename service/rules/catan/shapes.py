"""The shapes of Catan's commands and events, by the part of the game that adds them:
the base game, Seafarers (ships, the pirate, gold fields: every scenario), then each
scenario with commands or events of its own. See :mod:`service.rules.shapes`."""

from __future__ import annotations

from service.rules.catan import scenarios
from service.rules.catan.board import RESOURCES
from service.rules.catan.pieces import DEVELOPMENT_CARDS
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
    outcome,
    record,
)

TITLES = {info.number: info.title_en for info in scenarios.available()}

CORNER = about(STR, "an intersection, e.g. 0,-1,N")
EDGE = about(STR, "a path, e.g. 0,-1,NE")
HEX = about(STR, "a hex, q,r")
RESOURCE = one_of(*RESOURCES)
CARDS = counts(RESOURCES, "resource cards by kind")
CARD = one_of(*DEVELOPMENT_CARDS, description="a development card")
SEATS = array(SEAT)
#: seat (as a string) -> resources
BY_SEAT = mapping(CARDS, "seat -> resource cards")
EXTERNAL = "(external randomness only)"
VICTIM = about(
    nullable(SEAT),
    "the seat to steal from, one of the victims legal-moves lists for the hex; null (or left"
    " out) only when it lists none",
)
STOLEN = outcome(about(RESOURCE, "the card stolen"))
HARBOUR = record({"type": STR, "corners": array(CORNER)})
BOARD = record(
    {
        "hexes": array(record({"hex": HEX, "terrain": STR, "number": nullable(INT)})),
        "harbours": array(HARBOUR),
        "robber": nullable(HEX),
        "pirate": optional(nullable(HEX)),
        "unnumbered": optional(array(HEX)),
    },
    "the board: hexes with their terrain and number, harbours, the robber and pirate",
)
REVEAL = outcome(
    array(
        record({"hex": HEX, "terrain": STR, "number": nullable(INT)}),
        "The Fog Islands: the fog spaces the ship or road turns up, in order",
    )
)
FROM_TO = {"from": EDGE, "to": EDGE}

# -- what legal-moves lists for each command (``menus``) --
CORNERS = record({"corners": array(CORNER)})
EDGES = record({"edges": array(EDGE)})
#: where the robber (or the pirate) may go, each with the seats it could then rob
HEXES = record({"hexes": array(record({"hex": HEX, "victims": SEATS}), "the hexes it may move to")})
RATE = about(INT, "how many to give for one")
#: a trade offer or proposal: its cards are free, within what the seat holds
OFFER_MENU = {
    "may_give": about(CARDS, "your hand: give some of it"),
    "rule": STR,
}

BASE = Part(
    "base",
    "Catan",
    commands={
        "set_board": command(f"Send the board {EXTERNAL}.", {"board": BOARD}),
        "build_settlement": command("Build a settlement.", {"corner": CORNER}),
        "build_road": command("Build a road.", {"edge": EDGE, "reveal": REVEAL}),
        "build_city": command("Turn one of your settlements into a city.", {"corner": CORNER}),
        "roll": command(
            "Roll the dice.",
            {
                "dice": outcome(array(INT, "[a, b]", minItems=2, maxItems=2)),
                "plunder": outcome(
                    mapping(
                        CARDS,
                        "The Pirate Islands: seat -> the cards the fleet takes from it, if it"
                        " beats that seat",
                    )
                ),
            },
        ),
        "discard": command("Discard half your cards on a 7.", {"resources": CARDS}),
        "move_robber": command(
            "Move the robber and steal from a seat beside it.",
            {"hex": HEX, "victim": optional(VICTIM), "resource": STOLEN},
        ),
        "buy_development": command(
            "Buy a development card.", {"card": outcome(about(CARD, "the card drawn"))}
        ),
        "play_knight": command("Play a knight: move the robber."),
        "play_road_building": command("Play road building: two free roads."),
        "play_year_of_plenty": command(
            "Play year of plenty: take 2 resources from the bank.", {"resources": CARDS}
        ),
        "play_monopoly": command(
            "Play monopoly: every other seat gives you its cards of one resource.",
            {"resource": RESOURCE},
        ),
        "maritime_trade": command(
            "Trade with the bank at your best rate.", {"give": RESOURCE, "get": RESOURCE}
        ),
        "offer_trade": command(
            "Offer a trade to other seats.",
            {
                "give": CARDS,
                "get": CARDS,
                "to": optional(about(SEATS, "the seats offered to (default: every other seat)")),
            },
        ),
        "respond_trade": command(
            "Answer a trade offer: accept, decline, or counter with your own.",
            {
                "answer": one_of("accept", "decline", "counter"),
                "give": optional(about(CARDS, "counter-offer: what you give")),
                "get": optional(about(CARDS, "counter-offer: what you get")),
            },
        ),
        "confirm_trade": command("Trade with a seat that accepted or countered.", {"with": SEAT}),
        "cancel_trade": command("Withdraw the trade offer."),
        "propose_trade": command(
            "Propose a trade to the seat whose turn it is.", {"give": CARDS, "get": CARDS}
        ),
        "pass_trade": command("Propose nothing."),
        "accept_proposal": command("Accept the proposal."),
        "decline_proposal": command("Decline the proposal."),
        "end_turn": command("End your turn."),
    },
    menus={
        "set_board": record({"board": about(STR, "what to send, in words")}),
        "build_settlement": CORNERS,
        "build_road": EDGES,
        "build_city": CORNERS,
        "roll": record({"dice": optional(about(STR, f"what to send {EXTERNAL}"))}),
        "discard": record({"count": about(INT, "how many to discard"), "hand": CARDS}),
        "move_robber": HEXES,
        "buy_development": NO_FIELDS,
        "play_knight": NO_FIELDS,
        "play_road_building": NO_FIELDS,
        "play_year_of_plenty": record({"bank": about(CARDS, "what the bank holds")}),
        "play_monopoly": record({"resources": array(RESOURCE)}),
        "maritime_trade": record(
            {"trades": array(record({"give": RESOURCE, "get": RESOURCE, "rate": RATE}))}
        ),
        "offer_trade": record({**OFFER_MENU, "to": about(SEATS, "the seats you may offer to")}),
        "respond_trade": record(
            {
                "answers": array(one_of("accept", "decline", "counter")),
                "offer": record({"seat": SEAT, "give": CARDS, "get": CARDS}),
                "may_give": about(CARDS, "your hand: what a counter-offer may give"),
            }
        ),
        "confirm_trade": record({"with": about(SEATS, "the seats that accepted or countered")}),
        "cancel_trade": NO_FIELDS,
        "propose_trade": record({**OFFER_MENU, "to": about(SEAT, "the seat whose turn it is")}),
        "pass_trade": NO_FIELDS,
        "accept_proposal": NO_FIELDS,
        "decline_proposal": NO_FIELDS,
        "end_turn": NO_FIELDS,
    },
    events={
        "game_started": event(
            "The game's set-up: options, seats and the board (null until set_board with"
            " external randomness); a scenario's own set-up.",
            {
                "ruleset": STR,
                "rules_version": INT,
                "options": mapping(ANY, "the game's options, normalised"),
                "seats": INT,
                "board": nullable(BOARD),
                "scenario": optional(mapping(ANY, "Seafarers: the scenario's set-up")),
            },
        ),
        "board_set": event("The board, sent by set_board.", {"board": BOARD}),
        "settlement_built": event(
            "A settlement built.",
            {
                "seat": SEAT,
                "corner": CORNER,
                "free": about(BOOL, "a set-up settlement"),
                "roads_cut": optional(mapping(INT, "seat -> its longest road now, if cut")),
                "areas": optional(array(INT, "Seafarers: the areas (islands) it touches")),
                "special": optional(about(INT, "Seafarers: special points for a new island")),
                "length": optional(about(INT, "the seat's longest road now")),
            },
        ),
        "road_built": event(
            "A road built.",
            {"seat": SEAT, "edge": EDGE, "free": BOOL, "length": about(INT, "longest road")},
        ),
        "city_built": event("A settlement became a city.", {"seat": SEAT, "corner": CORNER}),
        "starting_resources": event(
            "Resources for the second set-up settlement.",
            {"gains": BY_SEAT, "gold": optional(mapping(INT, "seat -> gold to choose"))},
        ),
        "dice_rolled": event(
            "The dice.", {"seat": SEAT, "dice": array(INT, minItems=2, maxItems=2), "total": INT}
        ),
        "resources_produced": event(
            "What the roll produced: gains, what was owed, shortages of the bank.",
            {
                "total": INT,
                "gains": BY_SEAT,
                "owed": BY_SEAT,
                "shortages": array(RESOURCE),
                "gold": optional(mapping(INT, "seat -> gold to choose")),
            },
        ),
        "discarded": event("Cards discarded on a 7.", {"seat": SEAT, "resources": CARDS}),
        "robber_moved": event("The robber moved.", {"seat": SEAT, "hex": HEX, "victim": VICTIM}),
        "card_stolen": event(
            "A card stolen. Only the thief and the victim see which (and the salt).",
            {"thief": SEAT, "victim": SEAT, "resource": optional(RESOURCE), "salt": optional(STR)},
        ),
        "development_bought": event(
            "A development card bought. Only the buyer sees which (and the salt).",
            {"seat": SEAT, "card": optional(CARD), "salt": optional(STR)},
        ),
        "knight_played": event("A knight played.", {"seat": SEAT, "knights": INT}),
        "largest_army": event("The largest army changed hands.", {"seat": SEAT, "knights": INT}),
        "road_building_played": event(
            "Road building played.", {"seat": SEAT, "roads": about(INT, "free roads to build")}
        ),
        "free_roads_ended": event(
            "No second free road can be built.", {"seat": SEAT, "reason": STR}
        ),
        "year_of_plenty_played": event(
            "Year of plenty played.", {"seat": SEAT, "resources": CARDS}
        ),
        "monopoly_played": event(
            "Monopoly played.",
            {"seat": SEAT, "resource": RESOURCE, "taken": mapping(INT, "seat -> cards given")},
        ),
        "maritime_traded": event(
            "A trade with the bank.", {"seat": SEAT, "give": CARDS, "get": CARDS, "rate": INT}
        ),
        "trade_offered": event(
            "A trade offered.", {"seat": SEAT, "give": CARDS, "get": CARDS, "to": SEATS}
        ),
        "trade_answered": event(
            "An answer to the offer (with a counter-offer's cards).",
            {
                "seat": SEAT,
                "answer": one_of("accept", "decline", "counter"),
                "give": optional(CARDS),
                "get": optional(CARDS),
            },
        ),
        "trade_made": event(
            "Cards exchanged, as the active seat gives and gets them.",
            {"seat": SEAT, "with": SEAT, "give": CARDS, "get": CARDS},
        ),
        "trade_cancelled": event("The trade is off.", {"seat": SEAT}),
        "trade_proposed": event(
            "A trade proposed to the seat whose turn it is.",
            {"seat": SEAT, "to": SEAT, "give": CARDS, "get": CARDS},
        ),
        "trade_passed": event("No trade proposed.", {"seat": SEAT}),
        "longest_road": event(
            "The longest road changed hands (null: nobody holds it).",
            {"seat": nullable(SEAT), "length": nullable(INT)},
        ),
        "turn_ended": event(
            "The seat's turn is over.",
            {"seat": SEAT, "next": about(SEAT, "the seat whose turn it is now")},
        ),
        "game_ended": event(
            "The winners and each seat's points by source.",
            {
                "winners": SEATS,
                "points": array(
                    record(
                        {"seat": SEAT, "sources": mapping(INT, "source -> points"), "total": INT}
                    )
                ),
                "reason": optional(
                    one_of(
                        "resigned",
                        "abandoned",
                        "wonders_out_of_reach",
                        description="the game ended early: one seat left after"
                        " resignations, abandoned, or (The Wonders of Catan) no wonder"
                        " can be started any more",
                    )
                ),
            },
        ),
    },
)

SEAFARERS = Part(
    "seafarers",
    "Seafarers (every scenario)",
    commands={
        "build_ship": command(
            "Build a ship.",
            {
                "edge": EDGE,
                "reveal": REVEAL,
                "card": outcome(about(CARD, "The Forgotten Tribe: the card a gift path gives")),
            },
        ),
        "move_ship": command(
            "Move the last ship of an open line.",
            {**FROM_TO, "reveal": REVEAL},
        ),
        "move_pirate": command(
            "Move the pirate and steal from a seat with a ship beside it.",
            {"hex": HEX, "victim": optional(VICTIM), "resource": STOLEN},
        ),
        "choose_gold": command("Choose the resources a gold field gives.", {"resources": CARDS}),
    },
    menus={
        "build_ship": EDGES,
        "move_ship": record({"moves": array(record(FROM_TO), "the ships that may move and where")}),
        "move_pirate": HEXES,
        "choose_gold": record(
            {"count": about(INT, "how many to choose"), "bank": about(CARDS, "what the bank holds")}
        ),
    },
    events={
        "ship_built": event(
            "A ship built.",
            {"seat": SEAT, "edge": EDGE, "free": BOOL, "length": about(INT, "longest route")},
        ),
        "ship_moved": event("A ship moved.", {"seat": SEAT, **FROM_TO, "length": INT}),
        "pirate_moved": event("The pirate moved.", {"seat": SEAT, "hex": HEX, "victim": VICTIM}),
        "gold_chosen": event("Resources chosen for gold.", {"seat": SEAT, "resources": CARDS}),
    },
)

FOG_ISLANDS = Part(
    "scenario_3",
    TITLES[3],
    events={
        "hex_revealed": event(
            "A fog space turned up, and what it gave at once.",
            {
                "seat": SEAT,
                "hex": HEX,
                "terrain": STR,
                "number": nullable(INT),
                "gains": BY_SEAT,
                "gold": optional(mapping(INT, "seat -> gold to choose")),
            },
        ),
    },
)

#: The Forgotten Tribe's harbour markers and The New World's harbours
PLACE_HARBOUR = command(
    "Place a harbour marker: on a free coast path (The New World), beside one of your"
    " settlements or cities (The Forgotten Tribe).",
    {
        "edge": EDGE,
        "types": outcome(array(STR, "The New World: the markers turned up, in order")),
    },
)
PLACE_HARBOUR_MENU = record(
    {
        "edges": array(EDGE, "where it may go"),
        "harbour": optional(about(STR, "The Forgotten Tribe: the marker to place")),
        "left": optional(about(INT, "The New World: harbours still to place")),
    }
)

FORGOTTEN_TRIBE = Part(
    "scenario_5",
    TITLES[5],
    commands={"place_harbour": PLACE_HARBOUR},
    menus={"place_harbour": PLACE_HARBOUR_MENU},
    events={
        "gift_taken": event(
            "A gift of the tribe taken by a ship. Only the seat sees a development card.",
            {
                "seat": SEAT,
                "edge": EDGE,
                "gift": about(STR, "what lay there: a chit, a development card, a harbour"),
                "card": optional(CARD),
                "salt": optional(STR),
            },
        ),
        "harbour_marker_placed": event(
            "A harbour marker placed.", {"seat": SEAT, "edge": EDGE, "type": STR}
        ),
    },
)

CLOTH = Part(
    "scenario_6",
    TITLES[6],
    events={
        "village_connected": event(
            "The seat now trades with a village.",
            {"seat": SEAT, "village": STR, "number": INT, "cloth": INT},
        ),
        "cloth_distributed": event(
            "A village's cloth for the roll.",
            {
                "total": INT,
                "village": STR,
                "gains": mapping(INT, "seat -> cloth"),
                "from_village": INT,
                "from_reserve": INT,
            },
        ),
    },
)

PIRATE_ISLANDS = Part(
    "scenario_7",
    TITLES[7],
    commands={
        "convert_warship": command("Turn a knight card into a warship."),
        "attack_fortress": command(
            "Attack the pirates' fortress.",
            {"die": outcome(about(INT, "the fortress's die"))},
        ),
        "steal": command(
            "On a 7: steal from a seat, or from nobody.",
            {
                "victim": optional(
                    about(
                        nullable(SEAT),
                        "one of the victims legal-moves lists; null or left out: nobody",
                    )
                ),
                "resource": STOLEN,
            },
        ),
    },
    menus={
        "convert_warship": NO_FIELDS,
        "attack_fortress": NO_FIELDS,
        "steal": record({"victims": about(SEATS, "the seats holding cards")}),
    },
    events={
        "fleet_moved": event("The pirate fleet sailed.", {"seat": SEAT, **FROM_TO, "steps": INT}),
        "pirates_attacked": event(
            "The fleet attacked a seat.",
            {
                "seat": SEAT,
                "strength": INT,
                "warships": INT,
                "winner": one_of("pirates", "seat", "nobody"),
                "lost": optional(CARDS),
            },
        ),
        "warship_converted": event(
            "A ship became a warship.", {"seat": SEAT, "edge": EDGE, "card": STR}
        ),
        "fortress_attacked": event(
            "An attack on the fortress.",
            {
                "seat": SEAT,
                "die": INT,
                "warships": INT,
                "ships_lost": array(EDGE),
                "winner": one_of("pirates", "seat", "nobody"),
                "chits": optional(INT),
                "conquered": optional(about(STR, "the fortress conquered")),
                "fleet_leaves": optional(BOOL),
            },
        ),
        "steal_chosen": event(
            "On a 7: the seat chose whom to rob.", {"seat": SEAT, "victim": VICTIM}
        ),
    },
)

WONDERS = Part(
    "scenario_8",
    TITLES[8],
    commands={
        "start_wonder": command("Start a wonder.", {"wonder": STR}),
        "build_wonder": command("Build the next level of your wonder."),
    },
    menus={
        "start_wonder": record({"wonders": array(STR, "the wonders you may start")}),
        "build_wonder": NO_FIELDS,
    },
    events={
        "wonder_started": event("A wonder started.", {"seat": SEAT, "wonder": STR}),
        "wonder_built": event(
            "A level of a wonder built.",
            {"seat": SEAT, "wonder": STR, "level": INT, "cost": CARDS},
        ),
    },
)

NEW_WORLD = Part(
    "scenario_9",
    TITLES[9],
    commands={"place_harbour": PLACE_HARBOUR},
    menus={"place_harbour": PLACE_HARBOUR_MENU},
    events={
        "harbour_placed": event(
            "A harbour placed; the last one turns every marker up.",
            {"seat": SEAT, "edge": EDGE, "harbours": optional(array(HARBOUR))},
        ),
    },
)

PARTS = (BASE, SEAFARERS, FOG_ISLANDS, FORGOTTEN_TRIBE, CLOTH, PIRATE_ISLANDS, WONDERS, NEW_WORLD)

#: a piece on a path
ON_PATH = record({"edge": EDGE, "seat": SEAT})
SCENARIO_PART = "Seafarers: "

VIEW = Shape.of(
    "The game as a seat or a spectator sees it: a seat sees its own hand in `players`.",
    {
        **VIEW_COMMON,
        "phase": about(STR, "setup, main or over"),
        "turn": INT,
        "current": about(SEAT, "whose turn it is"),
        "rolled": BOOL,
        "last_roll": nullable(array(INT)),
        "board": about(nullable(BOARD), "null until set_board (external randomness)"),
        "robber": nullable(HEX),
        "buildings": array(record({"corner": CORNER, "seat": SEAT, "kind": STR})),
        "roads": array(ON_PATH),
        "players": array(
            record(
                {
                    "seat": SEAT,
                    "cards": INT,
                    "development_cards": INT,
                    "knights": INT,
                    "points": about(INT, "the points everyone sees"),
                    "pieces": mapping(INT, "pieces left, by kind"),
                    "resources": optional(about(CARDS, "the seat's own hand only")),
                    "development": optional(mapping(INT, "the seat's own cards only")),
                    "development_new": optional(mapping(INT, "bought this turn")),
                    "total_points": optional(about(INT, "with its hidden victory points")),
                }
            )
        ),
        "bank": CARDS,
        "development_deck": INT,
        "longest_road": nullable(SEAT),
        "road_lengths": array(INT),
        "largest_army": nullable(SEAT),
        "offer": about(nullable(mapping(ANY)), "the trade offer under way"),
        "final": array(mapping(ANY), "at the end: each seat's points by source"),
        "scenario": optional(record({"number": INT, "name": STR, "victory_points": INT})),
        "ships": optional(array(ON_PATH)),
        "pirate": optional(nullable(HEX)),
        "areas": optional(array(mapping(ANY), SCENARIO_PART + "the islands and who settled")),
        "special_points": optional(array(INT)),
        "ship_moved": optional(BOOL),
        "fog_piles": optional(record({"tiles": INT, "numbers": INT})),
        "harbours_placed": optional(array(EDGE)),
        "harbours_to_place": optional(INT),
        "wonders": optional(mapping(ANY, TITLES[8])),
        "cloth": optional(mapping(ANY, TITLES[6])),
        "tribe": optional(mapping(ANY, TITLES[5])),
        "pirate_islands": optional(mapping(ANY, TITLES[7])),
    },
)

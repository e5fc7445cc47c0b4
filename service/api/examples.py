"""Examples for the OpenAPI document: real responses captured from the service (a
Carcassonne game against the greedy bot, an external-randomness game between two
people) and trimmed: long tile stacks and placement lists are shortened, which the
operation descriptions say. Every example is valid against its schema, because
schemathesis sends the request examples and the drift check compares the document.
"""

from __future__ import annotations

import copy
from typing import Any

GAME_ID = "92ecda40-ebf0-46ee-bf5e-9e9e4b62b3f7"


def carcassonne_options(randomness: str = "internal") -> dict[str, Any]:
    """Carcassonne's default options as the service normalises them. A fresh dict each
    time: YAML would print a shared one as an anchor and aliases."""
    return {
        "expansions": [],
        "farmers": True,
        "flock_timing": "before_figure",
        "hill_tiebreak": "any",
        "randomness": randomness,
        "small_cities": False,
        "wheel_board": None,
    }


# -- responses captured from the service ---------------------------------------------

GAME_SUMMARY = {
    "awaiting": [{"decision": "place_tile", "seat": 0, "tile": "BA/L"}],
    "created_at": "2026-11-21T02:52:41.641161+00:00",
    "id": GAME_ID,
    "options": carcassonne_options(),
    "result": None,
    "ruleset": "carcassonne",
    "seats": [
        {"bot": None, "name": "Ada", "seat": 0},
        {"bot": "greedy", "name": "greedy bot", "seat": 1},
    ],
    "seed": None,
    "seed_sha256": "1ef594af91db4c250a0b9c4b1d24960f7d9903356a557fa0773d0264d84f563b",
    "status": "active",
    "updated_at": "2026-11-21T02:52:41.641161+00:00",
    "version": 2,
}

# The same game as the creator sees it, once: with its seat tokens (a deep copy, for the
# same reason as carcassonne_options).
CREATED_GAME = {
    **copy.deepcopy(GAME_SUMMARY),
    "seat_tokens": [{"seat": 0, "token": "tgs_RLH3yPsL3UFkzFwSMl6qiGSGfJYYB4Ex"}],
}

FINISHED_GAME = {
    "awaiting": [],
    "created_at": "2026-11-21T02:53:06.019736+00:00",
    "id": "1e99a95e-274f-4e50-8124-a70a518299bf",
    "options": carcassonne_options(),
    "result": {"over": True, "scores": [62, 13], "winners": [0]},
    "ruleset": "carcassonne",
    "seats": [
        {"bot": "greedy", "name": "greedy bot", "seat": 0},
        {"bot": "random", "name": "random bot", "seat": 1},
    ],
    "seed": "7e4db0ea0a94f99b0e8d6ccc7697645efd70895d32cd71cc5e753a8ccaf6e3db",
    "seed_sha256": "3ea66f4ecfc2f85292c773d362739c38ab3bcef6e73dd110d2d69d599ff45569",
    "status": "finished",
    "updated_at": "2026-11-21T02:53:06.019736+00:00",
    "version": 260,
}

LEGAL_PLACE_TILE = {
    "awaiting": [{"decision": "place_tile", "seat": 0, "tile": "BA/L"}],
    "commands": {
        "decision": "place_tile",
        "placements": [
            {
                "rotation": 0,
                "spots": [
                    {"kind": "cloister", "sides": [], "spot": "cloister"},
                    {
                        "kind": "field",
                        "sides": ["NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"],
                        "spot": "field:NL,NR,EL,ER,SL,SR,WL,WR",
                    },
                ],
                "x": 0,
                "y": 1,
            },
            {
                "rotation": 90,
                "spots": [
                    {"kind": "cloister", "sides": [], "spot": "cloister"},
                    {
                        "kind": "field",
                        "sides": ["NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"],
                        "spot": "field:NL,NR,EL,ER,SL,SR,WL,WR",
                    },
                ],
                "x": 0,
                "y": 1,
            },
        ],
        "seat": 0,
        "tile": "BA/L",
    },
    "game_id": GAME_ID,
    "seat": 0,
    "version": 2,
}

LEGAL_PLACE_FOLLOWER = {
    "awaiting": [{"decision": "place_follower", "seat": 0, "x": 0, "y": 1}],
    "commands": {
        "decision": "place_follower",
        "seat": 0,
        "skip": True,
        "spots": [
            {"kind": "cloister", "sides": [], "spot": "cloister"},
            {
                "kind": "field",
                "sides": ["NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"],
                "spot": "field:NL,NR,EL,ER,SL,SR,WL,WR",
            },
        ],
        "x": 0,
        "y": 1,
    },
    "game_id": GAME_ID,
    "seat": 0,
    "version": 3,
}

MOVE_PLACE_TILE = {
    "awaiting": [{"decision": "place_follower", "seat": 0, "x": 0, "y": 1}],
    "events": [
        {
            "data": {"rotation": 0, "seat": 0, "tile": "BA/L", "x": 0, "y": 1},
            "hash": "f7809183de1b315cf0d9689dcf36e03f94b2208a6074a8b8b9d0142365cfc0c8",
            "prev_hash": "a32cc0be0ca2b3eae55fafb1efa33434b853590d864290cfd7f155b2838a6246",
            "recorded_at": "2026-11-21T02:52:41.649518+00:00",
            "redacted": False,
            "seq": 3,
            "type": "tile_placed",
            "visibility": None,
        }
    ],
    "game_id": GAME_ID,
    "result": None,
    "seat": 0,
    "status": "active",
    "version": 3,
}

MOVE_FOLLOWER_AND_BOT_TURN = {
    "awaiting": [{"decision": "place_tile", "seat": 0, "tile": "BA/Rr"}],
    "events": [
        {
            "data": {
                "figure": "follower",
                "kind": "cloister",
                "seat": 0,
                "spot": "cloister",
                "x": 0,
                "y": 1,
            },
            "hash": "a95cae781527ac776955d7db54d607aec496e33565b857c9b517eab40d1aad3d",
            "prev_hash": "f7809183de1b315cf0d9689dcf36e03f94b2208a6074a8b8b9d0142365cfc0c8",
            "recorded_at": "2026-11-21T02:52:41.658878+00:00",
            "redacted": False,
            "seq": 4,
            "type": "follower_placed",
            "visibility": None,
        },
        {
            "data": {"next": 1, "seat": 0},
            "hash": "4ae88b1a453358747177fcb18b351f07dc7ea7ed740151ac645520bb3f2e728c",
            "prev_hash": "a95cae781527ac776955d7db54d607aec496e33565b857c9b517eab40d1aad3d",
            "recorded_at": "2026-11-21T02:52:41.658878+00:00",
            "redacted": False,
            "seq": 5,
            "type": "turn_ended",
            "visibility": None,
        },
        {
            "data": {"seat": 1, "tile": "BA/RRR"},
            "hash": "d361799942ab10e5efa748c22e75517f4b1e9c4b6e7ab0de2843c3cb3f15f2f3",
            "prev_hash": "4ae88b1a453358747177fcb18b351f07dc7ea7ed740151ac645520bb3f2e728c",
            "recorded_at": "2026-11-21T02:52:41.658878+00:00",
            "redacted": False,
            "seq": 6,
            "type": "tile_drawn",
            "visibility": None,
        },
        {
            "data": {"rotation": 180, "seat": 1, "tile": "BA/RRR", "x": 1, "y": 0},
            "hash": "2dddbca8272b74a7f0d75781687bbe90cf8d440b8112d98ac23fd1c2c4ed63b5",
            "prev_hash": "d361799942ab10e5efa748c22e75517f4b1e9c4b6e7ab0de2843c3cb3f15f2f3",
            "recorded_at": "2026-11-21T02:52:41.658878+00:00",
            "redacted": False,
            "seq": 7,
            "type": "tile_placed",
            "visibility": None,
        },
        {
            "data": {"next": 0, "seat": 1},
            "hash": "a5622a01b86d81e57fd5254a6b7658a44becfef81aafd358991a1ab23a62a1f9",
            "prev_hash": "2dddbca8272b74a7f0d75781687bbe90cf8d440b8112d98ac23fd1c2c4ed63b5",
            "recorded_at": "2026-11-21T02:52:41.658878+00:00",
            "redacted": False,
            "seq": 8,
            "type": "turn_ended",
            "visibility": None,
        },
        {
            "data": {"seat": 0, "tile": "BA/Rr"},
            "hash": "ee6b60a5b4c0c7faf594693390249bd079efd1ac84a1984021d696577fa2118a",
            "prev_hash": "a5622a01b86d81e57fd5254a6b7658a44becfef81aafd358991a1ab23a62a1f9",
            "recorded_at": "2026-11-21T02:52:41.658878+00:00",
            "redacted": False,
            "seq": 9,
            "type": "tile_drawn",
            "visibility": None,
        },
    ],
    "game_id": GAME_ID,
    "result": None,
    "seat": 0,
    "status": "active",
    "version": 9,
}

MOVE_SCORING = {
    "awaiting": [{"decision": "draw_tile", "seat": 1}],
    "events": [
        {
            "data": {
                "figure": "follower",
                "kind": "city",
                "seat": 0,
                "spot": "city:S",
                "x": 0,
                "y": -1,
            },
            "hash": "7405e1c48fb2f11dc17a8136eea7db8d7170409234f2df312b7bea2ad8436bf2",
            "prev_hash": "864613ebc7da8632c0bfb3db2ebd73beae6b7245c17e4799ca74b87ce6581620",
            "recorded_at": "2026-11-21T02:53:05.867856+00:00",
            "redacted": False,
            "seq": 4,
            "type": "follower_placed",
            "visibility": None,
        },
        {
            "data": {
                "at": {"spot": "city:S", "x": 0, "y": -1},
                "complete": True,
                "figures": [
                    {
                        "figure": "follower",
                        "seat": 0,
                        "spot": "city:S",
                        "weight": 1,
                        "x": 0,
                        "y": -1,
                    }
                ],
                "kind": "city",
                "points": 4,
                "reason": "completed city: 2 x 2 tiles + 2 x 0 shields",
                "returned": True,
                "shields": 0,
                "tiles": [[0, -1], [0, 0]],
                "winners": [0],
            },
            "hash": "1dd44ecc180f50f7491f3139cd2f1ef99188eb81f133510dcb57f1cbef073cb1",
            "prev_hash": "7405e1c48fb2f11dc17a8136eea7db8d7170409234f2df312b7bea2ad8436bf2",
            "recorded_at": "2026-11-21T02:53:05.867856+00:00",
            "redacted": False,
            "seq": 5,
            "type": "feature_scored",
            "visibility": None,
        },
        {
            "data": {"next": 1, "seat": 0},
            "hash": "93ba4f770acf141c664be4f0c4db0f43bb6e94be4841bd649948f1bf13cbb509",
            "prev_hash": "1dd44ecc180f50f7491f3139cd2f1ef99188eb81f133510dcb57f1cbef073cb1",
            "recorded_at": "2026-11-21T02:53:05.867856+00:00",
            "redacted": False,
            "seq": 6,
            "type": "turn_ended",
            "visibility": None,
        },
    ],
    "game_id": "51b7057f-8e18-4dee-8930-31b99b3acf89",
    "result": None,
    "seat": 0,
    "status": "active",
    "version": 6,
}

STATE = {
    "awaiting": [{"decision": "place_follower", "seat": 0, "x": 0, "y": 1}],
    "game_id": GAME_ID,
    "seat": 0,
    "state": {
        "awaiting": [{"decision": "place_follower", "seat": 0, "x": 0, "y": 1}],
        "board": [
            {"rotation": 0, "tile": "BA/RCr", "x": 0, "y": 0},
            {"rotation": 0, "tile": "BA/L", "x": 0, "y": 1},
        ],
        "expansions": {},
        "extra_turn": False,
        "followers": [],
        "hidden": [],
        "options": carcassonne_options(),
        "over": False,
        "phase": "place_follower",
        "placed": [0, 1],
        "remaining": 70,
        "ruleset": "carcassonne",
        "scores": [0, 0],
        "seat": 0,
        "seats": 2,
        "set_aside": [],
        "stack": {"BA/C": 5, "BA/CC.2": 2, "BA/CFC.2": 3, "BA/CFc+": 2},
        "supply": [{"follower": 7}, {"follower": 7}],
        "tile": None,
        "turn": 0,
        "winners": [],
    },
    "status": "active",
    "version": 3,
}

EVENT_PAGE = {
    "events": [
        {
            "data": {
                "figures": {"follower": 7},
                "options": carcassonne_options(),
                "ruleset": "carcassonne",
                "seats": 2,
                "stack": {"BA/C": 5, "BA/CC.2": 2, "BA/CFC.2": 3, "BA/CFc+": 2},
                "start": {"rotation": 0, "tile": "BA/RCr", "x": 0, "y": 0},
            },
            "hash": "6455d28b080ac20fb9eba6c28fc6485382e02170f223e7a1bc173255ef072a52",
            "prev_hash": "0000000000000000000000000000000000000000000000000000000000000000",
            "recorded_at": "2026-11-21T02:52:41.641161+00:00",
            "redacted": False,
            "seq": 1,
            "type": "game_started",
            "visibility": None,
        },
        {
            "data": {"seat": 0, "tile": "BA/L"},
            "hash": "a32cc0be0ca2b3eae55fafb1efa33434b853590d864290cfd7f155b2838a6246",
            "prev_hash": "6455d28b080ac20fb9eba6c28fc6485382e02170f223e7a1bc173255ef072a52",
            "recorded_at": "2026-11-21T02:52:41.641161+00:00",
            "redacted": False,
            "seq": 2,
            "type": "tile_drawn",
            "visibility": None,
        },
        {
            "data": {"rotation": 0, "seat": 0, "tile": "BA/L", "x": 0, "y": 1},
            "hash": "f7809183de1b315cf0d9689dcf36e03f94b2208a6074a8b8b9d0142365cfc0c8",
            "prev_hash": "a32cc0be0ca2b3eae55fafb1efa33434b853590d864290cfd7f155b2838a6246",
            "recorded_at": "2026-11-21T02:52:41.649518+00:00",
            "redacted": False,
            "seq": 3,
            "type": "tile_placed",
            "visibility": None,
        },
    ],
    "game_id": GAME_ID,
    "next_after": 3,
    "seat": None,
    "version": 9,
}

VERIFY = {
    "checks": [
        {"detail": "ok", "name": "hash_chain", "ok": True},
        {"detail": "ok", "name": "genesis_from_seed", "ok": True},
        {"detail": "ok", "name": "replay", "ok": True},
    ],
    "events": 9,
    "first_bad_seq": None,
    "game_id": GAME_ID,
    "head_hash": "ee6b60a5b4c0c7faf594693390249bd079efd1ac84a1984021d696577fa2118a",
    "valid": True,
    "version": 9,
}

RECORD = [
    {"seat": 0, "command": {"type": "draw_tile", "tile": "BA/RCr"}},
    {"seat": 0, "command": {"type": "place_tile", "x": 0, "y": -1, "rotation": 180}},
    {"seat": 0, "command": {"type": "place_follower", "spot": "city:S"}},
    {"seat": 1, "command": {"type": "draw_tile", "tile": "BA/Rr"}},
    {"seat": 1, "command": {"type": "place_tile", "x": 1, "y": 0, "rotation": 0}},
    {"seat": 1, "command": {"type": "skip"}},
]

VALIDATE_OK = {
    "awaiting": [{"decision": "draw_tile", "seat": 0}],
    "error": None,
    "finished": False,
    "result": {"over": False, "scores": [4, 0], "winners": []},
    "ruleset": "carcassonne",
    "state": {
        "awaiting": [{"decision": "draw_tile", "seat": 0}],
        "board": [
            {"rotation": 0, "tile": "BA/RCr", "x": 0, "y": 0},
            {"rotation": 180, "tile": "BA/RCr", "x": 0, "y": -1},
            {"rotation": 0, "tile": "BA/Rr", "x": 1, "y": 0},
        ],
        "expansions": {},
        "extra_turn": False,
        "followers": [],
        "hidden": [],
        "options": carcassonne_options("external"),
        "over": False,
        "phase": "draw_tile",
        "placed": None,
        "remaining": 69,
        "ruleset": "carcassonne",
        "scores": [4, 0],
        "seat": 0,
        "seats": 2,
        "set_aside": [],
        "stack": {"BA/C": 5, "BA/CC.2": 2, "BA/CFC.2": 3, "BA/CFc+": 2},
        "supply": [{"follower": 7}, {"follower": 7}],
        "tile": None,
        "turn": 2,
        "winners": [],
    },
    "steps": 6,
    "valid": True,
    "version": 9,
}

VALIDATE_ILLEGAL = {
    "awaiting": [{"decision": "place_follower", "seat": 0, "x": 0, "y": -1}],
    "error": {
        "code": "unexpected_command",
        "message": "awaiting place_follower, not place_tile",
        "rule": "A turn is: draw a tile, place it, then place a follower or not.",
        "step": 2,
    },
    "finished": False,
    "result": {"over": False, "scores": [0, 0], "winners": []},
    "ruleset": "carcassonne",
    "state": {
        "awaiting": [{"decision": "place_follower", "seat": 0, "x": 0, "y": -1}],
        "board": [
            {"rotation": 0, "tile": "BA/RCr", "x": 0, "y": 0},
            {"rotation": 180, "tile": "BA/RCr", "x": 0, "y": -1},
        ],
        "expansions": {},
        "extra_turn": False,
        "followers": [],
        "hidden": [],
        "options": carcassonne_options("external"),
        "over": False,
        "phase": "place_follower",
        "placed": [0, -1],
        "remaining": 70,
        "ruleset": "carcassonne",
        "scores": [0, 0],
        "seat": 0,
        "seats": 2,
        "set_aside": [],
        "stack": {"BA/C": 5, "BA/CC.2": 2, "BA/CFC.2": 3, "BA/CFc+": 2},
        "supply": [{"follower": 7}, {"follower": 7}],
        "tile": None,
        "turn": 0,
        "winners": [],
    },
    "steps": 2,
    "valid": False,
    "version": 3,
}

PROBLEM_ILLEGAL_MOVE = {
    "code": "illegal_move",
    "detail": "BA/RCr (D) cannot go at (0, 0) turned 0",
    "instance": "/v1/games/51b7057f-8e18-4dee-8930-31b99b3acf89/moves",
    "reason": "position_occupied",
    "rule": "A tile is placed on an empty space.",
    "status": 422,
    "title": "The rules forbid this move",
    "type": "urn:tilegames:problem:illegal_move",
    "request_id": "9be83af72329458598132b36dbfeeeff",
}

PROBLEM_NOT_YOUR_TURN = {
    "code": "not_your_turn",
    "detail": "it is seat 0's turn, not seat 1's",
    "instance": "/v1/games/00f95bc3-b7cc-43d1-973b-a9fd8dd56a76/moves",
    "reason": "not_your_turn",
    "rule": "Players take turns in clockwise order; only the awaited seat may act.",
    "status": 409,
    "title": "This seat is not awaited now",
    "type": "urn:tilegames:problem:not_your_turn",
    "request_id": "9be83af72329458598132b36dbfeeeff",
}

PROBLEM_VERSION_CONFLICT = {
    "code": "version_conflict",
    "current_version": 3,
    "detail": "expected version 2, the game is at 3",
    "instance": f"/v1/games/{GAME_ID}/moves",
    "status": 409,
    "title": "The game has moved on",
    "type": "urn:tilegames:problem:version_conflict",
    "request_id": "9be83af72329458598132b36dbfeeeff",
}

PROBLEM_VALIDATION_ERROR = {
    "code": "validation_error",
    "detail": "seats.1.bot: Length must be between 1 and 64.",
    "errors": [{"field": "seats.1.bot", "message": "Length must be between 1 and 64."}],
    "instance": "/v1/games",
    "status": 422,
    "title": "Unprocessable Entity",
    "type": "urn:tilegames:problem:validation_error",
    "request_id": "9be83af72329458598132b36dbfeeeff",
}

PROBLEM_INVALID_OPTIONS = {
    "code": "validation_error",
    "detail": "options.expansions: expansions must be a list drawn from ['river', "
    "'inns_cathedrals', 'traders_builders', 'hills_sheep', 'wheel_of_fortune']",
    "errors": [
        {
            "field": "options.expansions",
            "message": "expansions must be a list drawn from ['river', 'inns_cathedrals', "
            "'traders_builders', 'hills_sheep', 'wheel_of_fortune']",
        }
    ],
    "instance": "/v1/games",
    "status": 422,
    "title": "The request is not valid",
    "type": "urn:tilegames:problem:validation_error",
    "request_id": "9be83af72329458598132b36dbfeeeff",
}

PROBLEM_PRECONDITION_REQUIRED = {
    "code": "precondition_required",
    "detail": 'send the version you expect, as If-Match: "<version>" or "expected_version"',
    "instance": f"/v1/games/{GAME_ID}/moves",
    "status": 428,
    "title": "An expected version is required",
    "type": "urn:tilegames:problem:precondition_required",
    "request_id": "9be83af72329458598132b36dbfeeeff",
}

PROBLEM_IDEMPOTENCY_KEY_REUSED = {
    "code": "idempotency_key_reused",
    "detail": "this Idempotency-Key was used with a different request",
    "instance": f"/v1/games/{GAME_ID}/moves",
    "status": 422,
    "title": "Idempotency key used for another request",
    "type": "urn:tilegames:problem:idempotency_key_reused",
    "request_id": "9be83af72329458598132b36dbfeeeff",
}

PROBLEM_UNAUTHORIZED = {
    "code": "unauthorized",
    "detail": "this needs an API key",
    "instance": "/v1/games",
    "status": 401,
    "title": "Missing or invalid credentials",
    "type": "urn:tilegames:problem:unauthorized",
    "request_id": "9be83af72329458598132b36dbfeeeff",
}

PROBLEM_FORBIDDEN = {
    "code": "forbidden",
    "detail": "legal moves are private to a seat: send its seat token",
    "instance": f"/v1/games/{GAME_ID}/legal-moves",
    "status": 403,
    "title": "Not allowed for these credentials",
    "type": "urn:tilegames:problem:forbidden",
    "request_id": "9be83af72329458598132b36dbfeeeff",
}

PROBLEM_FORBIDDEN_MOVE = {
    "code": "forbidden",
    "detail": "moving needs a seat token, not only an API key",
    "instance": f"/v1/games/{GAME_ID}/moves",
    "status": 403,
    "title": "Not allowed for these credentials",
    "type": "urn:tilegames:problem:forbidden",
    "request_id": "9be83af72329458598132b36dbfeeeff",
}

PROBLEM_UNKNOWN_GAME = {
    "code": "unknown_game",
    "detail": "no game with id 00000000-0000-0000-0000-000000000000",
    "instance": "/v1/games/00000000-0000-0000-0000-000000000000",
    "status": 404,
    "title": "No such game",
    "type": "urn:tilegames:problem:unknown_game",
    "request_id": "9be83af72329458598132b36dbfeeeff",
}

PROBLEM_BAD_IF_MATCH = {
    "code": "validation_error",
    "detail": 'If-Match: must be the game version as an ETag, e.g. "12"',
    "errors": [{"field": "If-Match", "message": 'must be the game version as an ETag, e.g. "12"'}],
    "instance": "/v1/games/51b7057f-8e18-4dee-8930-31b99b3acf89/moves",
    "status": 422,
    "title": "The request is not valid",
    "type": "urn:tilegames:problem:validation_error",
    "request_id": "9be83af72329458598132b36dbfeeeff",
}

# -- requests --------------------------------------------------------------------------


def named(summary: str, value: Any, description: str | None = None) -> dict[str, Any]:
    """One entry of an OpenAPI ``examples`` map."""
    example = {"summary": summary, "value": value}
    if description:
        example["description"] = description
    return example


CREATE_GAME_REQUESTS = {
    "carcassonne_vs_bot": named(
        "Carcassonne: you against the greedy bot",
        {"ruleset": "carcassonne", "seats": [{"name": "Ada"}, {"bot": "greedy"}]},
        "One human seat (its token comes back once) and a bot the service plays.",
    ),
    "carcassonne_expansions": named(
        "Carcassonne with expansions, two people and a bot",
        {
            "ruleset": "carcassonne",
            "options": {
                "expansions": ["river", "inns_cathedrals", "traders_builders"],
                "farmers": True,
                "small_cities": False,
            },
            "seats": [{"name": "Ada"}, {"name": "Brendan"}, {"bot": "random"}],
        },
        "Expansions in any combination: river, inns_cathedrals, traders_builders,"
        " hills_sheep, wheel_of_fortune. Options are listed by `GET /v1/rulesets`.",
    ),
    "south_seas": named(
        "Carcassonne: South Seas, three seats",
        {
            "ruleset": "carcassonne-south-seas",
            "options": {"retrieve": "empty_supply"},
            "seats": [{"name": "Ada"}, {"name": "Kai"}, {"bot": "greedy"}],
        },
    ),
    "external_randomness": named(
        "External randomness: the seats send their draws",
        {
            "ruleset": "carcassonne",
            "options": {"randomness": "external"},
            "seats": [{"name": "Ada"}, {"name": "Brendan"}],
        },
        "For a game whose tiles are drawn elsewhere (a physical table, another"
        " server): each turn starts with a `draw_tile` command.",
    ),
}

MOVE_REQUESTS = {
    "place_tile": named(
        "Place the drawn tile",
        {"command": {"type": "place_tile", "x": 0, "y": 1, "rotation": 0}},
        "x grows east, y grows south (north is y - 1); rotation is clockwise degrees."
        " Pick one of the placements listed by legal-moves.",
    ),
    "place_follower": named(
        "Place a follower on the tile just placed",
        {"command": {"type": "place_follower", "spot": "cloister"}},
        "Spots are named by feature and sides: `city:N,E`, `road:W`, `field:NL,NR`,"
        " `cloister`. Expansion figures: add `figure` (big_follower, builder, pig).",
    ),
    "skip": named("Place no follower this turn", {"command": {"type": "skip"}}),
    "draw_tile": named(
        "External randomness: report the drawn tile",
        {"command": {"type": "draw_tile", "tile": "BA/RCr"}},
        "Only in games created with `options.randomness: external`.",
    ),
    "expected_version_in_body": named(
        "Expected version in the body instead of If-Match",
        {"command": {"type": "skip"}, "expected_version": 3, "seat": 0},
    ),
}

VALIDATE_REQUESTS = {
    "external_randomness": named(
        "One round of a two-player game with external randomness",
        {
            "ruleset": "carcassonne",
            "options": {"randomness": "external"},
            "seats": 2,
            "record": RECORD,
        },
        "Each draw is a `draw_tile` step, checked against the tiles still in the stack.",
    ),
    "illegal_step": named(
        "A record whose third step breaks the rules",
        {
            "ruleset": "carcassonne",
            "options": {"randomness": "external"},
            "seats": 2,
            "record": [
                *RECORD[:2],
                {"seat": 0, "command": {"type": "place_tile", "x": 0, "y": 0, "rotation": 0}},
            ],
        },
        "Answers 200 with `valid: false` and the first bad step (counted from 0).",
    ),
}

RULESETS = {
    "rulesets": [
        {
            "name": "carcassonne",
            "title": "Carcassonne (base game, first edition)",
            "min_seats": 2,
            "max_seats": 8,
            "bots": ["random", "greedy"],
            "description": {
                "name": "carcassonne",
                "title": "Carcassonne (base game, first edition)",
                "seats": {"min": 2, "max": 8},
                "bots": ["random", "greedy"],
                "options": {
                    "farmers": {
                        "type": "boolean",
                        "default": True,
                        "description": "Followers may be placed in fields as farmers and"
                        " fields are scored at the end.",
                    },
                    "randomness": {
                        "type": "string",
                        "enum": ["internal", "external"],
                        "default": "internal",
                        "description": "internal: the server draws tiles; external: the"
                        " active seat sends each drawn tile as a draw_tile command.",
                    },
                },
                "commands": {
                    "draw_tile": {"tile": "tile id or letter (external randomness only)"},
                    "place_tile": {
                        "x": "int",
                        "y": "int (north is y-1)",
                        "rotation": [0, 90, 180, 270],
                    },
                    "place_follower": {
                        "spot": "e.g. city:N,E road:W field:NL,NR cloister",
                        "figure": "optional, default follower",
                    },
                    "skip": {},
                },
                "expansions": [
                    {
                        "name": "river",
                        "title": "The River (La Rivière)",
                        "tiles": 12,
                        "figures": {},
                        "options": [],
                        "summary": "12 tiles: the spring replaces the start tile.",
                    }
                ],
            },
        }
    ]
}

SSE_STREAM = (
    "retry: 1000\n\n"
    "id: 3\nevent: tile_placed\n"
    'data: {"seq": 3, "type": "tile_placed", "data": {"rotation": 0, "seat": 0,'
    ' "tile": "BA/L", "x": 0, "y": 1}, "redacted": false, "visibility": null,'
    ' "prev_hash": "a32cc0be0ca2b3eae55fafb1efa33434b853590d864290cfd7f155b2838a6246",'
    ' "hash": "f7809183de1b315cf0d9689dcf36e03f94b2208a6074a8b8b9d0142365cfc0c8",'
    ' "recorded_at": "2026-11-21T02:52:41.649518+00:00"}\n\n'
    ": keep-alive\n\n"
    'id: 260\nevent: end\ndata: {"version": 260}\n\n'
)

"""Examples for the OpenAPI document: real responses captured from the service (a
Carcassonne game against the greedy bot, an external-randomness game between two
people) and trimmed: long tile stacks and placement lists are shortened, which the
operation descriptions say. tests/api/test_openapi_examples.py compares the shape of
each example with a real response of its endpoint and sends each request example
(recapture an example when its response changes shape); schemathesis also sends the
request examples, and the drift check compares the document.
"""

from __future__ import annotations

import copy
from typing import Any

GAME_ID = "dca34975-4e21-4a0e-beea-206b831e3379"


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
    "awaiting": [
        {
            "commands": ["place_tile"],
            "decision": "place_tile",
            "id": "d2",
            "kind": "place_tile",
            "seat": 0,
            "tile": "BA/L",
        }
    ],
    "created_at": "2026-11-22T22:23:39.066919+00:00",
    "id": GAME_ID,
    "options": carcassonne_options(),
    "result": None,
    "ruleset": "carcassonne",
    "seats": [
        {"bot": None, "name": "Ada", "seat": 0, "resigned": False},
        {"bot": "greedy", "name": "greedy bot", "seat": 1, "resigned": False},
    ],
    "abandoned": False,
    "clocks": None,
    "seed": None,
    "seed_sha256": "648aa5c579fb30f38af744d97d6ec840c7a91277a499a0d780f3e7314eca090b",
    "status": "active",
    "updated_at": "2026-11-22T22:23:39.066919+00:00",
    "head_hash": "78dd35541357e6bcdd6f8ddf9045b2ed6fde866fc0e46d2d7718693267b9e6af",
    "head_signature": "ff50bfe1ff449f70ced4791cad4c519836c3149d3e604d2fab90ecdc29b293d9",
    "version": 2,
}

# The same game as the creator sees it, once: with its seat tokens (a deep copy, for the
# same reason as carcassonne_options).
CREATED_GAME = {
    **copy.deepcopy(GAME_SUMMARY),
    "seat_tokens": [{"seat": 0, "token": "tgs_RLH3yPsL3UFkzFwSMl6qiGSGfJYYB4Ex"}],
}

FINISHED_GAME: dict[str, Any] = {
    "awaiting": [],
    "created_at": "2026-11-21T02:53:06.019736+00:00",
    "id": "1e99a95e-274f-4e50-8124-a70a518299bf",
    "options": carcassonne_options(),
    "result": {"over": True, "scores": [62, 13], "winners": [0]},
    "ruleset": "carcassonne",
    "seats": [
        {"bot": "greedy", "name": "greedy bot", "seat": 0, "resigned": False},
        {"bot": "random", "name": "random bot", "seat": 1, "resigned": False},
    ],
    "abandoned": False,
    "clocks": None,
    "seed": "7e4db0ea0a94f99b0e8d6ccc7697645efd70895d32cd71cc5e753a8ccaf6e3db",
    "seed_sha256": "3ea66f4ecfc2f85292c773d362739c38ab3bcef6e73dd110d2d69d599ff45569",
    "status": "finished",
    "updated_at": "2026-11-21T02:53:06.019736+00:00",
    "head_hash": "423ea35f4d2a6b584aab3227ddbd95c4876d67de426e806d6417794d59bda6c2",
    "head_signature": "7f67bc19db6b1dadc4b5a23e388d037e961bd41c4be05525297505cc56f9479f",
    "version": 260,
}

# GET /v1/games?status=finished&limit=1: the finished game above as a list item (its
# row: no awaiting, no result), and the cursor of the next page.
GAME_PAGE = {
    "games": [
        {
            key: copy.deepcopy(value)
            for key, value in FINISHED_GAME.items()
            if key not in ("awaiting", "result", "abandoned", "clocks")
        }
    ],
    # the position of the game above (opaque to clients)
    "next_cursor": "MjAyNi0xMS0yMVQwMjo1MzowNi4wMTk3MzYrMDA6MDB8"
    "MWU5OWE5NWUtMjc0Zi00ZTUwLTgxMjQtYTcwYTUxODI5OWJm",
}

# -- webhooks: an endpoint, its secret (once), its deliveries, one delivery's body -----

WEBHOOK_ID = "5f0c6a1e-9d3b-4d8e-a4a7-0c1b2d3e4f50"
WEBHOOK = {
    "id": WEBHOOK_ID,
    "url": "https://portal.example/hooks/tilegames",
    "event_types": ["game_ended", "turn_started"],
    "description": "portal production",
    "created_at": "2026-11-21T02:50:12.118034+00:00",
}
CREATED_WEBHOOK = {**WEBHOOK, "secret": "whsec_kx5Yw2S0bq7u1Yx3nQ9r0m8Z4c6v2b1n7a5s3d9f0gE"}
WEBHOOK_LIST = {"webhooks": [WEBHOOK]}
CREATE_WEBHOOK_REQUESTS = {
    "ends_and_turns": {
        "summary": "Games ending and turns starting",
        "value": {
            "url": "https://portal.example/hooks/tilegames",
            "event_types": ["game_ended", "turn_started"],
            "description": "portal production",
        },
    },
    "timeouts": {
        "summary": "Seats whose time ran out, to a local receiver (tests, development)",
        "value": {"url": "http://127.0.0.1:9000/hooks", "event_types": ["seat_timed_out"]},
    },
}
# GET /v1/webhooks/{id}/deliveries?limit=2: Ada's turn, delivered at the first try, and
# before it the end of another game, after two failed attempts (the receiver answered
# 503), waiting for the third.
DELIVERY_PAGE = {
    "webhook_id": WEBHOOK_ID,
    "deliveries": [
        {
            "id": 4712,
            "event_id": f"{GAME_ID}:238:turn_started:0",
            "type": "turn_started",
            "game_id": GAME_ID,
            "seq": 238,
            "seat": 0,
            "status": "delivered",
            "attempts": 1,
            "next_attempt_at": None,
            "last_status": 204,
            "last_error": None,
            "delivered_at": "2026-11-21T03:10:07.211370+00:00",
            "created_at": "2026-11-21T03:10:07.190561+00:00",
        },
        {
            "id": 4711,
            "event_id": "1e99a95e-274f-4e50-8124-a70a518299bf:242",
            "type": "game_ended",
            "game_id": "1e99a95e-274f-4e50-8124-a70a518299bf",
            "seq": 242,
            "seat": None,
            "status": "pending",
            "attempts": 2,
            "next_attempt_at": "2026-11-21T03:10:21.503117+00:00",
            "last_status": 503,
            "last_error": "HTTP 503: busy",
            "delivered_at": None,
            "created_at": "2026-11-21T03:10:06.019736+00:00",
        },
    ],
    "next_cursor": "ZDQ3MTE",
}
# The body of a turn_started delivery (POSTed to the endpoint, signed).
TURN_STARTED_DELIVERY = {
    "id": f"{GAME_ID}:238:turn_started:0",
    "type": "turn_started",
    "game_id": GAME_ID,
    "ruleset": "carcassonne",
    "seq": 238,
    "seat": 0,
    "occurred_at": "2026-11-21T03:09:58.190561+00:00",
    "data": {
        "seat": 0,
        "name": "Ada",
        "bot": None,
        "decisions": [
            {
                "id": "d118",
                "seat": 0,
                "kind": "place_tile",
                "decision": "place_tile",
                "commands": ["place_tile"],
                "tile": "BA/CRr",
            }
        ],
    },
    "redacted": False,
    "webhook_id": WEBHOOK_ID,
}

# GET /v1/games/{id}/export of a finished game between the greedy and the random bot
# (its record cut to its first 4 of 142 steps).
GAME_EXPORT = {
    "format": "tilegames-record",
    "format_version": 1,
    "game_id": "52f9eb4a-deaa-4a24-bdaf-2d914a9bd780",
    "ruleset": "carcassonne",
    "options": carcassonne_options(),
    "seats": 2,
    "players": [
        {"bot": "greedy", "name": "greedy bot", "seat": 0},
        {"bot": "random", "name": "random bot", "seat": 1},
    ],
    "seed": "0303030303030303030303030303030303030303030303030303030303030303",
    "seed_sha256": "648aa5c579fb30f38af744d97d6ec840c7a91277a499a0d780f3e7314eca090b",
    "record": [
        {"seat": 0, "command": {"type": "place_tile", "x": 0, "y": 1, "rotation": 270}},
        {"seat": 0, "command": {"type": "place_follower", "spot": "cloister"}},
        {"seat": 1, "command": {"type": "place_tile", "x": 0, "y": -1, "rotation": 270}},
        {"seat": 1, "command": {"type": "place_follower", "spot": "city:S,W"}},
    ],
    "version": 250,
    "head_hash": "efe7791a2a9a0aa7c55ae41abf67cb3abcc2f4c17a3bfe2f85e7b3daf80c3ff6",
    "head_signature": "5b0c2d6e8f1a4b3c9d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c",
}

LEGAL_PLACE_TILE = {
    "awaiting": [
        {
            "commands": ["place_tile"],
            "decision": "place_tile",
            "id": "d2",
            "kind": "place_tile",
            "seat": 0,
            "tile": "BA/L",
        }
    ],
    "commands": {
        "decisions": [
            {
                "commands": {
                    "place_tile": {
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
                        "tile": "BA/L",
                    }
                },
                "id": "d2",
                "kind": "place_tile",
            }
        ],
        "seat": 0,
    },
    "game_id": GAME_ID,
    "ruleset": "carcassonne",
    "seat": 0,
    "version": 2,
}

LEGAL_PLACE_FOLLOWER = {
    "awaiting": [
        {
            "commands": ["place_follower", "skip"],
            "decision": "place_follower",
            "id": "d3",
            "kind": "place_follower",
            "seat": 0,
            "x": 0,
            "y": 1,
        }
    ],
    "commands": {
        "decisions": [
            {
                "commands": {
                    "place_follower": {
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
                    "skip": {},
                },
                "id": "d3",
                "kind": "place_follower",
            }
        ],
        "seat": 0,
    },
    "game_id": GAME_ID,
    "ruleset": "carcassonne",
    "seat": 0,
    "version": 3,
}

MOVE_PLACE_TILE = {
    "awaiting": [
        {
            "commands": ["place_follower", "skip"],
            "decision": "place_follower",
            "id": "d3",
            "kind": "place_follower",
            "seat": 0,
            "x": 0,
            "y": 1,
        }
    ],
    "events": [
        {
            "data": {"rotation": 0, "seat": 0, "tile": "BA/L", "x": 0, "y": 1},
            "hash": "87412b0af2fc6f11dbc3846f369883d82e6d79b58ce0f6645605627b241180d2",
            "prev_hash": "19636ef65569abd53c87fabbf328a3e696a54e32834b8e917e73e441cab3de15",
            "recorded_at": "2026-11-22T22:23:39.074749+00:00",
            "redacted": False,
            "seq": 3,
            "type": "tile_placed",
            "visibility": None,
        }
    ],
    "game_id": GAME_ID,
    "ruleset": "carcassonne",
    "result": None,
    "seat": 0,
    "status": "active",
    "head_hash": "abfe22baee1ae28186488cc0ebaf0ba71f8b9688b46ae3377beb4a1c03a6ec26",
    "head_signature": "012874105ea046e704b3e3850da1ac9fec1d60ffecb2606b11379af9ad84c374",
    "version": 3,
}

MOVE_FOLLOWER_AND_BOT_TURN = {
    "awaiting": [
        {
            "commands": ["place_tile"],
            "decision": "place_tile",
            "id": "d10",
            "kind": "place_tile",
            "seat": 0,
            "tile": "BA/RFr",
        }
    ],
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
            "hash": "8fb81fbba695f96f9d4155731e2102bafe077b71a6767b6cb44d7e13aea472ea",
            "prev_hash": "87412b0af2fc6f11dbc3846f369883d82e6d79b58ce0f6645605627b241180d2",
            "recorded_at": "2026-11-22T22:23:39.079288+00:00",
            "redacted": False,
            "seq": 4,
            "type": "follower_placed",
            "visibility": None,
        },
        {
            "data": {"next": 1, "seat": 0},
            "hash": "bb7f07944eb3ea7bf4602b1f3f66f625b2ca08e09ac86934af5798fcfe2d1c52",
            "prev_hash": "8fb81fbba695f96f9d4155731e2102bafe077b71a6767b6cb44d7e13aea472ea",
            "recorded_at": "2026-11-22T22:23:39.079288+00:00",
            "redacted": False,
            "seq": 5,
            "type": "turn_ended",
            "visibility": None,
        },
        {
            "data": {"seat": 1, "tile": "BA/Cc.1"},
            "hash": "c154026a383d39f01e591ef018f4aaee21c8ec3d32ba2bf611f1bd48dd507e28",
            "prev_hash": "bb7f07944eb3ea7bf4602b1f3f66f625b2ca08e09ac86934af5798fcfe2d1c52",
            "recorded_at": "2026-11-22T22:23:39.079288+00:00",
            "redacted": False,
            "seq": 6,
            "type": "tile_drawn",
            "visibility": None,
        },
        {
            "data": {"rotation": 270, "seat": 1, "tile": "BA/Cc.1", "x": 0, "y": -1},
            "hash": "550feb13749b7ed979447e574aac28e706b5d46b962ac89a9d16353dcbfdaab9",
            "prev_hash": "c154026a383d39f01e591ef018f4aaee21c8ec3d32ba2bf611f1bd48dd507e28",
            "recorded_at": "2026-11-22T22:23:39.079288+00:00",
            "redacted": False,
            "seq": 7,
            "type": "tile_placed",
            "visibility": None,
        },
        {
            "data": {
                "figure": "follower",
                "kind": "city",
                "seat": 1,
                "spot": "city:S,W",
                "x": 0,
                "y": -1,
            },
            "hash": "2fc3ee3469748b6a17bd2f0aae5fdcfcea8dcd6eb1efad831eb239be04f771c2",
            "prev_hash": "550feb13749b7ed979447e574aac28e706b5d46b962ac89a9d16353dcbfdaab9",
            "recorded_at": "2026-11-22T22:23:39.079288+00:00",
            "redacted": False,
            "seq": 8,
            "type": "follower_placed",
            "visibility": None,
        },
        {
            "data": {"next": 0, "seat": 1},
            "hash": "43d2ed1eaea7e9aa212178dd3e23d9c30e0da4bdf0e65ba5fece331b6036856a",
            "prev_hash": "2fc3ee3469748b6a17bd2f0aae5fdcfcea8dcd6eb1efad831eb239be04f771c2",
            "recorded_at": "2026-11-22T22:23:39.079288+00:00",
            "redacted": False,
            "seq": 9,
            "type": "turn_ended",
            "visibility": None,
        },
        {
            "data": {"seat": 0, "tile": "BA/RFr"},
            "hash": "21f546e5e899ca4bc984d84d4abb1311d08a14b10843dade6dae8c4c2e96b4c7",
            "prev_hash": "43d2ed1eaea7e9aa212178dd3e23d9c30e0da4bdf0e65ba5fece331b6036856a",
            "recorded_at": "2026-11-22T22:23:39.079288+00:00",
            "redacted": False,
            "seq": 10,
            "type": "tile_drawn",
            "visibility": None,
        },
    ],
    "game_id": GAME_ID,
    "ruleset": "carcassonne",
    "result": None,
    "seat": 0,
    "status": "active",
    "head_hash": "21f546e5e899ca4bc984d84d4abb1311d08a14b10843dade6dae8c4c2e96b4c7",
    "head_signature": "38142dd0631f5de75baa01e30ee95002c8f973cb21fcc6155175058b2922c5da",
    "version": 10,
}

MOVE_SCORING = {
    "awaiting": [
        {
            "commands": ["draw_tile"],
            "decision": "draw_tile",
            "id": "d6",
            "kind": "draw_tile",
            "seat": 1,
        }
    ],
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
            "hash": "54ca8c4168cb349fff32c73a9c278e08c1c94f42394e5d57401947d566002bf4",
            "prev_hash": "7b315c74203000b6a98f7932d3e0516cb090845ef4500e9ed02f81a751074e73",
            "recorded_at": "2026-11-22T22:23:39.182116+00:00",
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
            "hash": "9b0271f7f4b081fe2231e7cc444618983f08c7cce8bbee5410de1bb9187e0b4d",
            "prev_hash": "54ca8c4168cb349fff32c73a9c278e08c1c94f42394e5d57401947d566002bf4",
            "recorded_at": "2026-11-22T22:23:39.182116+00:00",
            "redacted": False,
            "seq": 5,
            "type": "feature_scored",
            "visibility": None,
        },
        {
            "data": {"next": 1, "seat": 0},
            "hash": "9af31dc6e82f9a3d7ceb2654d29f02660530942b6aa894403771a44c14561749",
            "prev_hash": "9b0271f7f4b081fe2231e7cc444618983f08c7cce8bbee5410de1bb9187e0b4d",
            "recorded_at": "2026-11-22T22:23:39.182116+00:00",
            "redacted": False,
            "seq": 6,
            "type": "turn_ended",
            "visibility": None,
        },
    ],
    "game_id": "f6db17dd-6d73-4e10-abc0-59eab2e755a7",
    "ruleset": "carcassonne",
    "result": None,
    "seat": 0,
    "status": "active",
    "head_hash": "c8b05a9389b9bfea4520823e70f408ebb01b8ed109dc82d462d517f0ed9bc129",
    "head_signature": "9ab03725daeea1d4a82b86dbce36d61a8dacf06ecc95ed61c1f584f925629ba7",
    "version": 6,
}

STATE = {
    "awaiting": [
        {
            "commands": ["place_follower", "skip"],
            "decision": "place_follower",
            "id": "d3",
            "kind": "place_follower",
            "seat": 0,
            "x": 0,
            "y": 1,
        }
    ],
    "game_id": GAME_ID,
    "ruleset": "carcassonne",
    "seat": 0,
    "state": {
        "awaiting": [
            {
                "commands": ["place_follower", "skip"],
                "decision": "place_follower",
                "id": "d3",
                "kind": "place_follower",
                "seat": 0,
                "x": 0,
                "y": 1,
            }
        ],
        "board": [
            {"rotation": 0, "tile": "BA/RCr", "x": 0, "y": 0},
            {"rotation": 0, "tile": "BA/L", "x": 0, "y": 1},
        ],
        "expansions": {},
        "extra_turn": False,
        "followers": [],
        "hidden": 0,
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
                "rules_version": 2,
                "ruleset": "carcassonne",
                "seats": 2,
                "stack": {"BA/C": 5, "BA/CC.2": 2, "BA/CFC.2": 3, "BA/CFc+": 2},
                "start": {"rotation": 0, "tile": "BA/RCr", "x": 0, "y": 0},
            },
            "hash": "e5188a1b2b4ac3cdb85131d3bd0bcb452d396a87a0fc107b9d9d5662872b6536",
            "prev_hash": "0000000000000000000000000000000000000000000000000000000000000000",
            "recorded_at": "2026-11-22T22:23:39.066919+00:00",
            "redacted": False,
            "seq": 1,
            "type": "game_started",
            "visibility": None,
        },
        {
            "data": {"seat": 0, "tile": "BA/L"},
            "hash": "19636ef65569abd53c87fabbf328a3e696a54e32834b8e917e73e441cab3de15",
            "prev_hash": "e5188a1b2b4ac3cdb85131d3bd0bcb452d396a87a0fc107b9d9d5662872b6536",
            "recorded_at": "2026-11-22T22:23:39.066919+00:00",
            "redacted": False,
            "seq": 2,
            "type": "tile_drawn",
            "visibility": None,
        },
        {
            "data": {"rotation": 0, "seat": 0, "tile": "BA/L", "x": 0, "y": 1},
            "hash": "87412b0af2fc6f11dbc3846f369883d82e6d79b58ce0f6645605627b241180d2",
            "prev_hash": "19636ef65569abd53c87fabbf328a3e696a54e32834b8e917e73e441cab3de15",
            "recorded_at": "2026-11-22T22:23:39.074749+00:00",
            "redacted": False,
            "seq": 3,
            "type": "tile_placed",
            "visibility": None,
        },
    ],
    "game_id": GAME_ID,
    "ruleset": "carcassonne",
    "next_after": 3,
    "seat": None,
    "version": 10,
}

VERIFY = {
    "checks": [
        {"detail": "ok", "name": "hash_chain", "ok": True},
        {"detail": "ok", "name": "head_signature", "ok": True},
        {"detail": "ok", "name": "seed_commitment", "ok": True},
        {"detail": "ok", "name": "genesis_from_seed", "ok": True},
        {"detail": "ok", "name": "replay", "ok": True},
    ],
    "events": 10,
    "first_bad_seq": None,
    "game_id": GAME_ID,
    "head_hash": "21f546e5e899ca4bc984d84d4abb1311d08a14b10843dade6dae8c4c2e96b4c7",
    "head_signature": "38142dd0631f5de75baa01e30ee95002c8f973cb21fcc6155175058b2922c5da",
    "valid": True,
    "version": 10,
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
    "awaiting": [
        {
            "commands": ["draw_tile"],
            "decision": "draw_tile",
            "id": "d9",
            "kind": "draw_tile",
            "seat": 0,
        }
    ],
    "error": None,
    "finished": False,
    "result": {"over": False, "scores": [4, 0], "winners": []},
    "ruleset": "carcassonne",
    "state": {
        "awaiting": [
            {
                "commands": ["draw_tile"],
                "decision": "draw_tile",
                "id": "d9",
                "kind": "draw_tile",
                "seat": 0,
            }
        ],
        "board": [
            {"rotation": 0, "tile": "BA/RCr", "x": 0, "y": 0},
            {"rotation": 180, "tile": "BA/RCr", "x": 0, "y": -1},
            {"rotation": 0, "tile": "BA/Rr", "x": 1, "y": 0},
        ],
        "expansions": {},
        "extra_turn": False,
        "followers": [],
        "hidden": 0,
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
    "head_hash": None,
    "matches_export": None,
    "head_signed": None,
}

VALIDATE_ILLEGAL = {
    "awaiting": [
        {
            "commands": ["place_follower", "skip"],
            "decision": "place_follower",
            "id": "d3",
            "kind": "place_follower",
            "seat": 0,
            "x": 0,
            "y": -1,
        }
    ],
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
        "awaiting": [
            {
                "commands": ["place_follower", "skip"],
                "decision": "place_follower",
                "id": "d3",
                "kind": "place_follower",
                "seat": 0,
                "x": 0,
                "y": -1,
            }
        ],
        "board": [
            {"rotation": 0, "tile": "BA/RCr", "x": 0, "y": 0},
            {"rotation": 180, "tile": "BA/RCr", "x": 0, "y": -1},
        ],
        "expansions": {},
        "extra_turn": False,
        "followers": [],
        "hidden": 0,
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
    "head_hash": None,
    "matches_export": None,
    "head_signed": None,
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

PROBLEM_DECISION_CLOSED = {
    "code": "decision_closed",
    "current_version": 10,
    "detail": "decision 'd3' is not open",
    "instance": f"/v1/games/{GAME_ID}/moves",
    "request_id": "9be83af72329458598132b36dbfeeeff",
    "rule": "A command that names a decision must answer one that is still open.",
    "status": 409,
    "title": "The decision is no longer open",
    "type": "urn:tilegames:problem:decision_closed",
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
    "title": "The request is not valid",
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

PROBLEM_PRECONDITION_FAILED = {
    "code": "precondition_failed",
    "detail": "If-Match does not match the picture's ETag",
    "instance": f"/v1/games/{GAME_ID}/board.svg",
    "status": 412,
    "title": "Precondition Failed",
    "type": "urn:tilegames:problem:precondition_failed",
    "request_id": "0d3c5e2a8f1b4c7d9e6a2b4c8d0f1e3a",
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

PROBLEM_FORBIDDEN_LISTING = {
    "code": "forbidden",
    "detail": "listing games needs an API key; a seat token reads only its game",
    "instance": "/v1/games",
    "status": 403,
    "title": "Not allowed for these credentials",
    "type": "urn:tilegames:problem:forbidden",
    "request_id": "9be83af72329458598132b36dbfeeeff",
}

PROBLEM_INVALID_CURSOR = {
    "code": "invalid_cursor",
    "detail": "cursor is not one this service gave out; start again without it",
    "instance": "/v1/games",
    "status": 400,
    "title": "The cursor is not valid",
    "type": "urn:tilegames:problem:invalid_cursor",
    "request_id": "9be83af72329458598132b36dbfeeeff",
}

PROBLEM_GAME_NOT_FINISHED = {
    "code": "game_not_finished",
    "detail": "the game is at version 2 and still in play; its seed stays secret until it"
    " ends, so it can be exported only then",
    "instance": f"/v1/games/{GAME_ID}/export",
    "status": 409,
    "title": "The game has not ended yet",
    "type": "urn:tilegames:problem:game_not_finished",
    "request_id": "9be83af72329458598132b36dbfeeeff",
}

PROBLEM_RECORD_UNAVAILABLE = {
    "code": "record_unavailable",
    "detail": "the game was created before the service recorded commands; its log has the"
    " events but not the commands that caused them",
    "instance": f"/v1/games/{GAME_ID}/export",
    "status": 409,
    "title": "No replayable record of this game",
    "type": "urn:tilegames:problem:record_unavailable",
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

PROBLEM_UNKNOWN_WEBHOOK = {
    "code": "unknown_webhook",
    "detail": "no webhook endpoint 00000000-0000-0000-0000-000000000000",
    "instance": "/v1/webhooks/00000000-0000-0000-0000-000000000000",
    "status": 404,
    "title": "No such webhook endpoint",
    "type": "urn:tilegames:problem:unknown_webhook",
    "request_id": "9be83af72329458598132b36dbfeeeff",
}

PROBLEM_TOO_MANY_WEBHOOKS = {
    "code": "too_many_webhooks",
    "detail": "an API key may have 20 endpoints; delete one first",
    "instance": "/v1/webhooks",
    "status": 409,
    "title": "This API key has all the endpoints it may",
    "type": "urn:tilegames:problem:too_many_webhooks",
    "request_id": "9be83af72329458598132b36dbfeeeff",
}

PROBLEM_WEBHOOK_URL = {
    "code": "validation_error",
    "detail": "url: must be an https:// URL (or http:// to 127.0.0.1, ::1 or localhost)",
    "errors": [
        {
            "field": "url",
            "message": "must be an https:// URL (or http:// to 127.0.0.1, ::1 or localhost)",
        }
    ],
    "instance": "/v1/webhooks",
    "status": 422,
    "title": "The request is not valid",
    "type": "urn:tilegames:problem:validation_error",
    "request_id": "9be83af72329458598132b36dbfeeeff",
}

PROBLEM_GAME_OVER = {
    "code": "game_over",
    "detail": "the game has ended; no more moves",
    "instance": f"/v1/games/{GAME_ID}/abandon",
    "reason": "game_over",
    "rule": "The game ends after the turn in which the last tile is placed."
    " No move is made once it has ended, nor once it is abandoned or one seat is left.",
    "status": 409,
    "title": "The game has ended",
    "type": "urn:tilegames:problem:game_over",
    "request_id": "9be83af72329458598132b36dbfeeeff",
}

PROBLEM_SEAT_CONFLICT = {
    "code": "seat_conflict",
    "detail": "seat 1 is played by the greedy bot already",
    "instance": f"/v1/games/{GAME_ID}/seats/1/bot",
    "status": 409,
    "title": "The seat cannot be handed over so",
    "type": "urn:tilegames:problem:seat_conflict",
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
    "clock": named(
        "A clock: 10 minutes each plus 10 s a move, a bot for a seat out of time",
        {
            "ruleset": "carcassonne",
            "options": {
                "clock": {
                    "total": 600,
                    "increment": 10,
                    "per_move": 120,
                    "on_timeout": "bot",
                    "bot": "greedy",
                }
            },
            "seats": [{"name": "Ada"}, {"name": "Brendan"}],
        },
        "The option `clock` works with every ruleset: `per_move` and/or `total` seconds"
        " (fractions allowed), `increment` after each move, and `on_timeout`: `bot` (the"
        " seat is handed to `bot`), `skip` (its turn passes) or `forfeit` (it resigns)."
        " The summary's `clocks` shows each seat's time; `clock` events record it.",
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
        " `cloister`. Expansion figures: add `figure` (big_follower, builder, pig, shepherd).",
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
    "resign": named(
        "Resign the seat",
        {"command": {"type": "resign"}},
        "At any time, without a precondition: the game goes on without the seat (or ends,"
        " if one seat is left, with that seat the winner).",
    ),
    "decision_in_body": named(
        "Answer an open decision by its id instead of a version",
        {"command": {"type": "skip"}, "decision": "d3"},
        "The `id` of the decision from `awaiting` or legal-moves: accepted while that"
        " decision is open, whatever other seats wrote meanwhile; 409 `decision_closed`"
        " once it has closed.",
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
                    "draw_tile": {
                        "tile": "the tile drawn: an id or the rulebook letter",
                        "under": "optional: Hills & Sheep: the tile drawn blind to go under a hill",
                        "wheel": "optional: The Wheel of Fortune: the wheel icon on the copy drawn",
                    },
                    "place_tile": {
                        "x": "column; east is x+1",
                        "y": "row; north is y-1",
                        "rotation": [0, 90, 180, 270],
                    },
                    "place_follower": {
                        "spot": "a figure spot: kind and sides, e.g. city:N,E road:W"
                        " field:NL,NR cloister (Carcassonne), island:S sea:NL,NR bridge:W"
                        " (South Seas)",
                        "figure": ["follower", "big_follower", "builder", "pig", "shepherd"],
                    },
                    "skip": {},
                    "tend_flock": {"action": ["grow", "gather"]},
                    "draw_sheep": {"token": "a sheep token: 1, 2, 3, 4 or wolf"},
                    "place_on_wheel": {
                        "sector": "a sector of the wheel",
                        "space": "one of the sector's crown spaces, from 0",
                    },
                    "remove_follower": {
                        "x": "column; east is x+1",
                        "y": "row; north is y-1",
                        "spot": "a figure spot: kind and sides, e.g. city:N,E road:W"
                        " field:NL,NR cloister",
                    },
                    "resign": {},
                    "abandon": {},
                    "hand_to_bot": {"bot": "one of the ruleset's bots"},
                    "hand_back": {},
                    "clock": {
                        "remaining_ms": "each seat's time left, by seat",
                        "running": "seat (as text) -> since when its clock runs",
                    },
                    "time_out": {
                        "action": ["bot", "skip", "forfeit"],
                        "bot": "optional: the bot that takes the seat over",
                    },
                },
                "decisions": {
                    "draw_sheep": ["draw_sheep"],
                    "draw_tile": ["draw_tile"],
                    "place_follower": ["place_follower", "skip", "place_on_wheel"],
                    "place_tile": ["place_tile"],
                    "plague": ["remove_follower"],
                    "tend_flock": ["tend_flock"],
                },
                "rules": {
                    "decision_closed": "A command that names a decision must answer one"
                    " that is still open.",
                    "not_your_turn": "Players take turns in clockwise order; only the"
                    " awaited seat may act.",
                    "position_occupied": "A tile is placed on an empty space.",
                    "unexpected_command": "A turn is: draw a tile, place it, then place a"
                    " follower or not.",
                },
                "rules_version": 2,
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
    ' "prev_hash": "19636ef65569abd53c87fabbf328a3e696a54e32834b8e917e73e441cab3de15",'
    ' "hash": "87412b0af2fc6f11dbc3846f369883d82e6d79b58ce0f6645605627b241180d2",'
    ' "recorded_at": "2026-11-22T22:23:39.074749+00:00"}\n\n'
    ": keep-alive\n\n"
    'id: 260\nevent: end\ndata: {"version": 260}\n\n'
)

# -- the table: captured from the service ---------------------------------------------

HAND_TO_BOT_REQUESTS = {
    "greedy": named("Hand the seat to the greedy bot", {"bot": "greedy"}),
}
# POST /v1/games/{id}/abandon of a two-person Carcassonne game at its first tile
ABANDONED = {
    "awaiting": [],
    "events": [
        {
            "data": {},
            "hash": "dcf932598ac147b170041bd4ea241d946161dc23b0904e9328cbea270c9b3767",
            "prev_hash": "a53213690f5a4e24e6e67b09bf7502454006fff32aebf3e719dbb9da85e582c5",
            "recorded_at": "2026-11-24T16:32:56.171453+00:00",
            "redacted": False,
            "seq": 3,
            "type": "game_abandoned",
            "visibility": None,
        },
        {
            "data": {"reason": "abandoned", "scores": [0, 0], "winners": []},
            "hash": "7287ad0b9b63b22691f0e641327e17cc1375b79bd1797a63569c3cdcc43b39bf",
            "prev_hash": "dcf932598ac147b170041bd4ea241d946161dc23b0904e9328cbea270c9b3767",
            "recorded_at": "2026-11-24T16:32:56.171453+00:00",
            "redacted": False,
            "seq": 4,
            "type": "game_ended",
            "visibility": None,
        },
    ],
    "game_id": GAME_ID,
    "ruleset": "carcassonne",
    "head_hash": "7287ad0b9b63b22691f0e641327e17cc1375b79bd1797a63569c3cdcc43b39bf",
    "head_signature": "057d98ef6426b7765ea0157e3819501deaebafbeca317a4a695c96e472bbc114",
    "result": {"over": True, "scores": [0, 0], "winners": []},
    "seat": None,
    "status": "finished",
    "version": 4,
}

# PUT /v1/games/{id}/seats/0/bot {"bot": "greedy"}: seat 0 was awaited, so the bot
# played its turn at once (and seat 1's tile was drawn)
HANDED = {
    "awaiting": [
        {
            "commands": ["place_tile"],
            "decision": "place_tile",
            "id": "d5",
            "kind": "place_tile",
            "seat": 1,
            "tile": "BA/RCr",
        }
    ],
    "events": [
        {
            "data": {"bot": "greedy", "seat": 0},
            "hash": "904019eabee9f6eb0408f1e27a443735e0e7df6e09d9504a7afa03dc20e00a5c",
            "prev_hash": "7e8e112e11714b78b1842c946045c91f78dcdf561d5502d872104304af911572",
            "recorded_at": "2026-11-24T19:42:34.609612+00:00",
            "redacted": False,
            "seq": 3,
            "type": "seat_handed_to_bot",
            "visibility": None,
        },
        {
            "data": {"rotation": 270, "seat": 0, "tile": "BA/L", "x": 0, "y": 1},
            "hash": "98812f937aad774ba021a7ed16aec21aee8fc4a693fb3f1160e3070fd07bca5f",
            "prev_hash": "904019eabee9f6eb0408f1e27a443735e0e7df6e09d9504a7afa03dc20e00a5c",
            "recorded_at": "2026-11-24T19:42:34.609612+00:00",
            "redacted": False,
            "seq": 4,
            "type": "tile_placed",
            "visibility": None,
        },
        {
            "data": {"next": 1, "seat": 0},
            "hash": "47a46c5caec4de499e55ced1bcca9770e3a6fe208708ee93939ccf4bbe8d24c4",
            "prev_hash": "98812f937aad774ba021a7ed16aec21aee8fc4a693fb3f1160e3070fd07bca5f",
            "recorded_at": "2026-11-24T19:42:34.609612+00:00",
            "redacted": False,
            "seq": 5,
            "type": "turn_ended",
            "visibility": None,
        },
        {
            "data": {"seat": 1, "tile": "BA/RCr"},
            "hash": "b20237128047a3d732ebac503bceb114ce900e7df01b85cdd26024f4732da615",
            "prev_hash": "47a46c5caec4de499e55ced1bcca9770e3a6fe208708ee93939ccf4bbe8d24c4",
            "recorded_at": "2026-11-24T19:42:34.609612+00:00",
            "redacted": False,
            "seq": 6,
            "type": "tile_drawn",
            "visibility": None,
        },
    ],
    "game_id": GAME_ID,
    "head_hash": "b20237128047a3d732ebac503bceb114ce900e7df01b85cdd26024f4732da615",
    "head_signature": "8e2714a919a04470820e5f4100e3898208569b92631c2320455ce5a04349829a",
    "result": None,
    "ruleset": "carcassonne",
    "seat": None,
    "status": "active",
    "version": 6,
}

# DELETE /v1/games/{id}/seats/0/bot
HANDED_BACK = {
    "awaiting": [
        {
            "commands": ["place_tile"],
            "decision": "place_tile",
            "id": "d6",
            "kind": "place_tile",
            "seat": 1,
            "tile": "BA/RCr",
        }
    ],
    "events": [
        {
            "data": {"seat": 0},
            "hash": "5df40716797d35a13b5cfce135dd814e4237f8f3de9ac6e5b63ea1605c065f5e",
            "prev_hash": "b4a363a94e926a24ab1431346896a8f575b444b45566a401f5a3730eb4153325",
            "recorded_at": "2026-11-24T16:32:56.949401+00:00",
            "redacted": False,
            "seq": 8,
            "type": "seat_handed_back",
            "visibility": None,
        }
    ],
    "game_id": GAME_ID,
    "ruleset": "carcassonne",
    "head_hash": "5df40716797d35a13b5cfce135dd814e4237f8f3de9ac6e5b63ea1605c065f5e",
    "head_signature": "86b63e532fd105b8b08259e35e4da94de6ed2325b6aaab940e75c51b9482fd5c",
    "result": None,
    "seat": None,
    "status": "active",
    "version": 8,
}

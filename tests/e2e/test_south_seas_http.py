"""A whole South Seas game over HTTP against gunicorn and PostgreSQL, including a ship
choice made by the merchant while another seat is the active one."""

from __future__ import annotations

from service.rules import get_ruleset
from tests.client import Client, fold, play_to_end
from tests.rules.south_seas.table import tiles_with

RED, BLUE = 0, 1
#: Red's market at (0, 1), then the seven tiles around it; Blue places the last one.
MARKET_TURNS = [
    ("SS/M", 0, 1, 0, "market"),
    ("SS/B.1", 1, 0, 90, None),
    ("SS/B.1", -1, 0, 90, None),
    ("SS/S", -1, 1, 0, None),
    ("SS/S", 1, 1, 0, None),
    ("SS/S", -1, 2, 0, None),
    ("SS/S.b", 0, 2, 0, None),
    ("SS/S.b", 1, 2, 0, None),
]


def turn_commands(tile: str, x: int, y: int, rotation: int, spot: str | None) -> list[dict]:
    islander = {"type": "skip"} if spot is None else {"type": "place_islander", "spot": spot}
    return [
        {"type": "draw_tile", "tile": tile},
        {"type": "place_tile", "x": x, "y": y, "rotation": rotation},
        islander,
    ]


def test_full_south_seas_game_over_http_with_a_ship_chosen_outside_the_merchants_turn(
    server, api_key
):
    south_seas = get_ruleset("carcassonne-south-seas")
    client = Client(server.url, api_key)
    tiles = tiles_with({"SS/M": 1, "SS/B.1": 4, "SS/S": 3, "SS/S.b": 3, "SS/I.1": 4})
    game = client.create(
        "carcassonne-south-seas",
        [{"name": "Red"}, {"name": "Blue"}],
        {"randomness": "external", "tiles": tiles},
    )
    tokens = {t["seat"]: t["token"] for t in game["seat_tokens"]}
    version = game["version"]

    def send(seat: int, command: dict) -> dict:
        nonlocal version
        response = client.move(game["id"], tokens[seat], command, version)
        assert response.status_code == 200, response.text
        body = response.json()
        version = body["version"]
        return body

    for ship in ("S19", "S01", "S08", "S20"):
        send(RED, {"type": "reveal_ship", "ship": ship})
    for n, turn in enumerate(MARKET_TURNS):
        for command in turn_commands(*turn):
            body = send(n % 2, command)
    # Blue's tile surrounded Red's market: Red, not the active Blue, chooses a 6.
    (choice,) = body["awaiting"]
    assert {k: v for k, v in choice.items() if k != "id"} == {
        "seat": RED,
        "kind": "choose_ship",
        "decision": "choose_ship",
        "commands": ["choose_ship"],
        "ships": ["S19", "S20"],
        "market": {"x": 0, "y": 1},
    }
    refused = client.move(game["id"], tokens[BLUE], {"type": "choose_ship", "ship": "S20"}, version)
    assert refused.status_code == 409 and refused.json()["code"] == "not_your_turn"
    body = send(RED, {"type": "choose_ship", "ship": "S20"})
    (award,) = [e["data"] for e in body["events"] if e["type"] == "ship_awarded"]
    assert (award["seat"], award["ship"], award["points"]) == (RED, "S20", 6)
    assert (body["awaiting"][0]["seat"], body["awaiting"][0]["kind"]) == (BLUE, "reveal_ship")

    game["version"], game["awaiting"] = version, body["awaiting"]
    record, client_state = play_to_end(client, south_seas, game, tokens)
    assert record
    summary = client.get(f"/v1/games/{game['id']}").json()
    assert summary["status"] == "finished" and summary["awaiting"] == []
    assert summary["result"] == south_seas.result(client_state)
    assert client_state.held[RED][0] == "S20"
    events = client.all_events(game["id"])
    assert south_seas.is_over(fold(south_seas, events))
    verified = client.get(f"/v1/games/{game['id']}/verify").json()
    assert verified["valid"], verified

"""One person plays a whole Carcassonne game against bot seats run by the service."""

from __future__ import annotations

import hashlib

from service.rules import get_ruleset
from service.rules.play import play_game
from tests.client import Client, play_to_end


def test_one_human_plays_a_whole_game_against_server_bots(server, api_key):
    carcassonne = get_ruleset("carcassonne")
    client = Client(server.url, api_key)
    game = client.create("carcassonne", [{"bot": "random"}, {"name": "me"}, {"bot": "greedy"}])
    assert [t["seat"] for t in game["seat_tokens"]] == [1]
    # The bot in seat 0 already took its first turn inside the creating transaction.
    assert game["awaiting"][0]["seat"] == 1

    record, state = play_to_end(client, carcassonne, game, {1: game["seat_tokens"][0]["token"]})
    assert {step["seat"] for step in record} == {1}

    summary = client.get(f"/v1/games/{game['id']}").json()
    assert summary["status"] == "finished"
    events = client.all_events(game["id"])
    turns_by_seat = {0: 0, 1: 0, 2: 0}
    for event in events:
        if event["type"] == "tile_placed":
            turns_by_seat[event["data"]["seat"]] += 1
    assert min(turns_by_seat.values()) > 15, turns_by_seat
    assert carcassonne.result(state) == summary["result"]
    assert client.get(f"/v1/games/{game['id']}/verify").json()["valid"]


def test_a_bot_only_game_replays_exactly_from_its_revealed_seed(server, api_key):
    """All seats are bots, so the service plays the whole game inside the creating
    transaction; once it has ended the seed is published, and the rules library alone
    (``play_game``) plays the very same game from it, event for event."""
    carcassonne = get_ruleset("carcassonne")
    client = Client(server.url, api_key)
    bots = ["greedy", "random", "greedy"]
    options = {"farmers": True}
    game = client.create("carcassonne", [{"bot": bot} for bot in bots], options)
    assert game["status"] == "finished" and game["seat_tokens"] == []

    seed = bytes.fromhex(game["seed"])
    assert hashlib.sha256(seed).hexdigest() == game["seed_sha256"]
    served = [(e["type"], e["data"]) for e in client.all_events(game["id"])]
    replayed, state = play_game(carcassonne, options, len(bots), seed, bots)
    assert served == [(e.type, e.data) for e in replayed]
    assert carcassonne.result(state) == game["result"]

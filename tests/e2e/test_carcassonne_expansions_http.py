"""A whole Carcassonne game with every expansion switched on, over HTTP against gunicorn
and PostgreSQL; and the expansions as GET /v1/rulesets lists them."""

from __future__ import annotations

from service.rules import get_ruleset
from service.rules.carcassonne.expansions import EXPANSIONS
from tests.client import Client, fold, play_to_end


def test_the_rulesets_catalogue_lists_each_expansion_with_its_tiles(server, api_key):
    client = Client(server.url, api_key)
    listed = client.get("/v1/rulesets").json()["rulesets"]
    (carcassonne,) = [r for r in listed if r["name"] == "carcassonne"]
    expansions = carcassonne["description"]["expansions"]
    assert [e["name"] for e in expansions] == list(EXPANSIONS)
    assert {e["name"]: e["tiles"] for e in expansions} == {
        name: expansion.tile_count() for name, expansion in EXPANSIONS.items()
    }
    assert carcassonne["description"]["options"]["expansions"]["items"] == list(EXPANSIONS)


def test_a_whole_game_with_every_expansion_over_http(server, api_key):
    carcassonne = get_ruleset("carcassonne")
    client = Client(server.url, api_key)
    game = client.create(
        "carcassonne", [{"name": "Blue"}, {"name": "Red"}], {"expansions": list(EXPANSIONS)}
    )
    tokens = {t["seat"]: t["token"] for t in game["seat_tokens"]}

    record, client_state = play_to_end(client, carcassonne, game, tokens)

    assert record
    summary = client.get(f"/v1/games/{game['id']}").json()
    assert summary["status"] == "finished" and summary["awaiting"] == []
    assert summary["result"] == carcassonne.result(client_state)
    events = client.all_events(game["id"])
    started = events[0]["data"]
    assert started["options"]["expansions"] == list(EXPANSIONS)
    assert set(started["figures"]) == {"follower", "big_follower", "builder", "pig", "shepherd"}
    # The river tiles came first, the lake last.
    drawn = [e["data"]["tile"] for e in events if e["type"] == "tile_drawn"]
    river = [n for n, tile in enumerate(drawn) if tile.startswith("RI")]
    # The wheel board is the start, with the spring beside it.
    assert started["start"]["tile"] == "WF/wheel.0.0"
    assert started["layout"][-1]["tile"] == "RI/s"
    assert river == list(range(len(river))) and drawn[river[-1]] == "RI.1/I.e"
    placed = [e["data"]["tile"] for e in events if e["type"] == "tile_placed"]
    assert {t.split("/")[0] for t in placed} >= {"BA", "RI.1", "IC", "TB", "HS", "WF"}
    server_state = fold(carcassonne, events)
    assert carcassonne.view(server_state, None) == carcassonne.view(client_state, None)
    verified = client.get(f"/v1/games/{game['id']}/verify").json()
    assert verified["valid"], verified

"""A game created with randomness "external": draws arrive as draw_tile commands from
the awaited seat and are checked against what is still in the stack."""

from __future__ import annotations

from service.rules import get_ruleset, rng_for
from service.rules.core import Event
from tests.api.test_errors import assert_problem


def test_external_randomness_game_plays_to_the_end_with_client_draws(api):
    carcassonne = get_ruleset("carcassonne")
    game = api.create("carcassonne", [{}, {}], {"randomness": "external"})
    assert game["awaiting"][0]["decision"] == "draw_tile"
    events = api.client.get(f"/v1/games/{game['id']}/events", headers=api.key).get_json()
    state = carcassonne.fold(Event(e["type"], e["data"]) for e in events["events"])

    # A tile that is not in the stack any more is refused, naming the rule.
    response = api.move(game, 0, {"type": "draw_tile", "tile": "BA/NOPE"}, game["version"])
    assert_problem(response, 422, "illegal_move")

    version, awaiting, draws = game["version"], game["awaiting"], 0
    while awaiting:
        seat = awaiting[0]["seat"]
        command = carcassonne.bot_command(state, seat, "random", rng_for(b"client", version))
        draws += command["type"] == "draw_tile"
        body = api.move(game, seat, command, version).get_json()
        for item in body["events"]:
            state = carcassonne.evolve(state, Event(item["type"], item["data"]))
        version, awaiting = body["version"], body["awaiting"]
    assert draws > 50 and carcassonne.is_over(state)
    verified = api.client.get(f"/v1/games/{game['id']}/verify", headers=api.key).get_json()
    assert verified["valid"], verified

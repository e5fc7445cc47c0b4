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


def set_up_catan(api, options: dict) -> dict:
    """A two-seat Catan game on the beginner board, through the set-up at the first
    places offered: seat 0 is to roll."""
    game = api.create("catan", [{}, {}], {"layout": "beginner", **options})
    version = game["version"]
    for seat in (0, 1, 1, 0):
        for kind, field, key in (
            ("build_settlement", "corners", "corner"),
            ("build_road", "edges", "edge"),
        ):
            moves = api.client.get(
                f"/v1/games/{game['id']}/legal-moves",
                headers={"X-Seat-Token": game["tokens"][seat]},
            ).get_json()
            place = moves["commands"]["decisions"][0]["commands"][kind][field][0]
            answer = api.move(game, seat, {"type": kind, key: place}, version)
            assert answer.status_code == 200, answer.get_json()
            version = answer.get_json()["version"]
    return {**game, "version": version}


def test_with_internal_randomness_an_outcome_sent_is_refused_not_ignored(api):
    """The dice of a game that draws its own are not the client's to send: a roll with
    dice is refused, naming the field, where before the dice were silently replaced."""
    game = set_up_catan(api, {})
    problem = assert_problem(
        api.move(game, 0, {"type": "roll", "dice": [6, 6]}, game["version"]),
        422,
        "validation_error",
    )
    assert problem["errors"][0]["field"] == "command.dice"
    assert "randomness: internal" in problem["errors"][0]["message"]
    rolled = api.move(game, 0, {"type": "roll"}, game["version"])
    assert rolled.status_code == 200 and rolled.get_json()["events"][0]["type"] == "dice_rolled"


def test_with_external_randomness_the_outcome_is_the_clients(api):
    game = set_up_catan(api, {"randomness": "external"})
    rolled = api.move(game, 0, {"type": "roll", "dice": [6, 6]}, game["version"])
    assert rolled.status_code == 200, rolled.get_json()
    assert rolled.get_json()["events"][0]["data"]["dice"] == [6, 6]

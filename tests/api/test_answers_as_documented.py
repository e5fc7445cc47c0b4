"""Every game answer is sent as the use case built it, without a second pass through
its schema (service/api/games.py, ``reply``): so each must already be exactly what its
schema documents, field for field."""

from __future__ import annotations

from service.api import schemas as s
from service.rules import get_ruleset, rng_for
from service.rules.core import Event


def assert_documented(response, schema) -> dict:
    body = response.get_json()
    assert response.status_code in (200, 201), body
    assert schema().dump(body) == body
    return body


def test_a_whole_game_is_answered_as_its_schemas_document(api):
    carcassonne = get_ruleset("carcassonne")
    created = api.client.post(
        "/v1/games",
        json={"ruleset": "carcassonne", "seats": [{"name": "a"}, {"bot": "random"}]},
        headers=api.key,
    )
    game = assert_documented(created, s.CreatedGameSchema)
    game["tokens"] = {t["seat"]: t["token"] for t in game["seat_tokens"]}
    token = {"X-Seat-Token": game["tokens"][0]}
    path = f"/v1/games/{game['id']}"
    page = assert_documented(api.client.get(f"{path}/events", headers=api.key), s.EventPageSchema)
    state = carcassonne.fold(Event(e["type"], e["data"]) for e in page["events"])
    version, moves = game["version"], 0
    while not carcassonne.is_over(state) and moves < 12:
        assert_documented(api.client.get(path, headers=token), s.GameSummarySchema)
        assert_documented(api.client.get(f"{path}/state", headers=token), s.StateSchema)
        assert_documented(api.client.get(f"{path}/legal-moves", headers=token), s.LegalMovesSchema)
        command = carcassonne.bot_command(state, 0, "random", rng_for(b"documented", version))
        body = assert_documented(api.move(game, 0, command, version), s.MoveResultSchema)
        for item in body["events"]:
            state = carcassonne.evolve(state, Event(item["type"], item["data"]))
        version, moves = body["version"], moves + 1
    assert_documented(api.client.get("/v1/games", headers=api.key), s.GamePageSchema)
    assert_documented(api.client.get(f"{path}/state?at=3", headers=api.key), s.StateSchema)

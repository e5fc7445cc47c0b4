"""Long bot play: a request whose bots play on past ``LONG_BOT_PLAY_SECONDS`` of CPU
(a whole game of bots, say) needs the process's one slot for it, so that a few such
requests never take every thread of a worker from everybody else. Without the slot it
is refused whole, 503 ``bots_busy``, and sent again later."""

from __future__ import annotations

import pytest

from tests.api.test_errors import assert_problem
from tests.conftest import new_api_key

BOTS_ONLY = {"ruleset": "carcassonne", "seats": [{"bot": "random"}, {"bot": "random"}]}


@pytest.fixture
def games(api, monkeypatch):
    """The app's game service, with any bot play counting as long."""
    monkeypatch.setattr("service.app.games.LONG_BOT_PLAY_SECONDS", -1.0)
    return api.client.application.extensions["tilegames"].games


def listed(api, key: dict[str, str]) -> int:
    return len(api.client.get("/v1/games?limit=100", headers=key).get_json()["games"])


def test_a_bot_game_while_another_plays_long_gets_503_and_nothing_is_written(
    api, games, database_url
):
    key = {"X-API-Key": new_api_key(database_url, "long bot play")[1]}  # its games alone
    assert games.long_bot_play.acquire(blocking=False)  # another request's bots play long
    try:
        response = api.client.post("/v1/games", json=BOTS_ONLY, headers=key)
        body = assert_problem(response, 503, "bots_busy")
        assert response.headers["Retry-After"] == "1"
        assert "nothing was written" in body["detail"]
        assert listed(api, key) == 0
    finally:
        games.long_bot_play.release()
    response = api.client.post("/v1/games", json=BOTS_ONLY, headers=key)
    assert response.status_code == 201 and response.get_json()["status"] == "finished"
    assert listed(api, key) == 1
    # the slot went back once the game was played
    assert games.long_bot_play.acquire(blocking=False)
    games.long_bot_play.release()


def test_a_move_whose_bots_would_play_long_meanwhile_is_refused_whole(api, games, monkeypatch):
    game = api.create(ruleset="carcassonne", seats=[{"name": "Ada"}, {"bot": "random"}])
    moves = api.client.get(
        f"/v1/games/{game['id']}/legal-moves", headers={"X-Seat-Token": game["tokens"][0]}
    ).get_json()
    place = moves["commands"]["decisions"][0]["commands"]["place_tile"]["placements"][0]
    tile = {"type": "place_tile", "x": place["x"], "y": place["y"], "rotation": place["rotation"]}
    play = games.play_bots
    assert games.long_bot_play.acquire(blocking=False)
    try:
        # the tile alone leaves Ada awaited (her figure): no bot plays, it is taken
        assert api.move(game, 0, tile, moves["version"]).status_code == 200
        version = api.client.get(f"/v1/games/{game['id']}", headers=api.key).get_json()["version"]
        # skipping the figure ends her turn: the bot's turn would follow in this request
        played = []
        monkeypatch.setattr(games, "play_bots", lambda *a, **k: played.append(1) or play(*a, **k))
        response = api.move(game, 0, {"type": "skip"}, version)
        assert_problem(response, 503, "bots_busy")
        assert played == [1]  # refused once, not decided again under the row lock
        after = api.client.get(f"/v1/games/{game['id']}", headers=api.key).get_json()
        assert after["version"] == version
    finally:
        games.long_bot_play.release()
    assert api.move(game, 0, {"type": "skip"}, version).status_code == 200

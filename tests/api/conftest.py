from __future__ import annotations

import pytest


class Api:
    """The Flask test client with credentials and game helpers."""

    def __init__(self, client, api_key: str) -> None:
        self.client = client
        self.key = {"X-API-Key": api_key}

    def create(self, ruleset: str = "secret-cards", seats=None, options=None) -> dict:
        body = {"ruleset": ruleset, "seats": seats or [{"name": "a"}, {"name": "b"}]}
        if options is not None:
            body["options"] = options
        response = self.client.post("/v1/games", json=body, headers=self.key)
        assert response.status_code == 201, response.get_json()
        game = response.get_json()
        game["tokens"] = {t["seat"]: t["token"] for t in game["seat_tokens"]}
        return game

    def move(self, game: dict, seat: int, command: dict, version=None, **headers):
        headers = {"X-Seat-Token": game["tokens"][seat], **headers}
        if version is not None:
            headers["If-Match"] = f'"{version}"'
        return self.client.post(
            f"/v1/games/{game['id']}/moves", json={"command": command}, headers=headers
        )


@pytest.fixture
def api(client, api_key) -> Api:
    return Api(client, api_key)

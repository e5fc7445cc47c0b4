from __future__ import annotations

import secrets
import uuid

from service.api import create_app
from service.config import Settings
from tests.api.test_errors import assert_problem


def test_requests_over_the_per_key_limit_get_429_problem(database_url, api_key):
    app = create_app(Settings(database_url=database_url, rate_limit="3 per minute"))
    client = app.test_client()
    for _ in range(3):
        assert client.get("/v1/rulesets", headers={"X-API-Key": api_key}).status_code == 200
    body = assert_problem(
        client.get("/v1/rulesets", headers={"X-API-Key": api_key}), 429, "rate_limited"
    )
    assert "limit" in body["detail"]
    # Limits are per credential: another caller is not affected; probes are exempt.
    assert client.get("/v1/rulesets").status_code == 200
    assert client.get("/healthz").status_code == 200
    app.extensions["tilegames"].db.close()


def limited_app(database_url: str, limit: str, **settings):
    app = create_app(Settings(database_url=database_url, rate_limit=limit, **settings))
    return app, app.test_client()


def test_every_route_draws_on_one_budget_per_credential(database_url, api_key):
    app, client = limited_app(database_url, "3 per minute")
    key = {"X-API-Key": api_key}
    assert client.get("/v1/rulesets", headers=key).status_code == 200
    assert client.post("/v1/validate", json={}, headers=key).status_code == 422
    assert client.get(f"/v1/games/{uuid.uuid4()}", headers=key).status_code == 404
    assert_problem(client.get("/v1/rulesets", headers=key), 429, "rate_limited")
    app.extensions["tilegames"].db.close()


def test_responses_say_the_limit_what_remains_and_when_it_resets(database_url, api_key):
    app, client = limited_app(database_url, "2 per minute")
    key = {"X-API-Key": api_key}
    first = client.get("/v1/rulesets", headers=key)
    assert first.headers["RateLimit-Limit"] == "2"
    assert first.headers["RateLimit-Remaining"] == "1"
    assert 0 <= int(first.headers["RateLimit-Reset"]) <= 60
    assert "Retry-After" not in first.headers
    client.get("/v1/rulesets", headers=key)
    refused = client.get("/v1/rulesets", headers=key)
    assert refused.status_code == 429 and refused.headers["RateLimit-Remaining"] == "0"
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    app.extensions["tilegames"].db.close()


def test_made_up_seat_tokens_share_their_address_limit(database_url):
    app, client = limited_app(database_url, "3 per minute")
    game = f"/v1/games/{uuid.uuid4()}"
    answers = [
        client.get(game, headers={"X-Seat-Token": f"tgs_{secrets.token_urlsafe(8)}"}).status_code
        for _ in range(4)
    ]
    assert answers == [404, 404, 404, 429]
    app.extensions["tilegames"].db.close()


def test_a_seat_token_a_game_accepted_has_its_own_limit(database_url, api_key):
    app, client = limited_app(database_url, "3 per minute")
    body = {"ruleset": "carcassonne", "seats": [{"name": "a"}, {"bot": "random"}]}
    created = client.post("/v1/games", json=body, headers={"X-API-Key": api_key}).get_json()
    path, token = f"/v1/games/{created['id']}", created["seat_tokens"][0]["token"]
    # First seen: counted against the address, and accepted by the game.
    assert client.get(path, headers={"X-Seat-Token": token}).status_code == 200
    for _ in range(3):  # now its own budget of 3
        assert client.get(path, headers={"X-Seat-Token": token}).status_code == 200
    assert client.get(path, headers={"X-Seat-Token": token}).status_code == 429
    # The address still has 2 of its 3 left for strangers.
    stranger = {"X-Seat-Token": "tgs_stranger"}
    assert [client.get(path, headers=stranger).status_code for _ in range(3)] == [403, 403, 429]
    app.extensions["tilegames"].db.close()


def test_an_options_request_does_not_make_a_game_accept_a_made_up_token(database_url, api_key):
    """Flask answers OPTIONS itself, without the route and so without checking the token:
    a made-up token sent that way must stay counted against the address, not get a
    budget of its own."""
    app, client = limited_app(database_url, "3 per minute")
    body = {"ruleset": "carcassonne", "seats": [{"name": "a"}, {"bot": "random"}]}
    created = client.post("/v1/games", json=body, headers={"X-API-Key": api_key}).get_json()
    path, made_up = f"/v1/games/{created['id']}/state", {"X-Seat-Token": "tgs_made_up"}
    assert client.options(path, headers=made_up).status_code == 204
    # the OPTIONS request counted against the address too: two more left of its 3
    assert [client.get(path, headers=made_up).status_code for _ in range(3)] == [403, 403, 429]
    app.extensions["tilegames"].db.close()

"""API keys, seat tokens and who may do what."""

from __future__ import annotations

import psycopg

from service.store import keys
from tests.api.test_errors import assert_problem
from tests.conftest import new_api_key


def test_unknown_malformed_or_missing_credentials_get_401(api):
    game = api.create()
    path = f"/v1/games/{game['id']}"
    for headers in (
        {},
        {"X-API-Key": "tgk_deadbeef_nope"},
        {"Authorization": "Bearer tgk_deadbeef_nope"},
        {"Authorization": "Bearer something-else"},
        {"Authorization": "Basic abc"},
        {"X-Seat-Token": "not-a-token"},
    ):
        assert_problem(api.client.get(path, headers=headers), 401, "unauthorized")


def test_revoked_key_gets_401(client, database_url):
    key_id, plaintext = new_api_key(database_url, "to revoke")
    body = {"ruleset": "secret-cards", "seats": [{}, {}]}
    assert client.post("/v1/games", json=body, headers={"X-API-Key": plaintext}).status_code == 201
    with psycopg.connect(database_url) as conn:
        assert keys.revoke_key(conn, key_id)
    response = client.post("/v1/games", json=body, headers={"Authorization": f"Bearer {plaintext}"})
    assert_problem(response, 401, "unauthorized")


def test_creating_a_game_needs_an_api_key_not_a_seat_token(api):
    game = api.create()
    body = {"ruleset": "secret-cards", "seats": [{}, {}]}
    response = api.client.post("/v1/games", json=body, headers={"X-Seat-Token": game["tokens"][0]})
    assert_problem(response, 401, "unauthorized")


def test_a_seat_token_cannot_move_for_another_seat(api):
    game = api.create()
    headers = {"X-Seat-Token": game["tokens"][1], "If-Match": f'"{game["version"]}"'}
    response = api.client.post(
        f"/v1/games/{game['id']}/moves",
        json={"command": {"type": "keep"}, "seat": 0},
        headers=headers,
    )
    assert_problem(response, 403, "forbidden")
    # Seat 0 is awaited; seat 1's token moves for seat 1 only, so it is not its turn.
    assert_problem(api.move(game, 1, {"type": "keep"}, game["version"]), 409, "not_your_turn")
    assert api.move(game, 0, {"type": "keep"}, game["version"]).status_code == 200


def test_api_key_alone_or_another_games_token_cannot_move(api):
    game, other = api.create(), api.create()
    path = f"/v1/games/{game['id']}/moves"
    move = {"command": {"type": "keep"}, "expected_version": game["version"]}
    assert_problem(api.client.post(path, json=move, headers=api.key), 403, "forbidden")
    response = api.client.post(path, json=move, headers={"X-Seat-Token": other["tokens"][0]})
    assert_problem(response, 403, "forbidden")


def test_two_different_credentials_of_one_kind_are_refused_not_picked_between(api, database_url):
    game = api.create("carcassonne")
    path = f"/v1/games/{game['id']}/moves"
    resign = {"command": {"type": "resign"}}  # needs no precondition: a write if accepted
    both = {"X-Seat-Token": game["tokens"][0], "Authorization": f"Bearer {game['tokens'][1]}"}
    problem = assert_problem(api.client.post(path, json=resign, headers=both), 401, "unauthorized")
    assert "two different seat tokens" in problem["detail"]
    other_key = new_api_key(database_url, "other")[1]
    keys_both = {**api.key, "Authorization": f"Bearer {other_key}"}
    problem = assert_problem(api.client.get("/v1/games", headers=keys_both), 401, "unauthorized")
    assert "two different API keys" in problem["detail"]
    summary = api.client.get(f"/v1/games/{game['id']}", headers=api.key).get_json()
    assert summary["version"] == game["version"]  # nothing written
    empty = {**keys_both, "X-API-Key": ""}  # an empty header names no key
    assert api.client.get("/v1/games", headers=empty).status_code == 200
    same = {"X-Seat-Token": game["tokens"][0], "Authorization": f"Bearer {game['tokens'][0]}"}
    assert api.client.post(path, json=resign, headers=same).status_code == 200


def test_legal_moves_are_private_to_a_seat(api):
    game = api.create()
    path = f"/v1/games/{game['id']}/legal-moves"
    assert_problem(api.client.get(path, headers=api.key), 403, "forbidden")
    mine = api.client.get(path, headers={"Authorization": f"Bearer {game['tokens'][0]}"})
    (decision,) = mine.get_json()["commands"]["decisions"]
    assert decision["kind"] == "play" and decision["commands"] == {"reveal": {}, "keep": {}}
    theirs = api.client.get(path, headers={"X-Seat-Token": game["tokens"][1]}).get_json()
    assert theirs["commands"] == {"seat": 1, "decisions": []}


def test_a_stream_opened_with_a_key_ends_at_its_next_keep_alive_once_the_key_is_revoked(
    database_url,
):
    """Where a stream holds its thread (here Flask's test client), as where the
    service's stream hub serves it (tests/e2e/test_sse.py)."""
    from service.api import create_app
    from service.config import Settings
    from tests.fixtures import secret_cards

    settings = Settings(database_url=database_url, sse_poll_seconds=0.1, sse_max_seconds=30)
    client = create_app(settings, extra_rulesets=[secret_cards.RULESET]).test_client()
    key_id, plaintext = new_api_key(database_url, "revoked while streaming")
    key = {"X-API-Key": plaintext}
    game = client.post(
        "/v1/games", json={"ruleset": "secret-cards", "seats": [{}, {}]}, headers=key
    ).get_json()
    stream = client.get(
        f"/v1/games/{game['id']}/events?after={game['version']}",
        headers={**key, "Accept": "text/event-stream"},
        buffered=False,
    )
    chunks = iter(stream.response)
    assert next(chunks) == b"retry: 1000\n\n"
    assert next(chunks) == b": keep-alive\n\n"
    with psycopg.connect(database_url) as conn:
        assert keys.revoke_key(conn, key_id)
    assert list(chunks) == []  # the stream ended at the next keep-alive
    stream.close()
    client.application.extensions["tilegames"].db.close()

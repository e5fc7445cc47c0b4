"""Idempotency-Key: a retry replays the stored first response; a different request
with the same key is refused."""

from __future__ import annotations

import psycopg

from tests.api.test_errors import assert_problem


def test_same_key_same_request_replays_the_first_response(api):
    game = api.create()
    first = api.move(game, 0, {"type": "reveal"}, game["version"], **{"Idempotency-Key": "k1"})
    again = api.move(game, 0, {"type": "reveal"}, game["version"], **{"Idempotency-Key": "k1"})
    assert first.status_code == again.status_code == 200
    assert first.get_json() == again.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"
    events = api.client.get(f"/v1/games/{game['id']}/events", headers=api.key).get_json()
    assert events["version"] == first.get_json()["version"]


def test_same_key_different_request_is_422_and_writes_nothing(api):
    game = api.create()
    first = api.move(game, 0, {"type": "keep"}, game["version"], **{"Idempotency-Key": "k2"})
    other = api.move(game, 0, {"type": "reveal"}, game["version"], **{"Idempotency-Key": "k2"})
    assert_problem(other, 422, "idempotency_key_reused")
    summary = api.client.get(f"/v1/games/{game['id']}", headers=api.key).get_json()
    assert summary["version"] == first.get_json()["version"]


def test_a_rejected_move_is_not_stored_so_its_key_can_be_retried(api):
    game = api.create()
    key = {"Idempotency-Key": "k3"}
    assert_problem(
        api.move(game, 0, {"type": "dance"}, game["version"], **key), 422, "illegal_move"
    )
    assert api.move(game, 0, {"type": "keep"}, game["version"], **key).status_code == 200


def test_an_answer_stored_before_answers_named_their_ruleset_is_replayed_with_it(api, database_url):
    game = api.create()
    key = {"Idempotency-Key": "k4"}
    first = api.move(game, 0, {"type": "keep"}, game["version"], **key).get_json()
    with psycopg.connect(database_url) as conn:  # as an earlier release stored it
        conn.execute(
            "UPDATE idempotency_keys SET response = response - 'ruleset' WHERE game_id = %s",
            (game["id"],),
        )
    again = api.move(game, 0, {"type": "keep"}, game["version"], **key)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first and first["ruleset"] == "secret-cards"


def test_each_seat_has_its_own_keys(api):
    """A key is scoped to the seat that sends it: another seat choosing the same key is
    neither refused nor answered with the first seat's (private) response."""
    game = api.create()
    mine = api.move(game, 0, {"type": "keep"}, game["version"], **{"Idempotency-Key": "same"})
    assert mine.status_code == 200, mine.get_json()
    version = mine.get_json()["version"]
    theirs = api.move(game, 1, {"type": "keep"}, version, **{"Idempotency-Key": "same"})
    assert theirs.status_code == 200, theirs.get_json()
    assert "Idempotent-Replayed" not in theirs.headers
    assert theirs.get_json()["version"] > version
    again = api.move(game, 1, {"type": "keep"}, version, **{"Idempotency-Key": "same"})
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == theirs.get_json()

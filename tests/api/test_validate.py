"""POST /v1/validate: a record played elsewhere, checked statelessly."""

from __future__ import annotations

import pytest

from service.rules import get_ruleset, rng_for
from tests.api.test_errors import assert_problem


def external_record(moves: int) -> list[dict]:
    """Play a Carcassonne game locally with external randomness, recording commands."""
    ruleset = get_ruleset("carcassonne")
    options = ruleset.normalize_options({"randomness": "external"})
    state = ruleset.fold(ruleset.setup(options, 2, rng_for(b"\0" * 32, 1)))
    record, seq = [], 1
    while not ruleset.is_over(state) and len(record) < moves:
        seat = ruleset.awaiting(state)[0]["seat"]
        command = ruleset.bot_command(state, seat, "random", rng_for(b"draws", seq))
        for event in ruleset.decide(state, seat, command, rng_for(b"x", seq)):
            state = ruleset.evolve(state, event)
        record.append({"seat": seat, "command": command})
        seq += 1
    return record


def test_a_complete_external_randomness_record_validates_to_its_final_state(api):
    record = external_record(10_000)
    assert any(step["command"]["type"] == "draw_tile" for step in record)
    body = {
        "ruleset": "carcassonne",
        "options": {"randomness": "external"},
        "seats": 2,
        "record": record,
    }
    result = api.client.post("/v1/validate", json=body, headers=api.key).get_json()
    assert result["valid"] and result["finished"] and result["steps"] == len(record)
    assert result["error"] is None and result["result"]["winners"]


def test_the_first_illegal_step_is_reported_with_its_rule(api):
    record = external_record(6)
    bad = {
        "seat": record[5]["seat"],
        "command": {"type": "place_tile", "x": 9, "y": 9, "rotation": 0},
    }
    body = {
        "ruleset": "carcassonne",
        "options": {"randomness": "external"},
        "seats": 2,
        "record": [*record[:5], bad],
    }
    result = api.client.post("/v1/validate", json=body, headers=api.key).get_json()
    assert not result["valid"] and result["steps"] == 5
    assert result["error"]["step"] == 5 and result["error"]["code"]


def test_internal_randomness_without_a_seed_is_refused_naming_the_field(api):
    body = {"ruleset": "carcassonne", "seats": 2, "record": []}
    response = api.client.post("/v1/validate", json=body, headers=api.key)
    assert assert_problem(response, 422, "validation_error")["errors"][0]["field"] == "seed"
    assert_problem(api.client.post("/v1/validate", json=body), 401, "unauthorized")


def test_an_empty_seed_is_no_seed(api):
    body = {"ruleset": "carcassonne", "seats": 2, "record": [], "seed": ""}
    response = api.client.post("/v1/validate", json=body, headers=api.key)
    assert assert_problem(response, 422, "validation_error")["errors"][0]["field"] == "seed"


@pytest.mark.parametrize(
    "running",
    [
        {"²": "2020-01-01T00:00:00+00:00"},  # a digit to isdigit, not to int
        {"9" * 5000: "2020-01-01T00:00:00+00:00"},  # more digits than int reads
        {"01": "2020-01-01T00:00:00+00:00"},  # not how the server names seat 1
        {"0": "yesterday"},
        {"0": "2020-01-01T00:00:00"},  # no offset
    ],
)
def test_a_clock_reading_the_server_could_not_have_written_is_a_bad_clock(api, running):
    body = {
        "ruleset": "carcassonne",
        "options": {"randomness": "external", "clock": {"per_move": 60}},
        "seats": 2,
        "record": [
            {
                "seat": None,
                "command": {"type": "clock", "remaining_ms": [None, None], "running": running},
            }
        ],
    }
    response = api.client.post("/v1/validate", json=body, headers=api.key)
    assert response.status_code == 200
    result = response.get_json()
    assert not result["valid"] and result["error"]["code"] == "bad_clock"


def test_clock_steps_are_refused_in_a_game_without_a_time_control(api):
    """Only the server writes clock readings and timeouts, and only in a clocked game: a
    record of an unclocked game that times a seat out is not a game the server played."""
    body = {
        "ruleset": "carcassonne",
        "options": {"randomness": "external"},
        "seats": 2,
        "record": [{"seat": 0, "command": {"type": "time_out", "action": "forfeit"}}],
    }
    result = api.client.post("/v1/validate", json=body, headers=api.key).get_json()
    assert not result["valid"] and result["steps"] == 0
    assert result["error"]["code"] == "no_time_control"


def test_a_timeout_must_be_the_one_the_games_clock_gives(api):
    body = {
        "ruleset": "carcassonne",
        "options": {"randomness": "external", "clock": {"per_move": 30, "on_timeout": "skip"}},
        "seats": 2,
        "record": [{"seat": 0, "command": {"type": "time_out", "action": "forfeit"}}],
    }
    result = api.client.post("/v1/validate", json=body, headers=api.key).get_json()
    assert not result["valid"] and result["error"]["code"] == "bad_timeout"
    assert "skip" in result["error"]["message"]
    reading = {"type": "clock", "running": {}, "left": {}}
    body["record"] = [{"seat": 1, "command": reading}]
    result = api.client.post("/v1/validate", json=body, headers=api.key).get_json()
    assert not result["valid"] and result["error"]["code"] == "bad_clock"
    assert result["error"]["message"] == "a clock reading is the server's, not seat 1's: seat null"


def test_an_abandon_is_the_owners_and_a_seat_s_is_refused(api):
    """The service takes an abandon only from the game's API key; a record that gives
    it to a seat is not a game the service played."""
    body = {
        "ruleset": "carcassonne",
        "options": {"randomness": "external"},
        "seats": 2,
        "record": [{"seat": 0, "command": {"type": "abandon"}}],
    }
    result = api.client.post("/v1/validate", json=body, headers=api.key).get_json()
    assert not result["valid"] and result["steps"] == 0 and not result["finished"]
    assert result["error"]["code"] == "bad_abandon"
    assert result["error"]["message"] == (
        "an abandon is the game owner's, not seat 0's: its step has seat null"
    )
    body["record"] = [{"seat": None, "command": {"type": "abandon"}}]
    result = api.client.post("/v1/validate", json=body, headers=api.key).get_json()
    assert result["valid"] and result["finished"] and result["result"]["winners"] == []

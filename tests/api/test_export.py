"""GET /v1/games/{id}/export: a finished game as a record POST /v1/validate replays."""

from __future__ import annotations

import hashlib

import psycopg
import pytest

from service.api import create_app
from tests.api.test_errors import assert_problem
from tests.api.test_versioned_events import SecretCardsV2


def get(api, game: dict, path: str = "") -> dict:
    response = api.client.get(f"/v1/games/{game['id']}{path}", headers=api.key)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def validated(api, document: dict) -> dict:
    response = api.client.post("/v1/validate", json=document, headers=api.key)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def assert_replays_to_the_game(api, game: dict) -> dict:
    """Export ``game``, validate the document as it is, and compare with the game."""
    exported = get(api, game, "/export")
    summary = get(api, game)
    result = validated(api, exported)
    assert result["valid"] and result["finished"], result["error"]
    assert result["steps"] == len(exported["record"])
    assert result["version"] == exported["version"] == summary["version"]
    assert result["result"] == summary["result"]
    assert result["state"] == get(api, game, "/state")["state"]
    assert result["head_hash"] == exported["head_hash"] == summary["head_hash"]
    assert result["matches_export"] is True
    assert exported["head_signature"] == summary["head_signature"]
    assert result["head_signed"] is True  # the test service signs its heads
    return exported


def test_a_finished_bot_game_exports_a_record_that_validates_to_the_same_end(api):
    seats = [{"bot": "greedy"}, {"bot": "random"}]
    game = api.create(ruleset="carcassonne", seats=seats)
    assert game["status"] == "finished"
    exported = assert_replays_to_the_game(api, game)
    assert exported["format"] == "tilegames-record" and exported["format_version"] == 1
    assert exported["seed"] == get(api, game)["seed"]
    assert hashlib.sha256(bytes.fromhex(exported["seed"])).hexdigest() == game["seed_sha256"]
    assert [p["bot"] for p in exported["players"]] == ["greedy", "random"]
    assert {step["seat"] for step in exported["record"]} == {0, 1}


ALL_EXPANSIONS = [
    "river",
    "inns_cathedrals",
    "traders_builders",
    "hills_sheep",
    "wheel_of_fortune",
]


@pytest.mark.parametrize(
    ("ruleset", "options", "bots"),
    [
        ("carcassonne", {"expansions": ALL_EXPANSIONS}, ["greedy", "random", "greedy"]),
        ("carcassonne-south-seas", {}, ["greedy", "random"]),
        ("catan", {}, ["value", "random", "value"]),
        ("catan", {"scenario": 3}, ["value", "value", "random"]),
    ],
    ids=["carcassonne-expansions", "south-seas", "catan", "catan-fog-islands"],
)
def test_every_ruleset_s_bot_game_replays_from_its_export(api, ruleset, options, bots):
    game = api.create(ruleset=ruleset, seats=[{"bot": bot} for bot in bots], options=options)
    assert game["status"] == "finished"
    assert_replays_to_the_game(api, game)


def test_a_game_played_over_http_records_the_moves_and_the_bots_answers(api):
    game = api.create(seats=[{"name": "Ada"}, {"bot": "random"}], options={"rounds": 4})
    version, sent = game["version"], []
    while True:
        summary = get(api, game)
        if summary["status"] == "finished":
            break
        decision = summary["awaiting"][0]["id"]
        command = {"type": "reveal" if len(sent) % 2 == 0 else "keep"}
        if len(sent) % 3 == 0:  # some moves name their decision instead of the version
            body = {"command": command, "decision": decision}
            headers = {"X-Seat-Token": game["tokens"][0]}
            response = api.client.post(f"/v1/games/{game['id']}/moves", json=body, headers=headers)
        else:
            response = api.move(game, 0, command, version=summary["version"])
        assert response.status_code == 200, response.get_json()
        sent.append((command, decision if len(sent) % 3 == 0 else None))
        version = response.get_json()["version"]
    exported = assert_replays_to_the_game(api, game)
    assert exported["version"] == version
    ada = [step for step in exported["record"] if step["seat"] == 0]
    assert [(s["command"], s.get("decision")) for s in ada] == sent
    assert len(exported["record"]) == 2 * len(sent)


def test_a_record_edited_into_another_legal_game_replays_but_does_not_match_its_export(api):
    game = api.create(seats=[{"bot": "random"}, {"bot": "random"}], options={"rounds": 3})
    exported = get(api, game, "/export")
    first = exported["record"][0]["command"]
    other = {"reveal": "keep", "keep": "reveal"}[first["type"]]
    edited = [{**exported["record"][0], "command": {"type": other}}, *exported["record"][1:]]
    result = validated(api, {**exported, "record": edited})
    assert result["valid"] and result["finished"]
    assert result["head_hash"] != exported["head_hash"]
    assert result["matches_export"] is False


def test_an_edited_record_given_its_own_new_head_agrees_with_itself_but_is_not_signed(api):
    """Anyone can replay an edited record and write the head it reaches into the
    document: it then agrees with itself, and only the service's signature of the head,
    which the editor cannot make, tells it from the game."""
    game = api.create(seats=[{"bot": "random"}, {"bot": "random"}], options={"rounds": 3})
    exported = get(api, game, "/export")
    first = exported["record"][0]["command"]
    other = {"reveal": "keep", "keep": "reveal"}[first["type"]]
    edited = {
        **exported,
        "record": [{**exported["record"][0], "command": {"type": other}}, *exported["record"][1:]],
    }
    replayed = validated(api, edited)
    forged = {**edited, "version": replayed["version"], "head_hash": replayed["head_hash"]}
    result = validated(api, forged)
    assert result["valid"] and result["matches_export"] is True
    assert result["head_signed"] is False
    unsigned = validated(api, {**exported, "head_signature": None})
    assert unsigned["matches_export"] is True and unsigned["head_signed"] is None


def test_the_same_record_under_another_game_s_id_does_not_match(api):
    game = api.create(seats=[{"bot": "random"}, {"bot": "random"}], options={"rounds": 2})
    exported = get(api, game, "/export")
    result = validated(api, {**exported, "game_id": "00000000-0000-4000-8000-000000000000"})
    assert result["valid"] and result["matches_export"] is False


def test_a_record_without_its_game_s_id_has_no_head_to_compare(api):
    game = api.create(seats=[{"bot": "random"}, {"bot": "random"}], options={"rounds": 2})
    exported = get(api, game, "/export")
    result = validated(api, {k: v for k, v in exported.items() if k != "game_id"})
    assert result["valid"] and result["head_hash"] is None and result["matches_export"] is None


def test_a_game_in_play_is_refused_its_seed_being_secret(api):
    game = api.create()
    response = api.client.get(f"/v1/games/{game['id']}/export", headers=api.key)
    body = assert_problem(response, 409, "game_not_finished")
    assert "seed" in body["detail"]


def test_a_game_stored_before_commands_were_recorded_is_refused(api, database_url):
    game = api.create(seats=[{"bot": "random"}, {"bot": "random"}])
    with psycopg.connect(database_url) as conn:
        conn.execute("UPDATE games SET commands_recorded = false WHERE id = %s", (game["id"],))
    response = api.client.get(f"/v1/games/{game['id']}/export", headers=api.key)
    assert_problem(response, 409, "record_unavailable")


def test_a_game_whose_log_crossed_a_rules_upgrade_is_refused(api, settings):
    game = api.create(options={"rounds": 1})
    assert api.move(game, 0, {"type": "reveal"}, game["version"]).status_code == 200
    upgraded = create_app(settings, extra_rulesets=[SecretCardsV2()]).test_client()
    headers = {"X-Seat-Token": game["tokens"][1], "If-Match": f'"{game["version"] + 3}"'}
    body = {"command": {"type": "reveal"}}
    moved = upgraded.post(f"/v1/games/{game['id']}/moves", json=body, headers=headers)
    assert moved.get_json()["events"][0]["type"] == "rules_upgraded"
    assert moved.get_json()["status"] == "finished"
    response = upgraded.get(f"/v1/games/{game['id']}/export", headers=api.key)
    assert_problem(response, 409, "record_unavailable")


def test_a_seat_token_of_another_game_is_refused(api):
    finished = api.create(seats=[{"bot": "random"}, {"bot": "random"}])
    other = api.create()
    headers = {"X-Seat-Token": other["tokens"][0]}
    response = api.client.get(f"/v1/games/{finished['id']}/export", headers=headers)
    assert_problem(response, 403, "forbidden")


def test_validate_refuses_a_seed_that_is_not_the_published_hash(api):
    game = api.create(seats=[{"bot": "random"}, {"bot": "random"}])
    exported = get(api, game, "/export")
    response = api.client.post(
        "/v1/validate", json={**exported, "seed_sha256": "0" * 64}, headers=api.key
    )
    body = assert_problem(response, 422, "validation_error")
    assert body["errors"][0]["field"] == "seed_sha256"


def test_a_command_that_jsonb_cannot_store_is_refused_before_it_is_applied(api):
    game = api.create()
    response = api.move(game, 0, {"type": "keep", "note": "a\x00b"}, version=game["version"])
    body = assert_problem(response, 422, "validation_error")
    assert body["errors"][0]["field"] == "command"
    assert get(api, game)["version"] == game["version"]

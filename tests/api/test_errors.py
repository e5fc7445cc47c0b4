"""Every error is problem+json with a stable code; validation errors name the field."""

from __future__ import annotations

import re
import uuid

PROBLEM = "application/problem+json"


def assert_problem(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == PROBLEM
    body = response.get_json()
    assert body["code"] == code and body["status"] == status
    assert body["type"].endswith(code) and body["title"] and body["detail"]
    return body


def test_every_problem_code_the_service_gives_is_listed_in_the_contract_and_the_docs():
    """A client branches on ``code``: the OpenAPI document's Problem names every code
    the docs explain, and those are every code the service's errors, its HTTP refusals
    and gunicorn's carry."""
    from service.api.apidoc import API_DESCRIPTION
    from service.api.framing import _FRAMING_CODES
    from service.api.problems import _CODES
    from service.api.schemas import ProblemSchema
    from service.app import errors

    errors_part = API_DESCRIPTION[API_DESCRIPTION.index("## Errors") :]
    errors_part = errors_part[: errors_part.index("\n## ", 1)]
    documented = set(re.findall(r"`(\w+)` \((\d{3})\)", errors_part))
    described = ProblemSchema().fields["code"].metadata["description"]
    listed = set(re.findall(r"\b[a-z]+(?:_[a-z]+)*\b", described.partition(":")[2]))
    assert {code for code, _ in documented} == listed
    import service.app.webhooks  # noqa: F401 (its errors)

    classes, given = [errors.AppError], set()
    while classes:
        subclasses = classes.pop().__subclasses__()
        classes += subclasses
        given |= {(cls.code, str(cls.status)) for cls in subclasses}
    given |= {(code, str(status)) for status, code in {**_CODES, **_FRAMING_CODES}.items()}
    # the two the API answers without an AppError: the database gone, too many streams
    given |= {("database_unavailable", "503"), ("too_many_streams", "429")}
    assert given - documented == set()


def test_unknown_route_and_wrong_method_are_problems(client):
    missing = assert_problem(client.get("/v1/nope"), 404, "not_found")
    assert missing["detail"] == "no route /v1/nope: the API reference at /docs lists every path"
    assert_problem(client.delete("/v1/rulesets"), 405, "method_not_allowed")


def test_malformed_json_body_is_a_bad_request_problem(api):
    response = api.client.post(
        "/v1/games", data="{not json", headers={**api.key, "Content-Type": "application/json"}
    )
    assert_problem(response, 400, "bad_request")


def test_oversized_body_is_rejected_with_413_problem(api):
    response = api.client.post(
        "/v1/games", data="x" * 2_000_000, headers={**api.key, "Content-Type": "application/json"}
    )
    assert_problem(response, 413, "payload_too_large")


def test_validation_errors_name_each_field(api):
    response = api.client.post("/v1/games", json={"ruleset": 5}, headers=api.key)
    body = assert_problem(response, 422, "validation_error")
    assert {e["field"] for e in body["errors"]} == {"ruleset", "seats"}
    # one title for the code, whether the schema or the use case found the fault
    assert body["title"] == "The request is not valid"

    response = api.client.post(
        "/v1/games",
        json={"ruleset": "secret-cards", "seats": [{"name": "a"}, {"bot": "genius"}]},
        headers=api.key,
    )
    assert assert_problem(response, 422, "validation_error")["errors"][0]["field"] == "seats.1.bot"

    response = api.client.post(
        "/v1/games",
        json={"ruleset": "carcassonne", "seats": [{}, {}], "options": {"farmers": "maybe"}},
        headers=api.key,
    )
    field = assert_problem(response, 422, "validation_error")["errors"][0]["field"]
    assert field == "options.farmers"

    response = api.client.post(
        "/v1/games", json={"ruleset": "chess", "seats": [{}, {}]}, headers=api.key
    )
    assert assert_problem(response, 422, "validation_error")["errors"][0]["field"] == "ruleset"


def test_unknown_game_is_404_unknown_game(api):
    for game_id in (str(uuid.uuid4()), "not-a-uuid"):
        assert_problem(api.client.get(f"/v1/games/{game_id}", headers=api.key), 404, "unknown_game")


def test_move_without_expected_version_is_428_and_writes_nothing(api):
    game = api.create()
    body = assert_problem(api.move(game, 0, {"type": "keep"}), 428, "precondition_required")
    assert "If-Match" in body["detail"]
    summary = api.client.get(f"/v1/games/{game['id']}", headers=api.key).get_json()
    assert summary["version"] == game["version"]


def test_illegal_move_says_which_rule_forbids_it(api):
    game = api.create()
    response = api.move(game, 0, {"type": "dance"}, game["version"])
    body = assert_problem(response, 422, "illegal_move")
    assert body["reason"] == "unknown_command" and body["rule"] == "Send reveal or keep."


def test_a_huge_value_is_not_sent_back_whole_in_a_refusal(api):
    game = api.create()
    response = api.move(game, 0, {"type": "dance" * 100_000}, game["version"])
    body = assert_problem(response, 422, "illegal_move")
    assert body["reason"] == "unknown_command"
    assert len(body["detail"]) <= 500 and body["detail"].endswith("…")
    assert len(response.get_data()) < 2_000


def test_illegal_carcassonne_placement_names_the_rule(api):
    game = api.create("carcassonne", [{}, {}])
    command = {"type": "place_tile", "x": 5, "y": 5, "rotation": 0}
    body = assert_problem(api.move(game, 0, command, game["version"]), 422, "illegal_move")
    assert body["reason"] and body["rule"]


def test_moving_out_of_turn_is_409_not_your_turn(api):
    game = api.create()
    assert_problem(api.move(game, 1, {"type": "keep"}, game["version"]), 409, "not_your_turn")


def test_stale_version_is_409_version_conflict(api):
    game = api.create()
    assert api.move(game, 0, {"type": "keep"}, game["version"]).status_code == 200
    body = assert_problem(
        api.move(game, 1, {"type": "keep"}, game["version"]), 409, "version_conflict"
    )
    assert body["current_version"] == game["version"] + 1


def test_state_at_a_future_version_names_the_at_field(api):
    game = api.create()
    response = api.client.get(f"/v1/games/{game['id']}/state?at=999", headers=api.key)
    assert assert_problem(response, 422, "validation_error")["errors"][0]["field"] == "at"


def test_request_id_is_honoured_and_returned(client):
    response = client.get("/healthz", headers={"X-Request-Id": "abc-123"})
    assert response.headers["X-Request-Id"] == "abc-123"
    generated = client.get("/v1/nope").headers["X-Request-Id"]
    assert len(generated) == 32
    assert (
        client.get("/v1/nope", headers={"X-Request-Id": generated}).get_json()["request_id"]
        == generated
    )


def test_malformed_carcassonne_commands_are_4xx_problems_never_5xx(api):
    values = [None, "a", 1.5, -1, 10**20, [], {}, True, "city:N", "BA/RCr", 0, 90]
    commands: list[dict] = []
    for kind in ["place_tile", "place_follower", "skip", "draw_tile", "x", None, 5]:
        commands.append({"type": kind})
        commands += [{"type": kind, key: v} for key in ("x", "spot", "tile") for v in values]
        commands += [{"type": kind, "x": v, "y": v, "rotation": v} for v in values]
    for options in ({}, {"randomness": "external"}):
        game = api.create("carcassonne", [{}, {}], options)
        for command in commands:
            response = api.move(game, 0, command, game["version"])
            assert response.status_code < 500, (command, response.get_json())
            if response.status_code == 200:
                game["version"] = response.get_json()["version"]
            else:
                assert response.mimetype == PROBLEM

"""Hostile input never gets a 500: deep nesting, lone surrogates, game ids in forms
PostgreSQL would also read as UUIDs, wrong content types and non-integer versions each
get their own problem+json answer, and nothing is written."""

from __future__ import annotations

import pytest

from tests.api.test_errors import assert_problem

JSON = {"Content-Type": "application/json"}


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_deeply_nested_json_is_refused_as_too_deep(api, depth):
    game = api.create()
    body = '{"command": {"type": "reveal", "x": ' + nested(depth) + '}, "expected_version": 1}'
    headers = {**JSON, "X-Seat-Token": game["tokens"][0]}
    response = api.client.post(f"/v1/games/{game['id']}/moves", data=body, headers=headers)
    assert_problem(response, 400, "json_too_deep")
    options = '{"ruleset": "secret-cards", "seats": [{}, {}], "options": ' + nested(depth) + "}"
    response = api.client.post("/v1/games", data=options, headers={**JSON, **api.key})
    assert_problem(response, 400, "json_too_deep")
    events = api.client.get(f"/v1/games/{game['id']}/events", headers=api.key).get_json()
    assert len(events["events"]) == game["version"]


def test_nesting_within_the_limit_is_still_read(api):
    game = api.create()
    body = '{"command": {"type": "reveal", "x": ' + nested(30) + '}, "expected_version": 1}'
    headers = {**JSON, "X-Seat-Token": game["tokens"][0]}
    response = api.client.post(f"/v1/games/{game['id']}/moves", data=body, headers=headers)
    assert response.status_code != 400, response.get_json()


@pytest.mark.parametrize(
    "command",
    [
        '{"type": "\\ud800"}',
        '{"type": "reveal", "note": "\\udfff"}',
        '{"type": "reveal", "\\ud800": 1}',
        '{"type": "reveal", "note": "\\uDBFF"}',
        '{"type": "reveal", "note": "\\\\\\udc00"}',
    ],
)
def test_a_lone_surrogate_is_refused_as_invalid_text(api, command):
    game = api.create()
    body = '{"command": ' + command + ', "expected_version": 1}'
    headers = {**JSON, "X-Seat-Token": game["tokens"][0]}
    response = api.client.post(f"/v1/games/{game['id']}/moves", data=body, headers=headers)
    assert_problem(response, 400, "invalid_text")


def test_invalid_utf8_is_a_bad_request(api):
    game = api.create()
    headers = {**JSON, "X-Seat-Token": game["tokens"][0]}
    body = b'{"command": {"type": "\xff\xfe"}, "expected_version": 1}'
    response = api.client.post(f"/v1/games/{game['id']}/moves", data=body, headers=headers)
    assert response.status_code == 400 and response.mimetype == "application/problem+json"


@pytest.mark.parametrize(
    "spelling",
    [
        "urn:uuid:{id}",
        "uuid:{id}",
        "{{{id}}}",
        "{hyphenless}",
        "{moved}",
        "{upper}",
    ],
)
@pytest.mark.parametrize("path", ["", "/events", "/state", "/legal-moves", "/verify"])
def test_only_the_canonical_uuid_names_a_game(api, spelling, path):
    game = api.create()
    gid = game["id"]
    hyphenless = gid.replace("-", "")
    moved = gid[0] + "-" + gid[1:].replace("-", "", 1)
    name = spelling.format(id=gid, hyphenless=hyphenless, moved=moved, upper=gid.upper())
    for headers in (api.key, {"X-Seat-Token": game["tokens"][0]}, {}):
        response = api.client.get(f"/v1/games/{name}{path}", headers=headers)
        assert response.status_code in (401, 404), (name, response.get_data(as_text=True))
        assert response.mimetype == "application/problem+json"
    assert_problem(api.client.get(f"/v1/games/{name}{path}", headers=api.key), 404, "unknown_game")


def test_a_move_to_a_non_canonical_game_id_is_404(api):
    game = api.create()
    response = api.move({**game, "id": "urn:uuid:" + game["id"]}, 0, {"type": "reveal"}, 1)
    assert_problem(response, 404, "unknown_game")


def test_a_body_that_is_not_json_is_415(api):
    game = api.create()
    headers = {"Content-Type": "text/plain", "X-Seat-Token": game["tokens"][0]}
    body = '{"command": {"type": "reveal"}, "expected_version": 1}'
    response = api.client.post(f"/v1/games/{game['id']}/moves", data=body, headers=headers)
    assert_problem(response, 415, "unsupported_media_type")


@pytest.mark.parametrize("version", [1.5, 1.0, "1", True])
def test_expected_version_must_be_an_integer(api, version):
    game = api.create()
    headers = {"X-Seat-Token": game["tokens"][0]}
    body = {"command": {"type": "reveal"}, "expected_version": version}
    response = api.client.post(f"/v1/games/{game['id']}/moves", json=body, headers=headers)
    problem = assert_problem(response, 422, "validation_error")
    assert problem["errors"][0]["field"] == "expected_version"


@pytest.mark.parametrize(
    "value",
    ["9" * 31, "-" + "9" * 5000, "1e999", "-1e400", "NaN", "Infinity", "-Infinity"],
)
def test_a_number_out_of_range_is_refused_before_it_is_read(api, value):
    game = api.create()
    headers = {**JSON, "X-Seat-Token": game["tokens"][0]}
    body = '{"command": {"type": "reveal", "x": ' + value + '}, "expected_version": 1}'
    response = api.client.post(f"/v1/games/{game['id']}/moves", data=body, headers=headers)
    assert_problem(response, 400, "number_out_of_range")
    events = api.client.get(f"/v1/games/{game['id']}/events", headers=api.key).get_json()
    assert len(events["events"]) == game["version"]


def test_thirty_digits_are_still_a_number(api):
    game = api.create()
    headers = {**JSON, "X-Seat-Token": game["tokens"][0]}
    body = '{"command": {"type": "reveal", "x": ' + "9" * 30 + '}, "expected_version": 1}'
    response = api.client.post(f"/v1/games/{game['id']}/moves", data=body, headers=headers)
    assert response.status_code != 400, response.get_json()


@pytest.mark.parametrize(
    "body",
    [
        '{"command": {"type": "reveal"}, "command": {"type": "keep"}, "expected_version": 1}',
        '{"command": {"type": "reveal", "type": "keep"}, "expected_version": 1}',
    ],
)
def test_a_key_twice_in_one_object_is_refused(api, body):
    game = api.create()
    headers = {**JSON, "X-Seat-Token": game["tokens"][0]}
    response = api.client.post(f"/v1/games/{game['id']}/moves", data=body, headers=headers)
    assert "twice" in assert_problem(response, 400, "duplicate_key")["detail"]


@pytest.mark.parametrize("last_id", ["\xb2", "9" * 20, str(2**62 + 1), "-1", "1.5"])
def test_a_last_event_id_the_stream_never_sent_is_refused(api, last_id):
    game = api.create()
    headers = {**api.key, "Accept": "text/event-stream", "Last-Event-ID": last_id}
    response = api.client.get(f"/v1/games/{game['id']}/events", headers=headers)
    problem = assert_problem(response, 422, "validation_error")
    assert problem["errors"][0]["field"] == "Last-Event-ID"


def test_a_stream_resumed_past_the_games_last_event_is_refused(api):
    """No stream sent an id past the game's version: resuming there would skip every
    event up to it (and a finished game's stream would end on a version it never had)."""
    game = api.create("carcassonne")
    assert api.client.post(f"/v1/games/{game['id']}/abandon", headers=api.key).status_code == 200
    version = api.client.get(f"/v1/games/{game['id']}", headers=api.key).get_json()["version"]
    stream = {**api.key, "Accept": "text/event-stream"}
    events = f"/v1/games/{game['id']}/events"
    for field, headers, query in [
        ("Last-Event-ID", {**stream, "Last-Event-ID": str(version + 1)}, ""),
        ("after", stream, f"?after={version + 1}"),
    ]:
        problem = assert_problem(
            api.client.get(events + query, headers=headers), 422, "validation_error"
        )
        assert problem["errors"] == [
            {
                "field": field,
                "message": f"the game's last event is {version}:"
                f" no event after {version + 1} was sent",
            }  # fmt: skip
        ]
    resumed = api.client.get(events, headers={**stream, "Last-Event-ID": str(version)})
    assert resumed.status_code == 200
    assert resumed.get_data(as_text=True).endswith(
        f'id: {version}\nevent: end\ndata: {{"version": {version}}}\n\n'
    )


def test_a_picture_if_match_of_another_picture_is_a_412_problem(api):
    game = api.create("carcassonne")
    headers = {**api.key, "If-Match": '"not-this-one"'}
    response = api.client.get(f"/v1/games/{game['id']}/board.svg", headers=headers)
    assert_problem(response, 412, "precondition_failed")
    tile = api.client.get("/v1/rulesets/carcassonne/tiles/BA/RCr.svg", headers=headers)
    assert_problem(tile, 412, "precondition_failed")
    paths = api.client.get("/openapi.json").get_json()["paths"]  # and a client knows it
    for path in ("/v1/games/{game_id}/board.svg", "/v1/rulesets/{name}/tiles/{tile}.svg"):
        assert "412" in paths[path]["get"]["responses"], path


@pytest.mark.parametrize(
    "if_match",
    # '"01"' is not the ETag '"1"': an ETag compares character for character
    ["2", '"2', '2"', '"\u0662"', '"2", "3"', "*", '"01"', '"0001"'],
)
def test_an_if_match_that_is_not_the_quoted_version_is_refused(api, if_match):
    game = api.create()
    headers = {"X-Seat-Token": game["tokens"][0], "If-Match": if_match}
    body = {"command": {"type": "reveal"}}
    response = api.client.post(f"/v1/games/{game['id']}/moves", json=body, headers=headers)
    problem = assert_problem(response, 422, "validation_error")
    assert problem["errors"][0]["field"] == "If-Match"
    summary = api.client.get(f"/v1/games/{game['id']}", headers=api.key).get_json()
    assert summary["version"] == game["version"]


def test_a_weak_if_match_never_matches_the_version(api):
    """RFC 9110, 13.1.1: If-Match compares strongly, so W/"1" does not match "1"."""
    game = api.create()
    headers = {"X-Seat-Token": game["tokens"][0], "If-Match": f'W/"{game["version"]}"'}
    body = {"command": {"type": "reveal"}}
    response = api.client.post(f"/v1/games/{game['id']}/moves", json=body, headers=headers)
    problem = assert_problem(response, 422, "validation_error")
    assert "weak" in problem["errors"][0]["message"]
    summary = api.client.get(f"/v1/games/{game['id']}", headers=api.key).get_json()
    assert summary["version"] == game["version"]


@pytest.mark.parametrize(
    ("path", "query"),
    [
        ("/state", "at=\u0661"),
        ("/state", "at=1_0"),
        ("/state", "at=%201"),
        ("/events", "after=\u0660"),
        ("/events", "limit=\uff15"),
        ("/board.svg", "at=\u0661"),
    ],
)
def test_a_query_number_is_read_only_in_ascii_digits(api, path, query):
    game = api.create("carcassonne")
    response = api.client.get(f"/v1/games/{game['id']}{path}?{query}", headers=api.key)
    problem = assert_problem(response, 422, "validation_error")
    assert problem["errors"][0]["field"] == "query." + query.partition("=")[0]


@pytest.mark.parametrize("path", ["/state?at=1", "/events?after=0&limit=5", "/board.svg?at=1"])
def test_a_query_number_in_ascii_digits_is_read(api, path):
    game = api.create("carcassonne")
    response = api.client.get(f"/v1/games/{game['id']}{path}", headers=api.key)
    assert response.status_code == 200, response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("path", "query", "name"),
    [
        ("/state", "?at=1&at=2", "at"),
        ("/events", "?after=0&limit=5&after=3", "after"),
        ("", "?x=1&x=1", "x"),  # a parameter no operation reads: still once
    ],
)
def test_a_query_parameter_given_twice_is_refused_not_read_as_its_first(api, path, query, name):
    """Readers differ on which of two values counts (the first here, the last for
    others), as for a JSON key twice: such a request is refused."""
    game = api.create()
    response = api.client.get(f"/v1/games/{game['id']}{path}{query}", headers=api.key)
    problem = assert_problem(response, 422, "validation_error")
    assert problem["errors"] == [{"field": name, "message": "given 2 times: give it once"}]


@pytest.mark.parametrize("path", ["moves", "moves?through=flask"])
@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"junk": "x" * 100_000}, "command.junk"),
        ({"spot": "city:N", "figure": "x"}, "command.figure"),
    ],
)
def test_a_field_the_command_does_not_take_is_refused_not_stored(api, path, extra, field):
    """The log keeps every command as sent, for ever (exports carry it too): a field
    its type does not take is refused, on the fast path and through Flask alike."""
    game = api.create("carcassonne")
    token = game["tokens"][0]
    moves = api.client.get(f"/v1/games/{game['id']}/legal-moves", headers={"X-Seat-Token": token})
    (decision,) = moves.get_json()["commands"]["decisions"]
    menu = decision["commands"]["place_tile"]
    first = menu["placements"][0]
    place = {"type": "place_tile", "x": first["x"], "y": first["y"], "rotation": first["rotation"]}
    headers = {"X-Seat-Token": token, "If-Match": f'"{game["version"]}"'}
    moves_path = f"/v1/games/{game['id']}/{path}"
    body = {"command": {**place, **extra}}
    problem = assert_problem(
        api.client.post(moves_path, json=body, headers=headers), 422, "validation_error"
    )
    assert problem["errors"][0]["field"] == field
    assert "place_tile takes rotation, x, y" in problem["errors"][0]["message"]
    summary = api.client.get(f"/v1/games/{game['id']}", headers=api.key).get_json()
    assert summary["version"] == game["version"]  # nothing written
    taken = api.client.post(moves_path, json={"command": place}, headers=headers)
    assert taken.status_code == 200  # the same command without it is taken


@pytest.mark.parametrize("path", ["moves", "moves?through=flask"])
@pytest.mark.parametrize(
    ("command", "field", "words"),
    [
        ({"type": "place_tile", "x": 0}, "command.y", "place_tile needs y and rotation"),
        ({"type": "place_tile", "y": 0, "rotation": 0}, "command.x", "place_tile needs x"),
    ],
)
def test_a_field_the_command_needs_is_named_when_it_is_left_out(api, path, command, field, words):
    """A client that leaves out a field is told which, not that the rules could not
    read the value it never sent."""
    game = api.create("carcassonne")
    headers = {"X-Seat-Token": game["tokens"][0], "If-Match": f'"{game["version"]}"'}
    response = api.client.post(
        f"/v1/games/{game['id']}/{path}", json={"command": command}, headers=headers
    )
    problem = assert_problem(response, 422, "validation_error")
    assert problem["errors"] == [{"field": field, "message": words}]


@pytest.mark.parametrize(
    ("data", "status", "code", "words"),
    [
        ("[1, 2]", 422, "validation_error", "body: must be a JSON object, not an array"),
        ('"move"', 422, "validation_error", "body: must be a JSON object, not a string"),
        ('{"command": {"type": "reveal"},}', 400, "bad_request", "line 1 column 32"),
        (
            '{"command": {"x": 1}}',
            422,
            "validation_error",
            "command.type: a command names its type: one that legal-moves lists for the"
            " decision it answers",
        ),
    ],
)
def test_a_body_that_is_not_a_move_is_told_what_is_wrong_with_it(api, data, status, code, words):
    game = api.create()
    headers = {**JSON, "X-Seat-Token": game["tokens"][0], "If-Match": f'"{game["version"]}"'}
    response = api.client.post(f"/v1/games/{game['id']}/moves", data=data, headers=headers)
    assert words in assert_problem(response, status, code)["detail"]

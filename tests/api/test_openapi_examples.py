"""The OpenAPI examples (service/api/examples.py) have the shape of what the service
really answers: each example is compared with a real response of the same endpoint,
produced here through the test client.

Shapes, not values: an object must have the same keys as the real one and each value
the same JSON type (int, str, list, object, null...); each element of an example list
must have the shape of some element of the real list. A few objects are data maps that
the examples shorten on purpose (a tile stack, the options of a ruleset): there the
example's keys need only be among the real ones (``SHORTENED``).

Games are made deterministic by fixing the seed the service draws for each new game:
seat 0 of the examples' game draws the same cloister (BA/L) every time.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

import psycopg
import pytest

import service.app.games
from service.api import examples as ex
from tests.api.test_errors import assert_problem

#: The seed of every game created here: seat 0 draws BA/L first, as in the examples.
SEED = bytes([3]) * 32

#: Paths (list elements written ``[]``) of data maps the examples shorten, with why.
SHORTENED = {
    "$.state.stack": "the tile stack (tile id -> count left) is cut to a few tiles",
    "$.events[].data.stack": "game_started's tile stack, cut the same way",
    "$.rulesets[].description.options": "2 of the ruleset's options are shown",
    "$.rulesets[].description.rules": "a few of the rules in words are shown",
}


def kind(value: Any) -> str:
    if value is None:
        return "null"
    return {dict: "object", list: "list", str: "str", bool: "bool", int: "int"}.get(
        type(value), type(value).__name__
    )


def shape_errors(example: Any, real: Any, path: str = "$") -> list[str]:
    """Where ``example`` does not have the shape of ``real`` (empty when it does)."""
    if kind(example) != kind(real):
        return [f"{path}: {kind(example)} in the example, {kind(real)} in the service"]
    if isinstance(example, dict):
        missing, extra = set(real) - set(example), set(example) - set(real)
        if path in SHORTENED:
            missing = set()
        errors = [f"{path}: missing key {key!r}" for key in sorted(missing)]
        errors += [f"{path}: key {key!r} is not in the service's answer" for key in sorted(extra)]
        for key in sorted(set(example) & set(real)):
            errors += shape_errors(example[key], real[key], f"{path}.{key}")
        return errors
    if isinstance(example, list):
        errors = []
        for i, item in enumerate(example):
            tries = [shape_errors(item, other, f"{path}[]") for other in real]
            if not tries:
                errors.append(f"{path}[{i}]: the service's list is empty")
            elif all(tries):
                errors += [f"(element {i}) {e}" for e in min(tries, key=len)]
        return errors
    return []


def test_shape_errors_names_what_drifted():
    real = {"hidden": 3, "awaiting": [{"id": "d2", "seat": 0}], "state": {"stack": {"a": 1}}}
    assert shape_errors({"hidden": 3, "awaiting": [], "state": {"stack": {}}}, real) == []
    assert shape_errors({"hidden": [], "awaiting": [{"seat": 0}], "state": {}}, real) == [
        "(element 0) $.awaiting[]: missing key 'id'",
        "$.hidden: list in the example, int in the service",
        "$.state: missing key 'stack'",
    ]


# -- real responses ------------------------------------------------------------------


@pytest.fixture
def api(api, database_url):
    """The API helper, knowing its database (to age a game, see recorded_before)."""
    api.database_url = database_url
    return api


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch):
    monkeypatch.setattr(
        service.app.games, "secrets", types.SimpleNamespace(token_bytes=lambda n: SEED)
    )


def post_game(api, request: dict):
    return api.client.post("/v1/games", json=request, headers=api.key)


def create(api, request: dict) -> dict:
    """A new game, with ``tokens``: seat -> its token."""
    response = post_game(api, request)
    assert response.status_code == 201, response.get_json()
    game = response.get_json()
    game["tokens"] = {t["seat"]: t["token"] for t in game["seat_tokens"]}
    return game


def get(api, game: dict, path: str = "", seat: int | None = None) -> Any:
    """GET /v1/games/{id}{path}, as ``seat`` (its token) or with the API key."""
    headers = api.key if seat is None else {"X-Seat-Token": game["tokens"][seat]}
    response = api.client.get(f"/v1/games/{game['id']}{path}", headers=headers)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def move(api, game: dict, body: dict, seat: int = 0, if_match: str | None = "", **headers):
    """POST a move body for ``seat`` with ``headers`` (``Idempotency_Key=...``). If-Match
    is the game's version unless given, ``None`` or the body names a precondition
    itself. Keeps ``game["version"]`` current."""
    if if_match == "" and "expected_version" not in body and "decision" not in body:
        if_match = f'"{game["version"]}"'
    if if_match:
        headers["If_Match"] = if_match
    headers = {k.replace("_", "-"): v for k, v in headers.items()}
    response = api.client.post(
        f"/v1/games/{game['id']}/moves",
        json=body,
        headers={"X-Seat-Token": game["tokens"][seat], **headers},
    )
    if response.status_code == 200:
        game["version"] = response.get_json()["version"]
    return response


def moved(api, game: dict, body: dict, seat: int = 0) -> dict:
    response = move(api, game, body, seat)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def command(name: str) -> dict:
    return ex.MOVE_REQUESTS[name]["value"]


def vs_bot(api) -> dict:
    """The examples' game: Ada against the greedy bot, awaiting Ada's BA/L."""
    return create(api, ex.CREATE_GAME_REQUESTS["carcassonne_vs_bot"]["value"])


def tile_placed(api) -> dict:
    game = vs_bot(api)
    game["answer"] = moved(api, game, command("place_tile"))
    return game


def follower_placed(api) -> dict:
    game = tile_placed(api)
    game["answer"] = moved(api, game, command("place_follower"))
    return game


def external(api) -> dict:
    return create(api, ex.CREATE_GAME_REQUESTS["external_randomness"]["value"])


def city_scored(api) -> dict:
    """The external-randomness game of the validate example, played over HTTP up to
    the follower that completes a city."""
    game = external(api)
    for step in ex.RECORD[:3]:
        game["answer"] = moved(api, game, {"command": step["command"]}, step["seat"])
    return game


def validate(api, name: str) -> dict:
    body = ex.VALIDATE_REQUESTS[name]["value"]
    response = api.client.post("/v1/validate", json=body, headers=api.key)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def idempotency_key_reused(api):
    game = tile_placed(api)
    moved_once = move(api, game, command("skip"), Idempotency_Key="k1")
    assert moved_once.status_code == 200, moved_once.get_json()
    return move(api, game, command("place_follower"), Idempotency_Key="k1")


def finished_page(api) -> dict:
    """The first page of one finished game, with more after it."""
    for _ in range(2):
        bot_game(api)
    response = api.client.get("/v1/games?status=finished&limit=1", headers=api.key)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def recorded_before(api) -> dict:
    """A finished game as if created before commands were recorded (migrations/0005)."""
    game = bot_game(api)
    with psycopg.connect(api.database_url) as conn:
        conn.execute("UPDATE games SET commands_recorded = false WHERE id = %s", (game["id"],))
    return game


def owner(api, method: str, game: dict, path: str, **kwargs):
    """A command of the game's owner: ``method`` on /v1/games/{id}{path}, with the key."""
    call = getattr(api.client, method)
    return call(f"/v1/games/{game['id']}{path}", headers=api.key, **kwargs)


def people(api) -> dict:
    return create(api, {"ruleset": "carcassonne", "seats": [{"name": "Ada"}, {"name": "Kai"}]})


def handed(api) -> dict:
    """Two people's game, seat 0 (awaited) handed to the greedy bot, which plays."""
    game = people(api)
    bot = ex.HAND_TO_BOT_REQUESTS["greedy"]["value"]
    response = owner(api, "put", game, "/seats/0/bot", json=bot)
    assert response.status_code == 200, response.get_json()
    game["answer"] = response.get_json()
    return game


def answer(response) -> dict:
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def bot_game(api) -> dict:
    return create(api, {"ruleset": "carcassonne", "seats": [{"bot": "greedy"}, {"bot": "random"}]})


def own_key(api):
    """Give the API helper a key of its own, so its endpoints (20 at most) and their
    deliveries are not the whole session's."""
    from tests.conftest import new_api_key

    api.key = {"X-API-Key": new_api_key(api.database_url)[1]}
    return api


def create_webhook(api, request: dict | None = None):
    request = request or ex.CREATE_WEBHOOK_REQUESTS["ends_and_turns"]["value"]
    return api.client.post("/v1/webhooks", json=request, headers=api.key)


def webhook(api) -> dict:
    response = create_webhook(api)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def delivery_page(api) -> dict:
    """The newest two deliveries after a worker's round: Ada's turn delivered, and before
    it the end of a bot game, answered 503 and waiting for its retry."""
    from tests.webhook_receiver import Receiver

    own_key(api)
    receiver = Receiver()
    receiver.answer = lambda got: 503 if got.json["type"] == "game_ended" else 204
    hook = create_webhook(
        api, {"url": receiver.url, "event_types": ["game_ended", "turn_started"]}
    ).get_json()
    with psycopg.connect(api.database_url) as conn:
        conn.execute("DELETE FROM webhook_outbox WHERE endpoint_id <> %s", (hook["id"],))
    bot_game(api)
    vs_bot(api)
    runtime = api.client.application.extensions["tilegames"]
    while runtime.deliveries.run_once():
        pass
    receiver.close()
    page = api.client.get(
        f"/v1/webhooks/{hook['id']}/deliveries?limit=2", headers=api.key
    ).get_json()
    turn, end = page["deliveries"]
    assert (turn["type"], turn["status"]) == ("turn_started", "delivered")
    assert (end["type"], end["status"], end["last_status"]) == ("game_ended", "pending", 503)
    return page


NOBODY = "/v1/games/00000000-0000-0000-0000-000000000000"

#: (example, the real response it stands for)
RESPONSES: dict[str, tuple[Any, Callable[[Any], Any]]] = {
    "created_game": (
        ex.CREATED_GAME,
        lambda api: post_game(
            api, ex.CREATE_GAME_REQUESTS["carcassonne_vs_bot"]["value"]
        ).get_json(),
    ),
    "game_summary": (ex.GAME_SUMMARY, lambda api: get(api, vs_bot(api))),
    "finished_game": (ex.FINISHED_GAME, lambda api: get(api, bot_game(api))),
    "game_export": (ex.GAME_EXPORT, lambda api: get(api, bot_game(api), "/export")),
    "game_page": (ex.GAME_PAGE, finished_page),
    "created_webhook": (ex.CREATED_WEBHOOK, lambda api: webhook(own_key(api))),
    "webhook": (
        ex.WEBHOOK,
        lambda api: (
            api.client.get(f"/v1/webhooks/{webhook(own_key(api))['id']}", headers=api.key).json
        ),
    ),
    "webhook_list": (
        ex.WEBHOOK_LIST,
        lambda api: webhook(own_key(api)) and api.client.get("/v1/webhooks", headers=api.key).json,
    ),
    "delivery_page": (ex.DELIVERY_PAGE, delivery_page),
    "problem_unknown_webhook": (
        ex.PROBLEM_UNKNOWN_WEBHOOK,
        lambda api: assert_problem(
            api.client.get("/v1/webhooks/00000000-0000-0000-0000-000000000000", headers=api.key),
            404,
            "unknown_webhook",
        ),
    ),
    "problem_webhook_url": (
        ex.PROBLEM_WEBHOOK_URL,
        lambda api: assert_problem(
            create_webhook(api, {"url": "http://portal.example/", "event_types": ["game_ended"]}),
            422,
            "validation_error",
        ),
    ),
    "problem_too_many_webhooks": (ex.PROBLEM_TOO_MANY_WEBHOOKS, lambda api: too_many(api)),
    "legal_place_tile": (ex.LEGAL_PLACE_TILE, lambda api: get(api, vs_bot(api), "/legal-moves", 0)),
    "legal_place_follower": (
        ex.LEGAL_PLACE_FOLLOWER,
        lambda api: get(api, tile_placed(api), "/legal-moves", 0),
    ),
    "move_place_tile": (ex.MOVE_PLACE_TILE, lambda api: tile_placed(api)["answer"]),
    "move_follower_and_bot_turn": (
        ex.MOVE_FOLLOWER_AND_BOT_TURN,
        lambda api: follower_placed(api)["answer"],
    ),
    "move_scoring": (ex.MOVE_SCORING, lambda api: city_scored(api)["answer"]),
    "state": (ex.STATE, lambda api: get(api, tile_placed(api), "/state", 0)),
    "event_page": (
        ex.EVENT_PAGE,
        lambda api: get(api, follower_placed(api), "/events?after=0&limit=3"),
    ),
    "verify": (ex.VERIFY, lambda api: get(api, follower_placed(api), "/verify")),
    "validate_ok": (ex.VALIDATE_OK, lambda api: validate(api, "external_randomness")),
    "validate_illegal": (ex.VALIDATE_ILLEGAL, lambda api: validate(api, "illegal_step")),
    "rulesets": (ex.RULESETS, lambda api: api.client.get("/v1/rulesets").get_json()),
    "problem_illegal_move": (
        ex.PROBLEM_ILLEGAL_MOVE,
        lambda api: assert_problem(
            move(
                api, vs_bot(api), {"command": {"type": "place_tile", "x": 0, "y": 0, "rotation": 0}}
            ),
            422,
            "illegal_move",
        ),
    ),
    "problem_not_your_turn": (
        ex.PROBLEM_NOT_YOUR_TURN,
        lambda api: assert_problem(
            move(api, external(api), command("draw_tile"), 1), 409, "not_your_turn"
        ),
    ),
    "problem_version_conflict": (
        ex.PROBLEM_VERSION_CONFLICT,
        lambda api: assert_problem(
            move(api, tile_placed(api), command("skip"), if_match='"2"'), 409, "version_conflict"
        ),
    ),
    "problem_decision_closed": (
        ex.PROBLEM_DECISION_CLOSED,
        lambda api: assert_problem(
            move(api, follower_placed(api), {**command("skip"), "decision": "d3"}),
            409,
            "decision_closed",
        ),
    ),
    "problem_validation_error": (
        ex.PROBLEM_VALIDATION_ERROR,
        lambda api: assert_problem(
            post_game(api, {"ruleset": "carcassonne", "seats": [{"name": "Ada"}, {"bot": ""}]}),
            422,
            "validation_error",
        ),
    ),
    "problem_invalid_options": (
        ex.PROBLEM_INVALID_OPTIONS,
        lambda api: assert_problem(
            post_game(
                api,
                {"ruleset": "carcassonne", "options": {"expansions": ["nope"]}, "seats": [{}, {}]},
            ),
            422,
            "validation_error",
        ),
    ),
    "problem_bad_if_match": (
        ex.PROBLEM_BAD_IF_MATCH,
        lambda api: assert_problem(
            move(api, vs_bot(api), command("place_tile"), if_match="yesterday"),
            422,
            "validation_error",
        ),
    ),
    "problem_precondition_required": (
        ex.PROBLEM_PRECONDITION_REQUIRED,
        lambda api: assert_problem(
            move(api, vs_bot(api), command("place_tile"), if_match=None),
            428,
            "precondition_required",
        ),
    ),
    "problem_precondition_failed": (
        ex.PROBLEM_PRECONDITION_FAILED,
        lambda api: assert_problem(
            api.client.get(
                f"/v1/games/{vs_bot(api)['id']}/board.svg",
                headers={**api.key, "If-Match": '"not-this-picture"'},
            ),
            412,
            "precondition_failed",
        ),
    ),
    "problem_idempotency_key_reused": (
        ex.PROBLEM_IDEMPOTENCY_KEY_REUSED,
        lambda api: assert_problem(idempotency_key_reused(api), 422, "idempotency_key_reused"),
    ),
    "problem_unauthorized": (
        ex.PROBLEM_UNAUTHORIZED,
        lambda api: assert_problem(
            api.client.post(
                "/v1/games", json=ex.CREATE_GAME_REQUESTS["carcassonne_vs_bot"]["value"]
            ),
            401,
            "unauthorized",
        ),
    ),
    "problem_forbidden": (
        ex.PROBLEM_FORBIDDEN,
        lambda api: assert_problem(
            api.client.get(f"/v1/games/{vs_bot(api)['id']}/legal-moves", headers=api.key),
            403,
            "forbidden",
        ),
    ),
    "problem_forbidden_move": (
        ex.PROBLEM_FORBIDDEN_MOVE,
        lambda api: assert_problem(
            api.client.post(
                f"/v1/games/{vs_bot(api)['id']}/moves",
                json=command("place_tile"),
                headers={**api.key, "If-Match": '"2"'},
            ),
            403,
            "forbidden",
        ),
    ),
    "problem_forbidden_listing": (
        ex.PROBLEM_FORBIDDEN_LISTING,
        lambda api: assert_problem(
            api.client.get("/v1/games", headers={"X-Seat-Token": vs_bot(api)["tokens"][0]}),
            403,
            "forbidden",
        ),
    ),
    "problem_invalid_cursor": (
        ex.PROBLEM_INVALID_CURSOR,
        lambda api: assert_problem(
            api.client.get("/v1/games?cursor=eA", headers=api.key), 400, "invalid_cursor"
        ),
    ),
    "problem_game_not_finished": (
        ex.PROBLEM_GAME_NOT_FINISHED,
        lambda api: assert_problem(
            api.client.get(f"/v1/games/{vs_bot(api)['id']}/export", headers=api.key),
            409,
            "game_not_finished",
        ),
    ),
    "problem_record_unavailable": (
        ex.PROBLEM_RECORD_UNAVAILABLE,
        lambda api: assert_problem(
            api.client.get(f"/v1/games/{recorded_before(api)['id']}/export", headers=api.key),
            409,
            "record_unavailable",
        ),
    ),
    "abandoned": (ex.ABANDONED, lambda api: answer(owner(api, "post", people(api), "/abandon"))),
    "handed": (ex.HANDED, lambda api: handed(api)["answer"]),
    "handed_back": (
        ex.HANDED_BACK,
        lambda api: answer(owner(api, "delete", handed(api), "/seats/0/bot")),
    ),
    "problem_game_over": (
        ex.PROBLEM_GAME_OVER,
        lambda api: assert_problem(owner(api, "post", bot_game(api), "/abandon"), 409, "game_over"),
    ),
    "problem_seat_conflict": (
        ex.PROBLEM_SEAT_CONFLICT,
        lambda api: assert_problem(
            owner(api, "put", handed(api), "/seats/0/bot", json={"bot": "greedy"}),
            409,
            "seat_conflict",
        ),
    ),
    "problem_unknown_game": (
        ex.PROBLEM_UNKNOWN_GAME,
        lambda api: assert_problem(api.client.get(NOBODY, headers=api.key), 404, "unknown_game"),
    ),
}


def too_many(api):
    own_key(api)
    for _ in range(20):
        webhook(api)
    return assert_problem(create_webhook(api), 409, "too_many_webhooks")


def test_every_problem_example_is_checked():
    from service.api.apidoc import PROBLEMS

    checked = {id(example) for example, _ in RESPONSES.values()}
    assert [code for code, (_, value) in PROBLEMS.items() if id(value) not in checked] == []


@pytest.mark.parametrize("name", RESPONSES)
def test_example_has_the_shape_of_a_real_response(api, name):
    example, produce = RESPONSES[name]
    assert shape_errors(example, produce(api)) == []


# -- request examples ----------------------------------------------------------------

#: move request example -> a game where it is legal
MOVE_GAMES: dict[str, Callable[[Any], dict]] = {
    "place_tile": vs_bot,
    "place_follower": tile_placed,
    "skip": tile_placed,
    "draw_tile": external,
    "expected_version_in_body": tile_placed,
    "decision_in_body": tile_placed,
    "resign": vs_bot,
}


def test_every_move_request_example_has_a_game():
    assert set(MOVE_GAMES) == set(ex.MOVE_REQUESTS)


@pytest.mark.parametrize("name", ex.MOVE_REQUESTS)
def test_move_request_example_is_accepted(api, name):
    moved(api, MOVE_GAMES[name](api), command(name))


@pytest.mark.parametrize("name", ex.CREATE_WEBHOOK_REQUESTS)
def test_create_webhook_request_example_is_accepted(api, name):
    response = create_webhook(own_key(api), ex.CREATE_WEBHOOK_REQUESTS[name]["value"])
    assert response.status_code == 201, response.get_json()


@pytest.mark.parametrize("name", ex.CREATE_GAME_REQUESTS)
def test_create_request_example_is_accepted(api, name):
    create(api, ex.CREATE_GAME_REQUESTS[name]["value"])


def test_validate_request_examples_answer_as_their_names_say(api):
    assert validate(api, "external_randomness")["valid"] is True
    assert validate(api, "illegal_step")["valid"] is False

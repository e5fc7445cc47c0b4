"""The table over HTTP against PostgreSQL: a seat resigns (POST .../moves with
``{"type": "resign"}``), the owning API key abandons a game or hands a seat to a bot
and back. Each is an event in the log; exports of such games replay."""

from __future__ import annotations

import time

import pytest

from tests.api.test_errors import assert_problem
from tests.api.test_export import assert_replays_to_the_game, get
from tests.conftest import new_api_key

RESIGN = {"type": "resign"}


def people(api, n: int = 3, ruleset: str = "carcassonne", **options) -> dict:
    seats = [{"name": name} for name in ("Ada", "Brendan", "Kai", "Li")[:n]]
    return api.create(ruleset=ruleset, seats=seats, options=options or None)


def resign(api, game: dict, seat: int, **headers):
    return api.client.post(
        f"/v1/games/{game['id']}/moves",
        json={"command": RESIGN},
        headers={"X-Seat-Token": game["tokens"][seat], **headers},
    )


def owner(api, method: str, game: dict, path: str, json=None, key=None, **headers):
    call = getattr(api.client, method)
    headers = {**(key or api.key), **headers}
    kwargs = {"json": json} if json is not None else {}
    return call(f"/v1/games/{game['id']}{path}", headers=headers, **kwargs)


def play_awaited(api, game: dict) -> dict:
    """The awaited person plays: the first placement of its tile, no follower; the
    move's answer."""
    summary = get(api, game)
    seat = summary["awaiting"][0]["seat"]
    moves = api.client.get(
        f"/v1/games/{game['id']}/legal-moves", headers={"X-Seat-Token": game["tokens"][seat]}
    ).get_json()
    decision = moves["commands"]["decisions"][0]
    commands = decision["commands"]
    kind = "skip" if "skip" in commands else next(iter(commands))
    options = commands[kind]
    command = {"type": kind}
    if kind == "place_tile":
        place = options["placements"][0]
        command.update(x=place["x"], y=place["y"], rotation=place["rotation"])
    response = api.move(game, seat, command, version=summary["version"])
    assert response.status_code == 200, response.get_json()
    return response.get_json()


# -- resign -------------------------------------------------------------------------------


def test_a_seat_resigns_without_a_precondition_and_the_game_goes_on_without_it(api):
    game = people(api)
    response = resign(api, game, 0)
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert [e["type"] for e in body["events"]][:3] == [
        "seat_resigned",
        "tile_set_aside",
        "turn_ended",
    ]
    assert body["awaiting"][0]["seat"] == 1
    summary = get(api, game)
    assert [s["resigned"] for s in summary["seats"]] == [True, False, False]
    assert summary["status"] == "active"


def test_a_resigned_seat_is_never_awaited_and_may_not_move(api):
    game = people(api)
    resign(api, game, 1)
    for _ in range(6):
        body = play_awaited(api, game)
        assert all(d["seat"] != 1 for d in body["awaiting"])
    response = resign(api, game, 1)
    assert_problem(response, 422, "illegal_move")
    assert response.get_json()["reason"] == "resigned"


def test_with_one_seat_left_the_game_ends_and_that_seat_wins(api):
    game = people(api, 2)
    body = resign(api, game, 0).get_json()
    assert body["status"] == "finished"
    assert body["result"]["winners"] == [1]
    assert body["events"][-1]["type"] == "game_ended"
    assert get(api, game)["seed"] is not None
    exported = assert_replays_to_the_game(api, game)
    assert exported["record"][-1] == {"seat": 0, "command": RESIGN}


def test_a_resignation_in_catan_skips_the_seat(api):
    game = people(api, 3, ruleset="catan")
    body = resign(api, game, 2).get_json()
    assert body["events"][0]["type"] == "seat_resigned"
    assert [d["seat"] for d in get(api, game)["awaiting"]] == [0]


def test_a_resign_is_idempotent_under_its_key(api):
    game = people(api)
    first = resign(api, game, 2, **{"Idempotency-Key": "quit-1"})
    again = resign(api, game, 2, **{"Idempotency-Key": "quit-1"})
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()


@pytest.mark.parametrize(
    ("command", "who"),
    [
        ({"type": "abandon"}, "POST /v1/games/{id}/abandon"),
        (
            {"type": "hand_to_bot", "seat": 1, "bot": "random"},
            "PUT /v1/games/{id}/seats/{seat}/bot",
        ),
        ({"type": "hand_back", "seat": 1}, "DELETE /v1/games/{id}/seats/{seat}/bot"),
        ({"type": "clock", "remaining_ms": [1, 1, 1], "running": {}}, "the service itself"),
        ({"type": "time_out", "seat": 1, "action": "skip"}, "the service itself"),
    ],
)
def test_a_seat_may_not_send_the_owners_commands_and_is_told_who_does(api, command, who):
    game = people(api)
    response = api.move(game, 0, command, version=get(api, game)["version"])
    assert who in assert_problem(response, 403, "forbidden")["detail"]


# -- abandon ------------------------------------------------------------------------------


def test_the_owner_abandons_a_game_which_ends_with_no_winner(api):
    game = people(api)
    response = owner(api, "post", game, "/abandon")
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert [e["type"] for e in body["events"]] == ["game_abandoned", "game_ended"]
    assert body["seat"] is None and body["status"] == "finished"
    assert body["result"]["winners"] == []
    summary = get(api, game)
    assert summary["abandoned"] is True and summary["seed"] is not None
    exported = assert_replays_to_the_game(api, game)
    assert exported["record"][-1] == {"seat": None, "command": {"type": "abandon"}}
    assert get(api, game, "/verify")["valid"]


def test_only_the_owning_key_abandons_and_only_once(api, database_url):
    game = people(api)
    other = {"X-API-Key": new_api_key(database_url, "someone-else")[1]}
    assert_problem(owner(api, "post", game, "/abandon", key=other), 403, "forbidden")
    seat = {"X-Seat-Token": game["tokens"][0]}
    assert owner(api, "post", game, "/abandon", key=seat).status_code == 401
    assert owner(api, "post", game, "/abandon").status_code == 200
    again = assert_problem(owner(api, "post", game, "/abandon"), 409, "game_over")
    # a rule error like any other: the ruleset's code and its rule in words
    assert again["reason"] == "game_over"
    assert again["rule"] == (
        "The game ends after the turn in which the last tile is placed."
        " No move is made once it has ended, nor once it is abandoned or one seat is left."
    )


def test_bots_alone_that_play_the_most_commands_of_a_move_without_an_end_abandon_the_game(
    api, monkeypatch
):
    """Bots alone may never end a game (a Catan target of 20 points they never reach):
    after ``MAX_BOT_STEPS`` commands in one move the service abandons it, as its owner
    would, rather than leave it waiting for a move nobody will send."""
    monkeypatch.setattr("service.app.games.MAX_BOT_STEPS", 300)
    game = api.create(ruleset="catan", seats=[{"bot": "random"}] * 3)
    assert game["status"] == "finished" and game["awaiting"] == []
    summary = get(api, game)
    assert summary["abandoned"] is True and summary["result"]["winners"] == []
    events = api.client.get(
        f"/v1/games/{game['id']}/events?limit=1000", headers=api.key
    ).get_json()["events"]
    assert [e["type"] for e in events[-2:]] == ["game_abandoned", "game_ended"]
    exported = assert_replays_to_the_game(api, game)
    assert len(exported["record"]) == 301
    assert exported["record"][-1] == {"seat": None, "command": {"type": "abandon"}}


def test_bots_left_alone_by_the_last_person_resigning_abandon_a_game_they_play_too_long(
    api, monkeypatch
):
    monkeypatch.setattr("service.app.games.MAX_BOT_STEPS", 300)
    game = api.create(ruleset="catan", seats=[{"name": "Ada"}] + [{"bot": "random"}] * 2)
    answer = resign(api, game, 0)
    assert answer.status_code == 200, answer.get_json()
    types = [e["type"] for e in answer.get_json()["events"]]
    assert types[0] == "seat_resigned" and types[-2:] == ["game_abandoned", "game_ended"]
    summary = get(api, game)
    assert summary["status"] == "finished" and summary["abandoned"] is True
    assert assert_replays_to_the_game(api, game)["record"][-1]["command"] == {"type": "abandon"}


def test_the_record_of_a_game_the_service_abandoned_for_its_bots_validates(api):
    """At full size: 9,000 bot commands and the abandon, one move, one write (more
    parameters than a statement takes, as rows), and an export that validates. Random
    bots never reach 20 points (in thousands of games played to find this, none did)."""
    game = api.create("catan", [{"bot": "random"}] * 4, {"victory_points": 20})
    assert get(api, game)["abandoned"] is True
    exported = assert_replays_to_the_game(api, game)
    assert len(exported["record"]) == 9_001


def test_bots_that_end_their_game_within_the_most_commands_of_a_move_do_not_abandon_it(
    api, monkeypatch
):
    monkeypatch.setattr("service.app.games.MAX_BOT_STEPS", 300)
    game = api.create(ruleset="carcassonne", seats=[{"bot": "random"}] * 2)
    summary = get(api, game)
    assert summary["status"] == "finished" and summary["abandoned"] is False
    assert summary["result"]["winners"]
    # the 300th command ended the game or came before its end: nothing is abandoned
    exported = get(api, game, "/export")
    assert len(exported["record"]) < 300
    assert all(step["seat"] is not None for step in exported["record"])


# -- bot takeover and hand-back ----------------------------------------------------------


def test_a_seat_handed_to_a_bot_is_played_by_it_at_once_and_handed_back(api):
    game = people(api, 2)
    response = owner(api, "put", game, "/seats/0/bot", json={"bot": "greedy"})
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    types = [e["type"] for e in body["events"]]
    assert types[0] == "seat_handed_to_bot" and "tile_placed" in types
    assert body["events"][0]["data"] == {"seat": 0, "bot": "greedy"}
    assert body["awaiting"][0]["seat"] == 1  # the bot played seat 0's turn
    assert get(api, game)["seats"][0]["bot"] == "greedy"
    play_awaited(api, game)  # seat 1 plays; the bot answers for seat 0 in the same move
    assert get(api, game)["awaiting"][0]["seat"] == 1
    back = owner(api, "delete", game, "/seats/0/bot")
    assert back.status_code == 200, back.get_json()
    assert [e["type"] for e in back.get_json()["events"]] == ["seat_handed_back"]
    assert get(api, game)["seats"][0]["bot"] is None
    play_awaited(api, game)
    assert get(api, game)["awaiting"][0]["seat"] == 0  # its person plays it again
    assert get(api, game, "/verify")["valid"]


def test_hand_overs_that_change_nothing_are_conflicts(api):
    game = api.create(ruleset="carcassonne", seats=[{"name": "Ada"}, {"bot": "random"}])
    assert_problem(owner(api, "delete", game, "/seats/0/bot"), 409, "seat_conflict")
    assert_problem(owner(api, "delete", game, "/seats/1/bot"), 409, "seat_conflict")
    assert_problem(
        owner(api, "put", game, "/seats/1/bot", json={"bot": "random"}), 409, "seat_conflict"
    )
    assert owner(api, "put", game, "/seats/1/bot", json={"bot": "greedy"}).status_code == 200
    unknown = owner(api, "put", game, "/seats/0/bot", json={"bot": "chess-engine"})
    assert_problem(unknown, 422, "illegal_move")
    assert unknown.get_json()["reason"] == "unknown_bot"
    assert_problem(
        owner(api, "put", game, "/seats/5/bot", json={"bot": "greedy"}), 422, "validation_error"
    )


def test_no_bot_plays_a_seat_of_a_catan_game_with_external_randomness(api):
    """Its bots would have to make up the dice, a development card drawn or a card
    stolen, which only the client knows: no bot seat, no hand-over to a bot, and a seat
    out of time can only forfeit (a skip answers what must be done as a bot would)."""
    external = {"randomness": "external"}
    body = {
        "ruleset": "catan",
        "seats": [{"name": "Ada"}, {"bot": "value"}, {"name": "Kai"}],
        "options": external,
    }
    refused = api.client.post("/v1/games", json=body, headers=api.key)
    problem = assert_problem(refused, 422, "validation_error")
    assert problem["errors"][0]["field"] == "seats.1.bot"
    for on_timeout in ("skip", "bot"):
        clock = {"per_move": 60, "on_timeout": on_timeout, "bot": "random"}
        if on_timeout == "skip":
            del clock["bot"]
        body = {"ruleset": "catan", "options": {**external, "clock": clock}}
        body["seats"] = [{"name": "Ada"}, {"name": "Kai"}]
        refused = api.client.post("/v1/games", json=body, headers=api.key)
        problem = assert_problem(refused, 422, "validation_error")
        assert problem["errors"][0]["field"] == "options.clock.on_timeout"
    forfeit = {**external, "clock": {"per_move": 60, "on_timeout": "forfeit"}}
    game = people(api, 2, ruleset="catan", **forfeit)
    handed = owner(api, "put", game, "/seats/1/bot", json={"bot": "random"})
    assert assert_problem(handed, 422, "validation_error")["errors"][0]["field"] == "bot"
    assert get(api, game)["version"] == game["version"]  # nothing written
    internal = people(api, 2, ruleset="catan", clock={"per_move": 60, "on_timeout": "skip"})
    assert owner(api, "put", internal, "/seats/1/bot", json={"bot": "random"}).status_code == 200
    carcassonne = api.create(
        ruleset="carcassonne", seats=[{"name": "Ada"}, {"bot": "greedy"}], options=external
    )
    assert get(api, carcassonne)["awaiting"][0]["seat"] == 0  # its bots send their draws


def test_a_game_with_hand_overs_and_a_resignation_exports_a_record_that_replays(api):
    game = people(api, 3)
    owner(api, "put", game, "/seats/1/bot", json={"bot": "random"})
    play_awaited(api, game)
    owner(api, "delete", game, "/seats/1/bot")
    resign(api, game, 2)
    resign(api, game, 1)
    assert get(api, game)["status"] == "finished"
    exported = assert_replays_to_the_game(api, game)
    kinds = [step["command"]["type"] for step in exported["record"]]
    assert {"hand_to_bot", "hand_back", "resign"} <= set(kinds)


def test_a_bot_command_the_rules_refuse_is_logged_and_the_random_bot_answers(
    api, monkeypatch, caplog
):
    """A bot's mistake (as the value bot's offers to resigned seats were) must not stop
    the game for good: the random bot answers for it, and the log says so."""
    from service.rules.catan.game import CATAN

    played = CATAN.bot_command

    def mistaken(state, seat, bot, rng):
        return {"type": "dance"} if bot == "value" else played(state, seat, bot, rng)

    monkeypatch.setattr(CATAN, "bot_command", mistaken)
    game = api.create("catan", seats=[{"bot": "value"}, {"name": "Ann"}])
    assert [d["seat"] for d in game["awaiting"]] == [1]  # the bot placed for itself
    assert "a bot's command was refused" in caplog.text
    assert get(api, game, "/verify")["valid"] is True  # the log replays as written


def test_a_seat_that_resigned_is_handed_to_no_bot_and_the_rules_say_why(api):
    game = people(api, 3)
    resign(api, game, 2)
    for method, json in (("put", {"bot": "random"}), ("delete", None)):
        refused = owner(api, method, game, "/seats/2/bot", json=json)
        assert_problem(refused, 422, "illegal_move")
        assert refused.get_json()["reason"] == "resigned"


def test_a_hand_over_is_checked_against_the_seats_as_the_due_timeouts_leave_them(api):
    """Seat 0 ran out of time (the clock hands it to a bot): handing it back is decided
    after that timeout, not refused because the seat looked like its person's still."""
    seats = [{"name": "Ada"}, {"name": "Brendan"}]
    clock = {"per_move": 0.6, "on_timeout": "bot", "bot": "random"}
    game = api.create(ruleset="carcassonne", seats=seats, options={"clock": clock})
    time.sleep(0.9)
    handed_back = owner(api, "delete", game, "/seats/0/bot")
    assert handed_back.status_code == 200, handed_back.get_json()
    types = [e["type"] for e in handed_back.get_json()["events"]]
    assert "seat_handed_back" in types


def test_a_move_on_a_finished_game_is_told_the_game_is_over_whatever_version_it_names(api):
    """Not 409 version_conflict, which would have the client read the game and try
    again before learning that nothing more can be sent."""
    game = people(api)
    version = get(api, game)["version"]
    assert owner(api, "post", game, "/abandon").status_code == 200
    for named in (version, version + 1, get(api, game)["version"]):
        response = api.move(game, 0, {"type": "skip"}, version=named)
        assert_problem(response, 409, "game_over")

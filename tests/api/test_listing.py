"""GET /v1/games: an API key's own games, filtered, newest first, page by page."""

from __future__ import annotations

import re

import psycopg
import pytest

from service.store.migrate import migrations_dir
from tests.api.conftest import Api
from tests.api.test_errors import assert_problem
from tests.api.test_export import get
from tests.api.test_table import owner, resign
from tests.conftest import new_api_key

_NEXT = re.compile(r'^<(/v1/games\?[^>]+)>; rel="next"$')


@pytest.fixture
def own(client, database_url) -> Api:
    """The test client with an API key of its own, so the list holds only this test's
    games."""
    return Api(client, new_api_key(database_url, "listing")[1])


def listing(api: Api, url: str = "/v1/games", **query):
    response = api.client.get(url, query_string=query or None, headers=api.key)
    assert response.status_code == 200, response.get_json()
    return response


def walk(api: Api, between_pages=lambda: None, **query) -> list[str]:
    """Every game id from the first page to the last, following the Link headers."""
    ids, response = [], listing(api, **query)
    while True:
        page = response.get_json()
        ids += [game["id"] for game in page["games"]]
        link = response.headers.get("Link")
        if page["next_cursor"] is None:
            assert link is None
            return ids
        url = _NEXT.match(link).group(1)
        assert f"cursor={page['next_cursor']}" in url
        between_pages()
        response = listing(api, url)


def bot_game(api: Api, name: str = "random bot") -> dict:
    """A game played to its end at creation (every seat a bot)."""
    seats = [{"name": name, "bot": "random"}, {"bot": "random"}]
    return api.create(seats=seats)


def test_newest_first_with_the_row_summary_of_each_game(own):
    first = own.create(seats=[{"name": "Ada"}, {"name": "Bo"}])
    second = own.create(ruleset="council")
    games = listing(own).get_json()["games"]
    assert [g["id"] for g in games] == [second["id"], first["id"]]
    summary = own.client.get(f"/v1/games/{first['id']}", headers=own.key).get_json()
    # what the log adds (awaiting, result, abandoned, clocks) aside
    log_only = ("awaiting", "result", "abandoned", "clocks")
    assert games[1] == {k: v for k, v in summary.items() if k not in log_only}


def test_each_item_shows_who_plays_each_seat_now_as_the_summary_does(own):
    game = own.create(
        ruleset="carcassonne", seats=[{"name": "Ada"}, {"name": "Brendan"}, {"name": "Kai"}]
    )

    def listed() -> list[tuple[str | None, bool]]:
        [item] = listing(own).get_json()["games"]
        assert item["seats"] == get(own, game)["seats"]
        return [(seat["bot"], seat["resigned"]) for seat in item["seats"]]

    assert listed() == [(None, False), (None, False), (None, False)]
    assert owner(own, "put", game, "/seats/1/bot", json={"bot": "greedy"}).status_code == 200
    assert listed() == [(None, False), ("greedy", False), (None, False)]
    assert resign(own, game, 2).status_code == 200
    assert listed() == [(None, False), ("greedy", False), (None, True)]
    assert owner(own, "delete", game, "/seats/1/bot").status_code == 200
    assert listed() == [(None, False), (None, False), (None, True)]


def test_seats_changed_before_migration_0012_are_filled_in_from_the_log(own, database_url):
    """0012 added ``seats_now`` empty; 0013 folds it from the log of every game whose
    seats had changed before, so the list shows them as they are."""
    bots = own.create(
        ruleset="carcassonne",
        seats=[{"name": "Ada"}, {"name": "Bo", "bot": "random"}, {"name": "Kai"}],
    )
    both_ways = own.create(ruleset="carcassonne", seats=[{"name": "Ada"}, {"name": "Bo"}])
    untouched = own.create(
        ruleset="carcassonne", seats=[{"name": "Ada"}, {"name": "Bo", "bot": "greedy"}]
    )
    assert owner(own, "put", bots, "/seats/0/bot", json={"bot": "greedy"}).status_code == 200
    assert resign(own, bots, 2).status_code == 200
    assert owner(own, "put", both_ways, "/seats/1/bot", json={"bot": "random"}).status_code == 200
    assert owner(own, "delete", both_ways, "/seats/1/bot").status_code == 200
    as_they_are = {g["id"]: g["seats"] for g in listing(own).get_json()["games"]}
    ids = [bots["id"], both_ways["id"], untouched["id"]]
    with psycopg.connect(database_url) as conn:  # as the rows were before 0012 filled them
        conn.execute("UPDATE games SET seats_now = NULL WHERE id = ANY(%s::uuid[])", (ids,))
    stale = {g["id"]: g["seats"] for g in listing(own).get_json()["games"]}
    assert [(s["bot"], s["resigned"]) for s in stale[bots["id"]]] == [
        (None, False),  # listed as created, not as it is
        ("random", False),
        (None, False),
    ]

    with psycopg.connect(database_url) as conn:
        conn.execute((migrations_dir() / "0013_seats_now_backfill.sql").read_text())
        filled = dict(
            conn.execute(
                "SELECT id::text, seats_now FROM games WHERE id = ANY(%s::uuid[])", (ids,)
            ).fetchall()
        )
    assert filled[untouched["id"]] is None  # no seat changed: as created, nothing to fill
    assert [(s["bot"], s["resigned"]) for s in filled[bots["id"]]] == [
        ("greedy", False),
        ("random", False),
        (None, True),
    ]
    assert [(s["bot"], s["resigned"]) for s in filled[both_ways["id"]]] == [
        (None, False),
        (None, False),
    ]
    assert {g["id"]: g["seats"] for g in listing(own).get_json()["games"]} == as_they_are


def test_filters_by_ruleset_status_and_seat_name(own):
    ada = own.create(seats=[{"name": "Ada"}, {"name": "Bo"}])
    council = own.create(ruleset="council", seats=[{"name": "Ada"}, {"name": "Cy"}])
    finished = bot_game(own, "Ada")
    assert finished["status"] == "finished"

    def ids(**query):
        return {g["id"] for g in listing(own, **query).get_json()["games"]}

    assert ids(ruleset="council") == {council["id"]}
    assert ids(status="finished") == {finished["id"]}
    assert ids(status="active") == {ada["id"], council["id"]}
    assert ids(seat="Ada") == {ada["id"], council["id"], finished["id"]}
    assert ids(seat="Bo") == {ada["id"]}
    assert ids(seat="ada") == set()
    assert ids(seat="Ada", ruleset="secret-cards", status="active") == {ada["id"]}


def test_a_walk_sees_every_game_once_even_as_games_are_created(own):
    made = [own.create()["id"] for _ in range(7)]
    created_meanwhile = []
    ids = walk(own, lambda: created_meanwhile.append(own.create()["id"]), limit=2)
    assert ids == made[::-1]
    assert len(created_meanwhile) == 3
    assert walk(own, limit=100) == (made + created_meanwhile)[::-1]


def test_the_next_link_keeps_the_filters(own):
    active = [own.create(seats=[{"name": "Ada"}, {"name": "Bo"}])["id"] for _ in range(3)]
    bot_game(own, "Ada")
    assert walk(own, seat="Ada", status="active", limit=1) == active[::-1]


def test_another_keys_games_never_appear(own, client, database_url):
    mine = own.create()["id"]
    other = Api(client, new_api_key(database_url, "other")[1])
    theirs = other.create()["id"]
    assert walk(own) == [mine]
    assert walk(other) == [theirs]


def test_a_seat_token_cannot_list_games(own):
    game = own.create()
    token = {"X-Seat-Token": game["tokens"][0]}
    assert_problem(own.client.get("/v1/games", headers=token), 403, "forbidden")
    bearer = {"Authorization": f"Bearer {game['tokens'][0]}"}
    assert_problem(own.client.get("/v1/games", headers=bearer), 403, "forbidden")
    assert_problem(own.client.get("/v1/games"), 401, "unauthorized")


@pytest.mark.parametrize(
    "cursor",
    ["not-a-cursor!", "eA", "MjAyNi0xMS0yNHxub3QtYS11dWlk", "bm9waXBl"],
)
def test_a_cursor_the_service_did_not_give_is_a_400_problem(own, cursor):
    response = own.client.get("/v1/games", query_string={"cursor": cursor}, headers=own.key)
    assert_problem(response, 400, "invalid_cursor")


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"status": "paused"}, "query.status"),
        ({"ruleset": "chess"}, "query.ruleset"),
        ({"seat": ""}, "query.seat"),
        ({"limit": 0}, "query.limit"),
        ({"limit": 101}, "query.limit"),
        ({"limit": "ten"}, "query.limit"),
    ],
)
def test_bad_filters_are_validation_problems_naming_the_parameter(own, query, field):
    response = own.client.get("/v1/games", query_string=query, headers=own.key)
    body = assert_problem(response, 422, "validation_error")
    assert [error["field"] for error in body["errors"]] == [field]

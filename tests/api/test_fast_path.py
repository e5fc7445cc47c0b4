"""The fast path (service/api/fast.py) answers as Flask does.

Two apps on one database, one with the fast path and one without (``fast_path=False``),
play the same game side by side: Carcassonne in external randomness mode, where the same
commands write the same events, so both games stay alike move for move. Every request
goes to both, and the answers must agree: status, headers (but the request id and the
values that name the game: its id, hashes, signatures, times) and body. The fast app's
Flask is watched, so each case also says which path answered it.
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

import pytest

from service.api import create_app
from service.rules import get_ruleset, rng_for
from service.rules.core import Event

CARCASSONNE = get_ruleset("carcassonne")
#: values that differ between two games alike: ids, hashes, signatures, times
_GAME_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_VARYING = {"prev_hash", "hash", "head_hash", "head_signature", "recorded_at", "request_id"}


def normalised(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: "*" if k in _VARYING else normalised(v) for k, v in value.items()}
    if isinstance(value, list):
        return [normalised(v) for v in value]
    if isinstance(value, str):
        return _GAME_ID.sub("<game>", value)
    return value


class Side:
    """One app, its game, and how many requests its Flask answered."""

    def __init__(self, app, api_key: str) -> None:
        self.client = app.test_client()
        self.key = {"X-API-Key": api_key}
        self.flask_calls = 0
        fast = app.wsgi_app
        if hasattr(fast, "flask"):
            inner = fast.flask

            def counted(environ, start_response):
                self.flask_calls += 1
                return inner(environ, start_response)

            fast.flask = counted
        body = {"ruleset": "carcassonne", "seats": [{}, {}], "options": {"randomness": "external"}}
        created = self.client.post("/v1/games", json=body, headers=self.key).get_json()
        self.game = created["id"]
        self.tokens = {t["seat"]: t["token"] for t in created["seat_tokens"]}

    def send(self, method, route, seat, headers=None, bearer=False, **kwargs):
        headers = dict(headers or {})
        if seat is not None and bearer:
            headers["Authorization"] = f"Bearer {self.tokens[seat]}"
        elif seat is not None:
            headers.setdefault("X-Seat-Token", self.tokens[seat])
        url = f"/v1/games/{self.game}/{route}"
        return self.client.open(url, method=method, headers=headers, **kwargs)


def answer(response) -> tuple[int, list[tuple[str, str]], Any]:
    headers = [
        # each app's rate-limit window began at its own first request: the whole seconds
        # left in them may differ by one when a second turns between the two requests
        (name, "*" if name == "RateLimit-Reset" else _GAME_ID.sub("<game>", value))
        for name, value in response.headers
        if name not in ("X-Request-Id", "Date")
    ]
    body = response.get_json() if response.is_json else response.get_data(as_text=True)
    return response.status_code, headers, normalised(body)


class Pair:
    """The same game on both apps; :meth:`both` sends a request to each and checks that
    the answers agree, and says which path the fast app took."""

    def __init__(self, fast_app, slow_app, api_key: str) -> None:
        self.fast, self.slow = Side(fast_app, api_key), Side(slow_app, api_key)
        self.sides = (self.fast, self.slow)
        self.version = self.state()["version"]
        self.folded = CARCASSONNE.fold(self.events())

    def events(self) -> list[Event]:
        pages = [s.client.get(f"/v1/games/{s.game}/events", headers=s.key) for s in self.sides]
        return [Event(e["type"], e["data"]) for e in pages[0].get_json()["events"]]

    def state(self) -> dict[str, Any]:
        return self.both("GET", "state", 0)[0].get_json()

    def both(self, method: str, route: str, seat: int | None, headers=None, **kwargs):
        """The fast app's response, and whether its Flask answered it."""
        before = self.fast.flask_calls
        fast = self.fast.send(method, route, seat, headers, **kwargs)
        slow = self.slow.send(method, route, seat, headers, **kwargs)
        assert answer(fast) == answer(slow)
        assert fast.headers["X-Request-Id"] and slow.headers["X-Request-Id"]
        return fast, self.fast.flask_calls > before

    def awaited(self) -> tuple[int, dict[str, Any]]:
        seat = CARCASSONNE.decisions(self.folded)[0].seat
        return seat, CARCASSONNE.bot_command(
            self.folded, seat, "random", rng_for(b"t", self.version)
        )

    def move(self, seat: int, command: dict[str, Any], **headers: str):
        headers.setdefault("If-Match", f'"{self.version}"')
        response, by_flask = self.both("POST", "moves", seat, headers, json={"command": command})
        if response.status_code == 200 and response.headers.get("Idempotent-Replayed") is None:
            body = response.get_json()
            for item in body["events"]:
                self.folded = CARCASSONNE.evolve(self.folded, Event(item["type"], item["data"]))
            self.version = body["version"]
        return response, by_flask


@pytest.fixture(scope="module")
def apps(settings):
    from tests.fixtures import council, secret_cards

    extra = [secret_cards.RULESET, council.RULESET]
    fast = create_app(settings, extra_rulesets=extra)
    slow = create_app(dataclasses.replace(settings, fast_path=False), extra_rulesets=extra)
    assert hasattr(fast.wsgi_app, "flask") and not hasattr(slow.wsgi_app, "flask")
    return fast, slow


@pytest.fixture
def pair(apps, api_key) -> Pair:
    return Pair(*apps, api_key)


def test_plain_moves_and_reads_are_answered_alike_by_the_fast_path(pair):
    for _ in range(12):
        seat, command = pair.awaited()
        response, by_flask = pair.move(seat, command, **{"Idempotency-Key": f"k{pair.version}"})
        assert response.status_code == 200 and not by_flask
        for route in ("state", "legal-moves"):
            read, by_flask = pair.both("GET", route, seat)
            assert read.status_code == 200 and not by_flask
    # the same answers with the token as a bearer token, a request id and a charset
    seat, command = pair.awaited()
    response, by_flask = pair.both(
        "POST",
        "moves",
        seat,
        {"X-Request-Id": "abc-1", "If-Match": f'"{pair.version}"'},
        bearer=True,
        data=json.dumps({"command": command}),
        content_type="application/json; charset=utf-8",
    )
    assert response.status_code == 200 and not by_flask
    assert response.headers["X-Request-Id"] == "abc-1"
    # what the fast path leaves to Flask: a query, an API key
    read, by_flask = pair.both("GET", "state?at=2", 0)
    assert read.status_code == 200 and read.get_json()["version"] == 2 and by_flask
    read, by_flask = pair.both("GET", "state", None, pair.fast.key)
    assert read.status_code == 200 and read.get_json()["seat"] is None and by_flask


def test_an_idempotent_retry_replays_on_both_paths(pair):
    seat, command = pair.awaited()
    version = pair.version
    first, _ = pair.move(seat, command, **{"Idempotency-Key": "retry-me"})
    again, by_flask = pair.move(
        seat, command, **{"Idempotency-Key": "retry-me", "If-Match": f'"{version}"'}
    )
    assert first.status_code == again.status_code == 200 and not by_flask
    assert again.headers["Idempotent-Replayed"] == "true"
    other = {"type": "resign"}
    reused, by_flask = pair.move(seat, other, **{"Idempotency-Key": "retry-me"})
    assert reused.get_json()["code"] == "idempotency_key_reused" and by_flask


def test_refusals_are_flasks_own_answers(pair):
    seat, command = pair.awaited()
    stale, by_flask = pair.move(seat, command, **{"If-Match": f'"{pair.version - 1}"'})
    assert stale.get_json()["code"] == "version_conflict" and by_flask
    other, by_flask = pair.move(1 - seat, command)
    assert other.get_json()["code"] == "not_your_turn" and by_flask
    cases = [
        ({"If-Match": '"x"'}, {"json": {"command": command}}, "validation_error"),
        ({}, {"json": {"command": command}}, "precondition_required"),
        ({"If-Match": '"1"'}, {"json": {"command": command, "extra": 1}}, "validation_error"),
        ({"If-Match": '"1"'}, {"json": {"command": "place"}}, "validation_error"),
        # a NUL, which PostgreSQL cannot store, in a value, a key or the decision
        ({"If-Match": '"1"'}, {"json": {"command": {**command, "x": "a\x00"}}}, "validation_error"),
        ({"If-Match": '"1"'}, {"json": {"command": {"\x00": 1, **command}}}, "validation_error"),
        (
            {"If-Match": '"1"'},
            {"json": {"command": command, "decision": "d\x00"}},
            "validation_error",
        ),
        ({"If-Match": '"1"'}, {"data": "{", "content_type": "application/json"}, "bad_request"),
        ({"If-Match": '"1"'}, {"data": "{}", "content_type": "text/plain"}, None),
        ({"If-Match": '"1"', "Idempotency-Key": ""}, {"json": {"command": command}}, None),
        ({"If-Match": '"1"', "X-Seat-Token": "nope"}, {"json": {"command": command}}, None),
    ]
    for headers, kwargs, code in cases:
        response, by_flask = pair.both("POST", "moves", seat, headers, **kwargs)
        assert response.status_code >= 400 and by_flask, (headers, kwargs)
        assert code is None or response.get_json()["code"] == code
    # a token of another game, an unknown game
    pair.slow.tokens, pair.fast.tokens = pair.fast.tokens, pair.slow.tokens
    for route in ("state", "legal-moves"):
        response, by_flask = pair.both("GET", route, seat)
        assert response.get_json()["code"] == "forbidden" and by_flask
    pair.slow.tokens, pair.fast.tokens = pair.fast.tokens, pair.slow.tokens
    pair.fast.game = pair.slow.game = "00000000-0000-4000-8000-000000000000"
    response, by_flask = pair.both("GET", "state", seat)
    assert response.get_json()["code"] == "unknown_game" and by_flask


def test_the_rate_limit_counts_once_on_either_path(settings, api_key):
    limited = dataclasses.replace(settings, rate_limit="4 per minute")
    pair = Pair(
        create_app(limited), create_app(dataclasses.replace(limited, fast_path=False)), api_key
    )
    statuses = []
    while 429 not in statuses and len(statuses) < 10:
        seat, command = pair.awaited()
        response, by_flask = pair.move(seat, command)
        statuses.append(response.status_code)
        assert by_flask == (response.status_code == 429)
    assert statuses[0] == 200 and statuses[-1] == 429
    assert response.headers["Retry-After"] and response.headers["RateLimit-Remaining"] == "0"


def test_with_cors_configured_the_answers_still_agree(settings, api_key):
    cors = dataclasses.replace(settings, cors_origins=frozenset({"https://portal.example"}))
    pair = Pair(create_app(cors), create_app(dataclasses.replace(cors, fast_path=False)), api_key)
    seat, command = pair.awaited()
    plain, by_flask = pair.move(seat, command)
    assert plain.status_code == 200 and plain.headers["Vary"] == "Origin" and not by_flask
    seat, command = pair.awaited()
    browser, by_flask = pair.move(seat, command, Origin="https://portal.example")
    assert browser.headers["Access-Control-Allow-Origin"] == "https://portal.example"
    assert browser.status_code == 200 and by_flask

"""A small HTTP client for the tests: what a real client app would do, including
folding the events it receives through the rules library to pick its next move."""

from __future__ import annotations

import uuid
from typing import Any

import requests

from service.rules.core import Event, Ruleset, rng_for


class Client:
    def __init__(self, base_url: str, api_key: str, timeout: float | None = None) -> None:
        self.base = base_url
        self.api_key = api_key
        #: seconds each request may wait for an answer (None: no limit)
        self.timeout = timeout
        self.http = requests.Session()

    def headers(self, token: str | None = None, **extra: str) -> dict[str, str]:
        headers = {"X-API-Key": self.api_key} if token is None else {"X-Seat-Token": token}
        headers.update(extra)
        return headers

    def create(self, ruleset: str, seats: list[dict], options: dict | None = None) -> dict:
        body = {"ruleset": ruleset, "seats": seats, "options": options or {}}
        response = self.http.post(
            f"{self.base}/v1/games", json=body, headers=self.headers(), timeout=self.timeout
        )
        assert response.status_code == 201, response.text
        return response.json()

    def get(self, path: str, token: str | None = None, **params: Any) -> requests.Response:
        return self.http.get(
            f"{self.base}{path}", headers=self.headers(token), params=params, timeout=self.timeout
        )

    def move(
        self,
        game_id: str,
        token: str,
        command: dict,
        version: int,
        key: str | None = None,
        **extra: str,
    ) -> requests.Response:
        headers = self.headers(token, **extra)
        headers["If-Match"] = f'"{version}"'
        headers["Idempotency-Key"] = key or uuid.uuid4().hex
        return self.http.post(
            f"{self.base}/v1/games/{game_id}/moves",
            json={"command": command},
            headers=headers,
            timeout=self.timeout,
        )

    def all_events(self, game_id: str, token: str | None = None) -> list[dict]:
        events, after = [], 0
        while True:
            page = self.get(f"/v1/games/{game_id}/events", token, after=after, limit=1000).json()
            events += page["events"]
            if page["next_after"] is None:
                return events
            after = page["next_after"]


def as_event(item: dict) -> Event:
    """An event as the API returned it, for the rules library."""
    return Event(
        item["type"], item["data"], tuple(item["visibility"]) if item["visibility"] else None
    )


def fold(ruleset: Ruleset, events: list[dict]) -> Any:
    """Rebuild a state from the events a client received: no seed needed."""
    return ruleset.fold(as_event(e) for e in events)


def evolve_answer(ruleset: Ruleset, state: Any, body: dict) -> Any:
    """The client's state after a move's answer: its events folded in."""
    for item in body["events"]:
        state = ruleset.evolve(state, as_event(item))
    return state


def bot_move(ruleset: Ruleset, state: Any, seat: int, seq: int) -> dict:
    return ruleset.bot_command(state, seat, ruleset.bots[0], rng_for(b"test-client", seq))


def play_to_end(
    client: Client, ruleset: Ruleset, game: dict, tokens: dict[int, str], max_moves: int = 2000
) -> tuple[list[dict], Any]:
    """Play every human seat with the ruleset's own bot until the game ends; return the
    record of commands sent and the client's folded state."""
    events = client.all_events(game["id"], next(iter(tokens.values())))
    state, version, awaiting = fold(ruleset, events), game["version"], game["awaiting"]
    record: list[dict] = []
    while awaiting and len(record) < max_moves:
        seat = awaiting[0]["seat"]
        command = bot_move(ruleset, state, seat, version + 1)
        response = client.move(game["id"], tokens[seat], command, version)
        assert response.status_code == 200, response.text
        body = response.json()
        state = evolve_answer(ruleset, state, body)
        assert response.headers["ETag"] == f'"{body["version"]}"'
        version, awaiting = body["version"], body["awaiting"]
        record.append({"seat": seat, "command": command})
    return record, state


def carcassonne_turns(log: list[dict]) -> list[dict]:
    """The draws that began each turn of a Carcassonne log (events as the API gives
    them): every ``tile_drawn`` but those of tiles that fit nowhere, which are set aside
    and drawn again in the same turn."""
    following = [*log[1:], None]
    return [
        event
        for event, after in zip(log, following, strict=True)
        if event["type"] == "tile_drawn" and (after is None or after["type"] != "tile_set_aside")
    ]

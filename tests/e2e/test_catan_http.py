"""Catan over HTTP: hands are private. Three seats play through a real gunicorn,
each deciding on its own fold of the log it receives (as a third-party client would).
No other seat and no spectator finds a stolen card or a bought development card in the
events (pages and SSE) or in a state view; each viewer's fold of what it received is
the view the server shows it, at every point; and the game verifies."""

from __future__ import annotations

import random

import psycopg

from service.rules import get_ruleset
from service.rules.catan.pieces import DEVELOPMENT_CARDS, RESOURCES
from service.store import event_hash
from tests.client import Client, fold
from tests.e2e.test_sse import open_stream, sse_events

SECRET_TYPES = ("card_stolen", "development_bought")
#: what a viewer who does not see a secret could try in its place
GUESSES = {
    "card_stolen": ("resource", RESOURCES),
    "development_bought": ("card", DEVELOPMENT_CARDS),
}
MOVES = 400  # at least, while the game lasts
MOVES_CAP = 4000  # the seed is random: 11 of 3,000 simulated games needed 400-503 moves


def stored_secrets(database_url: str, game_id: str) -> dict[int, dict]:
    """The whole secret events, as only the server holds them."""
    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT seq, type, data, visibility FROM events WHERE game_id = %s"
            " AND type = ANY(%s) ORDER BY seq",
            (game_id, list(SECRET_TYPES)),
        ).fetchall()
    return {seq: {"type": t, "data": d, "visibility": v} for seq, t, d, v in rows}


def play(client: Client, game: dict, tokens: dict[int, str]) -> None:
    """Random bots play ``MOVES`` moves, then on until every secret event type has
    happened (the game's seed is the server's, so the game is not known in advance)."""
    catan = get_ruleset("catan")
    seen = {seat: [] for seat in tokens}
    happened: set[str] = set()
    awaiting, version = game["awaiting"], game["version"]
    for step in range(MOVES_CAP):
        if not awaiting or (step >= MOVES and happened >= set(SECRET_TYPES)):
            return
        seat = awaiting[0]["seat"]
        events = client.get(
            f"/v1/games/{game['id']}/events", tokens[seat], after=len(seen[seat]), limit=1000
        ).json()["events"]
        seen[seat] += events
        state = fold(catan, seen[seat])
        command = catan.bot_command(state, seat, "random", random.Random(step))
        response = client.move(game["id"], tokens[seat], command, version)
        assert response.status_code == 200, response.text
        body = response.json()
        version, awaiting = body["version"], body["awaiting"]
        happened |= {event["type"] for event in body["events"]}


def test_no_seat_or_spectator_sees_another_seats_hidden_cards(server, api_key, database_url):
    catan = get_ruleset("catan")
    client = Client(server.url, api_key)
    game = client.create("catan", [{}, {}, {}], {"layout": "beginner"})
    tokens = {t["seat"]: t["token"] for t in game["seat_tokens"]}
    play(client, game, tokens)
    truth = stored_secrets(database_url, game["id"])
    assert {entry["type"] for entry in truth.values()} == set(SECRET_TYPES), "too short a game"

    for seat, viewer in [*tokens.items(), (None, None)]:
        events = client.all_events(game["id"], viewer)
        for item in (e for e in events if e["seq"] in truth):
            whole = truth[item["seq"]]
            if seat in whole["visibility"]:
                assert not item["redacted"] and item["data"] == whole["data"]
                continue
            assert item["redacted"]
            assert item["data"] == catan.secrets[item["type"]](whole["data"], seat)
            assert "resource" not in item["data"] and "card" not in item["data"]
            # Only the whole event, salt included, hashes to the published hash: trying
            # each card or resource the secret may be finds nothing.
            rehash = [item["prev_hash"], game["id"], item["seq"], item["type"]]
            assert event_hash(*rehash, whole["data"], whole["visibility"]) == item["hash"]
            key, values = GUESSES[item["type"]]
            assert all(
                event_hash(*rehash, {**item["data"], key: value}, whole["visibility"])
                != item["hash"]
                for value in values
            )
        # The stream sends the same redacted events as the pages.
        headers = {"game": game["id"], **client.headers(viewer)}
        streamed = []
        version = len(events)
        for message in sse_events(open_stream(server, headers)):
            streamed.append(message["data"])
            if len(streamed) == version:
                break
        assert streamed == events
        # The viewer's fold of what it received is the server's view, all along.
        for at in sorted({2, *(seq for seq in truth if seq % 7 == 0), version}):
            shown = client.get(f"/v1/games/{game['id']}/state", viewer, at=at).json()
            assert shown["state"] == catan.view(fold(catan, events[:at]), seat), (seat, at)

    verified = client.get(f"/v1/games/{game['id']}/verify").json()
    assert verified["valid"], verified

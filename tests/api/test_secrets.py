"""Views and events are redacted per viewer: a seat sees its own secrets, a spectator
sees public information only (per-seat secrets come from the secret-cards ruleset)."""

from __future__ import annotations

import re

CARD = re.compile(r"card-[0-9a-f]{10}")


def dealt_cards(database_url: str, game_id: str) -> dict[int, set[str]]:
    import psycopg

    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT data FROM events WHERE game_id = %s AND type = 'dealt'", (game_id,)
        ).fetchall()
    cards: dict[int, set[str]] = {}
    for (data,) in rows:
        cards.setdefault(data["seat"], set()).add(data["card"])
    return cards


def test_spectator_sees_no_secret_in_state_or_events(api, database_url):
    game = api.create()
    secrets = dealt_cards(database_url, game["id"])
    assert all(secrets.values())
    for path in ("", "/state", "/events"):
        text = api.client.get(f"/v1/games/{game['id']}{path}", headers=api.key).get_data(True)
        assert not CARD.search(text), path
    text = api.client.get(f"/v1/games/{game['id']}/state?at=2", headers=api.key).get_data(True)
    assert not CARD.search(text)


def test_each_seat_sees_its_own_card_and_not_the_others(api, database_url):
    game = api.create(seats=[{}, {}, {}])
    secrets = dealt_cards(database_url, game["id"])
    for seat, token in game["tokens"].items():
        for path in ("/state", "/events"):
            text = api.client.get(
                f"/v1/games/{game['id']}{path}", headers={"X-Seat-Token": token}
            ).get_data(True)
            assert set(CARD.findall(text)) == secrets[seat], (seat, path)
    state = api.client.get(
        f"/v1/games/{game['id']}/state", headers={"X-Seat-Token": game["tokens"][1]}
    ).get_json()
    assert state["seat"] == 1 and state["state"]["hands"]["0"] is None


def test_move_response_shows_the_mover_only_their_own_new_card(api, database_url):
    game = api.create()
    response = api.move(game, 0, {"type": "reveal"}, game["version"]).get_json()
    revealed = next(e for e in response["events"] if e["type"] == "revealed")["data"]["card"]
    new_card = next(e for e in response["events"] if e["type"] == "dealt")["data"]["card"]
    assert revealed in dealt_cards(database_url, game["id"])[0] and new_card != revealed
    spectator = api.client.get(f"/v1/games/{game['id']}/events", headers=api.key).get_data(True)
    assert CARD.findall(spectator) == [revealed]


def test_seed_is_hidden_until_the_game_ends(api):
    game = api.create(options={"rounds": 1})
    assert game["seed"] is None
    version = game["version"]
    for seat in (0, 1):
        version = api.move(game, seat, {"type": "keep"}, version).get_json()["version"]
    summary = api.client.get(f"/v1/games/{game['id']}", headers=api.key).get_json()
    assert summary["status"] == "finished" and len(summary["seed"]) == 64

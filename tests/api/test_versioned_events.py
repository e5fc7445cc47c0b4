"""Versioned events: a game stored by an earlier release, whose events have an older
shape, still replays, verifies and serves views after the shape changed, through the
ruleset's upcasters."""

from __future__ import annotations

from typing import ClassVar

from service.api import create_app
from tests.fixtures.secret_cards import SecretCards


class SecretCardsV2(SecretCards):
    """The next release of the fixture: ``revealed`` names the card ``shown``."""

    rules_version = 2
    upcasters: ClassVar = {
        (1, "revealed"): lambda data: {"seat": data["seat"], "shown": data["card"]}
    }

    def evolve(self, state: dict, event):
        if event.type == "revealed":
            assert "card" not in event.data, "a version-1 event reached the fold"
            state["scores"][event.data["seat"]] += 1
            state["revealed"].append(event.data["shown"])
            return state
        return super().evolve(state, event)

    def handle(self, state, decision, command, rng):
        events = super().handle(state, decision, command, rng)
        return [
            type(e)("revealed", {"seat": e.data["seat"], "shown": e.data["card"]}, e.visible_to)
            if e.type == "revealed"
            else e
            for e in events
        ]


def test_a_game_stored_under_rules_version_1_replays_under_version_2(api, settings):
    game = api.create()
    version = game["version"]
    for seat in (0, 1, 0):
        response = api.move(game, seat, {"type": "reveal"}, version)
        assert response.status_code == 200, response.get_json()
        version = response.get_json()["version"]
    before = api.client.get(f"/v1/games/{game['id']}/state", headers=api.key).get_json()
    stored = api.client.get(f"/v1/games/{game['id']}/events", headers=api.key).get_json()
    assert stored["events"][0]["data"]["rules_version"] == 1
    assert "card" in next(e for e in stored["events"] if e["type"] == "revealed")["data"]

    upgraded = create_app(settings, extra_rulesets=[SecretCardsV2()]).test_client()
    verify = upgraded.get(f"/v1/games/{game['id']}/verify", headers=api.key).get_json()
    assert verify["valid"], verify["checks"]
    after = upgraded.get(f"/v1/games/{game['id']}/state", headers=api.key).get_json()
    assert after["state"] == before["state"]
    # The upgraded release goes on writing the new shape after the old one.
    tokens = {"X-Seat-Token": game["tokens"][1], "If-Match": f'"{version}"'}
    moved = upgraded.post(
        f"/v1/games/{game['id']}/moves", json={"command": {"type": "reveal"}}, headers=tokens
    )
    assert moved.status_code == 200, moved.get_json()
    written = moved.get_json()["events"]
    assert written[0]["type"] == "rules_upgraded" and written[0]["data"] == {"from": 1, "to": 2}
    revealed = next(e for e in written if e["type"] == "revealed")
    assert set(revealed["data"]) == {"seat", "shown"}
    # A fresh process (no cached state) folds the mixed log: old shapes upcast, new not.
    fresh = create_app(settings, extra_rulesets=[SecretCardsV2()]).test_client()
    final = fresh.get(f"/v1/games/{game['id']}/state", headers=api.key).get_json()
    assert final["state"]["revealed"] == [*before["state"]["revealed"], revealed["data"]["shown"]]
    assert fresh.get(f"/v1/games/{game['id']}/verify", headers=api.key).get_json()["valid"]

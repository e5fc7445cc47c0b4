"""The secrecy checks, for every ruleset the service offers: each seat and a spectator
read state, events and ``state?at=`` over HTTP, and folding the log exactly as that
viewer received it gives exactly the view the server shows it; every event hidden from
the viewer reads as its ruleset's declared redaction, nothing more."""

from __future__ import annotations

import json
import random

import pytest

from service.rules.core import Event
from service.rules.registry import all_rulesets
from tests.api.conftest import Api
from tests.fixtures import council, secret_cards

#: options that make each ruleset keep secrets where it has any
SECRET_OPTIONS = {"carcassonne": {"expansions": ["hills_sheep"]}}
RULESETS = [*all_rulesets(), secret_cards.RULESET, council.RULESET]
MOVES = 60
#: where 60 random moves may hold no secret, its seed (and so its draws and dice)
#: differing from run to run: a Catan game's first card bought or stolen can come later,
#: and Hills & Sheep hides a tile only under a hill, which 60 moves (about 24 turns)
#: sometimes never draw (CI saw it once)
MOVES_FOR = {"catan": 400, "carcassonne": 200}


def received(api: Api, game_id: str, headers: dict) -> list[dict]:
    return api.client.get(
        f"/v1/games/{game_id}/events", headers=headers, query_string={"limit": 1000}
    ).get_json()["events"]


def as_events(items: list[dict]) -> list[Event]:
    return [Event(e["type"], e["data"], tuple(e["visibility"] or ()) or None) for e in items]


def play(api: Api, ruleset, game: dict, moves: int) -> int:
    """Each awaited seat plays its random bot, deciding on its own fold of its own log
    (as a third-party client would); the version reached."""
    version, awaiting = game["version"], game["awaiting"]
    rng = random.Random(7)
    for _ in range(moves):
        if not awaiting:
            break
        seat = awaiting[0]["seat"]
        headers = {"X-Seat-Token": game["tokens"][seat]}
        state = ruleset.fold(as_events(received(api, game["id"], headers)))
        command = ruleset.bot_command(state, seat, "random", rng)
        response = api.move(game, seat, command, version)
        assert response.status_code == 200, response.get_json()
        version, awaiting = response.get_json()["version"], response.get_json()["awaiting"]
    return version


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)
def test_every_viewers_fold_of_what_it_received_is_the_view_it_is_shown(api, ruleset):
    seats = [{"name": f"p{i}"} for i in range(ruleset.min_seats + 1)]
    game = api.create(ruleset.name, seats=seats, options=SECRET_OPTIONS.get(ruleset.name, {}))
    version = play(api, ruleset, game, MOVES_FOR.get(ruleset.name, MOVES))
    viewers = [(seat, {"X-Seat-Token": token}) for seat, token in game["tokens"].items()]
    viewers.append((None, api.key))
    hidden_somewhere = 0
    for seat, headers in viewers:
        items = received(api, game["id"], headers)
        assert [e["seq"] for e in items] == list(range(1, version + 1))
        for item in items:
            if item["redacted"]:
                hidden_somewhere += 1
                assert seat not in (item["visibility"] or [])
        events = as_events(items)
        for at in sorted({2, version // 2, version}):
            shown = api.client.get(
                f"/v1/games/{game['id']}/state", headers=headers, query_string={"at": at}
            ).get_json()
            folded = ruleset.view(ruleset.fold(events[:at]), seat)
            assert shown["state"] == json.loads(json.dumps(folded)), (seat, at)
    if ruleset.secrets:
        assert hidden_somewhere, f"{ruleset.name}: no secret was exercised"

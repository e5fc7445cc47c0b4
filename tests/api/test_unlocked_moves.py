"""A move decided on what a worker knows of its game and written in one statement,
without the row lock (``GameService._submit_unlocked``): taken when the worker's
knowledge is current, and decided again under the lock, with the answers of the locked
path, when another worker has moved the game on since."""

from __future__ import annotations

import pytest

from service.app.games import GameService
from tests.api.conftest import Api
from tests.api.test_errors import assert_problem


@pytest.fixture
def other(settings, api_key) -> Api:
    """A second worker: its own app, with its own knowledge of the games."""
    from service.api import create_app
    from tests.fixtures import council, secret_cards

    app = create_app(settings, extra_rulesets=[secret_cards.RULESET, council.RULESET])
    yield Api(app.test_client(), api_key)
    app.extensions["tilegames"].db.close()


@pytest.fixture
def locks(api, monkeypatch) -> list[str]:
    """The games the first worker locked to write (its locked path)."""
    games: GameService = api.client.application.extensions["tilegames"].games
    locked, taken = games._locked, []

    def counted(conn, game_id):
        taken.append(game_id)
        return locked(conn, game_id)

    monkeypatch.setattr(games, "_locked", counted)
    return taken


def summary(api: Api, game: dict) -> dict:
    return api.client.get(f"/v1/games/{game['id']}", headers=api.key).get_json()


def test_a_worker_that_knows_the_game_moves_without_the_lock(api, locks):
    game = api.create(options={"rounds": 3})
    first = api.move(game, 0, {"type": "reveal"}, game["version"], **{"Idempotency-Key": "u1"})
    second = api.move(game, 1, {"type": "keep"}, first.get_json()["version"])
    assert first.status_code == second.status_code == 200
    assert locks == []
    again = api.move(game, 0, {"type": "reveal"}, game["version"], **{"Idempotency-Key": "u1"})
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()
    assert summary(api, game)["version"] == second.get_json()["version"]


def test_a_refusal_decided_on_stale_knowledge_is_decided_again_under_the_lock(api, other, locks):
    game = api.create(options={"rounds": 3})
    version = api.move(game, 0, {"type": "keep"}, game["version"]).get_json()["version"]
    # Another worker plays seat 1: this worker still knows the game at seat 1's turn,
    # where seat 0's move is not_your_turn; at the game as it is, the version is stale.
    assert other.move(game, 1, {"type": "keep"}, version).status_code == 200
    assert_problem(api.move(game, 0, {"type": "reveal"}, version), 409, "version_conflict")
    assert locks == [game["id"]]


def test_a_move_naming_only_its_decision_is_decided_under_the_lock(api, locks):
    game = api.create(options={"rounds": 3})
    (decision,) = [d["id"] for d in game["awaiting"] if d["seat"] == 0]
    answer = api.client.post(
        f"/v1/games/{game['id']}/moves",
        json={"command": {"type": "keep"}, "decision": decision},
        headers={"X-Seat-Token": game["tokens"][0]},
    )
    assert answer.status_code == 200, answer.get_json()
    assert locks == [game["id"]]


def test_a_stale_version_known_to_the_worker_is_still_a_conflict(api, other, locks):
    game = api.create(options={"rounds": 3})
    version = api.move(game, 0, {"type": "keep"}, game["version"]).get_json()["version"]
    # Seat 1 sends the version this worker knows; another worker wrote seat 1's move
    # at that version first: the lock-free write finds the game moved on.
    assert other.move(game, 1, {"type": "keep"}, version).status_code == 200
    assert_problem(api.move(game, 1, {"type": "reveal"}, version), 409, "version_conflict")
    assert locks == [game["id"]]
    events = api.client.get(f"/v1/games/{game['id']}/events", headers=api.key).get_json()
    assert [e["seq"] for e in events["events"]] == list(range(1, events["version"] + 1))
    assert api.client.get(f"/v1/games/{game['id']}/verify", headers=api.key).get_json()["valid"]


def test_a_retry_of_a_move_written_by_another_worker_replays_its_answer(api, other):
    game = api.create(options={"rounds": 3})
    key = {"Idempotency-Key": "u4"}
    first = other.move(game, 0, {"type": "reveal"}, game["version"], **key)
    # This worker still knows the game at the version the retry names: it decides
    # the move again, its write finds the key taken or the version gone, and the
    # locked path replays the first answer.
    again = api.move(game, 0, {"type": "reveal"}, game["version"], **key)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_data() == first.get_data()
    assert summary(api, game)["version"] == first.get_json()["version"]


def test_verify_reads_the_row_and_the_log_of_one_moment_while_moves_go_on(api, other, monkeypatch):
    """A move committed by another worker between verify's read of the game row and its
    read of the log does not make a good log look longer than its game."""
    game = api.create(options={"rounds": 3})
    games: GameService = api.client.application.extensions["tilegames"].games
    load_game, versions = games.load_game, []

    def then_another_worker_moves(conn, game_id, lock=False):
        row = load_game(conn, game_id, lock)
        moved = other.move(game, 0, {"type": "reveal"}, row.version)
        assert moved.status_code == 200, moved.get_json()
        versions.append(moved.get_json()["version"])
        return row

    monkeypatch.setattr(games, "load_game", then_another_worker_moves)
    verified = api.client.get(f"/v1/games/{game['id']}/verify", headers=api.key).get_json()
    assert verified["valid"], verified["checks"]
    assert verified["version"] == verified["events"] == game["version"]
    monkeypatch.undo()
    after = api.client.get(f"/v1/games/{game['id']}/verify", headers=api.key).get_json()
    assert after["valid"] and after["version"] == versions[0] > game["version"]

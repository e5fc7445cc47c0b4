"""Decisions over HTTP: several seats awaited at once, each answering its own decision
by id whatever the others wrote meanwhile; a closed decision is refused like a stale
version; interrupt and resume (an objection suspends the votes)."""

from __future__ import annotations

from tests.api.conftest import Api
from tests.fixtures.council import RULESET as COUNCIL


def create_council(api: Api, seats: int = 3) -> dict:
    return api.create("council", seats=[{"name": f"s{i}"} for i in range(seats)])


def vote(api: Api, game: dict, seat: int, decision: str | None, choice: str = "yes", **body):
    payload = {"command": {"type": "vote", "vote": choice}, **body}
    if decision is not None:
        payload["decision"] = decision
    return api.client.post(
        f"/v1/games/{game['id']}/moves",
        json=payload,
        headers={"X-Seat-Token": game["tokens"][seat]},
    )


def decision_of(awaiting: list[dict], seat: int, kind: str = "vote") -> str:
    return next(d["id"] for d in awaiting if d["seat"] == seat and d["kind"] == kind)


def test_every_seat_of_a_simultaneous_decision_is_awaited_at_once(api):
    game = create_council(api)
    votes = [d for d in game["awaiting"] if d["kind"] == "vote"]
    assert [d["seat"] for d in votes] == [0, 1, 2]
    assert len({d["id"] for d in votes}) == 3
    assert all(d["commands"] == ["vote", "object"] and d["decision"] == "vote" for d in votes)


def test_legal_moves_list_each_open_decision_of_the_seat_with_its_id(api):
    game = create_council(api)
    response = api.client.get(
        f"/v1/games/{game['id']}/legal-moves", headers={"X-Seat-Token": game["tokens"][1]}
    )
    assert response.status_code == 200
    commands = response.get_json()["commands"]
    assert commands == {
        "seat": 1,
        "decisions": [
            {
                "id": decision_of(game["awaiting"], 1),
                "kind": "vote",
                "commands": {"vote": {"vote": ["yes", "no"]}, "object": {}},
            }
        ],
    }


def test_a_seat_answering_its_open_decision_succeeds_after_another_seat_has_moved(api):
    game = create_council(api)
    first = vote(api, game, 0, decision_of(game["awaiting"], 0))
    assert first.status_code == 200, first.get_json()
    # Seat 1 decided on the first version and names only its decision: still open.
    second = vote(api, game, 1, decision_of(game["awaiting"], 1), "no")
    assert second.status_code == 200, second.get_json()
    assert second.get_json()["version"] == first.get_json()["version"] + 1


def test_the_version_alone_still_conflicts_when_another_seat_has_moved(api):
    game = create_council(api)
    assert vote(api, game, 0, None, expected_version=game["version"]).status_code == 200
    stale = vote(api, game, 1, None, expected_version=game["version"])
    assert stale.status_code == 409 and stale.get_json()["code"] == "version_conflict"


def test_a_command_naming_a_closed_decision_is_409_decision_closed_and_writes_nothing(api):
    game = create_council(api)
    mine = decision_of(game["awaiting"], 0)
    done = vote(api, game, 0, mine)
    assert done.status_code == 200
    again = vote(api, game, 0, mine, "no")
    body = again.get_json()
    assert again.status_code == 409 and body["code"] == "decision_closed"
    assert body["current_version"] == done.get_json()["version"]
    assert body["rule"] == "A command that names a decision must answer one that is still open."
    summary = api.client.get(f"/v1/games/{game['id']}", headers=api.key).get_json()
    assert summary["version"] == done.get_json()["version"]


def test_naming_another_seats_open_decision_is_not_your_turn(api):
    game = create_council(api)
    response = vote(api, game, 1, decision_of(game["awaiting"], 0))
    assert response.status_code == 409 and response.get_json()["code"] == "not_your_turn"


def test_version_and_decision_together_must_both_hold(api):
    game = create_council(api)
    assert vote(api, game, 0, decision_of(game["awaiting"], 0)).status_code == 200
    both = vote(api, game, 1, decision_of(game["awaiting"], 1), expected_version=game["version"])
    assert both.status_code == 409 and both.get_json()["code"] == "version_conflict"


def test_a_move_without_version_or_decision_is_428(api):
    game = create_council(api)
    response = vote(api, game, 0, None)
    assert response.status_code == 428
    assert response.get_json()["code"] == "precondition_required"


def test_the_queued_tally_opens_once_every_vote_is_in(api):
    game = create_council(api, seats=2)
    vote(api, game, 0, decision_of(game["awaiting"], 0))
    last = vote(api, game, 1, decision_of(game["awaiting"], 1)).get_json()
    assert [(d["seat"], d["kind"]) for d in last["awaiting"]] == [(0, "tally")]


def test_an_objection_interrupts_the_votes_which_resume_after_the_rulings(api):
    game = create_council(api)
    vote(api, game, 1, decision_of(game["awaiting"], 1))
    objected = api.client.post(
        f"/v1/games/{game['id']}/moves",
        json={"command": {"type": "object"}, "decision": decision_of(game["awaiting"], 0)},
        headers={"X-Seat-Token": game["tokens"][0]},
    ).get_json()
    assert [(d["seat"], d["kind"]) for d in objected["awaiting"]] == [(1, "ruling"), (2, "ruling")]
    awaiting = objected["awaiting"]
    for seat in (2, 1):
        response = api.client.post(
            f"/v1/games/{game['id']}/moves",
            json={
                "command": {"type": "sustain"},
                "decision": decision_of(awaiting, seat, "ruling"),
            },
            headers={"X-Seat-Token": game["tokens"][seat]},
        )
        assert response.status_code == 200, response.get_json()
        awaiting = response.get_json()["awaiting"]
    # The votes still owed (seats 0 and 2; seat 1 had voted) are open again.
    assert [(d["seat"], d["kind"]) for d in awaiting] == [(0, "vote"), (2, "vote")]


def test_another_seats_secret_vote_is_redacted_in_its_events(api):
    game = create_council(api)
    vote(api, game, 0, decision_of(game["awaiting"], 0), "no")
    events = api.client.get(
        f"/v1/games/{game['id']}/events", headers={"X-Seat-Token": game["tokens"][1]}
    ).get_json()["events"]
    voted = next(e for e in events if e["type"] == "voted")
    assert voted["redacted"] and voted["data"] == {"seat": 0}
    assert COUNCIL.secrets["voted"]({"seat": 0, "vote": "no"}, 1) == {"seat": 0}

"""The cap on open event streams per credential, where a stream holds its thread
(outside the service's gunicorn worker: here Flask's test client): one stream more
than the cap is a 429 problem, and a stream's place is free again once it closes."""

from __future__ import annotations

from service.api import create_app
from service.app.seats import hash_token
from service.config import Settings
from tests.api.test_errors import assert_problem
from tests.fixtures import secret_cards


def test_streams_over_the_cap_get_429_and_a_closed_one_frees_its_place(database_url, api_key):
    settings = Settings(
        database_url=database_url, sse_streams_per_credential=2, sse_poll_seconds=0.1
    )
    app = create_app(settings, extra_rulesets=[secret_cards.RULESET])
    client = app.test_client()
    key = {"X-API-Key": api_key}
    created = client.post(
        "/v1/games", json={"ruleset": "secret-cards", "seats": [{}, {}]}, headers=key
    ).get_json()
    path = f"/v1/games/{created['id']}/events"
    seat = {"X-Seat-Token": created["seat_tokens"][0]["token"], "Accept": "text/event-stream"}
    first, second = (client.get(path, headers=seat, buffered=False) for _ in range(2))
    assert first.status_code == second.status_code == 200
    assert next(first.response) == b"retry: 1000\n\n"  # a stream, not yet read to its end
    refused = client.get(path, headers=seat, buffered=False)
    problem = assert_problem(refused, 429, "too_many_streams")
    assert "2 event streams" in problem["detail"] and refused.headers["Retry-After"]
    # an API key is another credential, with places of its own
    spectator = client.get(path, headers={**key, "Accept": "text/event-stream"}, buffered=False)
    assert spectator.status_code == 200
    first.close()  # the client went away
    third = client.get(path, headers=seat, buffered=False)
    assert third.status_code == 200
    for response in (second, third, spectator):
        response.close()
    token = created["seat_tokens"][0]["token"]
    assert app.extensions["tilegames"].stream_slots.open_for(f"seat:{hash_token(token)}") == 0
    app.extensions["tilegames"].db.close()

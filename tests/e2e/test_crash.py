"""A worker killed inside a command's transaction leaves all of its events or none."""

from __future__ import annotations

import os
import signal
import threading
import time

import requests

from tests.client import Client


def test_worker_killed_mid_transaction_leaves_no_partial_write(server, api_key):
    client = Client(server.url, api_key)
    game = client.create("secret-cards", [{}, {}])
    token, version = game["seat_tokens"][0]["token"], game["version"]
    answers: list = []

    def doomed() -> None:
        try:
            answers.append(
                client.move(
                    game["id"],
                    token,
                    {"type": "reveal"},
                    version,
                    key="crash",
                    **{"X-Test-Pause": "before-commit"},
                )
            )
        except requests.ConnectionError as exc:
            answers.append(exc)

    thread = threading.Thread(target=doomed)
    thread.start()
    deadline = time.monotonic() + 20
    while not any(server.pause_dir.glob("*")) and time.monotonic() < deadline:
        time.sleep(0.05)
    (marker,) = server.pause_dir.glob("*")
    # The worker has inserted the move's three events and is paused before COMMIT.
    os.kill(int(marker.name), signal.SIGKILL)
    marker.unlink()
    thread.join(30)
    assert answers and not (hasattr(answers[0], "status_code") and answers[0].status_code == 200)

    summary = client.get(f"/v1/games/{game['id']}").json()
    assert summary["version"] == version
    assert [e["seq"] for e in client.all_events(game["id"])] == list(range(1, version + 1))

    # Nothing was stored under the key either: the same request now succeeds, once.
    retry = client.move(game["id"], token, {"type": "reveal"}, version, key="crash")
    assert retry.status_code == 200 and retry.json()["version"] == version + 3
    assert client.get(f"/v1/games/{game['id']}/verify").json()["valid"]

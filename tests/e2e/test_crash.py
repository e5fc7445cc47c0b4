"""A worker killed inside a command's transaction leaves all of its events or none; a
worker that leaves leaves the others working."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path
from unittest.mock import patch

import requests

from tests.client import Client
from tests.conftest import Server


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


def workers_of(master: int) -> list[int]:
    """The gunicorn master's worker processes, from /proc."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        if int(fields[1]) == master:
            found.append(int(stat.parent.name))
    return found


def test_a_worker_that_leaves_leaves_the_metrics_to_the_others(database_url, tmp_path):
    """A worker stopped on its own (a timeout, a reload, a signal) goes through the
    service's start-up code on its way out, having been forked inside it: it must not
    take the shared metrics directory with it, or every later request fails (500)."""
    environment = {k: v for k, v in os.environ.items() if k != "PROMETHEUS_MULTIPROC_DIR"}
    with patch.dict(os.environ, environment, clear=True):
        served = Server(database_url, tmp_path, workers=2)
    try:
        before = workers_of(served.process.pid)
        assert len(before) == 2
        os.kill(before[0], signal.SIGTERM)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            now = workers_of(served.process.pid)
            if len(now) == 2 and before[0] not in now:
                break  # replaced
            time.sleep(0.1)
        for _ in range(6):  # both workers answer, the new one included
            assert requests.get(served.url + "/v1/rulesets", timeout=5).status_code == 200
            assert requests.get(served.url + "/metrics", timeout=5).status_code == 200
    finally:
        served.stop()

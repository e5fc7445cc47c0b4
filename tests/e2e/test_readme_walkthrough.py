"""The README's "Play a game with curl" runs as written, against gunicorn: its shell
block is taken from the README itself, with only the service's address and the API key
put in, so the walk-through cannot drift from the service."""

from __future__ import annotations

import json
import re
import subprocess

import requests

from tests.conftest import REPO

ADDRESS = "B=http://127.0.0.1:8000"
KEY = "KEY=$(cat var/dev-api-key)"


def walkthrough() -> str:
    """The first ``sh`` block after the heading "Play a game with curl"."""
    readme = (REPO / "README.md").read_text()
    section = readme[readme.index("## Play a game with curl") :]
    found = re.search(r"```sh\n(.*?)```", section, re.DOTALL)
    assert found, "README: no sh block under 'Play a game with curl'"
    return found.group(1)


def test_the_readme_walkthrough_plays_a_move_and_the_bots_answer(server, api_key, tmp_path):
    script = walkthrough()
    assert script.count(ADDRESS) == 1 and script.count(KEY) == 1
    script = script.replace(ADDRESS, f"B={server.url}").replace(KEY, f"KEY={api_key}")
    # The live stream runs until the server ends it: cut it after a moment.
    script, streams = re.subn(
        r"^curl -N (.*)$", r"curl -N --max-time 2 \1 || [ $? -eq 28 ]", script, flags=re.M
    )
    assert streams == 1
    run = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert re.search(r'^ETag: "3"', run.stdout, re.M), run.stdout[-3000:]

    # curl -s answers 0 on a 4xx as well: the game itself says what the moves did.
    game_id = json.loads((tmp_path / "game.json").read_text())["id"]
    events = requests.get(
        f"{server.url}/v1/games/{game_id}/events", headers={"X-API-Key": api_key}, timeout=10
    ).json()["events"]
    placed = [e["data"]["seat"] for e in events if e["type"] == "tile_placed"]
    assert placed[:2] == [0, 1], events  # our tile, then the bot's after our "skip"
    assert events[2]["seq"] == 3 and events[2]["type"] == "tile_placed"
    assert '"valid":true' in run.stdout.replace(" ", "")  # the walk-through's verify

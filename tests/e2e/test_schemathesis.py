"""Bad input: schemathesis fuzzes every operation of the committed OpenAPI document
against a live gunicorn and finds no 500 and no response that breaks the schema.

Two runs: one with an API key and random ids, one pinned to a real game with a seat
token, so commands, versions and `?at=`/`?after=` reach the rules and the store.
All three generation phases run (examples, coverage, fuzzing) with one worker: with two,
the coverage phase trips a thread-safety fault in hypothesis's lambda-source cache.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.client import Client

REPO = Path(__file__).resolve().parents[2]
CHECKS = ",".join(
    [
        "not_a_server_error",
        "status_code_conformance",
        "content_type_conformance",
        "response_headers_conformance",
        "response_schema_conformance",
        "negative_data_rejection",
    ]
)


def schemathesis(base_url: str, workdir: Path, headers: list[str], config: str = "") -> str:
    config_file = workdir / "schemathesis.toml"
    config_file.write_text(config)
    result = subprocess.run(
        [
            str(Path(sys.executable).with_name("schemathesis")),
            "--config-file", str(config_file),
            "run", str(REPO / "openapi" / "openapi.yaml"),
            "--url", base_url,
            "--checks", CHECKS,
            "--max-examples", "250",
            "--phases", "examples,coverage,fuzzing",
            "--seed", "20261121",
            "--workers", "1",
            "--request-timeout", "10",
            "--generation-database", "none",
            "--no-color",
            "--suppress-health-check", "all",
            *[arg for header in headers for arg in ("--header", header)],
        ],
        cwd=workdir, capture_output=True, text=True, timeout=240,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-12000:] + result.stderr[-3000:]
    assert "Tested: 21" in result.stdout and "generated" in result.stdout
    return result.stdout


def test_fuzzing_every_operation_finds_no_500_and_no_schema_violation(server, api_key, tmp_path):
    schemathesis(server.url, tmp_path, [f"X-API-Key: {api_key}"])


def test_fuzzing_a_real_game_as_its_seat_finds_no_500_and_no_schema_violation(
    server, api_key, tmp_path
):
    game = Client(server.url, api_key).create("carcassonne", [{}, {"bot": "random"}])
    token = game["seat_tokens"][0]["token"]
    config = f'[parameters]\n"path.game_id" = "{game["id"]}"\n'
    schemathesis(server.url, tmp_path, [f"X-API-Key: {api_key}", f"X-Seat-Token: {token}"], config)

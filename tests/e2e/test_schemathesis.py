"""Bad input: schemathesis fuzzes every operation of the committed OpenAPI document
against a live gunicorn and finds no 500 and no response that breaks the schema."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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


def test_fuzzing_the_committed_openapi_finds_no_500_and_no_schema_violation(
    server, api_key, tmp_path
):
    schemathesis = Path(sys.executable).with_name("schemathesis")
    result = subprocess.run(
        [
            str(schemathesis),
            "run",
            str(REPO / "openapi" / "openapi.yaml"),
            "--url",
            server.url,
            "--checks",
            CHECKS,
            "--max-examples",
            "300",
            "--phases",
            "examples,fuzzing",
            "--seed",
            "20261121",
            "--header",
            f"X-API-Key: {api_key}",
            "--workers",
            "2",
            "--request-timeout",
            "10",
            "--generation-database",
            "none",
            "--no-color",
            "--suppress-health-check",
            "all",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert result.returncode == 0, result.stdout[-12000:] + result.stderr[-3000:]
    assert "Tested: 12" in result.stdout and "generated" in result.stdout

"""The rules core is a library of its own: its tests import and run with none of the
service's dependencies installed (no psycopg, Flask, marshmallow or requests)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

BLOCKED = ("psycopg", "psycopg_pool", "flask", "flask_smorest", "marshmallow", "requests")

RUNNER = f"""
import sys
for name in {BLOCKED!r}:
    sys.modules[name] = None  # importing it now raises ImportError, as if not installed
import pytest
collected = pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", "tests/rules"])
ran = pytest.main(["-q", "-p", "no:cacheprovider", "tests/rules/test_core.py"])
sys.exit(collected or ran)
"""


def test_every_rules_test_imports_and_the_core_tests_pass_without_the_service_stack():
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    done = subprocess.run(
        [sys.executable, "-c", RUNNER],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert " passed" in done.stdout.splitlines()[-1]

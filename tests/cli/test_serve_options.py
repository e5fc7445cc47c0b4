"""``tilegames serve`` migrates at start unless told not to, by flag or by
``AUTO_MIGRATE=0`` (what the Helm chart's pods run with: its Job migrates)."""

from __future__ import annotations

import pytest

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

"""A query string names each parameter once: ``?at=1&at=2`` would be read as its first
value here and as its last by other readers (a proxy, a cache, a log), as a JSON body's
repeated key would (``duplicate_key``), so it is refused rather than guessed at."""

from __future__ import annotations

from flask import Flask, request

from service.app.errors import ValidationFailed


def check_query() -> None:
    """``before_request``: 422 ``validation_error`` naming a parameter given twice."""
    for name, values in request.args.lists():
        if len(values) > 1:
            raise ValidationFailed(name, f"given {len(values)} times: give it once")


def register(app: Flask) -> None:
    app.before_request(check_query)

"""A test-only pause point inside the command transaction.

Crash-safety tests need a worker that is provably *inside* the transaction when it is
killed. With ``TILEGAMES_TEST_PAUSE_DIR`` set (never in production), a request carrying
``X-Test-Pause: before-commit`` writes ``<dir>/<pid>`` after its events are inserted and
then sleeps before committing, so the test can ``kill -9`` that pid.
"""

from __future__ import annotations

import os
import time
from contextvars import ContextVar
from pathlib import Path

PAUSE_DIR_ENV = "TILEGAMES_TEST_PAUSE_DIR"
_requested: ContextVar[str | None] = ContextVar("pause_requested", default=None)


def enabled() -> bool:
    return bool(os.environ.get(PAUSE_DIR_ENV))


def request_pause(point: str | None) -> None:
    _requested.set(point if enabled() else None)


def pause_point(point: str) -> None:
    if _requested.get() != point or not enabled():
        return
    directory = Path(os.environ[PAUSE_DIR_ENV])
    directory.mkdir(parents=True, exist_ok=True)
    (directory / str(os.getpid())).write_text(point)
    time.sleep(float(os.environ.get("TILEGAMES_TEST_PAUSE_SECONDS", "30")))


def pausing() -> bool:
    """Whether this request asked for a pause (it must then run in a transaction)."""
    return _requested.get() is not None

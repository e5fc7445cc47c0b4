"""bench/memory_bench.py fills the worker's state cache the way the service does; it
broke once unnoticed when the cache's entry gained a field, so it is run here small."""

from __future__ import annotations

import sys

from tests.conftest import REPO


def test_memory_bench_fills_the_cache_with_every_game(monkeypatch) -> None:
    monkeypatch.syspath_prepend(str(REPO / "bench"))
    sys.modules.pop("memory_bench", None)
    import memory_bench

    result = memory_bench.measure("carcassonne", games=12, distinct=2)

    assert result["games_cached"] == 12
    assert result["average_events_folded"] > 0

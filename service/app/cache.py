"""An in-process LRU of folded states, to avoid refolding a whole log on every move.

Never the truth: an entry is only stored after its version committed, and callers
take :meth:`Ruleset.copy_state` before evolving it (``evolve`` may mutate in place).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any


class StateCache:
    def __init__(self, capacity: int = 512) -> None:
        self.capacity = capacity
        self._entries: OrderedDict[str, tuple[int, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str, max_version: int) -> tuple[int, Any] | None:
        """The cached (version, state) of ``game_id`` if its version is <= ``max_version``."""
        with self._lock:
            entry = self._entries.get(game_id)
            if entry is None or entry[0] > max_version:
                return None
            self._entries.move_to_end(game_id)
            return entry

    def put(self, game_id: str, version: int, state: Any) -> None:
        if self.capacity <= 0:
            return
        with self._lock:
            current = self._entries.get(game_id)
            if current is not None and current[0] > version:
                return
            self._entries[game_id] = (version, state)
            self._entries.move_to_end(game_id)
            while len(self._entries) > self.capacity:
                self._entries.popitem(last=False)

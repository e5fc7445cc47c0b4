"""An in-process LRU of folded states, to avoid refolding a whole log on every request.

Never the truth: an entry is only stored after its version committed.

A cached state is shared, never copied, by the requests that read it at its version
(reads never change a state: tests/rules/test_reads_are_pure.py), and handed whole to
the one request that moves the game on (the game row's lock makes it the only writer),
which evolves it in place: so a move copies no state. Readers hold a state through
:meth:`StateCache.reading`, so that a writer never changes a state under a reader's
feet: while any reader holds it, the writer gets a copy instead.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


class _Entry:
    __slots__ = ("version", "value", "readers")

    def __init__(self, version: int, value: Any) -> None:
        self.version = version
        self.value = value
        #: requests reading ``value`` now
        self.readers = 0


class StateCache:
    def __init__(self, capacity: int = 512) -> None:
        self.capacity = capacity
        self._entries: OrderedDict[str, _Entry] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    @contextmanager
    def reading(self, game_id: str, max_version: int) -> Iterator[tuple[int, Any] | None]:
        """The cached ``(version, state)`` of ``game_id`` if its version is at most
        ``max_version``, else ``None``: to read, or to copy, never to change; no writer
        takes it while the block runs."""
        with self._lock:
            entry = self._entries.get(game_id)
            if entry is None or entry.version > max_version:
                entry = None
            else:
                entry.readers += 1
                self._entries.move_to_end(game_id)
        try:
            yield None if entry is None else (entry.version, entry.value)
        finally:
            if entry is not None:
                with self._lock:
                    entry.readers -= 1

    def take(
        self, game_id: str, max_version: int, copy: Callable[[Any], Any]
    ) -> tuple[int, Any] | None:
        """For the writer of ``game_id``: the cached ``(version, state)`` if its version
        is at most ``max_version``, the state its own to change. That is the cached object
        itself, gone from the cache until the writer puts its next version, unless a
        reader holds it: then ``copy(state)``, and the entry stays for the readers."""
        with self._lock:
            entry = self._entries.get(game_id)
            if entry is None or entry.version > max_version:
                return None
            if entry.readers == 0:
                del self._entries[game_id]
                return entry.version, entry.value
            entry.readers += 1  # copying reads it
        try:
            return entry.version, copy(entry.value)
        finally:
            with self._lock:
                entry.readers -= 1

    def put(self, game_id: str, version: int, state: Any) -> None:
        """Remember ``state`` at ``version``, unless a later version is cached. The
        caller gives the state away: from now on, readers share it and a writer may
        take it."""
        if self.capacity <= 0:
            return
        with self._lock:
            current = self._entries.get(game_id)
            if current is not None and current.version > version:
                return
            self._entries[game_id] = _Entry(version, state)
            self._entries.move_to_end(game_id)
            while len(self._entries) > self.capacity:
                self._entries.popitem(last=False)

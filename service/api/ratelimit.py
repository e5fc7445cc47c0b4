"""Rate-limit storage: the ``memory://`` counters without a thread per request.

``limits``' :class:`MemoryStorage` starts a fresh ``threading.Timer(0.01)`` to sweep
expired keys whenever the previous one has finished, which under steady traffic means
starting a thread on nearly every request. Expiry never depends on that sweep (a
counter is checked against its expiry when read, a moving window against its entries'
times), so sweeping at most once a second keeps the same limits and bounds memory the
same way, for a fraction of the cost.
"""

from __future__ import annotations

import threading

from limits.storage import MemoryStorage

MEMORY_SCHEME = "tilegames-memory"
SWEEP_SECONDS = 1.0


class SweptMemoryStorage(MemoryStorage):
    """:class:`MemoryStorage` whose sweeper runs at most once per ``SWEEP_SECONDS``."""

    STORAGE_SCHEME = [MEMORY_SCHEME]

    def _MemoryStorage__schedule_expiry(self) -> None:  # overrides the private hook
        if not self.timer.is_alive():
            self.timer = threading.Timer(SWEEP_SECONDS, self._MemoryStorage__expire_events)
            self.timer.daemon = True
            self.timer.start()


def storage_uri(configured: str) -> str:
    """The storage to use for a configured URI: ours in place of plain ``memory://``."""
    return f"{MEMORY_SCHEME}://" if configured == "memory://" else configured

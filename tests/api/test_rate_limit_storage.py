"""The in-process rate-limit storage: the same limits as `limits`' own, a cheaper sweeper."""

from limits import parse
from limits.strategies import FixedWindowRateLimiter

from service.api.ratelimit import MEMORY_SCHEME, SWEEP_SECONDS, SweptMemoryStorage, storage_uri


def test_memory_storage_counts_as_before_and_sweeps_at_most_once_a_second():
    storage = SweptMemoryStorage(f"{MEMORY_SCHEME}://")
    constructors_sweep = storage.timer
    limiter = FixedWindowRateLimiter(storage)
    limit = parse("3 per minute")
    assert [limiter.hit(limit, "key") for _ in range(4)] == [True, True, True, False]
    # The constructor's own 10 ms sweep is over (waited for, not slept through: on a
    # busy machine its thread may not have run 50 ms later).
    constructors_sweep.join(10)
    assert not constructors_sweep.is_alive()
    assert limiter.hit(limit, "another key")
    # The override is in force (a renamed private hook in `limits` would fail here):
    # one slow sweeper thread, not a 10 ms timer per request.
    assert storage.timer.interval == SWEEP_SECONDS and storage.timer.is_alive()


def test_only_the_plain_memory_storage_is_replaced():
    assert storage_uri("memory://") == f"{MEMORY_SCHEME}://"
    assert storage_uri("redis://127.0.0.1:6379") == "redis://127.0.0.1:6379"

"""The per-process cache of folded states: readers share a state, the writer takes it
whole, and never while someone reads it."""

from __future__ import annotations

import copy

from service.app.cache import StateCache


def test_readers_share_the_cached_state_without_a_copy():
    cache = StateCache()
    state = {"tiles": [1, 2]}
    cache.put("g", 3, state)
    with cache.reading("g", 3) as first, cache.reading("g", 5) as second:
        assert first == (3, state) and first[1] is state and second[1] is state


def test_a_reader_asking_for_an_earlier_version_gets_nothing():
    cache = StateCache()
    cache.put("g", 3, {})
    with cache.reading("g", 2) as found:
        assert found is None


def test_the_writer_takes_the_cached_state_itself_and_the_cache_forgets_it():
    cache = StateCache()
    state = {"tiles": [1, 2]}
    cache.put("g", 3, state)
    taken = cache.take("g", 3, copy.deepcopy)
    assert taken is not None and taken[1] is state
    with cache.reading("g", 3) as found:
        assert found is None  # until the writer puts its next version
    cache.put("g", 4, state)
    with cache.reading("g", 4) as found:
        assert found == (4, state)


def test_the_writer_gets_a_copy_while_a_reader_holds_the_state():
    cache = StateCache()
    state = {"tiles": [1, 2]}
    cache.put("g", 3, state)
    with cache.reading("g", 3) as read:
        version, mine = cache.take("g", 3, copy.deepcopy)
        mine["tiles"].append(3)
        assert version == 3 and mine is not state
        assert read[1] == {"tiles": [1, 2]}
    with cache.reading("g", 3) as found:
        assert found[1] is state  # still there for the next reader


def test_a_later_version_is_never_replaced_by_an_earlier_one():
    cache = StateCache()
    cache.put("g", 5, "five")
    cache.put("g", 4, "four")
    with cache.reading("g", 9) as found:
        assert found == (5, "five")


def test_the_least_recently_used_game_leaves_first():
    cache = StateCache(capacity=2)
    cache.put("a", 1, "a")
    cache.put("b", 1, "b")
    with cache.reading("a", 1):
        pass
    cache.put("c", 1, "c")
    assert len(cache) == 2
    with cache.reading("b", 1) as found:
        assert found is None

"""The event store on its own: append-only, one winner per version, hash chain."""

from __future__ import annotations

import dataclasses
import hashlib
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from datetime import UTC, datetime

import psycopg
import pytest

from service.store import (
    GENESIS_HASH,
    Command,
    Database,
    EventStore,
    GameRecord,
    NewEvent,
    NewGame,
    StoredEvent,
    VersionConflict,
    event_hash,
)


@pytest.fixture
def db(database_url):
    database = Database(database_url, max_size=25)
    yield database
    database.close()


def new_game(db: Database, events: int = 2) -> str:
    store = EventStore()
    seed = b"s" * 32
    with db.connection() as conn:
        game = store.create_game(
            conn,
            NewGame("test", {}, [{"name": "a"}], seed, hashlib.sha256(seed).hexdigest(), None),
        )
        store.append(conn, game, 0, [NewEvent("e", {"n": i}) for i in range(events)])
    return game.id


def test_database_refuses_update_delete_and_truncate_of_events(db):
    game_id = new_game(db)
    for statement in (
        "UPDATE events SET data = '{}' WHERE game_id = %s",
        "DELETE FROM events WHERE game_id = %s",
        "TRUNCATE events CASCADE",
    ):
        with pytest.raises(psycopg.Error, match="append-only"), db.connection() as conn:
            conn.execute(statement, (game_id,) if "%s" in statement else None)
    with db.connection() as conn:
        assert len(EventStore().read_events(conn, game_id)) == 2


def test_stale_expected_version_raises_conflict_and_writes_nothing(db):
    game_id = new_game(db)
    store = EventStore()
    with pytest.raises(VersionConflict), db.connection() as conn:
        game = store.get_game(conn, game_id, lock=True)
        store.append(conn, game, 1, [NewEvent("late", {})])
    with db.connection() as conn:
        assert [e.seq for e in store.read_events(conn, game_id)] == [1, 2]
        assert store.get_game(conn, game_id).version == 2


def test_each_event_hash_chains_to_the_previous_one(db):
    game_id = new_game(db, events=3)
    with db.connection() as conn:
        events = EventStore().read_events(conn, game_id)
        game = EventStore().get_game(conn, game_id)
    prev = GENESIS_HASH
    for event in events:
        assert event.prev_hash == prev
        assert event.hash == event_hash(prev, game_id, event.seq, event.type, event.data, None)
        prev = event.hash
    assert game.head_hash == prev


def test_a_page_after_any_seq_carries_the_hash_its_first_event_chains_to(db):
    game_id = new_game(db, events=5)
    store = EventStore()
    with db.connection() as conn:
        whole = store.read_events(conn, game_id)
        for after in range(5):
            page = store.read_events(conn, game_id, after=after, limit=2)
            assert page == whole[after : after + 2]
        assert store.read_events(conn, game_id, after=2, upto=3) == whole[2:3]


def test_an_event_is_stored_as_its_compact_canonical_json_and_its_hash_as_32_bytes(db):
    game_id = new_game(db, events=1)
    with db.connection() as conn:
        data, digest = conn.execute(
            "SELECT data::text, hash FROM events WHERE game_id = %s", (game_id,)
        ).fetchone()
        (event,) = EventStore().read_events(conn, game_id)
    assert data == '{"n":0}'
    assert len(digest) == 32 and digest.hex() == event.hash


def test_one_append_stores_more_events_and_commands_than_a_statement_has_parameters(db):
    """Bots may play thousands of commands in one move (a game of bots alone, played as
    it is created, or the rest of a game after its last person resigns): one append
    writes them all, beyond PostgreSQL's 65,535 parameters of a statement."""
    store = EventStore()
    game_id = new_game(db, events=1)
    count = 12_000
    events = [
        NewEvent("step", {"n": n}, visibility=[n % 2] if n % 3 else None) for n in range(count)
    ]
    commands = [
        Command(2 + n, None if n % 5 == 0 else n % 2, {"type": "step", "n": n})
        for n in range(count)
    ]
    with db.connection() as conn:
        game = store.get_game(conn, game_id)
        stored = store.append(conn, game, 1, events, commands=commands, status="finished")
    with db.connection() as conn:
        read = store.read_events(conn, game_id)
        assert read[1:] == stored and [e.seq for e in read] == list(range(1, count + 2))
        assert [(e.data, e.visibility) for e in read[1:]] == [
            (e.data, e.visibility) for e in events
        ]
        assert store.read_commands(conn, game_id) == commands
        game = store.get_game(conn, game_id)
    assert (game.version, game.status, game.head_hash) == (count + 1, "finished", read[-1].hash)


def test_a_lock_sees_what_another_process_wrote_since_it_last_read_the_game(db):
    """A store re-reads only the columns that change when it locks a game it has read
    before: what another worker appended meanwhile is there all the same."""
    game_id = new_game(db)
    mine, other = EventStore(), EventStore()
    with db.connection() as conn:
        before, _ = mine.lock_for_command(conn, game_id)
    with db.connection() as conn:
        game = other.get_game(conn, game_id)
        other.append(conn, game, 2, [NewEvent("elsewhere", {})], status="finished")
    with db.connection() as conn:
        after, _ = mine.lock_for_command(conn, game_id)
        assert after == other.get_game(conn, game_id)
    assert (before.version, after.version, after.status) == (2, 3, "finished")
    assert after.head_hash != before.head_hash and after.seats == before.seats


def race(writers: int, write: Callable[[int], object]) -> list[str]:
    """``write(n)`` for n in range(writers), in as many threads released at once: each
    writer's outcome, "won" or "conflict" (VersionConflict)."""
    barrier, outcomes = threading.Barrier(writers), []

    def attempt(n: int) -> None:
        barrier.wait()
        try:
            write(n)
            outcomes.append("won")
        except VersionConflict:
            outcomes.append("conflict")

    threads = [threading.Thread(target=attempt, args=(n,)) for n in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def test_concurrent_appends_at_one_version_have_exactly_one_winner(db):
    game_id = new_game(db)
    store = EventStore()

    def append(n: int) -> None:
        with db.connection() as conn:
            # Without the row lock, so the primary key and version check decide.
            game = store.get_game(conn, game_id)
            store.append(conn, game, 2, [NewEvent("race", {"n": n}), NewEvent("x", {})])

    outcomes = race(12, append)
    assert outcomes.count("won") == 1 and outcomes.count("conflict") == 11
    with db.connection() as conn:
        assert [e.seq for e in store.read_events(conn, game_id)] == [1, 2, 3, 4]


def write_unlocked(
    db: Database, store: EventStore, game: GameRecord, expected: int, key: str, n: int = 0
) -> list[StoredEvent]:
    """Two events, a command and an idempotency record after ``expected``, written
    without the row lock: one statement in autocommit."""
    chained = store.chain(
        game, expected, [NewEvent("race", {"n": n}), NewEvent("x", {})], datetime.now(UTC)
    )
    with db.connection() as conn:
        conn.autocommit = True
        try:
            store.write(
                conn,
                game,
                expected,
                chained,
                idempotency=(key, "hash", 200, "{}"),
                commands=[Command(expected + 1, 0, {"n": n})],
                unlocked=True,
            )
        finally:
            conn.autocommit = False
    return chained


def rows_of(db: Database, game_id: str) -> tuple[list[int], int, int, int]:
    """(event seqs, game version, commands, idempotency records) of a game."""
    with db.connection() as conn:
        seqs = [e.seq for e in EventStore().read_events(conn, game_id)]
        version = EventStore().get_game(conn, game_id).version
        counts = [
            conn.execute(f"SELECT count(*) FROM {table} WHERE game_id = %s", (game_id,)).fetchone()[
                0
            ]
            for table in ("commands", "idempotency_keys")
        ]
    return seqs, version, *counts


def test_concurrent_unlocked_writes_at_one_version_have_one_winner_and_losers_write_nothing(db):
    game_id = new_game(db)
    store = EventStore()
    with db.connection() as conn:
        game = store.get_game(conn, game_id)

    outcomes = race(12, lambda n: write_unlocked(db, store, game, 2, f"key-{n}", n))
    assert outcomes.count("won") == 1 and outcomes.count("conflict") == 11
    assert rows_of(db, game_id) == ([1, 2, 3, 4], 4, 1, 1)


def test_an_unlocked_write_waits_for_a_locked_writer_of_its_version_and_loses(db):
    """The lock-free statement takes the game row before any event key: had it inserted
    its events first, the locked writer's insert of the same seqs would wait for it
    while it waited for the row lock (a deadlock, answered 503 after a second)."""
    game_id = new_game(db)
    store, outcome = EventStore(), []
    with db.connection() as conn:
        game = store.get_game(conn, game_id)
    with db.connection() as locked:
        held, _ = store.lock_for_command(locked, game_id)

        def unlocked() -> None:
            try:
                write_unlocked(db, store, game, 2, "unlocked")
                outcome.append("won")
            except VersionConflict:
                outcome.append("conflict")

        thread = threading.Thread(target=unlocked)
        thread.start()
        thread.join(0.3)  # it waits for the row lock
        assert thread.is_alive()
        store.append(locked, held, 2, [NewEvent("locked", {})])
    thread.join()
    assert outcome == ["conflict"]
    assert rows_of(db, game_id) == ([1, 2, 3], 3, 0, 0)


def test_an_unlocked_write_at_a_version_the_game_never_had_aborts_itself(db):
    """No event at the seqs written exists, so only the version check in the statement
    (bumped_once) keeps a write decided on a version ahead of the game from leaving a
    gap in the log."""
    game_id = new_game(db)
    store = EventStore()
    with db.connection() as conn:
        game = store.get_game(conn, game_id)
    ahead = dataclasses.replace(game, version=5)
    with pytest.raises(VersionConflict):
        write_unlocked(db, store, ahead, 5, "ahead")
    assert rows_of(db, game_id) == ([1, 2], 2, 0, 0)


def test_an_unlocked_write_records_its_events_at_the_time_they_were_chained(db):
    game_id = new_game(db)
    store = EventStore()
    with db.connection() as conn:
        game = store.get_game(conn, game_id)
    chained = write_unlocked(db, store, game, 2, "timed")
    with db.connection() as conn:
        stored = store.read_events(conn, game_id, after=2)
        updated_at = store.get_game(conn, game_id).updated_at
    assert stored == chained
    assert updated_at == chained[0].recorded_at


def test_pruning_forgets_only_idempotency_records_past_their_retention(db, database_url):
    game_id = new_game(db)
    with db.connection() as conn:
        for key, age in (("old", "30 hours"), ("older", "3 days"), ("fresh", "1 hour")):
            conn.execute(
                "INSERT INTO idempotency_keys (game_id, key, request_hash, status, response,"
                " created_at) VALUES (%s, %s, 'h', 200, '{}', now() - %s::interval)",
                (game_id, key, age),
            )
    run = subprocess.run(
        [sys.executable, "-m", "service.cli", "prune-idempotency", "--older-than-hours", "24"],
        env={**os.environ, "DATABASE_URL": database_url},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert "removed 2 idempotency records older than 24.0 h" in run.stdout
    with db.connection() as conn:
        keys = conn.execute("SELECT key FROM idempotency_keys WHERE game_id = %s", (game_id,))
        assert [row[0] for row in keys] == ["fresh"]

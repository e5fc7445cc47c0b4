"""Storage per game: how many bytes PostgreSQL spends on one whole game of each ruleset.

Plays bot-only games with the library (no HTTP: the rows are what the service writes),
stores them through the event store into a fresh database, and reads the sizes back:
events per game, the table and index bytes of ``events`` and ``games`` per game, and
the average stored size of an event's ``data``. docs/scaling.md uses the figures.

    python bench/storage_bench.py                      # embedded PostgreSQL under var/
    python bench/storage_bench.py --database-url postgresql://postgres@127.0.0.1:5432/test

Results: bench/results/storage.json.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import secrets
import sys
from pathlib import Path

import psycopg
from machine import machine
from postgres import create_database, server_for

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

CASES = {
    "carcassonne": ("carcassonne", {}, ["random", "random"]),
    "carcassonne, all five expansions": (
        "carcassonne",
        {
            "expansions": [
                "river",
                "inns_cathedrals",
                "traders_builders",
                "hills_sheep",
                "wheel_of_fortune",
            ]
        },
        ["random", "random", "random"],
    ),
    "carcassonne-south-seas": ("carcassonne-south-seas", {}, ["random", "random"]),
    "catan": ("catan", {}, ["random", "random", "random", "random"]),
    "catan, seafarers scenario 1": ("catan", {"scenario": 1}, ["random"] * 4),
}


def store_games(url: str, name: str, games: int) -> None:
    """``games`` bot games stored as people's games are: the setup in one append, then
    one append (one transaction) per command with the command recorded beside its
    events, the games interleaved one command at a time, as a live service stores
    many games at once."""
    from service.app.games import to_new_event
    from service.rules import get_ruleset
    from service.rules.core import bot_rng_for, rng_for
    from service.store import Command, EventStore, HeadSigner, NewGame

    ruleset_name, options, bots = CASES[name]
    ruleset = get_ruleset(ruleset_name)
    normalized = ruleset.normalize_options(options)
    store = EventStore(HeadSigner(secrets.token_hex(16)))
    with psycopg.connect(url) as conn:
        conn.execute("SET synchronous_commit = off")  # sizes do not depend on it
        live = []
        for n in range(games):
            seed = hashlib.sha256(f"{name}:{n}".encode()).digest()
            setup = ruleset.setup(normalized, len(bots), rng_for(seed, 1))
            seats = [{"name": None, "bot": bot, "token_hash": None} for bot in bots]
            new = NewGame(
                ruleset_name, normalized, seats, seed, hashlib.sha256(seed).hexdigest(), None
            )
            record = store.create_game(conn, new)
            store.append(conn, record, 0, [to_new_event(e) for e in setup])
            conn.commit()
            live.append((record.id, seed, ruleset.fold(setup)))
        while live:
            for game_id, seed, state in list(live):
                record = store.get_game(conn, game_id, lock=True)
                seat = ruleset.decisions(state)[0].seat
                seq = record.version + 1
                command = ruleset.bot_command(state, seat, bots[seat], bot_rng_for(seed, seq))
                events = ruleset.apply(state, seat, command, rng_for(seed, seq))
                over = ruleset.is_over(state)
                store.append(
                    conn,
                    record,
                    record.version,
                    [to_new_event(e) for e in events],
                    status="finished" if over else None,
                    commands=[Command(seq, seat, command)] if events else [],
                )
                conn.commit()
                if over:
                    live.remove((game_id, seed, state))


def sizes(url: str) -> dict:
    with psycopg.connect(url, autocommit=True) as conn:
        for table in ("events", "games", "commands"):
            conn.execute(f"VACUUM ANALYZE {table}")
        row = conn.execute(
            "SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM events),"
            " (SELECT count(*) FROM commands),"
            " pg_total_relation_size('events'), pg_indexes_size('events'),"
            " pg_total_relation_size('commands'), pg_indexes_size('commands'),"
            " pg_total_relation_size('games'),"
            " (SELECT avg(pg_column_size(games.*)) FROM games),"
            " (SELECT avg(pg_column_size(data)) FROM events),"
            " (SELECT avg(pg_column_size(events.*)) FROM events)"
        ).fetchone()
    (games, events, commands, events_bytes, index_bytes, commands_bytes, commands_index) = row[:7]
    games_bytes, game_row, data_bytes, event_row = row[7:]
    events_table = events_bytes - index_bytes
    return {
        "games": games,
        "events_per_game": round(events / games, 1),
        "commands_per_game": round(commands / games, 1),
        "bytes_per_game_events_table": round(events_table / games),
        "bytes_per_game_events_indexes": round(index_bytes / games),
        "bytes_per_game_games_row": round(float(game_row)) + ROW_OVERHEAD,
        "bytes_per_game_games_table_and_indexes": round(games_bytes / games),
        "bytes_per_game_commands_table": round((commands_bytes - commands_index) / games),
        "bytes_per_game_commands_indexes": round(commands_index / games),
        "bytes_per_finished_game": round((events_bytes) / games + float(game_row) + ROW_OVERHEAD),
        "bytes_per_finished_game_with_commands": round(
            (events_bytes + commands_bytes) / games + float(game_row) + ROW_OVERHEAD
        ),
        "bytes_per_event_table_and_indexes": round(events_bytes / events),
        "average_event_row_bytes": round(float(event_row)),
        "average_event_data_bytes": round(float(data_bytes)),
    }


#: a heap row's header and line pointer beside what pg_column_size counts of it
ROW_OVERHEAD = 4


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", help="a PostgreSQL server to make databases on")
    parser.add_argument("--games", type=int, default=50, help="games per ruleset")
    parser.add_argument(
        "--service-dir",
        help="measure another checkout's service and migrations (e.g. one made with git"
        " archive of an earlier commit, to measure the schema before a migration)",
    )
    parser.add_argument("--label", default="current", help="result key")
    parser.add_argument("--cases", nargs="+", choices=list(CASES), default=list(CASES))
    args = parser.parse_args()
    if args.service_dir:
        sys.path.insert(0, str(Path(args.service_dir).resolve()))
        os.environ["MIGRATIONS_DIR"] = str(Path(args.service_dir).resolve() / "migrations")
    from service.store.migrate import migrate

    base, _, server = server_for(args.database_url)
    results = {"machine": machine(), "games_per_case": args.games, "cases": {}}
    for name in args.cases:
        url, database = create_database(base, "tilegames_storage")
        try:
            migrate(url)
            print(f"{name}: storing {args.games} games...", flush=True)
            store_games(url, name, args.games)
            results["cases"][name] = sizes(url)
            print(f"  {results['cases'][name]}", flush=True)
        finally:
            with psycopg.connect(base, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE "{database}" WITH (FORCE)')
    if server is not None:
        server.cleanup()
    out = REPO / "bench" / "results" / "storage.json"
    merged = json.loads(out.read_text()) if out.exists() else {}
    if "cases" in merged:  # the single result this file held before labels
        merged = {}
    merged[args.label] = results
    out.write_text(json.dumps(merged, indent=1) + "\n")
    print(f"written {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

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
    from service.app.games import to_new_event
    from service.rules import get_ruleset
    from service.rules.play import play_game
    from service.store import EventStore, HeadSigner, NewGame

    ruleset_name, options, bots = CASES[name]
    ruleset = get_ruleset(ruleset_name)
    store = EventStore(HeadSigner(secrets.token_hex(16)))
    with psycopg.connect(url) as conn:
        for n in range(games):
            seed = hashlib.sha256(f"{name}:{n}".encode()).digest()
            normalized = ruleset.normalize_options(options)
            events, _ = play_game(ruleset, normalized, len(bots), seed, bots)
            new = NewGame(
                ruleset_name,
                normalized,
                [{"name": None, "bot": bot, "token_hash": None} for bot in bots],
                seed,
                hashlib.sha256(seed).hexdigest(),
                None,
            )
            record = store.create_game(conn, new)
            store.append(conn, record, 0, [to_new_event(e) for e in events], status="finished")
            conn.commit()


def sizes(url: str) -> dict:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE events")
        conn.execute("VACUUM ANALYZE games")
        row = conn.execute(
            "SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM events),"
            " pg_total_relation_size('events'), pg_indexes_size('events'),"
            " pg_total_relation_size('games'),"
            " (SELECT avg(pg_column_size(data)) FROM events)"
        ).fetchone()
    games, events, events_bytes, index_bytes, games_bytes, data_bytes = row
    return {
        "games": games,
        "events_per_game": round(events / games, 1),
        "bytes_per_game_events_table": round(events_bytes / games),
        "bytes_per_game_events_indexes": round(index_bytes / games),
        "bytes_per_game_games_row": round(games_bytes / games),
        "bytes_per_event": round(events_bytes / events),
        "average_event_data_bytes": round(float(data_bytes)),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", help="a PostgreSQL server to make databases on")
    parser.add_argument("--games", type=int, default=50, help="games per ruleset")
    args = parser.parse_args()
    from service.store.migrate import migrate

    base, _, server = server_for(args.database_url)
    results = {"machine": machine(), "games_per_case": args.games, "cases": {}}
    for name in CASES:
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
    out.write_text(json.dumps(results, indent=1) + "\n")
    print(f"written {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

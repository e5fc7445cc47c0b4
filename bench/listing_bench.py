"""Listing benchmark: GET /v1/games's query over 1,000,000 games.

Fills a fresh database (migrated, so with the listing indexes of migrations/0003) with
``--games`` rows spread over ``--keys`` API keys, written by ``generate_series`` in SQL
in batches (progress printed), then times the store's own listing query
(``EventStore.list_games``, the one the endpoint runs, rows decoded as the service
decodes them) for a first page and a deep page (by cursor, ``--deep`` games into the
key's list), with no filter and with each filter, ``--runs`` times each, a random key
each time. Prints p50/p99 and the EXPLAIN (ANALYZE) plan of each case, then measures
the seat-name cases again without the GIN index on ``seats`` (dropped in a
transaction that is rolled back), to show what that index buys.

    python bench/listing_bench.py                      # embedded PostgreSQL under var/
    python bench/listing_bench.py --database-url postgresql://postgres@127.0.0.1:5432/test

Results: bench/results/listing.json (merged under a label, embedded/system) and
bench/results/listing.txt (the plans).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

import psycopg
from machine import machine
from postgres import create_database, server_for

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from service.store import EventStore, GameFilter  # noqa: E402
from service.store.events import listing_query  # noqa: E402
from service.store.migrate import migrate  # noqa: E402

#: One batch of games: g runs over the batch's numbers. A game belongs to key g % keys,
#: is created g seconds after the epoch below (so every key's games interleave with the
#: others'), and, by its place n = g / keys in its key's list, has one of three rulesets
#: (n % 3) and is finished 7 times in 10 (n % 10 < 7); it seats a person named from a
#: pool of ``names`` (a hash of g picks the name, so each is in about games / names
#: games, of as many keys) against a bot.
FILL = """
INSERT INTO games (id, ruleset, options, seats, seed_hash, seed, status, version,
                   head_hash, api_key_id, created_at, updated_at)
SELECT md5('game' || g)::uuid,
       (ARRAY['carcassonne', 'carcassonne-south-seas', 'catan'])[1 + g / %(keys)s %% 3],
       '{"randomness": "internal"}'::jsonb,
       jsonb_build_array(
           jsonb_build_object('name', 'player-' || abs(hashtext('name' || g)) %% %(names)s,
                              'bot', null,
                              'token_hash', md5('token' || g)),
           jsonb_build_object('name', 'greedy bot', 'bot', 'greedy', 'token_hash', null)),
       md5('seed' || g) || md5('hash' || g),
       decode(md5('seed' || g) || md5('seed' || g), 'hex'),
       CASE WHEN g / %(keys)s %% 10 < 7 THEN 'finished' ELSE 'active' END,
       100 + g %% 200,
       md5('head' || g) || md5('chain' || g),
       'bench' || g %% %(keys)s,
       timestamptz '2026-01-01 00:00:00+00' + g * interval '1 second',
       timestamptz '2026-01-01 00:00:00+00' + g * interval '1 second'
FROM generate_series(%(first)s::bigint, %(last)s::bigint) AS g
"""

CASES = {
    "no filter": GameFilter(),
    "ruleset": GameFilter(ruleset="catan"),
    "status active": GameFilter(status="active"),
    "seat (common name)": GameFilter(seat_name="greedy bot"),
    "seat (rare name)": None,  # a name the key has; chosen per run
    "all three": None,
}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def fill(url: str, games: int, keys: int, names: int, batch: int) -> float:
    started = time.time()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            "INSERT INTO api_keys (id, key_hash, name)"
            " SELECT 'bench' || k, md5('key' || k), 'bench ' || k"
            " FROM generate_series(0, %s) AS k",
            (keys - 1,),
        )
        for first in range(1, games + 1, batch):
            last = min(games, first + batch - 1)
            conn.execute(FILL, {"first": first, "last": last, "keys": keys, "names": names})
            rate = last / (time.time() - started)
            print(f"  filled {last:>9,} / {games:,} games ({rate:,.0f} rows/s)", flush=True)
        print("  VACUUM ANALYZE games", flush=True)
        conn.execute("VACUUM ANALYZE games")
    return time.time() - started


def case_filter(name: str, key: str, rng: random.Random, conn: psycopg.Connection) -> GameFilter:
    """The filter of case ``name`` for ``key``; the rare name is one of the key's seats."""
    if CASES[name] is not None:
        return CASES[name]
    row = conn.execute(
        "SELECT seats->0->>'name', ruleset FROM games WHERE api_key_id = %s"
        " ORDER BY created_at DESC OFFSET %s LIMIT 1",
        (key, rng.randrange(50)),
    ).fetchone()
    if name == "seat (rare name)":
        return GameFilter(seat_name=row[0])
    return GameFilter(ruleset=row[1], status="finished", seat_name=row[0])


def deep_cursor(conn: psycopg.Connection, key: str, deep: int) -> tuple:
    row = conn.execute(
        "SELECT created_at, id::text FROM games WHERE api_key_id = %s"
        " ORDER BY created_at DESC, id DESC OFFSET %s LIMIT 1",
        (key, deep),
    ).fetchone()
    return (row[0], row[1])


def measure(conn: psycopg.Connection, args, names: list[str]) -> dict:
    """p50/p99 (ms) of each case, first page and deep page, a random key each run;
    and how many rows the pages held on average."""
    store, rng = EventStore(), random.Random(15)
    results = {}
    for name in names:
        for depth in ("first page", "deep page"):
            times, rows = [], []
            for _ in range(args.runs):
                key = f"bench{rng.randrange(args.keys)}"
                where = case_filter(name, key, rng, conn)
                before = deep_cursor(conn, key, args.deep) if depth == "deep page" else None
                started = time.perf_counter()
                page = store.list_games(conn, key, where, before, args.limit + 1)
                times.append(time.perf_counter() - started)
                rows.append(len(page))
            case = f"{name}, {depth}"
            results[case] = {
                "p50_ms": round(statistics.median(times) * 1000, 3),
                "p99_ms": round(percentile(times, 0.99) * 1000, 3),
                "mean_rows": round(statistics.mean(rows), 1),
            }
            print(f"  {case:<32} {results[case]}", flush=True)
    return results


def explain(conn: psycopg.Connection, args) -> dict[str, str]:
    """The EXPLAIN (ANALYZE, BUFFERS) plan of the store's query in each case, one key."""
    rng, plans = random.Random(16), {}
    key = f"bench{rng.randrange(args.keys)}"
    for name in CASES:
        for depth in ("first page", "deep page"):
            where = case_filter(name, key, rng, conn)
            before = deep_cursor(conn, key, args.deep) if depth == "deep page" else None
            query, params = listing_query(key, where, before, args.limit + 1)
            rows = conn.execute("EXPLAIN (ANALYZE, BUFFERS) " + query, params).fetchall()
            plans[f"{name}, {depth}"] = "\n".join(row[0] for row in rows)
    return plans


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL"))
    parser.add_argument("--label", help="result key (default: embedded or system)")
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--keys", type=int, default=1_000)
    parser.add_argument("--names", type=int, default=200_000, help="distinct person names")
    parser.add_argument("--batch", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=300, help="timed queries per case")
    parser.add_argument("--deep", type=int, default=900, help="games into the key's list")
    parser.add_argument("--limit", type=int, default=20)
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    args = parser.parse_args()

    server_url, label, server = server_for(args.database_url, args.label)
    url, name = create_database(server_url, "tilegames_listing")
    with psycopg.connect(server_url) as conn:
        pg_version = conn.execute("SHOW server_version").fetchone()[0]
        shared_buffers = conn.execute("SHOW shared_buffers").fetchone()[0]
    try:
        migrate(url)
        print(f"[{label}] filling {args.games:,} games over {args.keys:,} API keys", flush=True)
        fill_seconds = fill(url, args.games, args.keys, args.names, args.batch)
        with psycopg.connect(url) as conn:
            sizes = dict(
                conn.execute(
                    "SELECT relname, pg_size_pretty(pg_relation_size(oid)) FROM pg_class"
                    " WHERE relname IN ('games', 'games_pkey', 'games_by_key_newest',"
                    " 'games_seats')"
                ).fetchall()
            )
        print(f"[{label}] timing {args.runs} queries per case (limit {args.limit})", flush=True)
        with psycopg.connect(url) as conn:
            timings = measure(conn, args, list(CASES))
            plans = explain(conn, args)
            conn.rollback()
            print(f"[{label}] the seat cases again without the GIN index on seats", flush=True)
            conn.execute("DROP INDEX games_seats")  # rolled back below
            without_gin = measure(conn, args, [c for c in CASES if c.startswith("seat")])
            conn.rollback()
    finally:
        if not args.keep:
            with psycopg.connect(server_url, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if server is not None:
            server.cleanup()

    uses_index = all("games_by_key_newest" in p or "games_seats" in p for p in plans.values())
    result = {
        "database": label,
        "postgres": pg_version,
        "shared_buffers": shared_buffers,
        "machine": machine(),
        "games": args.games,
        "api_keys": args.keys,
        "person_names": args.names,
        "fill_seconds": round(fill_seconds, 1),
        "relation_sizes": sizes,
        "runs_per_case": args.runs,
        "limit": args.limit,
        "deep_page_offset": args.deep,
        "latency": timings,
        "latency_without_gin_on_seats": without_gin,
        "every_plan_uses_an_index": uses_index,
    }
    print(json.dumps(result, indent=2))
    out = REPO / "bench" / "results"
    merged_path = out / "listing.json"
    merged = json.loads(merged_path.read_text()) if merged_path.exists() else {}
    merged[label] = result
    merged_path.write_text(json.dumps(merged, indent=2, sort_keys=True) + "\n")
    text = [f"{case}\n{'-' * len(case)}\n{plan}\n" for case, plan in plans.items()]
    (out / "listing.txt").write_text(
        f"EXPLAIN (ANALYZE, BUFFERS) of the listing query, {label}, {args.games:,} games\n\n"
        + "\n".join(text)
    )
    for case, plan in plans.items():
        print(f"\n{case}\n{plan}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

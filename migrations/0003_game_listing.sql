-- Migrations run in a transaction, so these indexes are built with a lock that holds
-- back writes to games while they build. On a large live table, build them first with
-- CREATE INDEX CONCURRENTLY under the same names; this migration then skips them.

-- GET /v1/games lists an API key's games newest first, a page at a time, with a keyset
-- cursor over (created_at, id). This index answers it with one ordered range scan that
-- stops after a page, however many games the key or the table holds; the ruleset and
-- status filters are checked on the rows it walks.
CREATE INDEX IF NOT EXISTS games_by_key_newest ON games (api_key_id, created_at DESC, id DESC);

-- The seat-name filter (seats @> '[{"name": ...}]'): a game has a few seats, so a name
-- finds few games; this index lets the planner start from them when they are fewer
-- than the key's games (bench/listing_bench.py measures both plans).
CREATE INDEX IF NOT EXISTS games_seats ON games USING gin (seats jsonb_path_ops);

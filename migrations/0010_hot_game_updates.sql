-- Every move updates its game row (version, head, updated_at). 0008 indexed updated_at,
-- so no such update could be HOT: each one wrote a new entry into every index of games,
-- the GIN index of seats included. The clock sweep's index now names the rows only (the
-- few active games with a time control; the sweep sorts them by updated_at itself), so
-- a move changes no indexed column, and the table keeps room on each page for the new
-- row versions.
DROP INDEX IF EXISTS games_clocked_active;
CREATE INDEX games_clocked_active ON games (id) WHERE status = 'active' AND options ? 'clock';
ALTER TABLE games SET (fillfactor = 85);

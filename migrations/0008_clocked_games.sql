-- The clock sweep (service.cli sweep-clocks) looks for the active games that have a time
-- control (options.clock), longest untouched first; this partial index holds only those.
CREATE INDEX IF NOT EXISTS games_clocked_active ON games (updated_at)
    WHERE status = 'active' AND options ? 'clock';

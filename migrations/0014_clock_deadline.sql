-- When the first running clock of an active game runs out, kept on its row by every
-- write (service/store/events.py), so that the clock sweep asks the index for the games
-- that are due, the longest overdue first. Before, it looked at the 1,000 least recently
-- updated clocked games: with more of them, a game whose seat had just run out waited for
-- a read. NULL: no clock runs (no time control, or the game is over).
--
-- A clocked game's moves change the indexed column, so they are not HOT updates; a game
-- without a clock keeps NULL and its moves stay HOT (0010).
ALTER TABLE games ADD COLUMN clock_deadline timestamptz;
GRANT UPDATE (clock_deadline) ON games TO tilegames_app;

-- The rows written before: their deadline is not known here (it depends on the last
-- clock event and the time control), so the sweep's first pass looks at each of them and
-- writes the real one (GameService.sweep_clocks).
UPDATE games SET clock_deadline = updated_at WHERE status = 'active' AND options ? 'clock';

DROP INDEX IF EXISTS games_clocked_active;
CREATE INDEX games_clock_deadline ON games (clock_deadline)
    WHERE status = 'active' AND clock_deadline IS NOT NULL;

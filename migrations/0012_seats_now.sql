-- Who plays each seat now, kept on the game's row so that a list of games shows it
-- without folding each game's log: a seat handed to a bot or back, or resigned, changes
-- it in the write that records the event (service/store/events.py). NULL: every seat as
-- the game was created.
ALTER TABLE games ADD COLUMN seats_now jsonb;
GRANT UPDATE (seats_now) ON games TO tilegames_app;

-- The commands that made each game, beside the events they caused, so that a finished
-- game can be exported as a record of commands that POST /v1/validate replays. Events
-- keep the outcome of a command, not always the command itself (nor which seat sent
-- it, nor what a bot chose among equal moves), so the record cannot be recomputed from
-- the log alone: the rules would need an inverse of every command's decision. A command is keyed by the seq of the first event it caused, and is
-- written in the same statement as its events. Append-only, like the events.
CREATE TABLE commands (
    game_id     uuid NOT NULL REFERENCES games (id),
    seq         bigint NOT NULL CHECK (seq >= 1),
    seat        integer NOT NULL CHECK (seat >= 0),
    command     jsonb NOT NULL,
    decision    text,                           -- the decision id the move named, if any
    PRIMARY KEY (game_id, seq)
);

CREATE TRIGGER commands_no_update_delete
    BEFORE UPDATE OR DELETE ON commands
    FOR EACH ROW EXECUTE FUNCTION events_are_append_only();

CREATE TRIGGER commands_no_truncate
    BEFORE TRUNCATE ON commands
    FOR EACH STATEMENT EXECUTE FUNCTION events_are_append_only();

-- Games created before this migration have no recorded commands: false for them (no
-- table rewrite), true for every game created from now on.
ALTER TABLE games ADD COLUMN commands_recorded boolean NOT NULL DEFAULT false;
ALTER TABLE games ALTER COLUMN commands_recorded SET DEFAULT true;

-- The service's role (0004) writes commands beside events, and may not change them.
GRANT SELECT, INSERT ON commands TO tilegames_app;

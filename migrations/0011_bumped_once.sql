-- A move may be written by one statement in autocommit, without locking its game row
-- first (service/store/events.py): the statement's data-modifying CTEs all run, so it
-- passes its version bump's row count through this function, which aborts the whole
-- statement (events, commands, idempotency record, deliveries, NOTIFY) unless the bump
-- found the game at the version the move was decided on.
CREATE FUNCTION bumped_once(bumped bigint) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
    IF bumped <> 1 THEN
        RAISE EXCEPTION 'the game is not at the version the write was decided on'
            USING ERRCODE = 'TG409';
    END IF;
    RETURN bumped;
END $$;
GRANT EXECUTE ON FUNCTION bumped_once(bigint) TO tilegames_app;

-- 0012 added seats_now as NULL ("every seat as the game was created"), so a game whose
-- seats had changed before it was applied listed them as created until its next seat
-- change. Fill it in from each such game's log, as service.rules.seating.Seating folds
-- it: a seat's bot is the one its last hand-over named (none once handed back; the bot
-- it was created with if never handed over), and it has resigned if a seat_resigned
-- names it.
UPDATE games g SET seats_now = (
    SELECT jsonb_agg(
        jsonb_build_object(
            'bot', CASE last.type
                WHEN 'seat_handed_to_bot' THEN to_jsonb(last.data ->> 'bot')
                WHEN 'seat_handed_back' THEN 'null'::jsonb
                ELSE coalesce(created.seat -> 'bot', 'null'::jsonb)
            END,
            'resigned', EXISTS (
                SELECT 1 FROM events r
                WHERE r.game_id = g.id AND r.type = 'seat_resigned'
                    AND (r.data ->> 'seat')::int = created.i - 1
            )
        )
        ORDER BY created.i
    )
    FROM jsonb_array_elements(g.seats) WITH ORDINALITY AS created(seat, i)
    LEFT JOIN LATERAL (
        SELECT e.type, e.data FROM events e
        WHERE e.game_id = g.id AND e.type IN ('seat_handed_to_bot', 'seat_handed_back')
            AND (e.data ->> 'seat')::int = created.i - 1
        ORDER BY e.seq DESC
        LIMIT 1
    ) last ON true
)
WHERE g.seats_now IS NULL AND EXISTS (
    SELECT 1 FROM events e
    WHERE e.game_id = g.id
        AND e.type IN ('seat_resigned', 'seat_handed_to_bot', 'seat_handed_back')
);

-- The event store: games, their append-only event logs, idempotency records, API keys.
-- The store knows nothing about any game: events are opaque JSON with a type.

CREATE TABLE api_keys (
    id          text PRIMARY KEY,               -- public part of the key (tgk_<id>_...)
    key_hash    text NOT NULL UNIQUE,           -- sha256 hex of the whole key
    name        text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    revoked_at  timestamptz
);

CREATE TABLE games (
    id          uuid PRIMARY KEY,
    ruleset     text NOT NULL,
    options     jsonb NOT NULL,
    seats       jsonb NOT NULL,                 -- [{name, bot, token_hash}]
    seed_hash   text NOT NULL,                  -- sha256 hex of the secret seed, public
    seed        bytea NOT NULL,                 -- secret until the game has ended
    status      text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'finished')),
    version     bigint NOT NULL DEFAULT 0 CHECK (version >= 0),  -- seq of the last event
    head_hash   text NOT NULL,                  -- hash of the last event (genesis: 64 zeros)
    api_key_id  text REFERENCES api_keys (id),
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE events (
    game_id     uuid NOT NULL REFERENCES games (id),
    seq         bigint NOT NULL CHECK (seq >= 1),
    type        text NOT NULL,
    data        jsonb NOT NULL,
    visibility  jsonb,                          -- null: public; else the seats that see it whole
    prev_hash   text NOT NULL,
    hash        text NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, seq)
);

-- Append-only, enforced by the database: no UPDATE, DELETE or TRUNCATE can succeed.
CREATE FUNCTION events_are_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events are append-only: % is not allowed', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER events_no_update_delete
    BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION events_are_append_only();

CREATE TRIGGER events_no_truncate
    BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION events_are_append_only();

CREATE TABLE idempotency_keys (
    game_id       uuid NOT NULL REFERENCES games (id),
    key           text NOT NULL,
    request_hash  text NOT NULL,                -- sha256 of caller identity + request body
    status        integer NOT NULL,
    response      jsonb NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, key)
);

-- Webhooks: the endpoints an API key registers, and the outbox of deliveries to them.
--
-- An outbox row is written in the same statement as the events it announces
-- (service/store/events.py), so a committed event has its deliveries queued and a
-- rolled-back one has none. The delivery workers (service/webhooks/) claim due rows
-- with FOR UPDATE SKIP LOCKED, so several workers and replicas never take the same row
-- at once, and each claim leases the row for a while (next_attempt_at moves on): a
-- worker killed mid-delivery leaves the row to be sent again once the lease is over.
-- Delivery is at least once; receivers deduplicate by the event id.

CREATE TABLE webhook_endpoints (
    id           uuid PRIMARY KEY,
    api_key_id   text NOT NULL REFERENCES api_keys (id),
    url          text NOT NULL,
    -- the event types delivered: any type a ruleset logs, or turn_started (derived)
    event_types  text[] NOT NULL CHECK (cardinality(event_types) > 0),
    -- the HMAC key of the signatures; the worker needs it whole, so it is not hashed
    secret       text NOT NULL,
    description  text NOT NULL DEFAULT '',
    created_at   timestamptz NOT NULL DEFAULT now()
);
-- Every append looks up its game's key here; the list of a key's endpoints too.
CREATE INDEX webhook_endpoints_by_key ON webhook_endpoints (api_key_id, created_at);

CREATE TABLE webhook_outbox (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    endpoint_id      uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    game_id          uuid NOT NULL,
    seq              bigint NOT NULL,          -- the event's, or the one a notice follows
    type             text NOT NULL,
    seat             integer,                  -- the seat a derived notice is about
    data             jsonb,                    -- a derived notice's data; null: the event's
    status           text NOT NULL DEFAULT 'pending'
                     CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts         integer NOT NULL DEFAULT 0,
    -- when a pending row is due: its next try, or the end of a worker's lease on it
    next_attempt_at  timestamptz NOT NULL DEFAULT now(),
    last_error       text,
    last_status      integer,                  -- the HTTP status of the last answer
    delivered_at     timestamptz,
    created_at       timestamptz NOT NULL DEFAULT now()
);
-- The workers' queue: due pending rows, oldest first; delivered and failed rows leave it.
CREATE INDEX webhook_outbox_due ON webhook_outbox (next_attempt_at, id) WHERE status = 'pending';
-- GET /v1/webhooks/{id}/deliveries, newest first, a page at a time.
CREATE INDEX webhook_outbox_by_endpoint ON webhook_outbox (endpoint_id, id DESC);
-- Pruning old delivered and failed rows (service.cli prune-webhooks).
CREATE INDEX webhook_outbox_created_at ON webhook_outbox (created_at) WHERE status <> 'pending';

-- The service's role (0004) manages a key's endpoints, queues deliveries beside events
-- and records how each attempt went; deleting an endpoint deletes its deliveries.
GRANT SELECT, INSERT, DELETE ON webhook_endpoints TO tilegames_app;
GRANT SELECT, INSERT ON webhook_outbox TO tilegames_app;
GRANT UPDATE (status, attempts, next_attempt_at, last_error, last_status, delivered_at)
    ON webhook_outbox TO tilegames_app;

-- Idempotency records are kept for a retention period (`tilegames prune-idempotency`);
-- the index lets the pruning find old records without scanning the table.
CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);

-- Webhook claims take turns between API keys (service/store/webhooks.py, claim_due):
-- each endpoint's oldest due deliveries are read from this index, a few at a time, so a
-- claim never numbers every due row of the outbox (with a backlog of 400,000 rows that
-- took half a second a claim).
CREATE INDEX webhook_outbox_pending_by_endpoint
    ON webhook_outbox (endpoint_id, next_attempt_at, id) WHERE status = 'pending';

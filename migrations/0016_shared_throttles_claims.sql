-- +goose Up
-- Failed sign-ins, one row each, when several replicas share the database:
-- each replica's own memory would give an attacker as many attempts as
-- there are replicas (see auth.FailureLog). key is a hash of the throttle's
-- key (an address, or an account and address); rows older than the longest
-- window are pruned. SQLite mode keeps them in memory and leaves this empty.
CREATE TABLE login_failures (
    key TEXT NOT NULL,
    at  INTEGER NOT NULL
);
CREATE INDEX login_failures_key ON login_failures (key, at);
CREATE INDEX login_failures_at ON login_failures (at);

-- An outbox entry a worker has claimed is not due again until claimed_until
-- (a lease, in ms) passes, or the worker completes or fails it: two workers
-- that overlap (a lead handed over, a stalled leader) never take the same
-- entry at once (store.ClaimOutbox).
ALTER TABLE outbox ADD COLUMN claimed_until INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE outbox DROP COLUMN claimed_until;
DROP TABLE login_failures;

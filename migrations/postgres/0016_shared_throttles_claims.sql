-- Failed sign-ins shared by the replicas, and the claims of outbox entries
-- (see migrations/0016_shared_throttles_claims.sql, the SQLite one).

-- +goose Up
CREATE TABLE login_failures (
    key TEXT NOT NULL,
    at  BIGINT NOT NULL
);
CREATE INDEX login_failures_key ON login_failures (key, at);
CREATE INDEX login_failures_at ON login_failures (at);

ALTER TABLE outbox ADD COLUMN claimed_until BIGINT NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE outbox DROP COLUMN claimed_until;
DROP TABLE login_failures;

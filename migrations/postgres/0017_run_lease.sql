-- A running run is held by the replica that drives it, until its lease
-- lapses (see migrations/0017_run_lease.sql, the SQLite one).

-- +goose Up
ALTER TABLE runs ADD COLUMN owner TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN lease_until BIGINT NOT NULL DEFAULT 0;
CREATE INDEX runs_lease ON runs (lease_until) WHERE status = 'running';

-- +goose Down
DROP INDEX runs_lease;
ALTER TABLE runs DROP COLUMN lease_until;
ALTER TABLE runs DROP COLUMN owner;

-- +goose Up
-- With several replicas on one database (PostgreSQL), a running run is
-- held by the replica that drives it: owner names the replica, lease_until
-- (unix ms) is when its hold lapses unless renewed. Another replica adopts
-- a run whose lease has lapsed (chat.Service's adopter). On SQLite one
-- process drives every run and the columns stay empty.
ALTER TABLE runs ADD COLUMN owner TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN lease_until INTEGER NOT NULL DEFAULT 0;
CREATE INDEX runs_lease ON runs (lease_until) WHERE status = 'running';

-- +goose Down
DROP INDEX runs_lease;
ALTER TABLE runs DROP COLUMN lease_until;
ALTER TABLE runs DROP COLUMN owner;

-- A Stop sent to a replica that is not running the answer is recorded on
-- the run, and the replica that runs it is told (pg_notify 'run_cancel';
-- see migrations/0015_run_cancel_requested.sql, the SQLite one).

-- +goose Up
ALTER TABLE runs ADD COLUMN cancel_requested BOOLEAN NOT NULL DEFAULT FALSE;

-- +goose Down
ALTER TABLE runs DROP COLUMN cancel_requested;

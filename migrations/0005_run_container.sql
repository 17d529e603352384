-- +goose Up
-- The Code Interpreter session each run used, to count sessions per day.
ALTER TABLE runs ADD COLUMN container_id TEXT NOT NULL DEFAULT '';
CREATE INDEX runs_started ON runs (started_at);

-- +goose Down
DROP INDEX runs_started;
ALTER TABLE runs DROP COLUMN container_id;

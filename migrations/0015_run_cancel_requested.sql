-- +goose Up
-- A Stop sent to a server that is not running the answer is recorded on
-- the run, for the server that runs it to see (chat.Service.Cancel): with
-- several replicas on one database, the one that gets the request is not
-- always the one that drives the turn. SQLite has one server, which never
-- sets it, but keeps the schema the same as PostgreSQL's.
ALTER TABLE runs ADD COLUMN cancel_requested INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE runs DROP COLUMN cancel_requested;

-- +goose Up
-- Nothing on SQLite: one process owns the database, and the code that
-- queues outbox entries wakes its own purge worker. PostgreSQL's twin
-- announces new entries to the replica that leads the purge
-- (migrations/postgres/0018_outbox_notify.sql).
SELECT 1;

-- +goose Down
SELECT 1;

-- New outbox entries are announced (pg_notify 'outbox'), so that the
-- replica leading the purge starts on a purge queued through another one at
-- once rather than at its next idle poll. One trigger, whichever code
-- queued them; SQLite needs none (see migrations/0018_outbox_notify.sql).

-- +goose Up
-- +goose StatementBegin
CREATE FUNCTION outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('outbox', '');
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER outbox_notify AFTER INSERT ON outbox FOR EACH STATEMENT EXECUTE FUNCTION outbox_notify();

-- +goose Down
DROP TRIGGER outbox_notify ON outbox;
DROP FUNCTION outbox_notify();

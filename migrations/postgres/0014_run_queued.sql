-- A question asked while the running answer is being stopped waits behind
-- it as a queued run (see migrations/0014_run_queued.sql, the SQLite one).

-- +goose Up
ALTER TABLE runs DROP CONSTRAINT runs_status_check;
ALTER TABLE runs ADD CONSTRAINT runs_status_check
    CHECK (status IN ('queued', 'running', 'completed', 'incomplete', 'failed', 'cancelled', 'interrupted'));
-- At most one question waits per conversation.
CREATE UNIQUE INDEX runs_one_queued ON runs (conversation_id) WHERE status = 'queued';
-- The answer's search anchor skips queued runs: the stopped answer is
-- written while one waits.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION search_message_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO search_docs (conversation_id, user_id, kind, ref, anchor, body) VALUES (NEW.conversation_id,
        (SELECT user_id FROM conversations WHERE id = NEW.conversation_id), 'message', NEW.id,
        COALESCE((SELECT 'run-' || id FROM runs WHERE NEW.role = 'assistant' AND conversation_id = NEW.conversation_id
            AND status <> 'queued' AND started_at <= NEW.created_at ORDER BY started_at DESC LIMIT 1), ''), NEW.content);
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- +goose Down
-- A question still waiting becomes one the server never started.
UPDATE runs SET status = 'interrupted', error = 'The server restarted before this question started. Ask it again.'
    WHERE status = 'queued';
DROP INDEX runs_one_queued;
ALTER TABLE runs DROP CONSTRAINT runs_status_check;
ALTER TABLE runs ADD CONSTRAINT runs_status_check
    CHECK (status IN ('running', 'completed', 'incomplete', 'failed', 'cancelled', 'interrupted'));
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION search_message_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO search_docs (conversation_id, user_id, kind, ref, anchor, body) VALUES (NEW.conversation_id,
        (SELECT user_id FROM conversations WHERE id = NEW.conversation_id), 'message', NEW.id,
        COALESCE((SELECT 'run-' || id FROM runs WHERE NEW.role = 'assistant' AND conversation_id = NEW.conversation_id
            AND started_at <= NEW.created_at ORDER BY started_at DESC LIMIT 1), ''), NEW.content);
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- +goose NO TRANSACTION
-- +goose Up
-- A run may be queued: a question asked while the conversation's running
-- answer is being stopped is kept and starts as soon as that answer ends
-- (chat.Service.Start). At most one waits per conversation.
--
-- SQLite cannot change a CHECK constraint, so runs is rebuilt (the
-- documented twelve steps). Foreign keys are off for it, which SQLite allows
-- only outside a transaction, hence NO TRANSACTION and the explicit one:
-- with them on, dropping the old table would cascade to every run_events
-- and artifacts row. legacy_alter_table keeps the rename from checking the
-- other tables' triggers, which name runs, while no table has that name.
-- Dropping runs drops its indexes and its trigger; they are made again.
-- Run again after a crash before goose records it, it rebuilds once more.
PRAGMA foreign_keys = OFF;
BEGIN IMMEDIATE;
CREATE TABLE runs_new (
    id              TEXT PRIMARY KEY,
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    message_id      TEXT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
    status          TEXT NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'incomplete', 'failed', 'cancelled', 'interrupted')),
    error           TEXT NOT NULL DEFAULT '',
    response_id     TEXT NOT NULL DEFAULT '',
    input_tokens    INTEGER NOT NULL DEFAULT 0,
    output_tokens   INTEGER NOT NULL DEFAULT 0,
    new_session     INTEGER NOT NULL DEFAULT 0,
    started_at      INTEGER NOT NULL,
    finished_at     INTEGER NOT NULL DEFAULT 0,
    container_id    TEXT NOT NULL DEFAULT ''
);
INSERT INTO runs_new (id, conversation_id, message_id, status, error, response_id, input_tokens, output_tokens,
        new_session, started_at, finished_at, container_id)
    SELECT id, conversation_id, message_id, status, error, response_id, input_tokens, output_tokens,
        new_session, started_at, finished_at, container_id FROM runs;
DROP TABLE runs;
PRAGMA legacy_alter_table = ON;
ALTER TABLE runs_new RENAME TO runs;
PRAGMA legacy_alter_table = OFF;
CREATE INDEX runs_conversation ON runs (conversation_id, started_at);
CREATE UNIQUE INDEX runs_one_running ON runs (conversation_id) WHERE status = 'running';
CREATE UNIQUE INDEX runs_one_queued ON runs (conversation_id) WHERE status = 'queued';
CREATE INDEX runs_message ON runs (message_id);
CREATE INDEX runs_started ON runs (started_at);
-- +goose StatementBegin
CREATE TRIGGER search_run_insert AFTER INSERT ON runs BEGIN
    UPDATE search_docs SET anchor = 'run-' || NEW.id WHERE kind = 'message' AND ref = NEW.message_id;
END;
-- +goose StatementEnd
-- An answer belongs to the latest run begun, which a question waiting
-- behind it is not: the stopped answer is written while it waits.
DROP TRIGGER search_message_insert;
-- +goose StatementBegin
CREATE TRIGGER search_message_insert AFTER INSERT ON messages BEGIN
    INSERT INTO search_docs (conversation_id, user_id, kind, ref, anchor) VALUES (NEW.conversation_id,
        (SELECT user_id FROM conversations WHERE id = NEW.conversation_id), 'message', NEW.id,
        COALESCE((SELECT 'run-' || id FROM runs WHERE NEW.role = 'assistant' AND conversation_id = NEW.conversation_id
            AND status <> 'queued' AND started_at <= NEW.created_at ORDER BY started_at DESC LIMIT 1), ''));
    INSERT INTO search_fts (rowid, body)
        SELECT id, NEW.content FROM search_docs WHERE kind = 'message' AND ref = NEW.id;
END;
-- +goose StatementEnd
COMMIT;
PRAGMA foreign_keys = ON;

-- +goose Down
-- A question still waiting becomes one the server never started.
PRAGMA foreign_keys = OFF;
BEGIN IMMEDIATE;
UPDATE runs SET status = 'interrupted', error = 'The server restarted before this question started. Ask it again.'
    WHERE status = 'queued';
CREATE TABLE runs_old (
    id              TEXT PRIMARY KEY,
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    message_id      TEXT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
    status          TEXT NOT NULL CHECK (status IN ('running', 'completed', 'incomplete', 'failed', 'cancelled', 'interrupted')),
    error           TEXT NOT NULL DEFAULT '',
    response_id     TEXT NOT NULL DEFAULT '',
    input_tokens    INTEGER NOT NULL DEFAULT 0,
    output_tokens   INTEGER NOT NULL DEFAULT 0,
    new_session     INTEGER NOT NULL DEFAULT 0,
    started_at      INTEGER NOT NULL,
    finished_at     INTEGER NOT NULL DEFAULT 0,
    container_id    TEXT NOT NULL DEFAULT ''
);
INSERT INTO runs_old SELECT id, conversation_id, message_id, status, error, response_id, input_tokens, output_tokens,
    new_session, started_at, finished_at, container_id FROM runs;
DROP TABLE runs;
PRAGMA legacy_alter_table = ON;
ALTER TABLE runs_old RENAME TO runs;
PRAGMA legacy_alter_table = OFF;
CREATE INDEX runs_conversation ON runs (conversation_id, started_at);
CREATE UNIQUE INDEX runs_one_running ON runs (conversation_id) WHERE status = 'running';
CREATE INDEX runs_message ON runs (message_id);
CREATE INDEX runs_started ON runs (started_at);
-- +goose StatementBegin
CREATE TRIGGER search_run_insert AFTER INSERT ON runs BEGIN
    UPDATE search_docs SET anchor = 'run-' || NEW.id WHERE kind = 'message' AND ref = NEW.message_id;
END;
-- +goose StatementEnd
DROP TRIGGER search_message_insert;
-- +goose StatementBegin
CREATE TRIGGER search_message_insert AFTER INSERT ON messages BEGIN
    INSERT INTO search_docs (conversation_id, user_id, kind, ref, anchor) VALUES (NEW.conversation_id,
        (SELECT user_id FROM conversations WHERE id = NEW.conversation_id), 'message', NEW.id,
        COALESCE((SELECT 'run-' || id FROM runs WHERE NEW.role = 'assistant' AND conversation_id = NEW.conversation_id
            AND started_at <= NEW.created_at ORDER BY started_at DESC LIMIT 1), ''));
    INSERT INTO search_fts (rowid, body)
        SELECT id, NEW.content FROM search_docs WHERE kind = 'message' AND ref = NEW.id;
END;
-- +goose StatementEnd
COMMIT;
PRAGMA foreign_keys = ON;

-- +goose Up
-- Full-text search over what a conversation holds: its title, questions and
-- answers, the code its cells ran, and the names and columns of its files.
-- search_docs says where each indexed text comes from; search_fts holds the
-- text under the same rowid. Triggers keep both in step with the tables,
-- so no writer (chat, uploads, purge) has to remember the index.
CREATE TABLE search_docs (
    id              INTEGER PRIMARY KEY,
    conversation_id TEXT NOT NULL,
    -- user_id is the conversation's owner, copied so that a search keeps a
    -- user's hits without looking up each hit's conversation.
    user_id         TEXT NOT NULL,
    -- title, message, code or file; ref is the row it indexes.
    kind            TEXT NOT NULL CHECK (kind IN ('title', 'message', 'code', 'file')),
    ref             TEXT NOT NULL,
    -- anchor is the element id a hit jumps to (run-…, cell-…, files).
    anchor          TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX search_docs_ref ON search_docs (kind, ref);
CREATE INDEX search_docs_conversation ON search_docs (conversation_id);

-- Prefix indexes make search-as-you-type ("reven" for "revenue") an index
-- lookup; remove_diacritics lets "cafe" find "café".
CREATE VIRTUAL TABLE search_fts USING fts5 (
    body,
    tokenize = 'unicode61 remove_diacritics 2',
    prefix = '2 3 4'
);

-- +goose StatementBegin
CREATE TRIGGER search_title_insert AFTER INSERT ON conversations BEGIN
    INSERT INTO search_docs (conversation_id, user_id, kind, ref) VALUES (NEW.id, NEW.user_id, 'title', NEW.id);
    INSERT INTO search_fts (rowid, body)
        SELECT id, NEW.title FROM search_docs WHERE kind = 'title' AND ref = NEW.id;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER search_title_update AFTER UPDATE OF title ON conversations BEGIN
    UPDATE search_fts SET body = NEW.title
        WHERE rowid = (SELECT id FROM search_docs WHERE kind = 'title' AND ref = NEW.id);
END;
-- +goose StatementEnd

-- A deleted conversation takes every document of it along, whatever the
-- child tables' own triggers already removed.
-- +goose StatementBegin
CREATE TRIGGER search_conversation_delete AFTER DELETE ON conversations BEGIN
    DELETE FROM search_fts WHERE rowid IN (SELECT id FROM search_docs WHERE conversation_id = OLD.id);
    DELETE FROM search_docs WHERE conversation_id = OLD.id;
END;
-- +goose StatementEnd

-- A question is inserted before its run, so its anchor is set when the run
-- is; an answer is inserted when its run ends, the latest run begun.
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

-- +goose StatementBegin
CREATE TRIGGER search_message_update AFTER UPDATE OF content ON messages BEGIN
    UPDATE search_fts SET body = NEW.content
        WHERE rowid = (SELECT id FROM search_docs WHERE kind = 'message' AND ref = NEW.id);
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER search_message_delete AFTER DELETE ON messages BEGIN
    DELETE FROM search_fts WHERE rowid = (SELECT id FROM search_docs WHERE kind = 'message' AND ref = OLD.id);
    DELETE FROM search_docs WHERE kind = 'message' AND ref = OLD.id;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER search_run_insert AFTER INSERT ON runs BEGIN
    UPDATE search_docs SET anchor = 'run-' || NEW.id WHERE kind = 'message' AND ref = NEW.message_id;
END;
-- +goose StatementEnd

-- A cell's whole code arrives in one code_done event (chat.EventCodeDone).
-- +goose StatementBegin
CREATE TRIGGER search_code_insert AFTER INSERT ON run_events WHEN NEW.type = 'code_done' BEGIN
    INSERT INTO search_docs (conversation_id, user_id, kind, ref, anchor)
        SELECT r.conversation_id, c.user_id, 'code', NEW.run_id || '/' || NEW.seq,
            CASE WHEN json_extract(NEW.data, '$.cell_id') <> '' THEN 'cell-' || json_extract(NEW.data, '$.cell_id')
                 ELSE 'run-' || NEW.run_id END
        FROM runs r JOIN conversations c ON c.id = r.conversation_id WHERE r.id = NEW.run_id;
    INSERT INTO search_fts (rowid, body)
        SELECT id, COALESCE(json_extract(NEW.data, '$.text'), '') FROM search_docs
        WHERE kind = 'code' AND ref = NEW.run_id || '/' || NEW.seq;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER search_code_delete AFTER DELETE ON run_events WHEN OLD.type = 'code_done' BEGIN
    DELETE FROM search_fts WHERE rowid = (SELECT id FROM search_docs WHERE kind = 'code' AND ref = OLD.run_id || '/' || OLD.seq);
    DELETE FROM search_docs WHERE kind = 'code' AND ref = OLD.run_id || '/' || OLD.seq;
END;
-- +goose StatementEnd

-- A file is found by its name and by its columns' names (files.FileProfile
-- stored as JSON, its fields untagged).
-- +goose StatementBegin
CREATE TRIGGER search_file_insert AFTER INSERT ON files BEGIN
    INSERT INTO search_docs (conversation_id, user_id, kind, ref, anchor) VALUES (NEW.conversation_id,
        (SELECT user_id FROM conversations WHERE id = NEW.conversation_id), 'file', NEW.id, 'file-' || NEW.id);
    INSERT INTO search_fts (rowid, body)
        SELECT id, NEW.name || ' ' || CASE WHEN json_valid(NEW.profile) THEN COALESCE(
            (SELECT group_concat(json_extract(value, '$.Name'), ' ') FROM json_each(NEW.profile, '$.Columns')), '') ELSE '' END
        FROM search_docs WHERE kind = 'file' AND ref = NEW.id;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER search_file_update AFTER UPDATE OF name, profile ON files BEGIN
    UPDATE search_fts SET body = NEW.name || ' ' || CASE WHEN json_valid(NEW.profile) THEN COALESCE(
            (SELECT group_concat(json_extract(value, '$.Name'), ' ') FROM json_each(NEW.profile, '$.Columns')), '') ELSE '' END
        WHERE rowid = (SELECT id FROM search_docs WHERE kind = 'file' AND ref = NEW.id);
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER search_file_delete AFTER DELETE ON files BEGIN
    DELETE FROM search_fts WHERE rowid = (SELECT id FROM search_docs WHERE kind = 'file' AND ref = OLD.id);
    DELETE FROM search_docs WHERE kind = 'file' AND ref = OLD.id;
END;
-- +goose StatementEnd

-- What was there before this migration is indexed once, in the same way.
INSERT INTO search_docs (conversation_id, user_id, kind, ref) SELECT id, user_id, 'title', id FROM conversations;
INSERT INTO search_docs (conversation_id, user_id, kind, ref, anchor)
    SELECT m.conversation_id, (SELECT user_id FROM conversations WHERE id = m.conversation_id), 'message', m.id, COALESCE('run-' || (SELECT r.id FROM runs r
        WHERE r.message_id = m.id OR (m.role = 'assistant' AND r.conversation_id = m.conversation_id AND r.started_at <= m.created_at)
        ORDER BY r.started_at DESC LIMIT 1), '')
    FROM messages m;
INSERT INTO search_docs (conversation_id, user_id, kind, ref, anchor)
    SELECT r.conversation_id, (SELECT user_id FROM conversations WHERE id = r.conversation_id), 'code', e.run_id || '/' || e.seq,
        CASE WHEN json_extract(e.data, '$.cell_id') <> '' THEN 'cell-' || json_extract(e.data, '$.cell_id') ELSE 'run-' || e.run_id END
    FROM run_events e JOIN runs r ON r.id = e.run_id WHERE e.type = 'code_done';
INSERT INTO search_docs (conversation_id, user_id, kind, ref, anchor)
    SELECT f.conversation_id, c.user_id, 'file', f.id, 'file-' || f.id FROM files f JOIN conversations c ON c.id = f.conversation_id;
INSERT INTO search_fts (rowid, body)
    SELECT d.id, c.title FROM search_docs d JOIN conversations c ON c.id = d.ref WHERE d.kind = 'title';
INSERT INTO search_fts (rowid, body)
    SELECT d.id, m.content FROM search_docs d JOIN messages m ON m.id = d.ref WHERE d.kind = 'message';
INSERT INTO search_fts (rowid, body)
    SELECT d.id, COALESCE(json_extract(e.data, '$.text'), '') FROM search_docs d
    JOIN run_events e ON d.ref = e.run_id || '/' || e.seq WHERE d.kind = 'code';
INSERT INTO search_fts (rowid, body)
    SELECT d.id, f.name || ' ' || CASE WHEN json_valid(f.profile) THEN COALESCE(
        (SELECT group_concat(json_extract(value, '$.Name'), ' ') FROM json_each(f.profile, '$.Columns')), '') ELSE '' END
    FROM search_docs d JOIN files f ON f.id = d.ref WHERE d.kind = 'file';

-- Titles are no longer stored cut with a "…" (the views cut them); the
-- search triggers above re-index the titles this changes.
UPDATE conversations SET title = rtrim(title, '…') WHERE title LIKE '%…';

-- What is left of a conversation an administrator or the retention job
-- purged: who owned it and when it went, no content, so that its owner is
-- told what happened instead of a bare "not found".
CREATE TABLE conversation_tombstones (
    conversation_id TEXT PRIMARY KEY,
    user_id         TEXT NOT NULL,
    -- action is the purge's audit action (purge, retention).
    action          TEXT NOT NULL,
    deleted_at      INTEGER NOT NULL
) WITHOUT ROWID;

-- +goose Down
DROP TABLE conversation_tombstones;
DROP TRIGGER search_file_delete;
DROP TRIGGER search_file_update;
DROP TRIGGER search_file_insert;
DROP TRIGGER search_code_delete;
DROP TRIGGER search_code_insert;
DROP TRIGGER search_run_insert;
DROP TRIGGER search_message_delete;
DROP TRIGGER search_message_update;
DROP TRIGGER search_message_insert;
DROP TRIGGER search_conversation_delete;
DROP TRIGGER search_title_update;
DROP TRIGGER search_title_insert;
DROP TABLE search_fts;
DROP TABLE search_docs;

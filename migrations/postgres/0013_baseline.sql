-- +goose Up
-- The schema of the SQLite migrations 0001 to 0013, in PostgreSQL, as one
-- step: a new database starts at version 13, and each later migration has
-- a twin of the same number in both folders (migrations_test.go checks).
-- What differs from SQLite, and why:
--   * times are BIGINT milliseconds, as SQLite's 64-bit INTEGER;
--   * flags are BOOLEAN, written TRUE and FALSE, which SQLite reads as 1 and 0;
--   * tables whose rows the store orders by SQLite's implicit rowid (turns,
--     files and artifacts of one millisecond, the audit log) have it as an
--     explicit identity column of the same name, so the queries read alike;
--   * usernames are unique by lower(username), SQLite's COLLATE NOCASE;
--   * the full-text index is a tsvector column of search_docs, filled from
--     its body column, where SQLite has the FTS5 table search_fts;
--   * triggers are PL/pgSQL functions.

CREATE TABLE users (
    id            TEXT PRIMARY KEY,
    username      TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    role          TEXT NOT NULL CHECK (role IN ('analyst', 'admin')),
    disabled      BOOLEAN NOT NULL DEFAULT FALSE,
    -- session_epoch grows on every password reset or disable, which ends
    -- every cookie session issued before it.
    session_epoch BIGINT NOT NULL DEFAULT 0,
    created_at    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL,
    -- The Entra ID tenant and object id of an account that signs in through
    -- OpenID Connect; both empty for a local account.
    sso_tenant    TEXT NOT NULL DEFAULT '',
    sso_id        TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX users_username ON users (lower(username));
CREATE UNIQUE INDEX users_sso ON users (sso_tenant, sso_id) WHERE sso_id <> '';

CREATE TABLE conversations (
    rowid                   BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
    id                      TEXT PRIMARY KEY,
    user_id                 TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    title                   TEXT NOT NULL,
    created_at              BIGINT NOT NULL,
    updated_at              BIGINT NOT NULL,
    foundry_conversation_id TEXT NOT NULL DEFAULT '',
    container_id            TEXT NOT NULL DEFAULT '',
    session_started_at      BIGINT NOT NULL DEFAULT 0,
    session_used_at         BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX conversations_user_updated ON conversations (user_id, updated_at DESC, id DESC);
CREATE INDEX conversations_foundry ON conversations (foundry_conversation_id) WHERE foundry_conversation_id <> '';
CREATE INDEX conversations_updated ON conversations (updated_at);

CREATE TABLE files (
    rowid           BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
    id              TEXT PRIMARY KEY,
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    name            TEXT NOT NULL,
    content_type    TEXT NOT NULL,
    size            BIGINT NOT NULL,
    sha256          TEXT NOT NULL,
    profile         TEXT NOT NULL DEFAULT '',
    foundry_file_id TEXT NOT NULL DEFAULT '',
    created_at      BIGINT NOT NULL
);
CREATE UNIQUE INDEX files_conversation_sha ON files (conversation_id, sha256);
CREATE INDEX files_sha ON files (sha256, conversation_id, size);
CREATE INDEX files_foundry_file ON files (foundry_file_id) WHERE foundry_file_id <> '';

CREATE TABLE messages (
    id              TEXT PRIMARY KEY,
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    role            TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
    content         TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    -- A question for the agent, or a step: code the analyst ran as written.
    kind            TEXT NOT NULL DEFAULT 'question' CHECK (kind IN ('question', 'step')),
    author_id       TEXT REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX messages_conversation ON messages (conversation_id, created_at);

CREATE TABLE runs (
    rowid           BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
    id              TEXT PRIMARY KEY,
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    message_id      TEXT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
    status          TEXT NOT NULL CHECK (status IN ('running', 'completed', 'incomplete', 'failed', 'cancelled', 'interrupted')),
    error           TEXT NOT NULL DEFAULT '',
    response_id     TEXT NOT NULL DEFAULT '',
    input_tokens    BIGINT NOT NULL DEFAULT 0,
    output_tokens   BIGINT NOT NULL DEFAULT 0,
    new_session     BOOLEAN NOT NULL DEFAULT FALSE,
    started_at      BIGINT NOT NULL,
    finished_at     BIGINT NOT NULL DEFAULT 0,
    container_id    TEXT NOT NULL DEFAULT ''
);
CREATE INDEX runs_conversation ON runs (conversation_id, started_at);
-- At most one run at a time per conversation, enforced by the database.
CREATE UNIQUE INDEX runs_one_running ON runs (conversation_id) WHERE status = 'running';
CREATE INDEX runs_started ON runs (started_at);
CREATE INDEX runs_message ON runs (message_id);

CREATE TABLE run_events (
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    seq    BIGINT NOT NULL,
    type   TEXT NOT NULL,
    data   TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
);

CREATE TABLE agent_versions (
    name       TEXT NOT NULL,
    version    TEXT NOT NULL,
    in_use     BOOLEAN NOT NULL DEFAULT FALSE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (name, version)
);

CREATE TABLE artifacts (
    rowid             BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
    id                TEXT PRIMARY KEY,
    conversation_id   TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    run_id            TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    cell_id           TEXT NOT NULL DEFAULT '',
    container_id      TEXT NOT NULL DEFAULT '',
    container_file_id TEXT NOT NULL DEFAULT '',
    name              TEXT NOT NULL,
    content_type      TEXT NOT NULL,
    size              BIGINT NOT NULL,
    sha256            TEXT NOT NULL,
    kind              TEXT NOT NULL CHECK (kind IN ('image', 'file')),
    created_at        BIGINT NOT NULL
);
CREATE INDEX artifacts_conversation ON artifacts (conversation_id, created_at);
CREATE UNIQUE INDEX artifacts_container_file_version ON artifacts (container_id, container_file_id, sha256)
    WHERE container_file_id <> '';
CREATE INDEX artifacts_sha ON artifacts (sha256);
CREATE INDEX artifacts_sha_cover ON artifacts (sha256, conversation_id, size);
CREATE INDEX artifacts_run ON artifacts (run_id);

CREATE TABLE outbox (
    id              BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    purge_id        TEXT NOT NULL,
    kind            TEXT NOT NULL CHECK (kind IN ('conversation', 'foundry_file', 'foundry_conversation',
                        'container_file', 'agent_version', 'blob')),
    parent          TEXT NOT NULL DEFAULT '',
    target          TEXT NOT NULL,
    bytes           BIGINT NOT NULL DEFAULT 0,
    attempts        BIGINT NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL,
    last_error      TEXT NOT NULL DEFAULT '',
    done_at         BIGINT NOT NULL DEFAULT 0,
    result          TEXT NOT NULL DEFAULT '',
    created_at      BIGINT NOT NULL
);
CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE done_at = 0;
CREATE INDEX outbox_local ON outbox (id) WHERE kind = 'conversation' AND done_at = 0;
CREATE INDEX outbox_purge ON outbox (purge_id, done_at);

CREATE TABLE audit_log (
    rowid    BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
    id       TEXT PRIMARY KEY,
    at       BIGINT NOT NULL,
    actor    TEXT NOT NULL,
    action   TEXT NOT NULL,
    purge_id TEXT NOT NULL DEFAULT '',
    details  TEXT NOT NULL DEFAULT '{}',
    outcome  TEXT NOT NULL
);
CREATE INDEX audit_log_at ON audit_log (at);
CREATE INDEX audit_log_purge ON audit_log (purge_id);

CREATE TABLE settings (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at BIGINT NOT NULL,
    updated_by TEXT NOT NULL DEFAULT ''
);

CREATE TABLE foundry_uploads (
    foundry_file_id TEXT PRIMARY KEY,
    created_at      BIGINT NOT NULL
);

CREATE TABLE login_sessions (
    id         TEXT PRIMARY KEY, -- hex SHA-256 of the cookie's token
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX login_sessions_user ON login_sessions (user_id);
CREATE INDEX login_sessions_expires ON login_sessions (expires_at);

CREATE TABLE conversation_tombstones (
    conversation_id TEXT PRIMARY KEY,
    user_id         TEXT NOT NULL,
    action          TEXT NOT NULL,
    deleted_at      BIGINT NOT NULL
);

CREATE TABLE shares (
    id              TEXT PRIMARY KEY,
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    token           TEXT NOT NULL,
    token_sha256    TEXT NOT NULL,
    created_by      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    anyone          BOOLEAN NOT NULL DEFAULT FALSE,
    include_uploads BOOLEAN NOT NULL DEFAULT FALSE,
    created_at      BIGINT NOT NULL,
    expires_at      BIGINT NOT NULL,
    revoked_at      BIGINT NOT NULL DEFAULT 0,
    views           BIGINT NOT NULL DEFAULT 0,
    last_viewed_at  BIGINT NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX shares_token ON shares (token_sha256);
CREATE INDEX shares_conversation ON shares (conversation_id, created_at);
CREATE INDEX shares_live ON shares (expires_at) WHERE revoked_at = 0;

-- search_words is what the index reads of a text: lower case, diacritics
-- removed (decomposed, marks dropped, composed again) ("café" is found by "cafe", as FTS5's remove_diacritics), and
-- every run of other characters than letters and digits a space, so that
-- "df.groupby" and "ebitda_margin" are two words each, as FTS5's unicode61
-- tokenizer splits them (PostgreSQL's own parser would read host names and
-- file paths as single words). Built-in functions only, so no extension has
-- to be allowed on a managed server.
-- +goose StatementBegin
CREATE FUNCTION search_words(body TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN regexp_replace(normalize(regexp_replace(normalize(lower(body), NFD), '[\u0300-\u036f]+', '', 'g'), NFC),
    '[^[:alnum:]]+', ' ', 'g');
-- +goose StatementEnd

-- Full-text search over what a conversation holds: its title, questions and
-- answers, the code its cells ran, and the names and columns of its files.
-- Each row is one indexed text, body, with where it comes from; terms is
-- its index. Triggers keep the rows in step with the tables.
CREATE TABLE search_docs (
    id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    conversation_id TEXT NOT NULL,
    user_id         TEXT NOT NULL,
    kind            TEXT NOT NULL CHECK (kind IN ('title', 'message', 'code', 'file')),
    ref             TEXT NOT NULL,
    anchor          TEXT NOT NULL DEFAULT '',
    body            TEXT NOT NULL DEFAULT '',
    terms           TSVECTOR GENERATED ALWAYS AS (to_tsvector('simple', search_words(body))) STORED
);
CREATE UNIQUE INDEX search_docs_ref ON search_docs (kind, ref);
CREATE INDEX search_docs_conversation ON search_docs (conversation_id);
CREATE INDEX search_docs_terms ON search_docs USING GIN (terms);

-- search_file_text is a file's indexed text: its name and the names of its
-- columns (files.FileProfile as JSON, its fields untagged); a profile that
-- is not JSON gives the name alone, as SQLite's json_valid does.
-- +goose StatementBegin
CREATE FUNCTION search_file_text(name TEXT, profile TEXT) RETURNS TEXT LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
    cols JSONB;
BEGIN
    BEGIN
        cols := profile::jsonb -> 'Columns';
    EXCEPTION WHEN others THEN
        RETURN name || ' ';
    END;
    IF jsonb_typeof(cols) <> 'array' OR cols IS NULL THEN
        RETURN name || ' ';
    END IF;
    RETURN name || ' ' || COALESCE((SELECT string_agg(c ->> 'Name', ' ') FROM jsonb_array_elements(cols) c), '');
END $$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION search_title_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO search_docs (conversation_id, user_id, kind, ref, body) VALUES (NEW.id, NEW.user_id, 'title', NEW.id, NEW.title);
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER search_title_insert AFTER INSERT ON conversations FOR EACH ROW EXECUTE FUNCTION search_title_insert();

-- +goose StatementBegin
CREATE FUNCTION search_title_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE search_docs SET body = NEW.title WHERE kind = 'title' AND ref = NEW.id;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER search_title_update AFTER UPDATE OF title ON conversations FOR EACH ROW EXECUTE FUNCTION search_title_update();

-- A deleted conversation takes every document of it along, whatever the
-- child tables' own triggers already removed.
-- +goose StatementBegin
CREATE FUNCTION search_conversation_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM search_docs WHERE conversation_id = OLD.id;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER search_conversation_delete AFTER DELETE ON conversations FOR EACH ROW EXECUTE FUNCTION search_conversation_delete();

-- A question is inserted before its run, so its anchor is set when the run
-- is; an answer is inserted when its run ends, the latest run begun.
-- +goose StatementBegin
CREATE FUNCTION search_message_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO search_docs (conversation_id, user_id, kind, ref, anchor, body) VALUES (NEW.conversation_id,
        (SELECT user_id FROM conversations WHERE id = NEW.conversation_id), 'message', NEW.id,
        COALESCE((SELECT 'run-' || id FROM runs WHERE NEW.role = 'assistant' AND conversation_id = NEW.conversation_id
            AND started_at <= NEW.created_at ORDER BY started_at DESC LIMIT 1), ''), NEW.content);
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER search_message_insert AFTER INSERT ON messages FOR EACH ROW EXECUTE FUNCTION search_message_insert();

-- +goose StatementBegin
CREATE FUNCTION search_message_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE search_docs SET body = NEW.content WHERE kind = 'message' AND ref = NEW.id;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER search_message_update AFTER UPDATE OF content ON messages FOR EACH ROW EXECUTE FUNCTION search_message_update();

-- +goose StatementBegin
CREATE FUNCTION search_message_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM search_docs WHERE kind = 'message' AND ref = OLD.id;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER search_message_delete AFTER DELETE ON messages FOR EACH ROW EXECUTE FUNCTION search_message_delete();

-- +goose StatementBegin
CREATE FUNCTION search_run_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE search_docs SET anchor = 'run-' || NEW.id WHERE kind = 'message' AND ref = NEW.message_id;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER search_run_insert AFTER INSERT ON runs FOR EACH ROW EXECUTE FUNCTION search_run_insert();

-- A cell's whole code arrives in one code_done event (chat.EventCodeDone).
-- +goose StatementBegin
CREATE FUNCTION search_code_insert() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    d JSONB := NEW.data::jsonb;
BEGIN
    INSERT INTO search_docs (conversation_id, user_id, kind, ref, anchor, body)
        SELECT r.conversation_id, c.user_id, 'code', NEW.run_id || '/' || NEW.seq,
            CASE WHEN d ->> 'cell_id' <> '' THEN 'cell-' || (d ->> 'cell_id') ELSE 'run-' || NEW.run_id END,
            COALESCE(d ->> 'text', '')
        FROM runs r JOIN conversations c ON c.id = r.conversation_id WHERE r.id = NEW.run_id;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER search_code_insert AFTER INSERT ON run_events FOR EACH ROW WHEN (NEW.type = 'code_done')
    EXECUTE FUNCTION search_code_insert();

-- +goose StatementBegin
CREATE FUNCTION search_code_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM search_docs WHERE kind = 'code' AND ref = OLD.run_id || '/' || OLD.seq;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER search_code_delete AFTER DELETE ON run_events FOR EACH ROW WHEN (OLD.type = 'code_done')
    EXECUTE FUNCTION search_code_delete();

-- +goose StatementBegin
CREATE FUNCTION search_file_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO search_docs (conversation_id, user_id, kind, ref, anchor, body) VALUES (NEW.conversation_id,
        (SELECT user_id FROM conversations WHERE id = NEW.conversation_id), 'file', NEW.id, 'file-' || NEW.id,
        search_file_text(NEW.name, NEW.profile));
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER search_file_insert AFTER INSERT ON files FOR EACH ROW EXECUTE FUNCTION search_file_insert();

-- +goose StatementBegin
CREATE FUNCTION search_file_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE search_docs SET body = search_file_text(NEW.name, NEW.profile) WHERE kind = 'file' AND ref = NEW.id;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER search_file_update AFTER UPDATE OF name, profile ON files FOR EACH ROW EXECUTE FUNCTION search_file_update();

-- +goose StatementBegin
CREATE FUNCTION search_file_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM search_docs WHERE kind = 'file' AND ref = OLD.id;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER search_file_delete AFTER DELETE ON files FOR EACH ROW EXECUTE FUNCTION search_file_delete();

-- +goose Down
DROP TABLE search_docs, shares, conversation_tombstones, login_sessions, foundry_uploads, settings, audit_log,
    outbox, artifacts, agent_versions, run_events, runs, messages, files, conversations, users CASCADE;
DROP FUNCTION search_words, search_file_text, search_title_insert, search_title_update, search_conversation_delete,
    search_message_insert, search_message_update, search_message_delete, search_run_insert, search_code_insert,
    search_code_delete, search_file_insert, search_file_update, search_file_delete;

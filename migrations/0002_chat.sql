-- +goose Up
-- The Foundry side of a conversation: its server-side conversation, and the
-- Code Interpreter session (container) it last ran in, with the times that
-- decide whether that session is still alive (1 h active, 30 min idle).
ALTER TABLE conversations ADD COLUMN foundry_conversation_id TEXT NOT NULL DEFAULT '';
ALTER TABLE conversations ADD COLUMN container_id TEXT NOT NULL DEFAULT '';
ALTER TABLE conversations ADD COLUMN session_started_at INTEGER NOT NULL DEFAULT 0;
ALTER TABLE conversations ADD COLUMN session_used_at INTEGER NOT NULL DEFAULT 0;

-- Files uploaded into a conversation; the bytes live in DATA_DIR/blobs by
-- sha256. foundry_file_id is set on the first turn that attaches the file.
CREATE TABLE files (
    id              TEXT PRIMARY KEY,
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    name            TEXT NOT NULL,
    content_type    TEXT NOT NULL,
    size            INTEGER NOT NULL,
    sha256          TEXT NOT NULL,
    profile         TEXT NOT NULL DEFAULT '',
    foundry_file_id TEXT NOT NULL DEFAULT '',
    created_at      INTEGER NOT NULL
);
CREATE UNIQUE INDEX files_conversation_sha ON files (conversation_id, sha256);

-- One turn of analysis: the user's message, the run that answers it, and
-- the events that streamed, kept so a reload or a reconnect replays them.
CREATE TABLE messages (
    id              TEXT PRIMARY KEY,
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    role            TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
    content         TEXT NOT NULL,
    created_at      INTEGER NOT NULL
);
CREATE INDEX messages_conversation ON messages (conversation_id, created_at);

CREATE TABLE runs (
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
    finished_at     INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX runs_conversation ON runs (conversation_id, started_at);
-- At most one run at a time per conversation, enforced by the database.
CREATE UNIQUE INDEX runs_one_running ON runs (conversation_id) WHERE status = 'running';

CREATE TABLE run_events (
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    seq    INTEGER NOT NULL,
    type   TEXT NOT NULL,
    data   TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;

-- Agent versions this app created or used, so old ones can be cleaned up.
CREATE TABLE agent_versions (
    name       TEXT NOT NULL,
    version    TEXT NOT NULL,
    in_use     INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (name, version)
) WITHOUT ROWID;

-- +goose Down
DROP TABLE agent_versions;
DROP TABLE run_events;
DROP TABLE runs;
DROP TABLE messages;
DROP TABLE files;
ALTER TABLE conversations DROP COLUMN session_used_at;
ALTER TABLE conversations DROP COLUMN session_started_at;
ALTER TABLE conversations DROP COLUMN container_id;
ALTER TABLE conversations DROP COLUMN foundry_conversation_id;

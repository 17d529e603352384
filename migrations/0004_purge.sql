-- +goose Up
-- Work a purge still has to do, kept in the same database as the rows it
-- deletes: a conversation's local rows are deleted in the transaction that
-- queues its remote objects and blobs here, so a crash at any point leaves
-- either both or neither. The worker retries each entry until it is done.
CREATE TABLE outbox (
    id              INTEGER PRIMARY KEY,
    purge_id        TEXT NOT NULL,
    -- conversation: the local rows of one conversation (target), deleted in
    -- one transaction with the queueing of what they held; the other kinds
    -- are one remote object or blob each.
    kind            TEXT NOT NULL CHECK (kind IN ('conversation', 'foundry_file', 'foundry_conversation',
                        'container_file', 'agent_version', 'blob')),
    -- parent is the container of a container file or the agent of a version.
    parent          TEXT NOT NULL DEFAULT '',
    target          TEXT NOT NULL,
    bytes           INTEGER NOT NULL DEFAULT 0,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    last_error      TEXT NOT NULL DEFAULT '',
    -- done_at is 0 while pending; result says how it ended: deleted,
    -- not_found (a remote 404, counted as done) or kept (a blob still in use).
    done_at         INTEGER NOT NULL DEFAULT 0,
    result          TEXT NOT NULL DEFAULT '',
    created_at      INTEGER NOT NULL
);
-- The worker's questions, "what is due" and "which local work is left",
-- and a purge's "am I finished" (asked at every completion) stay index
-- lookups however much history the table keeps.
CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE done_at = 0;
CREATE INDEX outbox_local ON outbox (id) WHERE kind = 'conversation' AND done_at = 0;
CREATE INDEX outbox_purge ON outbox (purge_id, done_at);

-- Who purged what, when, and how it ended. Append-only: a purge writes a
-- started entry and, once its last outbox entry is done, a completed one.
CREATE TABLE audit_log (
    id       TEXT PRIMARY KEY,
    at       INTEGER NOT NULL,
    -- actor is a user id, or 'retention' for the background job.
    actor    TEXT NOT NULL,
    action   TEXT NOT NULL,
    purge_id TEXT NOT NULL DEFAULT '',
    details  TEXT NOT NULL DEFAULT '{}',
    outcome  TEXT NOT NULL
);
-- Listed newest first; rowid breaks ties of one millisecond in write order.
CREATE INDEX audit_log_at ON audit_log (at);
CREATE INDEX audit_log_purge ON audit_log (purge_id);

-- "Does a remaining row still use this blob / Foundry file?" is asked for
-- every blob a purge frees and every file Foundry lists. The digest
-- indexes cover conversation and size, so that a dry run over every file
-- and artifact reads them instead of the tables (whose rows carry the
-- profiles, kilobytes each).
CREATE INDEX files_sha ON files (sha256, conversation_id, size);
CREATE INDEX artifacts_sha_cover ON artifacts (sha256, conversation_id, size);
CREATE INDEX files_foundry_file ON files (foundry_file_id) WHERE foundry_file_id <> '';
CREATE INDEX conversations_foundry ON conversations (foundry_conversation_id) WHERE foundry_conversation_id <> '';
-- Retention selects by age across every user.
CREATE INDEX conversations_updated ON conversations (updated_at);
-- Deleting a conversation cascades to runs and artifacts through these
-- foreign keys; without an index SQLite scans the child table per row.
CREATE INDEX runs_message ON runs (message_id);
CREATE INDEX artifacts_run ON artifacts (run_id);

-- +goose Down
DROP INDEX artifacts_run;
DROP INDEX runs_message;
DROP INDEX conversations_updated;
DROP INDEX conversations_foundry;
DROP INDEX files_foundry_file;
DROP INDEX artifacts_sha_cover;
DROP INDEX files_sha;
DROP TABLE audit_log;
DROP TABLE outbox;

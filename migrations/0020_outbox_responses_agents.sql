-- +goose Up
-- Two more kinds of outbox entries: foundry_response, a stored response of
-- a purged conversation's question (runs.response_id), and agent, the app's
-- Foundry agent with all its versions, deleted at an administrator's
-- request (target: the agent's name).
--
-- SQLite cannot change a CHECK constraint, so outbox is rebuilt. No other
-- table refers to it and no trigger names it, so the rebuild needs neither
-- foreign keys off nor legacy_alter_table; its indexes are made again.
CREATE TABLE outbox_new (
    id              INTEGER PRIMARY KEY,
    purge_id        TEXT NOT NULL,
    kind            TEXT NOT NULL CHECK (kind IN ('conversation', 'foundry_file', 'foundry_conversation',
                        'container_file', 'agent_version', 'blob', 'foundry_response', 'agent')),
    parent          TEXT NOT NULL DEFAULT '',
    target          TEXT NOT NULL,
    bytes           INTEGER NOT NULL DEFAULT 0,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    last_error      TEXT NOT NULL DEFAULT '',
    done_at         INTEGER NOT NULL DEFAULT 0,
    result          TEXT NOT NULL DEFAULT '',
    created_at      INTEGER NOT NULL,
    claimed_until   INTEGER NOT NULL DEFAULT 0
);
INSERT INTO outbox_new SELECT id, purge_id, kind, parent, target, bytes, attempts, next_attempt_at, last_error,
    done_at, result, created_at, claimed_until FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_new RENAME TO outbox;
CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE done_at = 0;
CREATE INDEX outbox_local ON outbox (id) WHERE kind = 'conversation' AND done_at = 0;
CREATE INDEX outbox_purge ON outbox (purge_id, done_at);

-- +goose Down
-- Entries of the two kinds are dropped: the older code cannot carry them out.
CREATE TABLE outbox_old (
    id              INTEGER PRIMARY KEY,
    purge_id        TEXT NOT NULL,
    kind            TEXT NOT NULL CHECK (kind IN ('conversation', 'foundry_file', 'foundry_conversation',
                        'container_file', 'agent_version', 'blob')),
    parent          TEXT NOT NULL DEFAULT '',
    target          TEXT NOT NULL,
    bytes           INTEGER NOT NULL DEFAULT 0,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    last_error      TEXT NOT NULL DEFAULT '',
    done_at         INTEGER NOT NULL DEFAULT 0,
    result          TEXT NOT NULL DEFAULT '',
    created_at      INTEGER NOT NULL,
    claimed_until   INTEGER NOT NULL DEFAULT 0
);
INSERT INTO outbox_old SELECT id, purge_id, kind, parent, target, bytes, attempts, next_attempt_at, last_error,
    done_at, result, created_at, claimed_until FROM outbox WHERE kind NOT IN ('foundry_response', 'agent');
DROP TABLE outbox;
ALTER TABLE outbox_old RENAME TO outbox;
CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE done_at = 0;
CREATE INDEX outbox_local ON outbox (id) WHERE kind = 'conversation' AND done_at = 0;
CREATE INDEX outbox_purge ON outbox (purge_id, done_at);

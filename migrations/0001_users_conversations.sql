-- +goose Up
CREATE TABLE users (
    id            TEXT PRIMARY KEY,
    username      TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    role          TEXT NOT NULL CHECK (role IN ('analyst', 'admin')),
    disabled      INTEGER NOT NULL DEFAULT 0,
    -- session_epoch grows on every password reset or disable, which ends
    -- every cookie session issued before it.
    session_epoch INTEGER NOT NULL DEFAULT 0,
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL
);
-- Usernames are unique regardless of case, so "Ana" and "ana" are one account.
CREATE UNIQUE INDEX users_username ON users (username COLLATE NOCASE);

CREATE TABLE conversations (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    title      TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
-- The sidebar lists a user's conversations newest first and pages by
-- (updated_at, id), which this index serves without a sort.
CREATE INDEX conversations_user_updated ON conversations (user_id, updated_at DESC, id DESC);

-- +goose Down
DROP TABLE conversations;
DROP TABLE users;

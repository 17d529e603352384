-- +goose Up
-- Read-only links to a conversation (/s/<token>). The token is the link's
-- secret: 16 random bytes, base64url. It is kept as it is, not only as a
-- hash, because the owner's list offers every live link to copy again; a
-- copy of this database already holds everything a link shows, so keeping
-- the token adds nothing to what such a copy gives away. Links are looked
-- up by token_sha256 instead, so that the time a lookup takes depends on
-- the hash of what was sent, never on how much of a real token it shares.
-- A purge or delete takes a conversation's links with it (cascade).
CREATE TABLE shares (
    id              TEXT PRIMARY KEY,
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    token           TEXT NOT NULL,
    token_sha256    TEXT NOT NULL,
    created_by      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- anyone: the link opens without signing in; otherwise only for
    -- people signed in to the workbench.
    anyone          INTEGER NOT NULL DEFAULT 0,
    -- include_uploads: the page lists the uploaded files for download.
    include_uploads INTEGER NOT NULL DEFAULT 0,
    created_at      INTEGER NOT NULL,
    expires_at      INTEGER NOT NULL,
    -- revoked_at is 0 while the link lives; a revoked link stays, for the
    -- record, until its conversation goes.
    revoked_at      INTEGER NOT NULL DEFAULT 0,
    -- views counts the pages served to people other than the owner.
    views           INTEGER NOT NULL DEFAULT 0,
    last_viewed_at  INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX shares_token ON shares (token_sha256);
CREATE INDEX shares_conversation ON shares (conversation_id, created_at);
CREATE INDEX shares_live ON shares (expires_at) WHERE revoked_at = 0;

-- +goose Down
DROP TABLE shares;

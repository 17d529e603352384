-- +goose Up
-- Files the agent's code made, copied out of the Code Interpreter session
-- at once, so that links never depend on the session being alive. The bytes
-- live in DATA_DIR/blobs by sha256.
CREATE TABLE artifacts (
    id                TEXT PRIMARY KEY,
    conversation_id   TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    run_id            TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    -- The code interpreter call that made it, when known.
    cell_id           TEXT NOT NULL DEFAULT '',
    container_id      TEXT NOT NULL DEFAULT '',
    container_file_id TEXT NOT NULL DEFAULT '',
    name              TEXT NOT NULL,
    content_type      TEXT NOT NULL,
    size              INTEGER NOT NULL,
    sha256            TEXT NOT NULL,
    -- image: a chart to show in the gallery; file: anything else.
    kind              TEXT NOT NULL CHECK (kind IN ('image', 'file')),
    created_at        INTEGER NOT NULL
);
CREATE INDEX artifacts_conversation ON artifacts (conversation_id, created_at);
CREATE UNIQUE INDEX artifacts_container_file ON artifacts (container_id, container_file_id) WHERE container_file_id <> '';
CREATE INDEX artifacts_sha ON artifacts (sha256);

-- +goose Down
DROP TABLE artifacts;

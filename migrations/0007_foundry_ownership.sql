-- +goose Up
-- The Foundry files this app uploaded. A Foundry file has no metadata to
-- tag it with (the Files API takes the bytes and a purpose, nothing more),
-- so the app remembers their ids instead: reconciliation offers only these,
-- never the files of another app that shares the project. Conversations and
-- agent versions carry the app's tag in their metadata instead.
CREATE TABLE foundry_uploads (
    foundry_file_id TEXT PRIMARY KEY,
    created_at      INTEGER NOT NULL
) WITHOUT ROWID;
INSERT OR IGNORE INTO foundry_uploads (foundry_file_id, created_at)
    SELECT foundry_file_id, created_at FROM files WHERE foundry_file_id <> '';

-- +goose Down
DROP TABLE foundry_uploads;

-- +goose Up
-- Settings an admin changes at run time; a row overrides the configured
-- default of the same name.
CREATE TABLE settings (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    updated_by TEXT NOT NULL DEFAULT ''
) WITHOUT ROWID;

-- +goose Down
DROP TABLE settings;

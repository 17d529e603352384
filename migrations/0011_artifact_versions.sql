-- +goose Up
-- A container file the agent's code changes in a later turn is kept again,
-- as a new version made by that turn: a container file has one row per
-- content, not one row in all. Each answer then shows exactly the files its
-- turn created or changed.
DROP INDEX artifacts_container_file;
CREATE UNIQUE INDEX artifacts_container_file_version ON artifacts (container_id, container_file_id, sha256)
    WHERE container_file_id <> '';

-- +goose Down
DROP INDEX artifacts_container_file_version;
CREATE UNIQUE INDEX artifacts_container_file ON artifacts (container_id, container_file_id) WHERE container_file_id <> '';

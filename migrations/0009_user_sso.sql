-- +goose Up
-- An account that signs in through OpenID Connect (Entra ID) is found by the
-- token's tenant and object id, never by its e-mail or name, which people
-- can change or reuse. Local accounts keep both empty; an SSO-only account
-- has an empty password_hash, which no password matches.
ALTER TABLE users ADD COLUMN sso_tenant TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN sso_id TEXT NOT NULL DEFAULT '';
-- One account per identity; local accounts (sso_id '') are not indexed.
CREATE UNIQUE INDEX users_sso ON users (sso_tenant, sso_id) WHERE sso_id <> '';

-- +goose Down
DROP INDEX users_sso;
ALTER TABLE users DROP COLUMN sso_id;
ALTER TABLE users DROP COLUMN sso_tenant;

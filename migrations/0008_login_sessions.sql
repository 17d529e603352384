-- +goose Up
-- One row per signed-in browser. The cookie carries a random token and the
-- row only its SHA-256, so a copy of the database opens no session. Signing
-- out deletes the row, which ends the session for every copy of the cookie.
CREATE TABLE login_sessions (
    id         TEXT PRIMARY KEY, -- hex SHA-256 of the cookie's token
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
) WITHOUT ROWID;
-- A password reset or a disable deletes every session of the user.
CREATE INDEX login_sessions_user ON login_sessions (user_id);
-- Expired sessions are swept at each sign-in.
CREATE INDEX login_sessions_expires ON login_sessions (expires_at);

-- +goose Down
DROP TABLE login_sessions;

package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// LoginSession is one signed-in browser. Its row is what makes a session
// cookie valid: deleting it signs that browser out, whoever holds a copy of
// the cookie.
type LoginSession struct {
	// ID is the hex SHA-256 of the token in the cookie; the token itself is
	// never stored.
	ID        string
	UserID    string
	CreatedAt time.Time
	ExpiresAt time.Time
}

// CreateLoginSession records s and, in the same transaction, forgets every
// session that has expired, so the table stays as small as the number of
// browsers signed in.
func (db *DB) CreateLoginSession(ctx context.Context, s LoginSession) error {
	now := db.now()
	err := db.withTx(ctx, func(tx *txn) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM login_sessions WHERE expires_at <= ?`, now); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO login_sessions (id, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)`,
			s.ID, s.UserID, toMillis(s.CreatedAt), toMillis(s.ExpiresAt))
		return err
	})
	if err != nil {
		return fmt.Errorf("store: create login session: %w", err)
	}
	return nil
}

// LoginSession returns the session with the given id, or ErrNotFound if it
// does not exist or has expired.
func (db *DB) LoginSession(ctx context.Context, id string) (*LoginSession, error) {
	var s LoginSession
	var created, expires int64
	err := db.q.QueryRowContext(ctx, `SELECT id, user_id, created_at, expires_at FROM login_sessions
		WHERE id = ? AND expires_at > ?`, id, db.now()).Scan(&s.ID, &s.UserID, &created, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("store: login session: %w", err)
	}
	s.CreatedAt, s.ExpiresAt = fromMillis(created), fromMillis(expires)
	return &s, nil
}

// UserBySession returns the account of a live session in one query: it runs
// on every signed-in request. ErrNotFound means the session has ended or
// expired, or its account is gone.
func (db *DB) UserBySession(ctx context.Context, id string) (*User, error) {
	u, err := scanUser(db.q.QueryRowContext(ctx, `SELECT `+prefixed("u", userColumns)+`
		FROM login_sessions s JOIN users u ON u.id = s.user_id
		WHERE s.id = ? AND s.expires_at > ?`, id, db.now()))
	if err != nil && !errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("store: user of a session: %w", err)
	}
	return u, err
}

// DeleteLoginSession ends one session; ending one that does not exist is
// not an error, so signing out twice is harmless.
func (db *DB) DeleteLoginSession(ctx context.Context, id string) error {
	if _, err := db.db.ExecContext(ctx, `DELETE FROM login_sessions WHERE id = ?`, id); err != nil {
		return fmt.Errorf("store: delete login session: %w", err)
	}
	return nil
}

// deleteLoginSessions ends every session of a user, inside tx.
func deleteLoginSessions(ctx context.Context, tx *txn, userID string) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM login_sessions WHERE user_id = ?`, userID)
	return err
}

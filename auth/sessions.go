package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/analyst-workbench/workbench/store"
)

// SessionLifetime is how long a sign-in lasts. The cookie and the
// server-side session both end after it.
const SessionLifetime = 7 * 24 * time.Hour

// StartSession records a new signed-in session for u and returns its token,
// which the caller keeps in the (signed, encrypted) session cookie. Only a
// hash of the token is stored, so a copy of the database opens nothing.
func (a *Accounts) StartSession(ctx context.Context, u *store.User) (string, error) {
	token := newSecret()
	now := a.db.Now()
	s := store.LoginSession{ID: sessionID(token), UserID: u.ID, CreatedAt: now, ExpiresAt: now.Add(SessionLifetime)}
	if err := a.db.CreateLoginSession(ctx, s); err != nil {
		return "", fmt.Errorf("auth: start session: %w", err)
	}
	return token, nil
}

// SessionUser returns the account behind a session token, or
// ErrSessionEnded if the session was ended (sign-out, password reset,
// disable), has expired, or its account is gone or disabled.
func (a *Accounts) SessionUser(ctx context.Context, token string) (*store.User, error) {
	if token == "" {
		return nil, ErrSessionEnded
	}
	u, err := a.db.UserBySession(ctx, sessionID(token))
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrSessionEnded
	}
	if err != nil {
		return nil, err
	}
	if u.Disabled {
		return nil, ErrSessionEnded
	}
	return u, nil
}

// EndSession ends the session of token, here, so that the cookie no longer
// opens anything even where a copy of it survives the sign-out.
func (a *Accounts) EndSession(ctx context.Context, token string) error {
	if token == "" {
		return nil
	}
	return a.db.DeleteLoginSession(ctx, sessionID(token))
}

// sessionID is the stored name of a session token.
func sessionID(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

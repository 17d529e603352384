package store

import (
	"context"
	"errors"
	"fmt"
)

// UserBySSO returns the account linked to the single sign-on identity
// (tenant, id), or ErrNotFound.
func (db *DB) UserBySSO(ctx context.Context, tenant, id string) (*User, error) {
	u, err := scanUser(db.db.QueryRowContext(ctx,
		`SELECT `+userColumns+` FROM users WHERE sso_tenant = ? AND sso_id = ? AND sso_id <> ''`, tenant, id))
	if err != nil && !errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("store: user by sso: %w", err)
	}
	return u, err
}

// CreateSSOUser adds an account linked to the identity (tenant, id), with
// no password. It returns ErrConflict when the username is taken or the
// identity already has an account (two first sign-ins at once).
func (db *DB) CreateSSOUser(ctx context.Context, username, role, tenant, id string) (*User, error) {
	if id == "" {
		return nil, errors.New("store: create sso user: empty identity")
	}
	now := db.now()
	u := &User{ID: newID(), Username: username, Role: role, SSOTenant: tenant, SSOID: id,
		CreatedAt: fromMillis(now), UpdatedAt: fromMillis(now)}
	_, err := db.db.ExecContext(ctx, `INSERT INTO users (id, username, password_hash, role, sso_tenant, sso_id, created_at, updated_at)
		VALUES (?, ?, '', ?, ?, ?, ?, ?)`, u.ID, username, role, tenant, id, now, now)
	if isUniqueViolation(err) {
		return nil, ErrConflict
	}
	if err != nil {
		return nil, fmt.Errorf("store: create sso user: %w", err)
	}
	return u, nil
}

package store

import (
	"context"
	"errors"
	"fmt"
)

// UserBySSO returns the account linked to the single sign-on identity
// (tenant, id), or ErrNotFound.
func (db *DB) UserBySSO(ctx context.Context, tenant, id string) (*User, error) {
	u, err := scanUser(db.q.QueryRowContext(ctx,
		`SELECT `+userColumns+` FROM users WHERE sso_tenant = ? AND sso_id = ? AND sso_id <> ''`, tenant, id))
	if err != nil && !errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("store: user by sso: %w", err)
	}
	return u, err
}

// CreateSSOUser adds an account linked to the identity (tenant, id), with
// no password. It returns ErrConflict when the username is taken or the
// identity already has an account (two first sign-ins at once). It writes
// audit with it.
func (db *DB) CreateSSOUser(ctx context.Context, username, role, tenant, id string, audit *AccountAudit) (*User, error) {
	if id == "" {
		return nil, errors.New("store: create sso user: empty identity")
	}
	u := db.newUser(username, "", role)
	u.SSOTenant, u.SSOID = tenant, id
	if err := db.withTx(ctx, func(tx *txn) error { return insertUser(ctx, tx, u, audit) }); err != nil {
		return nil, wrapCreate("create sso user", err)
	}
	return u, nil
}

package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Roles a user can have.
const (
	RoleAnalyst = "analyst"
	RoleAdmin   = "admin"
)

// User is an account that can sign in.
type User struct {
	ID           string
	Username     string
	PasswordHash string
	Role         string
	Disabled     bool
	// SessionEpoch changes whenever sessions issued earlier must end.
	SessionEpoch int64
	// SSOTenant and SSOID name the single sign-on identity of the account
	// (Entra ID's tid and oid); both are empty for a local account.
	SSOTenant string
	SSOID     string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// IsAdmin reports whether u may use the admin pages.
func (u *User) IsAdmin() bool { return u.Role == RoleAdmin }

// HasPassword reports whether u can sign in with a password; an account
// made by single sign-on has none until an admin sets one.
func (u *User) HasPassword() bool { return u.PasswordHash != "" }

// UsesSSO reports whether u is linked to a single sign-on identity.
func (u *User) UsesSSO() bool { return u.SSOID != "" }

const userColumns = `id, username, password_hash, role, disabled, session_epoch, sso_tenant, sso_id, created_at, updated_at`

func scanUser(row rowScanner) (*User, error) {
	var u User
	var created, updated int64
	err := row.Scan(&u.ID, &u.Username, &u.PasswordHash, &u.Role, &u.Disabled, &u.SessionEpoch, &u.SSOTenant, &u.SSOID, &created, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	u.CreatedAt, u.UpdatedAt = fromMillis(created), fromMillis(updated)
	return &u, nil
}

// CountUsers returns how many accounts exist; zero means set-up is pending.
func (db *DB) CountUsers(ctx context.Context) (int, error) {
	var n int
	if err := db.q.QueryRowContext(ctx, `SELECT count(*) FROM users`).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: count users: %w", err)
	}
	return n, nil
}

// CreateUser adds an account and writes audit (nil: none, as for test
// fixtures) with it. It returns ErrConflict when the username is taken,
// compared without regard to case.
func (db *DB) CreateUser(ctx context.Context, username, passwordHash, role string, audit *AccountAudit) (*User, error) {
	u := db.newUser(username, passwordHash, role)
	if err := db.withTx(ctx, func(tx *txn) error { return insertUser(ctx, tx, u, audit) }); err != nil {
		return nil, wrapCreate("create user", err)
	}
	return u, nil
}

// CreateFirstUser adds an account only if no account exists yet, in one
// transaction, so two concurrent set-up requests cannot both succeed; it
// writes audit with it.
func (db *DB) CreateFirstUser(ctx context.Context, username, passwordHash, role string, audit *AccountAudit) (*User, error) {
	u := db.newUser(username, passwordHash, role)
	err := db.withTx(ctx, func(tx *txn) error {
		if err := tx.lock(ctx, "first user"); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM users`).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return ErrConflict
		}
		return insertUser(ctx, tx, u, audit)
	})
	if err != nil {
		return nil, wrapCreate("create first user", err)
	}
	return u, nil
}

// newUser is an account made now, not yet stored.
func (db *DB) newUser(username, passwordHash, role string) *User {
	now := fromMillis(db.now())
	return &User{ID: newID(), Username: username, PasswordHash: passwordHash, Role: role, CreatedAt: now, UpdatedAt: now}
}

// insertUser stores a new account and its audit entry, a taken username (or
// single sign-on identity) being ErrConflict. Every way of making an account
// goes through it, so they all write the same columns and the same record.
func insertUser(ctx context.Context, tx *txn, u *User, audit *AccountAudit) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO users (id, username, password_hash, role, sso_tenant, sso_id, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, u.ID, u.Username, u.PasswordHash, u.Role, u.SSOTenant, u.SSOID,
		toMillis(u.CreatedAt), toMillis(u.UpdatedAt))
	if tx.d.uniqueViolation(err) {
		return ErrConflict
	}
	if err != nil {
		return err
	}
	return insertAccountAudit(ctx, tx, toMillis(u.CreatedAt), u.ID, audit)
}

// wrapCreate keeps ErrConflict as it is and names what failed otherwise.
func wrapCreate(what string, err error) error {
	if errors.Is(err, ErrConflict) {
		return ErrConflict
	}
	return fmt.Errorf("store: %s: %w", what, err)
}

// UserByID returns the account with the given id.
func (db *DB) UserByID(ctx context.Context, id string) (*User, error) {
	u, err := scanUser(db.q.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE id = ?`, id))
	if err != nil && !errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("store: user %s: %w", id, err)
	}
	return u, err
}

// UserByUsername returns the account with the given username, compared
// without regard to case.
func (db *DB) UserByUsername(ctx context.Context, username string) (*User, error) {
	u, err := scanUser(db.q.QueryRowContext(ctx,
		`SELECT `+userColumns+` FROM users WHERE `+db.d.nocase("username")+` = `+db.d.nocase("?"), username))
	if err != nil && !errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("store: user by name: %w", err)
	}
	return u, err
}

// Users returns every account, ordered by username.
func (db *DB) Users(ctx context.Context) ([]*User, error) {
	rows, err := db.q.QueryContext(ctx, `SELECT `+userColumns+` FROM users ORDER BY `+db.d.nocase("username"))
	if err != nil {
		return nil, fmt.Errorf("store: users: %w", err)
	}
	users, err := collect(rows, scanUser)
	if err != nil {
		return nil, fmt.Errorf("store: users: %w", err)
	}
	return users, nil
}

// UserUpdate names the fields of an account to change; nil fields stay.
type UserUpdate struct {
	PasswordHash *string
	Role         *string
	Disabled     *bool
	// Audit is written with the change, an entry per thing changed.
	Audit []AccountAudit
}

// UpdateUser changes an account. A new password or a change of the disabled
// flag also advances the session epoch and deletes the user's login
// sessions, in one transaction, which signs the user out everywhere.
func (db *DB) UpdateUser(ctx context.Context, id string, upd UserUpdate) error {
	now := db.now()
	set, args := "updated_at = ?", []any{now}
	signOut := upd.PasswordHash != nil || upd.Disabled != nil
	if signOut {
		set += ", session_epoch = session_epoch + 1"
	}
	if upd.PasswordHash != nil {
		set += ", password_hash = ?"
		args = append(args, *upd.PasswordHash)
	}
	if upd.Role != nil {
		set += ", role = ?"
		args = append(args, *upd.Role)
	}
	if upd.Disabled != nil {
		set += ", disabled = ?"
		args = append(args, *upd.Disabled)
	}
	err := db.withTx(ctx, func(tx *txn) error {
		res, err := tx.ExecContext(ctx, `UPDATE users SET `+set+` WHERE id = ?`, append(args, id)...)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		for i := range upd.Audit {
			if err := insertAccountAudit(ctx, tx, now, id, &upd.Audit[i]); err != nil {
				return err
			}
		}
		if signOut {
			return deleteLoginSessions(ctx, tx, id)
		}
		return nil
	})
	if errors.Is(err, ErrNotFound) {
		return ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("store: update user %s: %w", id, err)
	}
	return nil
}

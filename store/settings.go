package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
)

// SettingRetentionDays is the retention period an admin set on the admin
// page; it overrides RETENTION_DAYS.
const SettingRetentionDays = "retention_days"

// settingInstallID names this installation's random id.
const settingInstallID = "install_id"

// InstallID returns this installation's id, made at the first call and kept
// in the database, so that replicas sharing the database share it. The app
// tags what it creates in Foundry with it.
func (db *DB) InstallID(ctx context.Context) (string, error) {
	_, err := db.db.ExecContext(ctx, `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (key) DO NOTHING`, settingInstallID, newID(), db.now())
	if err != nil {
		return "", fmt.Errorf("store: install id: %w", err)
	}
	var id string
	if err := db.q.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, settingInstallID).Scan(&id); err != nil {
		return "", fmt.Errorf("store: install id: %w", err)
	}
	return id, nil
}

// IntSetting returns the integer setting key, or def when no admin set it.
func (db *DB) IntSetting(ctx context.Context, key string, def int) (int, error) {
	var v string
	err := db.q.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return def, nil
	}
	if err != nil {
		return def, fmt.Errorf("store: setting %s: %w", key, err)
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return def, fmt.Errorf("store: setting %s: %w", key, err)
	}
	return n, nil
}

// SetIntSetting stores an integer setting on behalf of a user.
func (db *DB) SetIntSetting(ctx context.Context, key string, value int, by string) error {
	_, err := db.db.ExecContext(ctx, `INSERT INTO settings (key, value, updated_at, updated_by) VALUES (?, ?, ?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
		key, strconv.Itoa(value), db.now(), by)
	if err != nil {
		return fmt.Errorf("store: set %s: %w", key, err)
	}
	return nil
}

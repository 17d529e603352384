package store

import (
	"context"
	"fmt"
	"time"
)

// Failed sign-ins kept in the database, for the replicas that share it:
// each row is one failure of a throttle's key at a time. The rule of how
// many failures wait how long is auth's; the store only keeps the times.

// AddLoginFailure records a failure of key at at.
func (db *DB) AddLoginFailure(ctx context.Context, key string, at time.Time) error {
	_, err := db.db.ExecContext(ctx, `INSERT INTO login_failures (key, at) VALUES (?, ?)`, key, at.UnixMilli())
	if err != nil {
		return fmt.Errorf("store: add login failure: %w", err)
	}
	return nil
}

// LoginFailures returns the times of key's failures at or after since,
// oldest first.
func (db *DB) LoginFailures(ctx context.Context, key string, since time.Time) ([]time.Time, error) {
	rows, err := db.q.QueryContext(ctx, `SELECT at FROM login_failures WHERE key = ? AND at >= ? ORDER BY at`,
		key, since.UnixMilli())
	if err != nil {
		return nil, fmt.Errorf("store: login failures: %w", err)
	}
	defer rows.Close()
	var out []time.Time
	for rows.Next() {
		var at int64
		if err := rows.Scan(&at); err != nil {
			return nil, fmt.Errorf("store: login failures: %w", err)
		}
		out = append(out, fromMillis(at))
	}
	return out, rows.Err()
}

// ResetLoginFailures forgets key's failures, after a successful sign-in.
func (db *DB) ResetLoginFailures(ctx context.Context, key string) error {
	if _, err := db.db.ExecContext(ctx, `DELETE FROM login_failures WHERE key = ?`, key); err != nil {
		return fmt.Errorf("store: reset login failures: %w", err)
	}
	return nil
}

// PruneLoginFailures deletes every failure before before, which no window
// counts any more, and returns how many it deleted.
func (db *DB) PruneLoginFailures(ctx context.Context, before time.Time) (int64, error) {
	res, err := db.db.ExecContext(ctx, `DELETE FROM login_failures WHERE at < ?`, before.UnixMilli())
	if err != nil {
		return 0, fmt.Errorf("store: prune login failures: %w", err)
	}
	return res.RowsAffected()
}

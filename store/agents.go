package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// AgentVersionInUse returns the version of the named agent recorded in use,
// or "" when none is: the agent was never set up, or an administrator
// deleted it (StartPurge drops the records of a deleted agent).
func (db *DB) AgentVersionInUse(ctx context.Context, name string) (string, error) {
	var version string
	err := db.q.QueryRowContext(ctx, `SELECT version FROM agent_versions WHERE name = ? AND in_use`, name).Scan(&version)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("store: agent version in use: %w", err)
	}
	return version, nil
}

// AgentDeletionPending reports whether a deletion of the named agent is
// queued and not done yet.
func (db *DB) AgentDeletionPending(ctx context.Context, name string) (bool, error) {
	var pending bool
	err := db.q.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM outbox WHERE kind = ? AND target = ? AND done_at = 0)`,
		OutboxAgent, name).Scan(&pending)
	if err != nil {
		return false, fmt.Errorf("store: agent deletion pending: %w", err)
	}
	return pending, nil
}

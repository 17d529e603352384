package store

import (
	"context"
	"fmt"
	"time"
)

// UnusedBlobs returns the digests among shas that no file or artifact row uses.
func (db *DB) UnusedBlobs(ctx context.Context, shas []string) ([]string, error) {
	return db.unknown(ctx, "unused blobs", shas, `NOT EXISTS (SELECT 1 FROM files WHERE sha256 = j.value)
		AND NOT EXISTS (SELECT 1 FROM artifacts WHERE sha256 = j.value)`)
}

// UnknownFoundryFiles returns the ids among ids that this app uploaded and
// no file row names any more. A file another app uploaded into a shared
// project is never among them.
func (db *DB) UnknownFoundryFiles(ctx context.Context, ids []string) ([]string, error) {
	return db.unknown(ctx, "unknown foundry files", ids,
		`EXISTS (SELECT 1 FROM foundry_uploads WHERE foundry_file_id = j.value)
		AND NOT EXISTS (SELECT 1 FROM files WHERE foundry_file_id = j.value AND foundry_file_id <> '')`)
}

// UnknownFoundryConversations returns the ids among ids that no
// conversation row names.
func (db *DB) UnknownFoundryConversations(ctx context.Context, ids []string) ([]string, error) {
	return db.unknown(ctx, "unknown foundry conversations", ids,
		`NOT EXISTS (SELECT 1 FROM conversations WHERE foundry_conversation_id = j.value AND foundry_conversation_id <> '')`)
}

// unknown keeps the values for which cond holds, asking once per call
// rather than once per value; callers pass chunks of a bounded size. The
// conditions repeat "<> ”" so that SQLite may use the partial indexes.
func (db *DB) unknown(ctx context.Context, what string, values []string, cond string) ([]string, error) {
	if len(values) == 0 {
		return nil, nil
	}
	arg := jsonList(values)
	rows, err := db.q.QueryContext(ctx, `SELECT j.value FROM `+db.d.list("?")+` j WHERE `+cond, arg)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", what, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, fmt.Errorf("store: %s: %w", what, err)
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// AgentVersionRecord is an agent version this app created or used.
type AgentVersionRecord struct {
	Name, Version string
	InUse         bool
	CreatedAt     time.Time
}

// AgentVersionRecords returns every recorded agent version, by name and age.
func (db *DB) AgentVersionRecords(ctx context.Context) ([]AgentVersionRecord, error) {
	rows, err := db.q.QueryContext(ctx, `SELECT name, version, in_use, created_at FROM agent_versions ORDER BY name, created_at`)
	if err != nil {
		return nil, fmt.Errorf("store: agent version records: %w", err)
	}
	defer rows.Close()
	var out []AgentVersionRecord
	for rows.Next() {
		var r AgentVersionRecord
		var created int64
		if err := rows.Scan(&r.Name, &r.Version, &r.InUse, &created); err != nil {
			return nil, fmt.Errorf("store: agent version records: %w", err)
		}
		r.CreatedAt = fromMillis(created)
		out = append(out, r)
	}
	return out, rows.Err()
}

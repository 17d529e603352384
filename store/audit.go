package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// purgeCount is how many entries of one kind of a purge ended one way, and
// their bytes.
type purgeCount struct {
	Count int64 `json:"count"`
	Bytes int64 `json:"bytes"`
}

// purgeResults sums a purge's entries as JSON, {"kind": {"result":
// {"count": n, "bytes": b}}}. The sums are SQL's and the JSON is made here,
// where each dialect would build it with functions of its own.
func purgeResults(ctx context.Context, tx *txn, purgeID string) (string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT kind, result, count(*), coalesce(sum(bytes), 0) FROM outbox
		WHERE purge_id = ? GROUP BY kind, result`, purgeID)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	out := map[string]map[string]purgeCount{}
	for rows.Next() {
		var kind, result string
		var c purgeCount
		if err := rows.Scan(&kind, &result, &c.Count, &c.Bytes); err != nil {
			return "", err
		}
		if out[kind] == nil {
			out[kind] = map[string]purgeCount{}
		}
		out[kind][result] = c
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	b, err := json.Marshal(out)
	return string(b), err
}

func insertAudit(ctx context.Context, tx *txn, at int64, actor, action, purgeID, details, outcome string) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO audit_log (id, at, actor, action, purge_id, details, outcome)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, newID(), at, actor, action, purgeID, details, outcome)
	return err
}

// AuditEntry is one line of the audit log. Details is JSON.
type AuditEntry struct {
	ID            string
	At            time.Time
	Actor, Action string
	PurgeID       string
	Details       string
	Outcome       string
}

// AppendAudit writes an entry that belongs to no queued purge, such as a
// purge that failed before anything was queued.
func (db *DB) AppendAudit(ctx context.Context, e AuditEntry) error {
	details, err := json.Marshal(json.RawMessage(e.Details))
	if err != nil || e.Details == "" {
		details = []byte("{}")
	}
	err = db.withTx(ctx, func(tx *txn) error {
		return insertAudit(ctx, tx, db.now(), e.Actor, e.Action, e.PurgeID, string(details), e.Outcome)
	})
	if err != nil {
		return fmt.Errorf("store: append audit: %w", err)
	}
	return nil
}

// AuditLog returns the newest limit entries, newest first.
func (db *DB) AuditLog(ctx context.Context, limit int) ([]AuditEntry, error) {
	rows, err := db.q.QueryContext(ctx, `SELECT id, at, actor, action, purge_id, details, outcome FROM audit_log
		ORDER BY at DESC, rowid DESC LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("store: audit log: %w", err)
	}
	defer rows.Close()
	var out []AuditEntry
	for rows.Next() {
		var e AuditEntry
		var at int64
		if err := rows.Scan(&e.ID, &at, &e.Actor, &e.Action, &e.PurgeID, &e.Details, &e.Outcome); err != nil {
			return nil, fmt.Errorf("store: audit log: %w", err)
		}
		e.At = fromMillis(at)
		out = append(out, e)
	}
	return out, rows.Err()
}

// PurgeProgress is how far a purge has got.
type PurgeProgress struct {
	Pending, Done int64
	// Failing counts pending entries that failed at least once; LastError
	// is the latest of their errors.
	Failing   int64
	LastError string
}

// PurgeProgress reports how far the purge with the given id has got.
func (db *DB) PurgeProgress(ctx context.Context, purgeID string) (PurgeProgress, error) {
	var p PurgeProgress
	err := db.q.QueryRowContext(ctx, `SELECT count(*) FILTER (WHERE done_at = 0), count(*) FILTER (WHERE done_at <> 0),
		count(*) FILTER (WHERE done_at = 0 AND attempts > 0),
		coalesce((SELECT last_error FROM outbox WHERE purge_id = ?1 AND done_at = 0 AND last_error <> ''
			ORDER BY next_attempt_at DESC LIMIT 1), '')
		FROM outbox WHERE purge_id = ?1`, purgeID).Scan(&p.Pending, &p.Done, &p.Failing, &p.LastError)
	if err != nil {
		return PurgeProgress{}, fmt.Errorf("store: purge progress: %w", err)
	}
	return p, nil
}

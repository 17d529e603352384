package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// OutboxEntry is one pending piece of a purge.
type OutboxEntry struct {
	ID             int64
	PurgeID, Kind  string
	Parent, Target string
	Bytes          int64
	Attempts       int
	NextAttemptAt  time.Time
	LastError      string
	DoneAt         time.Time
	Result         string
	CreatedAt      time.Time
}

// DueOutbox returns up to limit remote and blob entries due at now, the
// longest waiting first. Conversation entries are PurgeConversations' work.
func (db *DB) DueOutbox(ctx context.Context, now time.Time, limit int) ([]*OutboxEntry, error) {
	rows, err := db.q.QueryContext(ctx, `SELECT id, purge_id, kind, parent, target, bytes, attempts, next_attempt_at,
		last_error, done_at, result, created_at FROM outbox
		WHERE done_at = 0 AND next_attempt_at <= ? AND kind <> 'conversation' ORDER BY next_attempt_at, id LIMIT ?`,
		now.UnixMilli(), limit)
	if err != nil {
		return nil, fmt.Errorf("store: due outbox: %w", err)
	}
	defer rows.Close()
	var out []*OutboxEntry
	for rows.Next() {
		var e OutboxEntry
		var next, done, created int64
		if err := rows.Scan(&e.ID, &e.PurgeID, &e.Kind, &e.Parent, &e.Target, &e.Bytes, &e.Attempts, &next,
			&e.LastError, &done, &e.Result, &created); err != nil {
			return nil, fmt.Errorf("store: due outbox: %w", err)
		}
		e.NextAttemptAt, e.DoneAt, e.CreatedAt = fromMillis(next), optMillis(done), fromMillis(created)
		out = append(out, &e)
	}
	return out, rows.Err()
}

// NextOutbox returns when the next pending entry is due; ok is false when
// nothing is pending.
func (db *DB) NextOutbox(ctx context.Context) (at time.Time, ok bool, err error) {
	var next sql.NullInt64
	if err := db.q.QueryRowContext(ctx, `SELECT min(next_attempt_at) FROM outbox WHERE done_at = 0`).Scan(&next); err != nil {
		return time.Time{}, false, fmt.Errorf("store: next outbox: %w", err)
	}
	return fromMillis(next.Int64), next.Valid, nil
}

// CompleteOutbox marks an entry done with result, and writes its purge's
// completed audit entry if it was the last one. Completing an entry twice
// changes nothing.
func (db *DB) CompleteOutbox(ctx context.Context, id int64, result string) error {
	err := db.withTx(ctx, func(tx *txn) error { return completeOutbox(ctx, tx, id, result, db.now()) })
	if err != nil {
		return fmt.Errorf("store: complete outbox %d: %w", id, err)
	}
	return nil
}

func completeOutbox(ctx context.Context, tx *txn, id int64, result string, now int64) error {
	var purgeID string
	err := tx.QueryRowContext(ctx, `UPDATE outbox SET done_at = ?, result = ?, last_error = ''
		WHERE id = ? AND done_at = 0 RETURNING purge_id`, now, result, id).Scan(&purgeID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	return finishPurgeIfDone(ctx, tx, purgeID, now)
}

// FailOutbox records a failed attempt and when to try again.
func (db *DB) FailOutbox(ctx context.Context, id int64, msg string, next time.Time) error {
	_, err := db.db.ExecContext(ctx, `UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ?
		WHERE id = ? AND done_at = 0`, msg, next.UnixMilli(), id)
	if err != nil {
		return fmt.Errorf("store: fail outbox %d: %w", id, err)
	}
	return nil
}

// RemoveBlob completes a blob entry: remove(sha) runs only if no file or
// artifact row uses sha, and inside the write transaction, so that no row
// naming sha can be inserted between the check and the removal. It returns
// ResultKept or ResultDeleted; an error from remove leaves the entry pending.
func (db *DB) RemoveBlob(ctx context.Context, id int64, sha string, remove func(sha string) error) (string, error) {
	var result string
	err := db.withTx(ctx, func(tx *txn) error {
		if err := tx.lock(ctx, blobKey(sha)); err != nil {
			return err
		}
		var used bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM files WHERE sha256 = ?1)
			OR EXISTS (SELECT 1 FROM artifacts WHERE sha256 = ?1)`, sha).Scan(&used); err != nil {
			return err
		}
		result = ResultKept
		if !used {
			if err := remove(sha); err != nil {
				return err
			}
			result = ResultDeleted
		}
		return completeOutbox(ctx, tx, id, result, db.now())
	})
	if err != nil {
		return "", fmt.Errorf("store: remove blob %s: %w", sha, err)
	}
	return result, nil
}

// blobKey is the lock (dialect.lock) of the blob sha: RemoveBlob holds it
// between its check and the removal, and whatever inserts a row naming the
// blob holds it too, so that no such row lands in between.
func blobKey(sha string) string { return "blob " + sha }

// finishPurgeIfDone writes the completed audit entry of a purge with
// nothing left pending, once: the caller holds the purge's lock, so two
// workers finishing the last two entries cannot both see zero.
func finishPurgeIfDone(ctx context.Context, tx *txn, purgeID string, now int64) error {
	if err := tx.lock(ctx, "purge "+purgeID); err != nil {
		return err
	}
	// EXISTS, not count(*): this runs at every completion, and counting a
	// large purge's pending entries each time would make it quadratic.
	var pending, finished bool
	err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM outbox WHERE purge_id = ?1 AND done_at = 0),
		EXISTS (SELECT 1 FROM audit_log WHERE purge_id = ?1 AND outcome = ?2)`, purgeID, AuditCompleted).Scan(&pending, &finished)
	if err != nil || pending || finished {
		return err
	}
	var actor, action string
	err = tx.QueryRowContext(ctx, `SELECT actor, action FROM audit_log WHERE purge_id = ? AND outcome = 'started'`,
		purgeID).Scan(&actor, &action)
	if err != nil {
		return err
	}
	details, err := purgeResults(ctx, tx, purgeID)
	if err != nil {
		return err
	}
	return insertAudit(ctx, tx, now, actor, action, purgeID, details, AuditCompleted)
}

package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
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
// It claims nothing: the worker takes its entries with ClaimOutbox.
func (db *DB) DueOutbox(ctx context.Context, now time.Time, limit int) ([]*OutboxEntry, error) {
	rows, err := db.q.QueryContext(ctx, `SELECT `+outboxColumns+` FROM outbox
		WHERE `+dueOutbox("?1")+` ORDER BY next_attempt_at, id LIMIT ?2`, now.UnixMilli(), limit)
	if err != nil {
		return nil, fmt.Errorf("store: due outbox: %w", err)
	}
	out, err := scanOutbox(rows)
	if err != nil {
		return nil, fmt.Errorf("store: due outbox: %w", err)
	}
	return out, nil
}

// ClaimOutbox claims up to limit entries due at now, the longest waiting
// first, and returns them: a claimed entry is due again to no one until
// now+lease passes, or until it is completed or failed (CompleteOutbox,
// FailOutbox, ReleaseOutbox). Two workers claiming at once get disjoint
// entries: on PostgreSQL each passes over the rows the other is claiming
// (SKIP LOCKED) rather than waiting for them; SQLite has one writer.
// lease must outlast an attempt, or a slow one is made twice.
func (db *DB) ClaimOutbox(ctx context.Context, now time.Time, limit int, lease time.Duration) ([]*OutboxEntry, error) {
	rows, err := db.db.QueryContext(ctx, `UPDATE outbox SET claimed_until = ?1 WHERE id IN (
		SELECT id FROM outbox WHERE `+dueOutbox("?2")+` ORDER BY next_attempt_at, id LIMIT ?3`+db.d.skipLocked+`)
		RETURNING `+outboxColumns, now.Add(lease).UnixMilli(), now.UnixMilli(), limit)
	if err != nil {
		return nil, fmt.Errorf("store: claim outbox: %w", err)
	}
	out, err := scanOutbox(rows)
	if err != nil {
		return nil, fmt.Errorf("store: claim outbox: %w", err)
	}
	// RETURNING keeps no order.
	slices.SortFunc(out, func(a, b *OutboxEntry) int {
		return cmp.Or(a.NextAttemptAt.Compare(b.NextAttemptAt), cmp.Compare(a.ID, b.ID))
	})
	return out, nil
}

// ReleaseOutbox gives back the claim of an entry whose attempt was
// abandoned (the worker is stopping), so that it is due again at once
// rather than when its lease passes.
func (db *DB) ReleaseOutbox(ctx context.Context, id int64) error {
	if _, err := db.db.ExecContext(ctx, `UPDATE outbox SET claimed_until = 0 WHERE id = ? AND done_at = 0`, id); err != nil {
		return fmt.Errorf("store: release outbox %d: %w", id, err)
	}
	return nil
}

// ReleaseOutboxClaims gives back every claim, and returns how many. It is
// for a database one process owns (SQLite): claims found there when its
// worker starts were a process's that ended without finishing them.
func (db *DB) ReleaseOutboxClaims(ctx context.Context) (int64, error) {
	res, err := db.db.ExecContext(ctx, `UPDATE outbox SET claimed_until = 0 WHERE claimed_until > 0 AND done_at = 0`)
	if err != nil {
		return 0, fmt.Errorf("store: release outbox claims: %w", err)
	}
	return res.RowsAffected()
}

// dueOutbox is the condition of a remote or blob entry due at the time in
// the placeholder now: pending, its next attempt come, and not claimed.
func dueOutbox(now string) string {
	return `done_at = 0 AND next_attempt_at <= ` + now + ` AND claimed_until <= ` + now + ` AND kind <> 'conversation'`
}

// outboxColumns are the columns scanOutbox reads, in its order.
const outboxColumns = `id, purge_id, kind, parent, target, bytes, attempts, next_attempt_at,
	last_error, done_at, result, created_at`

// scanOutbox reads rows of outboxColumns and closes them.
func scanOutbox(rows *sql.Rows) ([]*OutboxEntry, error) {
	defer rows.Close()
	var out []*OutboxEntry
	for rows.Next() {
		var e OutboxEntry
		var next, done, created int64
		if err := rows.Scan(&e.ID, &e.PurgeID, &e.Kind, &e.Parent, &e.Target, &e.Bytes, &e.Attempts, &next,
			&e.LastError, &done, &e.Result, &created); err != nil {
			return nil, err
		}
		e.NextAttemptAt, e.DoneAt, e.CreatedAt = fromMillis(next), optMillis(done), fromMillis(created)
		out = append(out, &e)
	}
	return out, rows.Err()
}

// NextOutbox returns when the next pending entry is due, a claimed one when
// its claim ends; ok is false when nothing is pending.
func (db *DB) NextOutbox(ctx context.Context) (at time.Time, ok bool, err error) {
	var next sql.NullInt64
	if err := db.q.QueryRowContext(ctx, `SELECT min(CASE WHEN claimed_until > next_attempt_at THEN claimed_until
		ELSE next_attempt_at END) FROM outbox WHERE done_at = 0`).Scan(&next); err != nil {
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

// FailOutbox records a failed attempt and when to try again, which ends
// the entry's claim.
func (db *DB) FailOutbox(ctx context.Context, id int64, msg string, next time.Time) error {
	_, err := db.db.ExecContext(ctx, `UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ?,
		claimed_until = 0 WHERE id = ? AND done_at = 0`, msg, next.UnixMilli(), id)
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

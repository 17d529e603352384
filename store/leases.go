package store

import (
	"context"
	"fmt"
	"time"
)

// ClaimRun makes owner the holder of a run nobody holds yet, until until.
// The replica that starts a run claims it at once and renews the claim
// (RenewRun) for as long as it drives the run; false means another replica
// adopted it first (see OrphanRuns' grace).
func (db *DB) ClaimRun(ctx context.Context, runID, owner string, until time.Time) (bool, error) {
	res, err := db.db.ExecContext(ctx, `UPDATE runs SET owner = ?, lease_until = ? WHERE id = ? AND owner = ''`,
		owner, until.UnixMilli(), runID)
	if err != nil {
		return false, fmt.Errorf("store: claim run: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// RenewRun extends owner's lease on a running run; false means the run is
// no longer owner's to drive: it ended, or another replica adopted it
// after the lease lapsed. The write is fenced by owner.
func (db *DB) RenewRun(ctx context.Context, runID, owner string, until time.Time) (bool, error) {
	res, err := db.db.ExecContext(ctx, `UPDATE runs SET lease_until = ? WHERE id = ? AND owner = ? AND status = ?`,
		until.UnixMilli(), runID, owner, RunRunning)
	if err != nil {
		return false, fmt.Errorf("store: renew run: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// NoteResponse records the Foundry response of a running run as soon as it
// is known, so that a replica adopting the run can follow the response on.
func (db *DB) NoteResponse(ctx context.Context, runID, responseID string) error {
	if _, err := db.db.ExecContext(ctx, `UPDATE runs SET response_id = ? WHERE id = ? AND status = ?`,
		responseID, runID, RunRunning); err != nil {
		return fmt.Errorf("store: note response: %w", err)
	}
	return nil
}

// Orphan is a running run whose holder's lease has lapsed, with what a
// replica needs to drive it on.
type Orphan struct {
	Run *Run
	// UserID owns the run's conversation; Question is the message the run
	// answers.
	UserID, Question string
}

// OrphanRuns returns the running runs whose lease lapsed before now. A run
// that was never claimed counts once it is older than grace: its replica
// died between starting it and claiming it.
func (db *DB) OrphanRuns(ctx context.Context, now time.Time, grace time.Duration) ([]Orphan, error) {
	rows, err := db.q.QueryContext(ctx, `SELECT `+runColumns+`, c.user_id, m.content FROM runs r
		JOIN conversations c ON c.id = r.conversation_id
		JOIN messages m ON m.id = r.message_id
		WHERE r.status = ? AND r.lease_until < ? AND (r.owner <> '' OR r.started_at < ?)
		ORDER BY r.started_at`, RunRunning, now.UnixMilli(), now.Add(-grace).UnixMilli())
	if err != nil {
		return nil, fmt.Errorf("store: orphan runs: %w", err)
	}
	defer rows.Close()
	var out []Orphan
	for rows.Next() {
		var o Orphan
		var user, question string
		run, err := scanRun(scanTail{rows, []any{&user, &question}})
		if err != nil {
			return nil, fmt.Errorf("store: orphan runs: %w", err)
		}
		o.Run, o.UserID, o.Question = run, user, question
		out = append(out, o)
	}
	return out, rows.Err()
}

// AdoptRun makes owner the holder of a running run whose lease lapsed
// before now, until until; false means another replica was first, or the
// run ended or was renewed meanwhile. Only one adopter wins.
func (db *DB) AdoptRun(ctx context.Context, runID, owner string, now, until time.Time) (bool, error) {
	res, err := db.db.ExecContext(ctx, `UPDATE runs SET owner = ?, lease_until = ?
		WHERE id = ? AND status = ? AND lease_until < ?`,
		owner, until.UnixMilli(), runID, RunRunning, now.UnixMilli())
	if err != nil {
		return false, fmt.Errorf("store: adopt run: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// scanTail scans a run's columns followed by more.
type scanTail struct {
	row  rowScanner
	more []any
}

// Scan implements rowScanner.
func (s scanTail) Scan(dest ...any) error { return s.row.Scan(append(dest, s.more...)...) }

// ReleaseRun gives up owner's hold on a running run at once, so that
// another replica adopts it without waiting for the lease to lapse: the
// replica is shutting down. The write is fenced by owner.
func (db *DB) ReleaseRun(ctx context.Context, runID, owner string) error {
	if _, err := db.db.ExecContext(ctx, `UPDATE runs SET lease_until = 0 WHERE id = ? AND owner = ? AND status = ?`,
		runID, owner, RunRunning); err != nil {
		return fmt.Errorf("store: release run: %w", err)
	}
	return nil
}

// checkRunOwner locks a run's row for the transaction and refuses with
// ErrNotOwner if another replica than owner holds it. A run nobody claimed
// (the claim failed) is anyone's.
func checkRunOwner(ctx context.Context, tx *txn, runID, owner string) error {
	var holder string
	if err := tx.QueryRowContext(ctx, `SELECT owner FROM runs WHERE id = ?`+tx.d.forUpdate, runID).Scan(&holder); err != nil {
		return err
	}
	if holder != "" && holder != owner {
		return ErrNotOwner
	}
	return nil
}

// StrandedQueued returns the queued runs that no server is going to start:
// a queued question starts as soon as the answer it waits for ends, on the
// server that accepted it, so one still queued grace after that answer
// ended (or with no answer running at all) was left by a server that died.
func (db *DB) StrandedQueued(ctx context.Context, now time.Time, grace time.Duration) ([]*Run, error) {
	cutoff := now.Add(-grace).UnixMilli()
	rows, err := db.q.QueryContext(ctx, `SELECT `+runColumns+` FROM runs r
		WHERE r.status = ? AND r.started_at < ? AND NOT EXISTS (SELECT 1 FROM runs o
			WHERE o.conversation_id = r.conversation_id AND o.id <> r.id AND (o.status = ? OR o.finished_at >= ?))`,
		RunQueued, cutoff, RunRunning, cutoff)
	if err != nil {
		return nil, fmt.Errorf("store: stranded queued runs: %w", err)
	}
	return collect(rows, scanRun)
}

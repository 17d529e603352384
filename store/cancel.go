package store

import (
	"context"
	"fmt"
)

// RequestCancel records that the user asked to stop a run that is running
// or queued, for the server that drives it to see (CancelRequested), and
// tells the servers sharing the database (WatchCancel). flagged is false
// when the run had already ended.
func (db *DB) RequestCancel(ctx context.Context, runID string) (flagged bool, err error) {
	err = db.withTx(ctx, func(tx *txn) error {
		res, err := tx.ExecContext(ctx, `UPDATE runs SET cancel_requested = TRUE WHERE id = ? AND status IN (?, ?)`,
			runID, RunRunning, RunQueued)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		flagged = true
		return tx.notify(ctx, channelCancel, runID)
	})
	if err != nil {
		return false, fmt.Errorf("store: request cancel of %s: %w", runID, err)
	}
	return flagged, nil
}

// CancelRequested reports whether a Stop of the run was recorded
// (RequestCancel).
func (db *DB) CancelRequested(ctx context.Context, runID string) (bool, error) {
	var asked bool
	if err := db.q.QueryRowContext(ctx, `SELECT cancel_requested FROM runs WHERE id = ?`, runID).Scan(&asked); err != nil {
		return false, fmt.Errorf("store: cancel requested of %s: %w", runID, err)
	}
	return asked, nil
}

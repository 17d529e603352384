package store

import (
	"context"
	"fmt"
	"strconv"
)

// RunEvent is one recorded event of a run, in order of Seq (from 1).
type RunEvent struct {
	Seq  int64
	Type string
	Data string
}

// AppendRunEvent records one event of a run. Where servers share the
// database, the transaction that stores it also announces it (see
// listen.go), so that a browser following the run through another server
// reads it at once.
func (db *DB) AppendRunEvent(ctx context.Context, runID string, e RunEvent) error {
	const insert = `INSERT INTO run_events (run_id, seq, type, data) VALUES (?, ?, ?, ?)`
	var err error
	if db.Shared() {
		err = db.withTx(ctx, func(tx *txn) error {
			if _, err := tx.ExecContext(ctx, insert, runID, e.Seq, e.Type, e.Data); err != nil {
				return err
			}
			return tx.notify(ctx, channelEvents, runID+":"+strconv.FormatInt(e.Seq, 10))
		})
	} else {
		_, err = db.db.ExecContext(ctx, insert, runID, e.Seq, e.Type, e.Data)
	}
	if err != nil {
		return fmt.Errorf("store: append run event: %w", err)
	}
	return nil
}

// RunEvents returns the events of a run after seq, in order.
func (db *DB) RunEvents(ctx context.Context, runID string, after int64) ([]RunEvent, error) {
	rows, err := db.q.QueryContext(ctx, `SELECT seq, type, data FROM run_events WHERE run_id = ? AND seq > ? ORDER BY seq`, runID, after)
	if err != nil {
		return nil, fmt.Errorf("store: run events: %w", err)
	}
	defer rows.Close()
	var out []RunEvent
	for rows.Next() {
		var e RunEvent
		if err := rows.Scan(&e.Seq, &e.Type, &e.Data); err != nil {
			return nil, fmt.Errorf("store: run events: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// RunEventsOf returns every recorded event of the given runs, by run id, in
// one query rather than one per run: a conversation page folds all of its
// answers at once. The ids go in as one JSON list, as elsewhere in the store.
func (db *DB) RunEventsOf(ctx context.Context, runIDs []string) (map[string][]RunEvent, error) {
	out := make(map[string][]RunEvent, len(runIDs))
	list := jsonList(runIDs)
	rows, err := db.q.QueryContext(ctx, `SELECT run_id, seq, type, data FROM run_events
		WHERE run_id IN (SELECT value FROM `+db.d.list("?")+`) ORDER BY run_id, seq`, list)
	if err != nil {
		return nil, fmt.Errorf("store: run events: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var runID string
		var e RunEvent
		if err := rows.Scan(&runID, &e.Seq, &e.Type, &e.Data); err != nil {
			return nil, fmt.Errorf("store: run events: %w", err)
		}
		out[runID] = append(out[runID], e)
	}
	return out, rows.Err()
}

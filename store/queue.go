package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// NotStarted is the error of a queued question that ended before it could
// start: the server restarted or shut down while it waited.
const NotStarted = "The server restarted before this question started. Ask it again."

// QueueTurn records the user's question and a queued run for it, to start
// once the conversation's running turn has ended (PromoteQueued). It
// returns ErrRunInProgress if a question already waits in the
// conversation, and ErrNotFound if the conversation is not the user's.
// Whether the running turn may be queued behind is the caller's rule.
func (db *DB) QueueTurn(ctx context.Context, userID, conversationID, content, title string) (*Message, *Run, error) {
	return db.startTurn(ctx, userID, conversationID, KindQuestion, RunQueued, content, title)
}

// ActiveRuns returns the ids of the conversation's running run and of its
// queued one, each "" when there is none.
func (db *DB) ActiveRuns(ctx context.Context, conversationID string) (running, queued string, err error) {
	rows, err := db.q.QueryContext(ctx, `SELECT id, status FROM runs WHERE conversation_id = ? AND status IN (?, ?)`,
		conversationID, RunRunning, RunQueued)
	if err != nil {
		return "", "", fmt.Errorf("store: active runs: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var status RunStatus
		if err := rows.Scan(&id, &status); err != nil {
			return "", "", fmt.Errorf("store: active runs: %w", err)
		}
		if status == RunRunning {
			running = id
		} else {
			queued = id
		}
	}
	return running, queued, rows.Err()
}

// PromoteQueued makes the conversation's queued run the running one, from
// now, and returns it with its question. It returns ErrNotFound when no
// question waits, and ErrRunInProgress while another run still runs.
func (db *DB) PromoteQueued(ctx context.Context, conversationID string) (*Turn, error) {
	var t *Turn
	err := db.withTx(ctx, func(tx *txn) error {
		var m Message
		var created int64
		var runID string
		err := tx.QueryRowContext(ctx, `SELECT r.id, m.id, m.content, m.kind, m.created_at FROM runs r
			JOIN messages m ON m.id = r.message_id WHERE r.conversation_id = ? AND r.status = ?`,
			conversationID, RunQueued).Scan(&runID, &m.ID, &m.Content, &m.Kind, &created)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE runs SET status = ?, started_at = ? WHERE id = ?`, RunRunning, db.now(), runID)
		if db.d.uniqueViolation(err) {
			return ErrRunInProgress
		}
		if err != nil {
			return err
		}
		r, err := scanRun(tx.QueryRowContext(ctx, `SELECT `+runColumns+` FROM runs r WHERE r.id = ?`, runID))
		if err != nil {
			return err
		}
		m.ConversationID, m.Role, m.CreatedAt = conversationID, "user", fromMillis(created)
		t = &Turn{Message: &m, Run: r}
		return nil
	})
	if errors.Is(err, ErrNotFound) || errors.Is(err, ErrRunInProgress) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("store: promote queued run: %w", err)
	}
	return t, nil
}

// EndQueued ends a run that is still queued, never started, with status
// and the user's reason; ended is false when it is no longer queued (it
// started, or had ended already).
func (db *DB) EndQueued(ctx context.Context, runID string, status RunStatus, reason string) (ended bool, err error) {
	res, err := db.db.ExecContext(ctx, `UPDATE runs SET status = ?, error = ?, finished_at = ? WHERE id = ? AND status = ?`,
		status, reason, db.now(), runID, RunQueued)
	if err != nil {
		return false, fmt.Errorf("store: end queued run %s: %w", runID, err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

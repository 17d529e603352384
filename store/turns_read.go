package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
)

// runColumns are qualified with r. because runs are read joined with other tables.
const runColumns = `r.id, r.conversation_id, r.message_id, r.status, r.error, r.response_id, r.input_tokens,
	r.output_tokens, r.new_session, r.started_at, r.finished_at`

func scanRun(row rowScanner) (*Run, error) {
	var r Run
	var started, finished int64
	err := row.Scan(&r.ID, &r.ConversationID, &r.MessageID, &r.Status, &r.Error, &r.ResponseID,
		&r.InputTokens, &r.OutputTokens, &r.NewSession, &started, &finished)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	r.StartedAt, r.FinishedAt = fromMillis(started), optMillis(finished)
	return &r, nil
}

// Run returns a run of a conversation of userID.
func (db *DB) Run(ctx context.Context, userID, conversationID, runID string) (*Run, error) {
	r, err := scanRun(db.q.QueryRowContext(ctx, `SELECT `+runColumns+` FROM runs r
		JOIN conversations c ON c.id = r.conversation_id
		WHERE r.id = ? AND r.conversation_id = ? AND c.user_id = ?`, runID, conversationID, userID))
	if err != nil && !errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("store: run %s: %w", runID, err)
	}
	return r, err
}

// Turn is a user message with the run that answered it.
type Turn struct {
	Message *Message
	Run     *Run
}

// RunIDs lists the runs of turns, in order.
func RunIDs(turns []Turn) []string {
	ids := make([]string, len(turns))
	for i, t := range turns {
		ids[i] = t.Run.ID
	}
	return ids
}

// Turns returns the conversation's turns, oldest first; turns started in
// the same millisecond come in the order they were made (rowid), not in
// the order of their random ids.
func (db *DB) Turns(ctx context.Context, conversationID string) ([]Turn, error) {
	rows, err := db.q.QueryContext(ctx, `SELECT m.id, m.content, m.kind, COALESCE(u.username, ''), m.created_at, `+runColumns+`
		FROM runs r JOIN messages m ON m.id = r.message_id LEFT JOIN users u ON u.id = m.author_id
		WHERE r.conversation_id = ? ORDER BY r.started_at, r.rowid`, conversationID)
	if err != nil {
		return nil, fmt.Errorf("store: turns: %w", err)
	}
	defer rows.Close()
	var out []Turn
	for rows.Next() {
		var m Message
		var created int64
		var r Run
		var started, finished int64
		if err := rows.Scan(&m.ID, &m.Content, &m.Kind, &m.Author, &created, &r.ID, &r.ConversationID, &r.MessageID, &r.Status, &r.Error,
			&r.ResponseID, &r.InputTokens, &r.OutputTokens, &r.NewSession, &started, &finished); err != nil {
			return nil, fmt.Errorf("store: turns: %w", err)
		}
		m.ConversationID, m.Role, m.CreatedAt = conversationID, "user", fromMillis(created)
		r.StartedAt, r.FinishedAt = fromMillis(started), optMillis(finished)
		out = append(out, Turn{Message: &m, Run: &r})
	}
	return out, rows.Err()
}

// RunByID returns a run without checking who owns it; callers have checked.
func (db *DB) RunByID(ctx context.Context, runID string) (*Run, error) {
	r, err := scanRun(db.q.QueryRowContext(ctx, `SELECT `+runColumns+` FROM runs r WHERE r.id = ?`, runID))
	if err != nil && !errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("store: run %s: %w", runID, err)
	}
	return r, err
}

// RunsBelong reports whether every run in runIDs belongs to the user's
// conversation, in one query: reading runs checks their owner without
// loading the conversation's turns again. With no runs it reports whether
// the conversation is the user's.
func (db *DB) RunsBelong(ctx context.Context, userID, convID string, runIDs []string) (bool, error) {
	ids := slices.Compact(slices.Sorted(slices.Values(runIDs)))
	list := jsonList(ids)
	var owned, found int
	err := db.q.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM conversations WHERE id = ?2 AND user_id = ?3),
		(SELECT COUNT(*) FROM runs WHERE conversation_id = ?2 AND id IN (SELECT value FROM `+db.d.list("?1")+`))`,
		list, convID, userID).Scan(&owned, &found)
	if err != nil {
		return false, fmt.Errorf("store: runs of %s: %w", convID, err)
	}
	return owned == 1 && found == len(ids), nil
}

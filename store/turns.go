package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// RunStatus is where a run stands: queued or running until it ends in one
// of the others. The values are the runs.status CHECK of migration 0014.
type RunStatus string

// Run statuses.
const (
	// RunQueued is a question waiting for the conversation's stopped
	// answer to end (see QueueTurn).
	RunQueued      RunStatus = "queued"
	RunRunning     RunStatus = "running"
	RunCompleted   RunStatus = "completed"
	RunIncomplete  RunStatus = "incomplete"
	RunFailed      RunStatus = "failed"
	RunCancelled   RunStatus = "cancelled"
	RunInterrupted RunStatus = "interrupted"
)

// ErrRunInProgress is returned when a conversation already has a running
// turn, or a question waiting to start.
var ErrRunInProgress = errors.New("store: a turn is already running in this conversation")

// MessageKind says what a user message is.
type MessageKind string

// The kinds of user message.
const (
	// KindQuestion is a question for the agent.
	KindQuestion MessageKind = "question"
	// KindStep is code the analyst edited and ran as written; its Content
	// is the code.
	KindStep MessageKind = "step"
)

// Message is one user question or assistant answer.
type Message struct {
	ID             string
	ConversationID string
	Role           string
	Content        string
	// Kind is set on user messages.
	Kind MessageKind
	// Author is the username of who ran a step; empty for questions.
	Author    string
	CreatedAt time.Time
}

// Run is the work that answers one user message.
type Run struct {
	ID             string
	ConversationID string
	MessageID      string
	Status         RunStatus
	// Error is the user-facing reason of a failed or incomplete run.
	Error        string
	ResponseID   string
	InputTokens  int64
	OutputTokens int64
	// NewSession is true when the turn had to start a fresh Code
	// Interpreter session because the previous one had expired.
	NewSession bool
	StartedAt  time.Time
	FinishedAt time.Time
}

// Done reports whether the run has ended; a queued run has not.
func (r *Run) Done() bool { return r.Status != RunRunning && r.Status != RunQueued }

// DefaultTitle is the title of a conversation nobody has named yet; its
// first question names it.
const DefaultTitle = "New conversation"

// StartTurn records the user's question and a running run for it, in one
// transaction, and names a still untitled conversation with title. It
// returns ErrRunInProgress if the conversation already has a running turn,
// and ErrNotFound if the conversation is not the user's.
func (db *DB) StartTurn(ctx context.Context, userID, conversationID, content, title string) (*Message, *Run, error) {
	return db.startTurn(ctx, userID, conversationID, KindQuestion, RunRunning, content, title)
}

// StartStep records a step, code the user runs as written, with userID as
// its author, and a running run for it; it names and fails as StartTurn does.
func (db *DB) StartStep(ctx context.Context, userID, conversationID, code, title string) (*Message, *Run, error) {
	return db.startTurn(ctx, userID, conversationID, KindStep, RunRunning, code, title)
}

func (db *DB) startTurn(ctx context.Context, userID, conversationID string, kind MessageKind, status RunStatus, content, title string) (*Message, *Run, error) {
	now := db.now()
	m := &Message{ID: newID(), ConversationID: conversationID, Role: "user", Content: content, Kind: kind, CreatedAt: fromMillis(now)}
	// A question leaves kind and author to their defaults, so that the
	// statement also works on a database from before they were added.
	insert := `INSERT INTO messages (id, conversation_id, role, content, created_at) VALUES (?, ?, 'user', ?, ?)`
	args := []any{m.ID, conversationID, content, now}
	if kind == KindStep {
		insert = `INSERT INTO messages (id, conversation_id, role, content, created_at, kind, author_id) VALUES (?, ?, 'user', ?, ?, ?, ?)`
		args = append(args, KindStep, userID)
	}
	r := &Run{ID: newID(), ConversationID: conversationID, MessageID: m.ID, Status: status, StartedAt: fromMillis(now)}
	err := db.withTx(ctx, func(tx *txn) error {
		res, err := tx.ExecContext(ctx, `UPDATE conversations SET updated_at = ?,
			title = CASE WHEN title = ? AND ? <> '' THEN ? ELSE title END
			WHERE id = ? AND user_id = ?`, now, DefaultTitle, title, title, conversationID, userID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		if status == RunRunning {
			// A question waiting goes first: it was asked first.
			var waiting int
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM runs WHERE conversation_id = ? AND status = ?`,
				conversationID, RunQueued).Scan(&waiting); err != nil {
				return err
			}
			if waiting > 0 {
				return ErrRunInProgress
			}
		}
		if _, err := tx.ExecContext(ctx, insert, args...); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO runs (id, conversation_id, message_id, status, started_at) VALUES (?, ?, ?, ?, ?)`,
			r.ID, conversationID, m.ID, status, now)
		if db.d.uniqueViolation(err) {
			return ErrRunInProgress
		}
		return err
	})
	if errors.Is(err, ErrNotFound) || errors.Is(err, ErrRunInProgress) {
		return nil, nil, err
	}
	if err != nil {
		return nil, nil, fmt.Errorf("store: start turn: %w", err)
	}
	if kind == KindStep {
		if err := db.q.QueryRowContext(ctx, `SELECT username FROM users WHERE id = ?`, userID).Scan(&m.Author); err != nil {
			return nil, nil, fmt.Errorf("store: start step: %w", err)
		}
	}
	return m, r, nil
}

// RunEnd is how a run finished.
type RunEnd struct {
	Status       RunStatus
	Error        string
	ResponseID   string
	InputTokens  int64
	OutputTokens int64
	NewSession   bool
	// ContainerID is the Code Interpreter session the run used, if any.
	ContainerID string
	// Answer is the assistant's final text, stored as a message.
	Answer string
	// Owner, when set, fences the write: the run ends only while it is
	// still Owner's, so that a replica that lost its lease to another
	// records nothing (ErrNotOwner).
	Owner string
}

// ErrNotOwner refuses the end of a run another replica has taken over.
var ErrNotOwner = errors.New("store: the run is another replica's")

// FinishRun records the end of a run and, if there is one, its answer.
func (db *DB) FinishRun(ctx context.Context, runID string, end RunEnd) error {
	now := db.now()
	err := db.withTx(ctx, func(tx *txn) error {
		var convID string
		if err := tx.QueryRowContext(ctx, `SELECT conversation_id FROM runs WHERE id = ?`, runID).Scan(&convID); err != nil {
			return err
		}
		if end.Owner != "" {
			if err := checkRunOwner(ctx, tx, runID, end.Owner); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE runs SET status = ?, error = ?, response_id = ?, input_tokens = ?,
			output_tokens = ?, new_session = ?, container_id = ?, finished_at = ? WHERE id = ?`,
			end.Status, end.Error, end.ResponseID, end.InputTokens, end.OutputTokens, end.NewSession, end.ContainerID, now, runID); err != nil {
			return err
		}
		if end.Answer == "" {
			return nil
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO messages (id, conversation_id, role, content, created_at) VALUES (?, ?, 'assistant', ?, ?)`,
			newID(), convID, end.Answer, now)
		return err
	})
	if err != nil {
		return fmt.Errorf("store: finish run %s: %w", runID, err)
	}
	return nil
}

// InterruptRuns marks every running run as interrupted, and every queued
// one as interrupted before it started (NotStarted says so); the app calls
// it at start, because a run cannot outlive the process that drove it, nor
// a queue the process that kept it.
func (db *DB) InterruptRuns(ctx context.Context) (int64, error) {
	var n int64
	err := db.withTx(ctx, func(tx *txn) error {
		now := db.now()
		for status, why := range map[RunStatus]string{RunRunning: "The server restarted while this answer was being written.", RunQueued: NotStarted} {
			res, err := tx.ExecContext(ctx, `UPDATE runs SET status = ?, finished_at = ?, error = ? WHERE status = ?`,
				RunInterrupted, now, why, status)
			if err != nil {
				return err
			}
			k, _ := res.RowsAffected()
			n += k
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("store: interrupt runs: %w", err)
	}
	return n, nil
}

// SetFoundryConversation records the server-side conversation's id.
func (db *DB) SetFoundryConversation(ctx context.Context, conversationID, foundryID string) error {
	_, err := db.db.ExecContext(ctx, `UPDATE conversations SET foundry_conversation_id = ? WHERE id = ?`, foundryID, conversationID)
	if err != nil {
		return fmt.Errorf("store: set foundry conversation: %w", err)
	}
	return nil
}

// UseSession records that a turn ran in containerID at t; a container other
// than the last one starts a new session.
func (db *DB) UseSession(ctx context.Context, conversationID, containerID string, t time.Time) error {
	_, err := db.db.ExecContext(ctx, `UPDATE conversations SET
		session_started_at = CASE WHEN container_id = ? THEN session_started_at ELSE ? END,
		container_id = ?, session_used_at = ? WHERE id = ?`,
		containerID, toMillis(t), containerID, toMillis(t), conversationID)
	if err != nil {
		return fmt.Errorf("store: use session: %w", err)
	}
	return nil
}

// RecordAgentVersion marks version as the one in use for the named agent.
func (db *DB) RecordAgentVersion(ctx context.Context, name, version string) error {
	err := db.withTx(ctx, func(tx *txn) error {
		if _, err := tx.ExecContext(ctx, `UPDATE agent_versions SET in_use = FALSE WHERE name = ?`, name); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO agent_versions (name, version, in_use, created_at) VALUES (?, ?, TRUE, ?)
			ON CONFLICT (name, version) DO UPDATE SET in_use = TRUE`, name, version, db.now())
		return err
	})
	if err != nil {
		return fmt.Errorf("store: record agent version: %w", err)
	}
	return nil
}

// EndSessions records that every conversation's Code Interpreter session has
// ended: the local engine keeps its sessions in memory, so a restart ends
// them all, and the pages should say so rather than show them as active.
func (db *DB) EndSessions(ctx context.Context) (int64, error) {
	res, err := db.db.ExecContext(ctx, `UPDATE conversations SET session_used_at = 0, session_started_at = 0
		WHERE container_id <> '' AND session_used_at <> 0`)
	if err != nil {
		return 0, fmt.Errorf("store: end sessions: %w", err)
	}
	return res.RowsAffected()
}

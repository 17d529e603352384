package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Conversation is one analysis thread of one user.
type Conversation struct {
	ID        string
	UserID    string
	Title     string
	CreatedAt time.Time
	UpdatedAt time.Time
	// FoundryConversationID is the server-side conversation, once created.
	FoundryConversationID string
	// ContainerID is the Code Interpreter session the last turn ran in;
	// SessionStartedAt and SessionUsedAt say when it began and was last
	// used, which decides whether it is still alive.
	ContainerID      string
	SessionStartedAt time.Time
	SessionUsedAt    time.Time
}

// ConversationFilter selects a page of a user's conversations, newest first.
type ConversationFilter struct {
	UserID string
	// Query keeps only titles containing it, without regard to case.
	Query string
	// After continues a listing after the cursor of the last row seen.
	After Cursor
	// Limit caps the rows returned; zero means 50.
	Limit int
}

// Cursor marks a position in a newest-first listing of conversations.
type Cursor struct {
	UpdatedAt time.Time
	ID        string
}

// IsZero reports whether c marks the start of the listing.
func (c Cursor) IsZero() bool { return c.ID == "" }

// ConversationPage is one page of a listing.
type ConversationPage struct {
	Conversations []*Conversation
	// Next is the cursor of the following page, zero on the last page.
	Next Cursor
}

const conversationColumns = `id, user_id, title, created_at, updated_at,
	foundry_conversation_id, container_id, session_started_at, session_used_at`

func scanConversation(row rowScanner) (*Conversation, error) {
	var c Conversation
	var created, updated, started, used int64
	err := row.Scan(&c.ID, &c.UserID, &c.Title, &created, &updated,
		&c.FoundryConversationID, &c.ContainerID, &started, &used)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	c.CreatedAt, c.UpdatedAt = fromMillis(created), fromMillis(updated)
	c.SessionStartedAt, c.SessionUsedAt = optMillis(started), optMillis(used)
	return &c, nil
}

// CreateConversation starts a conversation for a user.
func (db *DB) CreateConversation(ctx context.Context, userID, title string) (*Conversation, error) {
	now := db.now()
	c := &Conversation{ID: newID(), UserID: userID, Title: title, CreatedAt: fromMillis(now), UpdatedAt: fromMillis(now)}
	_, err := db.db.ExecContext(ctx, `INSERT INTO conversations (id, user_id, title, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?)`, c.ID, userID, title, now, now)
	if err != nil {
		return nil, fmt.Errorf("store: create conversation: %w", err)
	}
	return c, nil
}

// Conversation returns the conversation with the given id if it belongs to
// userID. Another user's conversation is ErrNotFound, exactly as a missing one.
func (db *DB) Conversation(ctx context.Context, userID, id string) (*Conversation, error) {
	c, err := scanConversation(db.q.QueryRowContext(ctx,
		`SELECT `+conversationColumns+` FROM conversations WHERE id = ? AND user_id = ?`, id, userID))
	if err != nil && !errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("store: conversation %s: %w", id, err)
	}
	return c, err
}

// ConversationByID returns a conversation whoever owns it; callers have
// checked access.
func (db *DB) ConversationByID(ctx context.Context, id string) (*Conversation, error) {
	c, err := scanConversation(db.q.QueryRowContext(ctx, `SELECT `+conversationColumns+` FROM conversations WHERE id = ?`, id))
	if err != nil && !errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("store: conversation %s: %w", id, err)
	}
	return c, err
}

// Conversations returns one page of a user's conversations, newest first.
func (db *DB) Conversations(ctx context.Context, f ConversationFilter) (ConversationPage, error) {
	limit := f.Limit
	if limit <= 0 {
		limit = 50
	}
	where, args := []string{"user_id = ?"}, []any{f.UserID}
	if q := strings.TrimSpace(f.Query); q != "" {
		where = append(where, `title `+db.d.like+` ? ESCAPE '\'`)
		args = append(args, "%"+escapeLike(q)+"%")
	}
	if !f.After.IsZero() {
		ms := f.After.UpdatedAt.UnixMilli()
		where = append(where, "(updated_at < ? OR (updated_at = ? AND id < ?))")
		args = append(args, ms, ms, f.After.ID)
	}
	// One row more than asked tells whether another page follows.
	query := `SELECT ` + conversationColumns + ` FROM conversations WHERE ` + strings.Join(where, " AND ") +
		` ORDER BY updated_at DESC, id DESC LIMIT ?`
	rows, err := db.q.QueryContext(ctx, query, append(args, limit+1)...)
	if err != nil {
		return ConversationPage{}, fmt.Errorf("store: conversations: %w", err)
	}
	var page ConversationPage
	if page.Conversations, err = collect(rows, scanConversation); err != nil {
		return ConversationPage{}, fmt.Errorf("store: conversations: %w", err)
	}
	if len(page.Conversations) > limit {
		page.Conversations = page.Conversations[:limit]
		last := page.Conversations[limit-1]
		page.Next = Cursor{UpdatedAt: last.UpdatedAt, ID: last.ID}
	}
	return page, nil
}

// escapeLike makes the LIKE wildcards in s match themselves.
func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// RenameConversation changes a conversation's title if it belongs to userID.
func (db *DB) RenameConversation(ctx context.Context, userID, id, title string) (*Conversation, error) {
	res, err := db.db.ExecContext(ctx, `UPDATE conversations SET title = ?, updated_at = ? WHERE id = ? AND user_id = ?`,
		title, db.now(), id, userID)
	if err != nil {
		return nil, fmt.Errorf("store: rename conversation %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil, ErrNotFound
	}
	return db.Conversation(ctx, userID, id)
}

// RetitleIf gives a conversation a new title if it still carries the one
// given: an automatic title is refined only while nobody renamed it. It
// reports whether the title changed.
func (db *DB) RetitleIf(ctx context.Context, id, from, to string) (bool, error) {
	res, err := db.db.ExecContext(ctx, `UPDATE conversations SET title = ? WHERE id = ? AND title = ?`, to, id, from)
	if err != nil {
		return false, fmt.Errorf("store: retitle conversation %s: %w", id, err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// DeleteConversation removes a conversation if it belongs to userID.
func (db *DB) DeleteConversation(ctx context.Context, userID, id string) error {
	res, err := db.db.ExecContext(ctx, `DELETE FROM conversations WHERE id = ? AND user_id = ?`, id, userID)
	if err != nil {
		return fmt.Errorf("store: delete conversation %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

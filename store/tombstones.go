package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Tombstone is what is kept of a conversation someone other than its owner
// purged: no content, only when it went and through which door.
type Tombstone struct {
	ConversationID string
	// Action is the purge's audit action ("purge", "retention").
	Action    string
	DeletedAt time.Time
}

// ConversationTombstone returns the tombstone of a purged conversation of
// userID, or ErrNotFound when there is none (or it was another user's).
func (db *DB) ConversationTombstone(ctx context.Context, userID, id string) (Tombstone, error) {
	t := Tombstone{ConversationID: id}
	var at int64
	err := db.q.QueryRowContext(ctx, `SELECT action, deleted_at FROM conversation_tombstones
		WHERE conversation_id = ? AND user_id = ?`, id, userID).Scan(&t.Action, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return Tombstone{}, ErrNotFound
	}
	if err != nil {
		return Tombstone{}, fmt.Errorf("store: tombstone %s: %w", id, err)
	}
	t.DeletedAt = fromMillis(at)
	return t, nil
}

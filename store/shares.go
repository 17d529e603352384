package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Audit actions of read-only links.
const (
	ActionShareCreate = "share_create"
	ActionShareRevoke = "share_revoke"
)

// Share is a read-only link to a conversation.
type Share struct {
	ID             string
	ConversationID string
	// Token is the secret of the link /s/<token>.
	Token     string
	CreatedBy string
	// Anyone lets the link open without signing in.
	Anyone bool
	// IncludeUploads offers the conversation's uploaded files too.
	IncludeUploads bool
	CreatedAt      time.Time
	ExpiresAt      time.Time
	Views          int64
	LastViewedAt   time.Time
	// Title, OwnerID and Owner are the conversation's, joined.
	Title   string
	OwnerID string
	Owner   string
}

// ShareOptions are what the owner chooses for a new link.
type ShareOptions struct {
	Anyone         bool
	IncludeUploads bool
	// Lifetime is how long the link opens; it must be positive.
	Lifetime time.Duration
}

const shareColumns = `s.id, s.conversation_id, s.token, s.created_by, s.anyone, s.include_uploads, s.created_at,
	s.expires_at, s.views, s.last_viewed_at, c.title, c.user_id, u.username`

// shareFrom joins a link to its conversation and the conversation's owner.
const shareFrom = ` FROM shares s JOIN conversations c ON c.id = s.conversation_id JOIN users u ON u.id = c.user_id `

func scanShare(row rowScanner) (*Share, error) {
	var s Share
	var created, expires, viewed int64
	err := row.Scan(&s.ID, &s.ConversationID, &s.Token, &s.CreatedBy, &s.Anyone, &s.IncludeUploads, &created,
		&expires, &s.Views, &viewed, &s.Title, &s.OwnerID, &s.Owner)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	s.CreatedAt, s.ExpiresAt, s.LastViewedAt = fromMillis(created), fromMillis(expires), optMillis(viewed)
	return &s, nil
}

// newShareToken returns 128 random bits, base64url without padding.
func newShareToken() string {
	b := make([]byte, 16)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

func tokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// CreateShare makes a read-only link to a conversation of userID and
// records it in the audit log. Another user's conversation is ErrNotFound.
func (db *DB) CreateShare(ctx context.Context, userID, conversationID string, o ShareOptions) (*Share, error) {
	if o.Lifetime <= 0 {
		return nil, fmt.Errorf("store: create share: lifetime %v", o.Lifetime)
	}
	now := db.now()
	id, token := newID(), newShareToken()
	expires := now + o.Lifetime.Milliseconds()
	err := db.withTx(ctx, func(tx *txn) error {
		if err := checkOwner(ctx, tx, conversationID, userID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO shares (id, conversation_id, token, token_sha256, created_by, anyone,
			include_uploads, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			id, conversationID, token, tokenHash(token), userID, o.Anyone, o.IncludeUploads, now, expires); err != nil {
			return err
		}
		details, _ := json.Marshal(map[string]any{"share": id, "conversation": conversationID, "anyone": o.Anyone,
			"include_uploads": o.IncludeUploads, "expires_at": fromMillis(expires)})
		return insertAudit(ctx, tx, now, userID, ActionShareCreate, "", string(details), AuditCompleted)
	})
	if errors.Is(err, ErrNotFound) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("store: create share: %w", err)
	}
	return db.shareWhere(ctx, `s.id = ?`, id)
}

// ShareByToken returns the live link with the given token: not revoked,
// not expired, and of an owner whose account is not disabled. Any other
// token is ErrNotFound, whatever the reason.
func (db *DB) ShareByToken(ctx context.Context, token string) (*Share, error) {
	return db.shareWhere(ctx, `s.token_sha256 = ? AND s.revoked_at = 0 AND s.expires_at > ? AND u.disabled = FALSE`,
		tokenHash(token), db.now())
}

func (db *DB) shareWhere(ctx context.Context, where string, args ...any) (*Share, error) {
	s, err := scanShare(db.q.QueryRowContext(ctx, `SELECT `+shareColumns+shareFrom+`WHERE `+where, args...))
	if err != nil && !errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("store: share: %w", err)
	}
	return s, err
}

// Shares returns the live links of a conversation of userID, newest first.
func (db *DB) Shares(ctx context.Context, userID, conversationID string) ([]*Share, error) {
	return db.shares(ctx, `s.conversation_id = ? AND c.user_id = ? AND s.revoked_at = 0 AND s.expires_at > ?
		ORDER BY s.created_at DESC, s.id`, conversationID, userID, db.now())
}

// LiveShares returns up to limit live links of every user, newest first,
// for the admin page.
func (db *DB) LiveShares(ctx context.Context, limit int) ([]*Share, error) {
	return db.shares(ctx, `s.revoked_at = 0 AND s.expires_at > ? ORDER BY s.created_at DESC, s.id LIMIT ?`,
		db.now(), limitOr(limit))
}

func (db *DB) shares(ctx context.Context, where string, args ...any) ([]*Share, error) {
	rows, err := db.q.QueryContext(ctx, `SELECT `+shareColumns+shareFrom+`WHERE `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("store: shares: %w", err)
	}
	out, err := collect(rows, scanShare)
	if err != nil {
		return nil, fmt.Errorf("store: shares: %w", err)
	}
	return out, nil
}

// RevokeShare ends a live link of a conversation of userID. A link that is
// another user's, already revoked or expired is ErrNotFound.
func (db *DB) RevokeShare(ctx context.Context, userID, conversationID, shareID string) error {
	return db.revokeShare(ctx, userID, shareID, `AND conversation_id = ? AND conversation_id IN
		(SELECT id FROM conversations WHERE user_id = ?)`, conversationID, userID)
}

// RevokeAnyShare ends any live link; actor is the administrator, for the
// audit log.
func (db *DB) RevokeAnyShare(ctx context.Context, actor, shareID string) error {
	return db.revokeShare(ctx, actor, shareID, "")
}

func (db *DB) revokeShare(ctx context.Context, actor, shareID, and string, args ...any) error {
	now := db.now()
	err := db.withTx(ctx, func(tx *txn) error {
		var convID string
		err := tx.QueryRowContext(ctx, `UPDATE shares SET revoked_at = ? WHERE id = ? AND revoked_at = 0 AND expires_at > ? `+
			and+` RETURNING conversation_id`, append([]any{now, shareID, now}, args...)...).Scan(&convID)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		details, _ := json.Marshal(map[string]any{"share": shareID, "conversation": convID})
		return insertAudit(ctx, tx, now, actor, ActionShareRevoke, "", string(details), AuditCompleted)
	})
	if err != nil && !errors.Is(err, ErrNotFound) {
		return fmt.Errorf("store: revoke share %s: %w", shareID, err)
	}
	return err
}

// RecordShareView counts one view of a link.
func (db *DB) RecordShareView(ctx context.Context, shareID string) error {
	if _, err := db.db.ExecContext(ctx, `UPDATE shares SET views = views + 1, last_viewed_at = ? WHERE id = ?`,
		db.now(), shareID); err != nil {
		return fmt.Errorf("store: share view: %w", err)
	}
	return nil
}

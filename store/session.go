package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// ActionSessionRenewal is the audit action of a Foundry conversation
// replaced because its Code Interpreter session had ended.
const ActionSessionRenewal = "session_renewal"

// actorChat is the audit actor of deletions the chat service asks for.
const actorChat = "chat"

// RenewFoundryConversation points a conversation at a new Foundry
// conversation (foundryID) and forgets its ended session. The old Foundry
// conversation, which the service would refuse to continue, is queued for
// deletion through the outbox in the same transaction, so that it is
// deleted however the app stops, with an audit entry like any purge's.
func (db *DB) RenewFoundryConversation(ctx context.Context, conversationID, foundryID string) error {
	now := db.now()
	err := db.withTx(ctx, func(tx *txn) error {
		var old string
		err := tx.QueryRowContext(ctx, `SELECT foundry_conversation_id FROM conversations WHERE id = ?`+tx.d.forUpdate, conversationID).Scan(&old)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE conversations SET foundry_conversation_id = ?, container_id = '',
			session_started_at = 0, session_used_at = 0 WHERE id = ?`, foundryID, conversationID); err != nil {
			return err
		}
		if old == "" || old == foundryID {
			return nil
		}
		purgeID := newID()
		details, _ := json.Marshal(map[string]string{"conversation_id": conversationID, "replaced_by": foundryID})
		if err := insertAudit(ctx, tx, now, actorChat, ActionSessionRenewal, purgeID, string(details), AuditStarted); err != nil {
			return err
		}
		return queueObject(ctx, tx, purgeID, now, PurgeObject{Kind: OutboxFoundryConversation, Target: old})
	})
	if errors.Is(err, ErrNotFound) {
		return err
	}
	if err != nil {
		return fmt.Errorf("store: renew foundry conversation: %w", err)
	}
	return nil
}

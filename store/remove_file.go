package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// RemovedFile is what RemoveFile deleted, for its audit entry and reply.
type RemovedFile struct {
	PurgeID string
	Name    string
	Size    int64
}

// RemoveFile deletes one uploaded file of one of userID's conversations
// through the purge path: in one transaction it records a purge by actor
// (action names the door), queues the file's Foundry copy (unless another
// row still names it) and its blob (kept if still used) in the outbox, and
// deletes the row. The worker does the rest. Another user's file, or a
// file of another conversation, is ErrNotFound, as a missing one.
func (db *DB) RemoveFile(ctx context.Context, userID, conversationID, fileID, action string) (RemovedFile, error) {
	now, purgeID := db.now(), newID()
	out := RemovedFile{PurgeID: purgeID}
	err := db.withTx(ctx, func(tx *txn) error {
		var foundryID, sha string
		err := tx.QueryRowContext(ctx, `SELECT f.name, f.size, f.foundry_file_id, f.sha256 FROM files f
			JOIN conversations c ON c.id = f.conversation_id
			WHERE f.id = ? AND f.conversation_id = ? AND c.user_id = ?`+tx.d.forUpdate, fileID, conversationID, userID).
			Scan(&out.Name, &out.Size, &foundryID, &sha)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		details, _ := json.Marshal(map[string]any{"conversation_id": conversationID, "file_id": fileID, "name": out.Name, "size": out.Size})
		if err := insertAudit(ctx, tx, now, userID, action, purgeID, string(details), AuditStarted); err != nil {
			return err
		}
		if err := queueFileObjects(ctx, tx, purgeID, now, fileID, foundryID, sha, out.Size); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM files WHERE id = ?`, fileID); err != nil {
			return err
		}
		return finishPurgeIfDone(ctx, tx, purgeID, now)
	})
	if errors.Is(err, ErrNotFound) {
		return RemovedFile{}, err
	}
	if err != nil {
		return RemovedFile{}, fmt.Errorf("store: remove file %s: %w", fileID, err)
	}
	return out, nil
}

// queueFileObjects queues the remote copy and the blob of one file. The
// Foundry file is shared by rows of the same bytes uploaded once, so it
// stays while another row names it; whether the blob is still used is
// decided when it is removed, after this row is gone.
func queueFileObjects(ctx context.Context, tx *txn, purgeID string, now int64, fileID, foundryID, sha string, size int64) error {
	if foundryID != "" {
		var shared bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM files WHERE foundry_file_id = ? AND id <> ?)`,
			foundryID, fileID).Scan(&shared); err != nil {
			return err
		}
		if !shared {
			if err := queueObject(ctx, tx, purgeID, now, PurgeObject{Kind: OutboxFoundryFile, Target: foundryID, Bytes: size}); err != nil {
				return err
			}
		}
	}
	return queueObject(ctx, tx, purgeID, now, PurgeObject{Kind: OutboxBlob, Target: sha, Bytes: size})
}

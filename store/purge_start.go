package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// PurgeStart describes a purge to queue.
type PurgeStart struct {
	// Actor is the user id, or "retention"; Action names what asked for it.
	Actor, Action string
	// Selection picks the conversations whose rows, remote objects and
	// blobs go; zero for none.
	Selection PurgeSelection
	// Objects are further remote objects and blobs to delete (orphans).
	Objects []PurgeObject
	// Details is recorded as JSON in the started audit entry.
	Details any
}

// StartPurge records a purge in the audit log and queues its work in one
// transaction: an outbox entry per selected conversation, and one per
// object. Nothing is deleted yet except the records of agent versions and
// agents named in Objects, which go in this transaction with the queueing
// of their remote deletion. It returns the purge's id.
func (db *DB) StartPurge(ctx context.Context, p PurgeStart) (string, error) {
	id, now := newID(), db.now()
	details, err := json.Marshal(p.Details)
	if err != nil {
		return "", fmt.Errorf("store: start purge: %w", err)
	}
	err = db.withTx(ctx, func(tx *txn) error {
		if err := insertAudit(ctx, tx, now, p.Actor, p.Action, id, string(details), AuditStarted); err != nil {
			return err
		}
		where, args := p.Selection.where(tx.d)
		_, err := tx.ExecContext(ctx, `INSERT INTO outbox (purge_id, kind, target, next_attempt_at, created_at)
			SELECT ?, 'conversation', c.id, CAST(? AS BIGINT), CAST(? AS BIGINT) FROM conversations c
			WHERE `+where+` ORDER BY c.updated_at`,
			append([]any{id, now, now}, args...)...)
		if err != nil {
			return err
		}
		for _, o := range p.Objects {
			if err := queueObject(ctx, tx, id, now, o); err != nil {
				return err
			}
		}
		return finishPurgeIfDone(ctx, tx, id, now)
	})
	if errors.Is(err, ErrInUse) {
		return "", err
	}
	if err != nil {
		return "", fmt.Errorf("store: start purge: %w", err)
	}
	return id, nil
}

func queueObject(ctx context.Context, tx *txn, purgeID string, now int64, o PurgeObject) error {
	if o.Kind == OutboxAgent {
		// Every record of the agent goes, the version in use too: with none
		// in use, each server's next question sets the agent up anew.
		if _, err := tx.ExecContext(ctx, `DELETE FROM agent_versions WHERE name = ?`, o.Target); err != nil {
			return err
		}
	}
	if o.Kind == OutboxAgentVersion {
		var inUse bool
		err := tx.QueryRowContext(ctx, `SELECT in_use FROM agent_versions WHERE name = ? AND version = ?`+tx.d.forUpdate, o.Parent, o.Target).Scan(&inUse)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if inUse {
			return fmt.Errorf("%w: agent %s version %s", ErrInUse, o.Parent, o.Target)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM agent_versions WHERE name = ? AND version = ?`, o.Parent, o.Target); err != nil {
			return err
		}
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO outbox (purge_id, kind, parent, target, bytes, next_attempt_at, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, purgeID, o.Kind, o.Parent, o.Target, o.Bytes, now, now)
	return err
}

// PurgeConversations does the local work of up to limit queued
// conversations of one purge (of the oldest pending one when purgeID is
// empty), in one transaction: their remote objects and blobs are queued,
// their rows deleted (the foreign keys cascade to everything they hold) and
// their entries marked done. It returns how many conversations it handled;
// 0 means none of that purge is left.
func (db *DB) PurgeConversations(ctx context.Context, purgeID string, limit int) (int, error) {
	n := 0
	err := db.withTx(ctx, func(tx *txn) error {
		var err error
		if purgeID == "" {
			err = tx.QueryRowContext(ctx, `SELECT purge_id FROM outbox WHERE kind = 'conversation' AND done_at = 0
				ORDER BY id LIMIT 1`).Scan(&purgeID)
			if errors.Is(err, sql.ErrNoRows) {
				return nil
			}
			if err != nil {
				return err
			}
		}
		n, err = purgeConversationBatch(ctx, tx, purgeID, limit, db.now())
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("store: purge conversations: %w", err)
	}
	return n, nil
}

func purgeConversationBatch(ctx context.Context, tx *txn, purgeID string, limit int, now int64) (int, error) {
	entries, convs, err := conversationEntries(ctx, tx, purgeID, limit)
	if err != nil || len(entries) == 0 {
		return 0, err
	}
	entryList := jsonList(entries)
	convList := jsonList(convs)
	if _, err := tx.ExecContext(ctx, queueHeldSQL(tx.d), purgeID, now, convList); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, tombstoneSQL(tx.d), purgeID, now, convList); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM conversations WHERE id IN (SELECT value FROM `+tx.d.list("?")+`)`,
		convList); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE outbox SET done_at = ?, result = 'deleted'
		WHERE id IN (SELECT CAST(value AS BIGINT) FROM `+tx.d.list("?")+`)`, now, entryList); err != nil {
		return 0, err
	}
	return len(entries), finishPurgeIfDone(ctx, tx, purgeID, now)
}

// conversationEntries returns the ids of up to limit pending conversation
// entries of a purge and the conversations they name, locking the entries
// so that two workers never delete the same conversations' rows at once.
func conversationEntries(ctx context.Context, tx *txn, purgeID string, limit int) ([]int64, []string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, target FROM outbox
		WHERE purge_id = ? AND kind = 'conversation' AND done_at = 0 ORDER BY id LIMIT ?`+tx.d.forUpdate, purgeID, limit)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var entries []int64
	var convs []string
	for rows.Next() {
		var id int64
		var conv string
		if err := rows.Scan(&id, &conv); err != nil {
			return nil, nil, err
		}
		entries, convs = append(entries, id), append(convs, conv)
	}
	return entries, convs, rows.Err()
}

// tombstoneSQL records, for each conversation in ?3 that someone other
// than its owner purged (an administrator, the retention job), who owned it
// and when it went, so that the owner is told.
func tombstoneSQL(d *dialect) string {
	return `INSERT INTO conversation_tombstones (conversation_id, user_id, action, deleted_at)
	SELECT c.id, c.user_id, a.action, CAST(?2 AS BIGINT) FROM conversations c
	JOIN audit_log a ON a.purge_id = ?1 AND a.outcome = 'started'
	WHERE c.id IN (SELECT value FROM ` + d.list("?3") + `) AND a.actor <> c.user_id
	ON CONFLICT (conversation_id) DO UPDATE SET user_id = excluded.user_id, action = excluded.action,
		deleted_at = excluded.deleted_at`
}

// queueHeldSQL queues what the conversations in ?3 hold outside this
// database: their Foundry conversations, files, container files and the
// stored responses of their runs (runs.response_id). A Foundry file still named by a row outside them is left alone,
// and blobs are queued per distinct sha256: whether one is still used is
// decided when it is removed, after these rows are gone. The <> ” term
// repeats the condition of the partial index files_foundry_file so that
// SQLite may use it.
func queueHeldSQL(d *dialect) string {
	in := `IN (SELECT value FROM ` + d.list("?3") + `)`
	return `INSERT INTO outbox (purge_id, kind, parent, target, bytes, next_attempt_at, created_at)
	SELECT ?1, 'foundry_conversation', '', foundry_conversation_id, 0, CAST(?2 AS BIGINT), CAST(?2 AS BIGINT) FROM conversations
		WHERE id ` + in + ` AND foundry_conversation_id <> ''
	UNION ALL SELECT ?1, 'foundry_file', '', f.foundry_file_id, f.size, ?2, ?2 FROM files f
		WHERE f.conversation_id ` + in + ` AND f.foundry_file_id <> ''
		AND NOT EXISTS (SELECT 1 FROM files o WHERE o.foundry_file_id = f.foundry_file_id AND o.foundry_file_id <> ''
			AND o.conversation_id NOT ` + in + `)
	UNION ALL SELECT ?1, 'container_file', container_id, container_file_id, max(size), ?2, ?2 FROM artifacts
		WHERE conversation_id ` + in + ` AND container_file_id <> ''
		GROUP BY container_id, container_file_id
	UNION ALL SELECT ?1, 'foundry_response', '', response_id, 0, ?2, ?2 FROM runs
		WHERE conversation_id ` + in + ` AND response_id <> ''
	UNION ALL SELECT ?1, 'blob', '', sha256, max(size), ?2, ?2 FROM (
		SELECT sha256, size FROM files WHERE conversation_id ` + in + `
		UNION ALL SELECT sha256, size FROM artifacts WHERE conversation_id ` + in + `) held
		GROUP BY sha256`
}

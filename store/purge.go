package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// Outbox entry kinds. OutboxConversation is local work (the rows of one
// conversation); the others are one object each, deleted by the worker.
const (
	OutboxConversation        = "conversation"
	OutboxFoundryFile         = "foundry_file"
	OutboxFoundryConversation = "foundry_conversation"
	OutboxContainerFile       = "container_file"
	OutboxAgentVersion        = "agent_version"
	OutboxBlob                = "blob"
)

// Outbox results: how a finished entry ended.
const (
	ResultDeleted  = "deleted"
	ResultNotFound = "not_found"
	ResultKept     = "kept"
)

// Audit outcomes of a purge: started when it is queued, completed once its
// last outbox entry is done, failed when it could not even be queued.
const (
	AuditStarted   = "started"
	AuditCompleted = "completed"
	AuditFailed    = "failed"
)

// ErrInUse is returned when a purge names the agent version in use.
var ErrInUse = errors.New("store: in use")

// PurgeSelection picks conversations to purge. Every set field narrows the
// selection; a selection with no field set picks nothing, so a forgotten
// filter can never mean "everything".
type PurgeSelection struct {
	ConversationIDs []string
	UserID          string
	// Before keeps conversations last updated before it.
	Before time.Time
}

// IsZero reports whether the selection sets no field.
func (s PurgeSelection) IsZero() bool {
	return len(s.ConversationIDs) == 0 && s.UserID == "" && s.Before.IsZero()
}

// where returns the condition on conversations (aliased c) and its args.
func (s PurgeSelection) where() (string, []any) {
	if s.IsZero() {
		return "0", nil
	}
	var conds []string
	var args []any
	if len(s.ConversationIDs) > 0 {
		// One JSON argument instead of one variable per id: a selection of
		// thousands of ids stays one statement under SQLite's variable cap.
		ids, _ := json.Marshal(s.ConversationIDs)
		conds = append(conds, "c.id IN (SELECT value FROM json_each(?))")
		args = append(args, string(ids))
	}
	if s.UserID != "" {
		conds = append(conds, "c.user_id = ?")
		args = append(args, s.UserID)
	}
	if !s.Before.IsZero() {
		conds = append(conds, "c.updated_at < ?")
		args = append(args, s.Before.UnixMilli())
	}
	return strings.Join(conds, " AND "), args
}

// PurgeSummary counts what purging a selection would delete, here and in
// Foundry. Blobs counts the blobs no remaining row would use; SharedBlobs
// those kept because a conversation outside the selection still uses them.
type PurgeSummary struct {
	Conversations                      int64
	Files, FileBytes                   int64
	Artifacts, ArtifactBytes           int64
	FoundryConversations, FoundryFiles int64
	ContainerFiles                     int64
	Blobs, BlobBytes, SharedBlobs      int64
}

// PurgeSummary counts what purging sel would delete with a few aggregate
// queries, so its memory does not grow with the selection. The queries
// share no snapshot, which a dry run can afford.
func (db *DB) PurgeSummary(ctx context.Context, sel PurgeSelection) (PurgeSummary, error) {
	var s PurgeSummary
	where, args := sel.where()
	// max(rowid) bounds the number of conversations from the b-tree's edge,
	// where count(*) would scan: enough to choose a blob plan.
	var all int64
	err := db.db.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(c.foundry_conversation_id <> ''), 0),
		(SELECT coalesce(max(rowid), 0) FROM conversations) FROM conversations c WHERE `+where, args...).
		Scan(&s.Conversations, &s.FoundryConversations, &all)
	if err != nil {
		return PurgeSummary{}, fmt.Errorf("store: purge summary: %w", err)
	}
	// The blob count, the costliest part, runs beside the other counts.
	var blobs blobCount
	done := make(chan struct{})
	go func() {
		defer close(done)
		blobs = db.countBlobs(ctx, where, args, 4*s.Conversations > all)
	}()
	held := []struct {
		sql  string
		dest []any
	}{
		{`SELECT count(*), coalesce(sum(size), 0), coalesce(sum(foundry_file_id <> ''), 0) FROM files
			WHERE conversation_id IN (SELECT c.id FROM conversations c WHERE ` + where + `)`,
			[]any{&s.Files, &s.FileBytes, &s.FoundryFiles}},
		{`SELECT count(*), coalesce(sum(size), 0), coalesce(sum(container_file_id <> ''), 0) FROM artifacts
			WHERE conversation_id IN (SELECT c.id FROM conversations c WHERE ` + where + `)`,
			[]any{&s.Artifacts, &s.ArtifactBytes, &s.ContainerFiles}},
	}
	for _, q := range held {
		if err = db.db.QueryRowContext(ctx, q.sql, args...).Scan(q.dest...); err != nil {
			break
		}
	}
	<-done
	if err == nil {
		err = blobs.err
	}
	if err != nil {
		return PurgeSummary{}, fmt.Errorf("store: purge summary: %w", err)
	}
	s.Blobs, s.BlobBytes, s.SharedBlobs = blobs.freed, blobs.bytes, blobs.total-blobs.freed
	return s, nil
}

// blobCount is what countBlobs found: the selection's distinct blobs, those
// freed by the purge and their bytes.
type blobCount struct {
	total, freed, bytes int64
	err                 error
}

// countBlobs counts in two halves split by the first hex digit of the
// digest (a blob's rows all fall in one half), each on a connection of its
// own: on two cores that halves the wall time of a large dry run.
func (db *DB) countBlobs(ctx context.Context, where string, args []any, large bool) blobCount {
	var halves [2]blobCount
	var wg sync.WaitGroup
	for i, half := range []string{"sha256 < '8'", "sha256 >= '8'"} {
		wg.Go(func() {
			h := &halves[i]
			h.err = db.db.QueryRowContext(ctx, blobSummarySQL(where, half, large), args...).Scan(&h.total, &h.freed, &h.bytes)
		})
	}
	wg.Wait()
	var c blobCount
	for _, h := range halves {
		c.total, c.freed, c.bytes = c.total+h.total, c.freed+h.freed, c.bytes+h.bytes
		c.err = cmp.Or(c.err, h.err)
	}
	return c
}

// blobSummarySQL counts the distinct blobs of the selection and those that
// no row outside it uses. Two plans give the same numbers at different
// costs: a small selection tests each of its blobs for rows outside it with
// index lookups; a large one is cheaper in one pass with one sort over every
// file and artifact row (twice as fast when half of 100,000 conversations
// are selected, ten times slower when 1% are).
// Only the blobs whose digest meets half (an SQL condition) are counted.
func blobSummarySQL(where, half string, large bool) string {
	if large {
		return `WITH sel AS MATERIALIZED (SELECT c.id FROM conversations c WHERE ` + where + `)
		SELECT count(*), coalesce(sum(outside = 0), 0), coalesce(sum((outside = 0) * size), 0) FROM (
			SELECT max(size) AS size, sum(NOT inside) AS outside FROM (
				SELECT sha256, size, conversation_id IN sel AS inside FROM files WHERE ` + half + `
				UNION ALL SELECT sha256, size, conversation_id IN sel FROM artifacts WHERE ` + half + `)
			GROUP BY sha256 HAVING sum(inside) > 0)`
	}
	return `WITH sel AS MATERIALIZED (SELECT c.id FROM conversations c WHERE ` + where + `),
	shas AS (SELECT sha256, max(size) AS size FROM (
		SELECT sha256, size FROM files WHERE conversation_id IN sel AND ` + half + `
		UNION ALL SELECT sha256, size FROM artifacts WHERE conversation_id IN sel AND ` + half + `) GROUP BY sha256),
	freed AS (SELECT size, NOT EXISTS (SELECT 1 FROM files f WHERE f.sha256 = shas.sha256 AND f.conversation_id NOT IN sel)
		AND NOT EXISTS (SELECT 1 FROM artifacts a WHERE a.sha256 = shas.sha256 AND a.conversation_id NOT IN sel) AS gone FROM shas)
	SELECT count(*), coalesce(sum(gone), 0), coalesce(sum(gone * size), 0) FROM freed`
}

// PurgeConversation is one conversation of a purge preview.
type PurgeConversation struct {
	ID, UserID, Username, Title string
	UpdatedAt                   time.Time
	Files, Artifacts, Bytes     int64
}

// PurgePreview returns the first limit conversations of sel, oldest first.
func (db *DB) PurgePreview(ctx context.Context, sel PurgeSelection, limit int) ([]PurgeConversation, error) {
	where, args := sel.where()
	rows, err := db.db.QueryContext(ctx, `SELECT c.id, c.user_id, coalesce(u.username, ''), c.title, c.updated_at,
		(SELECT count(*) FROM files f WHERE f.conversation_id = c.id),
		(SELECT count(*) FROM artifacts a WHERE a.conversation_id = c.id),
		(SELECT coalesce(sum(size), 0) FROM files f WHERE f.conversation_id = c.id) +
		(SELECT coalesce(sum(size), 0) FROM artifacts a WHERE a.conversation_id = c.id)
		FROM conversations c LEFT JOIN users u ON u.id = c.user_id
		WHERE `+where+` ORDER BY c.updated_at, c.id LIMIT ?`, append(args, limit)...)
	if err != nil {
		return nil, fmt.Errorf("store: purge preview: %w", err)
	}
	defer rows.Close()
	var out []PurgeConversation
	for rows.Next() {
		var p PurgeConversation
		var updated int64
		if err := rows.Scan(&p.ID, &p.UserID, &p.Username, &p.Title, &updated, &p.Files, &p.Artifacts, &p.Bytes); err != nil {
			return nil, fmt.Errorf("store: purge preview: %w", err)
		}
		p.UpdatedAt = fromMillis(updated)
		out = append(out, p)
	}
	return out, rows.Err()
}

// PurgeObject is a remote object or blob a purge deletes: Parent is the
// container of a container file or the agent of an agent version.
type PurgeObject struct {
	Kind, Parent, Target string
	Bytes                int64
}

// PurgeRemotePreview returns the first limit Foundry objects that purging
// sel would delete.
func (db *DB) PurgeRemotePreview(ctx context.Context, sel PurgeSelection, limit int) ([]PurgeObject, error) {
	where, args := sel.where()
	// The first branch reads the conversations directly, so a LIMIT met
	// there never gathers the selection's files and artifacts at all.
	q := `SELECT 'foundry_conversation', '', c.foundry_conversation_id, 0 FROM conversations c
		WHERE ` + where + ` AND c.foundry_conversation_id <> ''
	UNION ALL SELECT 'foundry_file', '', foundry_file_id, size FROM files
		WHERE conversation_id IN (SELECT c.id FROM conversations c WHERE ` + where + `) AND foundry_file_id <> ''
	UNION ALL SELECT 'container_file', container_id, container_file_id, size FROM artifacts
		WHERE conversation_id IN (SELECT c.id FROM conversations c WHERE ` + where + `) AND container_file_id <> ''
	LIMIT ?`
	rows, err := db.db.QueryContext(ctx, q, slices.Concat(args, args, args, []any{limit})...)
	if err != nil {
		return nil, fmt.Errorf("store: purge remote preview: %w", err)
	}
	defer rows.Close()
	var out []PurgeObject
	for rows.Next() {
		var o PurgeObject
		if err := rows.Scan(&o.Kind, &o.Parent, &o.Target, &o.Bytes); err != nil {
			return nil, fmt.Errorf("store: purge remote preview: %w", err)
		}
		out = append(out, o)
	}
	return out, rows.Err()
}

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
// object. Nothing is deleted yet except the rows of agent versions named in
// Objects, which go in this transaction with the queueing of their remote
// deletion. It returns the purge's id.
func (db *DB) StartPurge(ctx context.Context, p PurgeStart) (string, error) {
	id, now := newID(), db.now()
	details, err := json.Marshal(p.Details)
	if err != nil {
		return "", fmt.Errorf("store: start purge: %w", err)
	}
	err = db.withTx(ctx, func(tx *sql.Tx) error {
		if err := insertAudit(ctx, tx, now, p.Actor, p.Action, id, string(details), AuditStarted); err != nil {
			return err
		}
		where, args := p.Selection.where()
		_, err := tx.ExecContext(ctx, `INSERT INTO outbox (purge_id, kind, target, next_attempt_at, created_at)
			SELECT ?, 'conversation', c.id, ?, ? FROM conversations c WHERE `+where+` ORDER BY c.updated_at`,
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

func queueObject(ctx context.Context, tx *sql.Tx, purgeID string, now int64, o PurgeObject) error {
	if o.Kind == OutboxAgentVersion {
		var inUse bool
		err := tx.QueryRowContext(ctx, `SELECT in_use FROM agent_versions WHERE name = ? AND version = ?`, o.Parent, o.Target).Scan(&inUse)
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
	err := db.withTx(ctx, func(tx *sql.Tx) error {
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

func purgeConversationBatch(ctx context.Context, tx *sql.Tx, purgeID string, limit int, now int64) (int, error) {
	var entries, convs string
	var n int
	err := tx.QueryRowContext(ctx, `SELECT count(*), coalesce(json_group_array(id), '[]'), coalesce(json_group_array(target), '[]')
		FROM (SELECT id, target FROM outbox WHERE purge_id = ? AND kind = 'conversation' AND done_at = 0 ORDER BY id LIMIT ?)`,
		purgeID, limit).Scan(&n, &entries, &convs)
	if err != nil || n == 0 {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, queueHeldSQL, purgeID, now, convs); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM conversations WHERE id IN (SELECT value FROM json_each(?))`, convs); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE outbox SET done_at = ?, result = 'deleted'
		WHERE id IN (SELECT value FROM json_each(?))`, now, entries); err != nil {
		return 0, err
	}
	return n, finishPurgeIfDone(ctx, tx, purgeID, now)
}

// queueHeldSQL queues what the conversations in ?3 hold outside this
// database. A Foundry file still named by a row outside them is left alone,
// and blobs are queued per distinct sha256: whether one is still used is
// decided when it is removed, after these rows are gone. The <> ” term
// repeats the condition of the partial index files_foundry_file so that
// SQLite may use it.
const queueHeldSQL = `INSERT INTO outbox (purge_id, kind, parent, target, bytes, next_attempt_at, created_at)
	SELECT ?1, 'foundry_conversation', '', foundry_conversation_id, 0, ?2, ?2 FROM conversations
		WHERE id IN (SELECT value FROM json_each(?3)) AND foundry_conversation_id <> ''
	UNION ALL SELECT ?1, 'foundry_file', '', f.foundry_file_id, f.size, ?2, ?2 FROM files f
		WHERE f.conversation_id IN (SELECT value FROM json_each(?3)) AND f.foundry_file_id <> ''
		AND NOT EXISTS (SELECT 1 FROM files o WHERE o.foundry_file_id = f.foundry_file_id AND o.foundry_file_id <> ''
			AND o.conversation_id NOT IN (SELECT value FROM json_each(?3)))
	UNION ALL SELECT ?1, 'container_file', container_id, container_file_id, size, ?2, ?2 FROM artifacts
		WHERE conversation_id IN (SELECT value FROM json_each(?3)) AND container_file_id <> ''
	UNION ALL SELECT ?1, 'blob', '', sha256, max(size), ?2, ?2 FROM (
		SELECT sha256, size FROM files WHERE conversation_id IN (SELECT value FROM json_each(?3))
		UNION ALL SELECT sha256, size FROM artifacts WHERE conversation_id IN (SELECT value FROM json_each(?3)))
		GROUP BY sha256`

// OutboxEntry is one pending piece of a purge.
type OutboxEntry struct {
	ID             int64
	PurgeID, Kind  string
	Parent, Target string
	Bytes          int64
	Attempts       int
	NextAttemptAt  time.Time
	LastError      string
	DoneAt         time.Time
	Result         string
	CreatedAt      time.Time
}

// DueOutbox returns up to limit remote and blob entries due at now, the
// longest waiting first. Conversation entries are PurgeConversations' work.
func (db *DB) DueOutbox(ctx context.Context, now time.Time, limit int) ([]*OutboxEntry, error) {
	rows, err := db.db.QueryContext(ctx, `SELECT id, purge_id, kind, parent, target, bytes, attempts, next_attempt_at,
		last_error, done_at, result, created_at FROM outbox
		WHERE done_at = 0 AND next_attempt_at <= ? AND kind <> 'conversation' ORDER BY next_attempt_at, id LIMIT ?`,
		now.UnixMilli(), limit)
	if err != nil {
		return nil, fmt.Errorf("store: due outbox: %w", err)
	}
	defer rows.Close()
	var out []*OutboxEntry
	for rows.Next() {
		var e OutboxEntry
		var next, done, created int64
		if err := rows.Scan(&e.ID, &e.PurgeID, &e.Kind, &e.Parent, &e.Target, &e.Bytes, &e.Attempts, &next,
			&e.LastError, &done, &e.Result, &created); err != nil {
			return nil, fmt.Errorf("store: due outbox: %w", err)
		}
		e.NextAttemptAt, e.DoneAt, e.CreatedAt = fromMillis(next), optMillis(done), fromMillis(created)
		out = append(out, &e)
	}
	return out, rows.Err()
}

// NextOutbox returns when the next pending entry is due; ok is false when
// nothing is pending.
func (db *DB) NextOutbox(ctx context.Context) (at time.Time, ok bool, err error) {
	var next sql.NullInt64
	if err := db.db.QueryRowContext(ctx, `SELECT min(next_attempt_at) FROM outbox WHERE done_at = 0`).Scan(&next); err != nil {
		return time.Time{}, false, fmt.Errorf("store: next outbox: %w", err)
	}
	return fromMillis(next.Int64), next.Valid, nil
}

// CompleteOutbox marks an entry done with result, and writes its purge's
// completed audit entry if it was the last one. Completing an entry twice
// changes nothing.
func (db *DB) CompleteOutbox(ctx context.Context, id int64, result string) error {
	err := db.withTx(ctx, func(tx *sql.Tx) error { return completeOutbox(ctx, tx, id, result, db.now()) })
	if err != nil {
		return fmt.Errorf("store: complete outbox %d: %w", id, err)
	}
	return nil
}

func completeOutbox(ctx context.Context, tx *sql.Tx, id int64, result string, now int64) error {
	var purgeID string
	err := tx.QueryRowContext(ctx, `UPDATE outbox SET done_at = ?, result = ?, last_error = ''
		WHERE id = ? AND done_at = 0 RETURNING purge_id`, now, result, id).Scan(&purgeID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	return finishPurgeIfDone(ctx, tx, purgeID, now)
}

// FailOutbox records a failed attempt and when to try again.
func (db *DB) FailOutbox(ctx context.Context, id int64, msg string, next time.Time) error {
	_, err := db.db.ExecContext(ctx, `UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ?
		WHERE id = ? AND done_at = 0`, msg, next.UnixMilli(), id)
	if err != nil {
		return fmt.Errorf("store: fail outbox %d: %w", id, err)
	}
	return nil
}

// RemoveBlob completes a blob entry: remove(sha) runs only if no file or
// artifact row uses sha, and inside the write transaction, so that no row
// naming sha can be inserted between the check and the removal. It returns
// ResultKept or ResultDeleted; an error from remove leaves the entry pending.
func (db *DB) RemoveBlob(ctx context.Context, id int64, sha string, remove func(sha string) error) (string, error) {
	var result string
	err := db.withTx(ctx, func(tx *sql.Tx) error {
		var used bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM files WHERE sha256 = ?1)
			OR EXISTS (SELECT 1 FROM artifacts WHERE sha256 = ?1)`, sha).Scan(&used); err != nil {
			return err
		}
		result = ResultKept
		if !used {
			if err := remove(sha); err != nil {
				return err
			}
			result = ResultDeleted
		}
		return completeOutbox(ctx, tx, id, result, db.now())
	})
	if err != nil {
		return "", fmt.Errorf("store: remove blob %s: %w", sha, err)
	}
	return result, nil
}

// finishPurgeIfDone writes the completed audit entry of a purge with
// nothing left pending, once: the caller holds the write lock, so two
// workers finishing the last two entries cannot both see zero.
func finishPurgeIfDone(ctx context.Context, tx *sql.Tx, purgeID string, now int64) error {
	// EXISTS, not count(*): this runs at every completion, and counting a
	// large purge's pending entries each time would make it quadratic.
	var pending, finished bool
	err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM outbox WHERE purge_id = ?1 AND done_at = 0),
		EXISTS (SELECT 1 FROM audit_log WHERE purge_id = ?1 AND outcome = 'completed')`, purgeID).Scan(&pending, &finished)
	if err != nil || pending || finished {
		return err
	}
	var actor, action string
	err = tx.QueryRowContext(ctx, `SELECT actor, action FROM audit_log WHERE purge_id = ? AND outcome = 'started'`,
		purgeID).Scan(&actor, &action)
	if err != nil {
		return err
	}
	var details string
	if err := tx.QueryRowContext(ctx, purgeResultsSQL, purgeID).Scan(&details); err != nil {
		return err
	}
	return insertAudit(ctx, tx, now, actor, action, purgeID, details, AuditCompleted)
}

// purgeResultsSQL sums a purge's entries as {"kind": {"result": {"count": n, "bytes": b}}}.
const purgeResultsSQL = `SELECT coalesce(json_group_object(kind, json(results)), '{}') FROM (
	SELECT kind, json_group_object(result, json_object('count', n, 'bytes', b)) AS results FROM (
		SELECT kind, result, count(*) AS n, sum(bytes) AS b FROM outbox WHERE purge_id = ? GROUP BY kind, result)
	GROUP BY kind)`

func insertAudit(ctx context.Context, tx *sql.Tx, at int64, actor, action, purgeID, details, outcome string) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO audit_log (id, at, actor, action, purge_id, details, outcome)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, newID(), at, actor, action, purgeID, details, outcome)
	return err
}

// AuditEntry is one line of the audit log. Details is JSON.
type AuditEntry struct {
	ID            string
	At            time.Time
	Actor, Action string
	PurgeID       string
	Details       string
	Outcome       string
}

// AppendAudit writes an entry that belongs to no queued purge, such as a
// purge that failed before anything was queued.
func (db *DB) AppendAudit(ctx context.Context, e AuditEntry) error {
	details, err := json.Marshal(json.RawMessage(e.Details))
	if err != nil || e.Details == "" {
		details = []byte("{}")
	}
	err = db.withTx(ctx, func(tx *sql.Tx) error {
		return insertAudit(ctx, tx, db.now(), e.Actor, e.Action, e.PurgeID, string(details), e.Outcome)
	})
	if err != nil {
		return fmt.Errorf("store: append audit: %w", err)
	}
	return nil
}

// AuditLog returns the newest limit entries, newest first.
func (db *DB) AuditLog(ctx context.Context, limit int) ([]AuditEntry, error) {
	rows, err := db.db.QueryContext(ctx, `SELECT id, at, actor, action, purge_id, details, outcome FROM audit_log
		ORDER BY at DESC, rowid DESC LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("store: audit log: %w", err)
	}
	defer rows.Close()
	var out []AuditEntry
	for rows.Next() {
		var e AuditEntry
		var at int64
		if err := rows.Scan(&e.ID, &at, &e.Actor, &e.Action, &e.PurgeID, &e.Details, &e.Outcome); err != nil {
			return nil, fmt.Errorf("store: audit log: %w", err)
		}
		e.At = fromMillis(at)
		out = append(out, e)
	}
	return out, rows.Err()
}

// PurgeProgress is how far a purge has got.
type PurgeProgress struct {
	Pending, Done int64
	// Failing counts pending entries that failed at least once; LastError
	// is the latest of their errors.
	Failing   int64
	LastError string
}

// PurgeProgress reports how far the purge with the given id has got.
func (db *DB) PurgeProgress(ctx context.Context, purgeID string) (PurgeProgress, error) {
	var p PurgeProgress
	err := db.db.QueryRowContext(ctx, `SELECT coalesce(sum(done_at = 0), 0), coalesce(sum(done_at <> 0), 0),
		coalesce(sum(done_at = 0 AND attempts > 0), 0),
		coalesce((SELECT last_error FROM outbox WHERE purge_id = ?1 AND done_at = 0 AND last_error <> ''
			ORDER BY next_attempt_at DESC LIMIT 1), '')
		FROM outbox WHERE purge_id = ?1`, purgeID).Scan(&p.Pending, &p.Done, &p.Failing, &p.LastError)
	if err != nil {
		return PurgeProgress{}, fmt.Errorf("store: purge progress: %w", err)
	}
	return p, nil
}

// UnusedBlobs returns the digests among shas that no file or artifact row uses.
func (db *DB) UnusedBlobs(ctx context.Context, shas []string) ([]string, error) {
	return db.unknown(ctx, "unused blobs", shas, `NOT EXISTS (SELECT 1 FROM files WHERE sha256 = j.value)
		AND NOT EXISTS (SELECT 1 FROM artifacts WHERE sha256 = j.value)`)
}

// UnknownFoundryFiles returns the ids among ids that no file row names.
func (db *DB) UnknownFoundryFiles(ctx context.Context, ids []string) ([]string, error) {
	return db.unknown(ctx, "unknown foundry files", ids,
		`NOT EXISTS (SELECT 1 FROM files WHERE foundry_file_id = j.value AND foundry_file_id <> '')`)
}

// UnknownFoundryConversations returns the ids among ids that no
// conversation row names.
func (db *DB) UnknownFoundryConversations(ctx context.Context, ids []string) ([]string, error) {
	return db.unknown(ctx, "unknown foundry conversations", ids,
		`NOT EXISTS (SELECT 1 FROM conversations WHERE foundry_conversation_id = j.value AND foundry_conversation_id <> '')`)
}

// unknown keeps the values for which cond holds, asking once per call
// rather than once per value; callers pass chunks of a bounded size. The
// conditions repeat "<> ”" so that SQLite may use the partial indexes.
func (db *DB) unknown(ctx context.Context, what string, values []string, cond string) ([]string, error) {
	if len(values) == 0 {
		return nil, nil
	}
	arg, _ := json.Marshal(values)
	rows, err := db.db.QueryContext(ctx, `SELECT j.value FROM json_each(?) j WHERE `+cond, string(arg))
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", what, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, fmt.Errorf("store: %s: %w", what, err)
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// AgentVersionRecord is an agent version this app created or used.
type AgentVersionRecord struct {
	Name, Version string
	InUse         bool
	CreatedAt     time.Time
}

// AgentVersionRecords returns every recorded agent version, by name and age.
func (db *DB) AgentVersionRecords(ctx context.Context) ([]AgentVersionRecord, error) {
	rows, err := db.db.QueryContext(ctx, `SELECT name, version, in_use, created_at FROM agent_versions ORDER BY name, created_at`)
	if err != nil {
		return nil, fmt.Errorf("store: agent version records: %w", err)
	}
	defer rows.Close()
	var out []AgentVersionRecord
	for rows.Next() {
		var r AgentVersionRecord
		var created int64
		if err := rows.Scan(&r.Name, &r.Version, &r.InUse, &created); err != nil {
			return nil, fmt.Errorf("store: agent version records: %w", err)
		}
		r.CreatedAt = fromMillis(created)
		out = append(out, r)
	}
	return out, rows.Err()
}

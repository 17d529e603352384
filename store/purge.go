package store

import (
	"cmp"
	"context"
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
	// OutboxFoundryResponse is a stored response of a purged conversation:
	// deleting a Foundry conversation leaves its responses readable by id
	// (UNCONFIRMED on Foundry; OpenAI keeps them until deleted), so each is
	// deleted on its own.
	OutboxFoundryResponse = "foundry_response"
	// OutboxAgent is an agent with all its versions (target: its name).
	OutboxAgent = "agent"
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

// where returns the condition on conversations (aliased c) and its args,
// in dialect d.
func (s PurgeSelection) where(d *dialect) (string, []any) {
	if s.IsZero() {
		return "FALSE", nil
	}
	var conds []string
	var args []any
	if len(s.ConversationIDs) > 0 {
		// One JSON argument instead of one variable per id: a selection of
		// thousands of ids stays one statement under SQLite's variable cap.
		ids := jsonList(s.ConversationIDs)
		conds = append(conds, "c.id IN (SELECT value FROM "+d.list("?")+")")
		args = append(args, ids)
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
	// FoundryResponses counts the stored responses of the conversations'
	// questions, deleted with them.
	FoundryResponses              int64
	Blobs, BlobBytes, SharedBlobs int64
}

// PurgeSummary counts what purging sel would delete with a few aggregate
// queries, so its memory does not grow with the selection. The queries
// share no snapshot, which a dry run can afford.
func (db *DB) PurgeSummary(ctx context.Context, sel PurgeSelection) (PurgeSummary, error) {
	var s PurgeSummary
	where, args := sel.where(db.d)
	// max(rowid) bounds the number of conversations from the b-tree's edge,
	// where count(*) would scan: enough to choose a blob plan.
	var all int64
	err := db.q.QueryRowContext(ctx, `SELECT count(*), count(*) FILTER (WHERE c.foundry_conversation_id <> ''),
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
		{`SELECT count(*), coalesce(sum(size), 0), count(*) FILTER (WHERE foundry_file_id <> '') FROM files
			WHERE conversation_id IN (SELECT c.id FROM conversations c WHERE ` + where + `)`,
			[]any{&s.Files, &s.FileBytes, &s.FoundryFiles}},
		{`SELECT count(*), coalesce(sum(size), 0),
			count(DISTINCT CASE WHEN container_file_id <> '' THEN container_id || '/' || container_file_id END) FROM artifacts
			WHERE conversation_id IN (SELECT c.id FROM conversations c WHERE ` + where + `)`,
			[]any{&s.Artifacts, &s.ArtifactBytes, &s.ContainerFiles}},
		{`SELECT count(*) FROM runs
			WHERE conversation_id IN (SELECT c.id FROM conversations c WHERE ` + where + `) AND response_id <> ''`,
			[]any{&s.FoundryResponses}},
	}
	for _, q := range held {
		if err = db.q.QueryRowContext(ctx, q.sql, args...).Scan(q.dest...); err != nil {
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
			h.err = db.q.QueryRowContext(ctx, blobSummarySQL(where, half, large), args...).Scan(&h.total, &h.freed, &h.bytes)
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
		SELECT count(*), count(*) FILTER (WHERE outside = 0), coalesce(sum(size) FILTER (WHERE outside = 0), 0) FROM (
			SELECT max(size) AS size, count(*) FILTER (WHERE NOT inside) AS outside FROM (
				SELECT sha256, size, conversation_id IN (SELECT id FROM sel) AS inside FROM files WHERE ` + half + `
				UNION ALL SELECT sha256, size, conversation_id IN (SELECT id FROM sel) FROM artifacts WHERE ` + half + `) b
			GROUP BY sha256 HAVING count(*) FILTER (WHERE inside) > 0) s`
	}
	return `WITH sel AS MATERIALIZED (SELECT c.id FROM conversations c WHERE ` + where + `),
	shas AS (SELECT sha256, max(size) AS size FROM (
		SELECT sha256, size FROM files WHERE conversation_id IN (SELECT id FROM sel) AND ` + half + `
		UNION ALL SELECT sha256, size FROM artifacts WHERE conversation_id IN (SELECT id FROM sel) AND ` + half + `) b
		GROUP BY sha256),
	freed AS (SELECT size, NOT EXISTS (SELECT 1 FROM files f WHERE f.sha256 = shas.sha256 AND f.conversation_id NOT IN (SELECT id FROM sel))
		AND NOT EXISTS (SELECT 1 FROM artifacts a WHERE a.sha256 = shas.sha256 AND a.conversation_id NOT IN (SELECT id FROM sel)) AS gone
		FROM shas)
	SELECT count(*), count(*) FILTER (WHERE gone), coalesce(sum(size) FILTER (WHERE gone), 0) FROM freed`
}

// PurgeConversation is one conversation of a purge preview.
type PurgeConversation struct {
	ID, UserID, Username, Title string
	UpdatedAt                   time.Time
	Files, Artifacts, Bytes     int64
}

// PurgePreview returns the first limit conversations of sel, oldest first.
func (db *DB) PurgePreview(ctx context.Context, sel PurgeSelection, limit int) ([]PurgeConversation, error) {
	where, args := sel.where(db.d)
	rows, err := db.q.QueryContext(ctx, `SELECT c.id, c.user_id, coalesce(u.username, ''), c.title, c.updated_at,
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
	where, args := sel.where(db.d)
	// The first branch reads the conversations directly, so a LIMIT met
	// there never gathers the selection's files and artifacts at all.
	q := `SELECT 'foundry_conversation', '', c.foundry_conversation_id, 0 FROM conversations c
		WHERE ` + where + ` AND c.foundry_conversation_id <> ''
	UNION ALL SELECT 'foundry_file', '', foundry_file_id, size FROM files
		WHERE conversation_id IN (SELECT c.id FROM conversations c WHERE ` + where + `) AND foundry_file_id <> ''
	UNION ALL SELECT 'container_file', container_id, container_file_id, max(size) FROM artifacts
		WHERE conversation_id IN (SELECT c.id FROM conversations c WHERE ` + where + `) AND container_file_id <> ''
		GROUP BY container_id, container_file_id
	UNION ALL SELECT 'foundry_response', '', response_id, 0 FROM runs
		WHERE conversation_id IN (SELECT c.id FROM conversations c WHERE ` + where + `) AND response_id <> ''
	LIMIT ?`
	rows, err := db.q.QueryContext(ctx, q, slices.Concat(args, args, args, args, []any{limit})...)
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

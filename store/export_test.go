package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"
)

// CheckPragmas holds n pooled connections at once, so that they are n
// distinct connections, and verifies on each that the DSN pragmas hold.
func (db *DB) CheckPragmas(ctx context.Context, n int) error { return db.onConns(ctx, n, checkPragmas) }

// PingConns holds n pooled connections at once, opening those the pool
// lacks, and pings each.
func (db *DB) PingConns(ctx context.Context, n int) error {
	return db.onConns(ctx, n, func(ctx context.Context, c *sql.Conn) error { return c.PingContext(ctx) })
}

// onConns holds n distinct pooled connections at once and runs check on each.
func (db *DB) onConns(ctx context.Context, n int, check func(context.Context, *sql.Conn) error) error {
	var conns []*sql.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range n {
		conn, err := db.db.Conn(ctx)
		if err != nil {
			return err
		}
		conns = append(conns, conn)
		if err := check(ctx, conn); err != nil {
			return err
		}
	}
	return nil
}

func checkPragmas(ctx context.Context, conn *sql.Conn) error {
	var mode string
	var fk, busy int
	if err := conn.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		return err
	}
	if err := conn.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk); err != nil {
		return err
	}
	if err := conn.QueryRowContext(ctx, "PRAGMA busy_timeout").Scan(&busy); err != nil {
		return err
	}
	if mode != "wal" || fk != 1 || busy != 5000 {
		return fmt.Errorf("pragmas: journal_mode=%s foreign_keys=%d busy_timeout=%d", mode, fk, busy)
	}
	return nil
}

// SearchDocuments counts the rows of the search index and its sources, and
// fails t if they disagree.
func (db *DB) SearchDocuments(t interface{ Fatalf(string, ...any) }) int {
	var docs, texts int
	count := `SELECT (SELECT COUNT(*) FROM search_docs), (SELECT COUNT(*) FROM search_fts)`
	if db.d == &postgresDialect {
		count = `SELECT COUNT(*), COUNT(terms) FROM search_docs`
	}
	if err := db.db.QueryRow(count).Scan(&docs, &texts); err != nil {
		t.Fatalf("count search rows: %v", err)
	}
	if docs != texts {
		t.Fatalf("search_docs has %d rows, search_fts %d", docs, texts)
	}
	return docs
}

// SeedSearch fills the database in one transaction with convs conversations
// of userID, each with msgs messages whose words come from words (word i of
// message j of conversation k is words[(k*31+j*7+i*13)%len(words)]). The
// statements are prepared once: 200,000 messages go in about ten times
// faster than with one Exec each.
func (db *DB) SeedSearch(userID string, convs, msgs, wordsPerMessage int, words []string) error {
	ctx := context.Background()
	return db.withTx(ctx, func(tx *txn) error {
		now := db.now()
		conv, err := tx.Prepare(`INSERT INTO conversations (id, user_id, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer conv.Close()
		msg, err := tx.Prepare(`INSERT INTO messages (id, conversation_id, role, content, created_at) VALUES (?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer msg.Close()
		var b []byte
		for k := range convs {
			id := fmt.Sprintf("c%06d", k)
			if _, err := conv.Exec(id, userID, fmt.Sprintf("Conversation %d about %s", k, words[k%len(words)]), now+int64(k), now+int64(k)); err != nil {
				return err
			}
			for j := range msgs {
				b = b[:0]
				for i := range wordsPerMessage {
					b = append(b, words[(k*31+j*7+i*13)%len(words)]...)
					b = append(b, ' ')
				}
				if _, err := msg.Exec(fmt.Sprintf("%s-m%03d", id, j), id, []string{"user", "assistant"}[j%2], string(b), now+int64(k)); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// HoldSearchSlots takes every connection share of searches, as long
// searches would, until release is called.
func (db *DB) HoldSearchSlots() (release func()) {
	for range cap(db.searches) {
		db.searches <- struct{}{}
	}
	return func() {
		for range cap(db.searches) {
			<-db.searches
		}
	}
}

// SetSearchCandidates sets the cap of candidate passages (SearchCandidates).
func (db *DB) SetSearchCandidates(n int) { db.searchCandidates = n }

// LegacySearch is SearchConversations as it was before SearchCandidates:
// every match ranked. The benchmark measures it beside the capped search,
// and the tests hold the two to the same hits below the cap.
func (db *DB) LegacySearch(ctx context.Context, userID, query string, limit int) ([]SearchHit, error) {
	match := MatchQuery(query)
	if match == "" {
		return nil, nil
	}
	rows, err := db.q.QueryContext(ctx, `WITH best AS (
			SELECT d.conversation_id, d.id, d.kind, d.anchor, MIN(d.id)
			FROM search_fts f JOIN search_docs d ON d.id = f.rowid
			WHERE search_fts MATCH ? AND d.user_id = ?
			GROUP BY d.conversation_id)
		SELECT `+prefixed("c", conversationColumns)+`, b.id, b.kind, b.anchor, 0
		FROM best b JOIN conversations c ON c.id = b.conversation_id
		ORDER BY c.updated_at DESC, c.id DESC
		LIMIT ?`, match, userID, limit)
	if err != nil {
		return nil, err
	}
	hits, docs, _, err := scanHits(rows)
	if err != nil {
		return nil, err
	}
	return hits, db.legacySnippets(ctx, match, hits, docs)
}

// legacySnippets is fillSnippets as it was: each document looked up by
// rowid, the MATCH bound as a parameter.
func (db *DB) legacySnippets(ctx context.Context, match string, hits []SearchHit, docs []int64) error {
	if len(docs) == 0 {
		return nil
	}
	ids, _ := json.Marshal(docs)
	rows, err := db.q.QueryContext(ctx, `SELECT rowid, snippet(search_fts, 0, ?, ?, '…', ?)
		FROM search_fts WHERE search_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))`,
		HitStart, HitEnd, snippetTokens, match, string(ids))
	if err != nil {
		return err
	}
	defer rows.Close()
	snippets := make(map[int64]string, len(docs))
	for rows.Next() {
		var doc int64
		var s string
		if err := rows.Scan(&doc, &s); err != nil {
			return err
		}
		snippets[doc] = s
	}
	for i, doc := range docs {
		hits[i].Snippet = snippets[doc]
	}
	return rows.Err()
}

// SetPollEvery changes how often waiters are woken without a notification,
// for the length of the test: a test of notifications sets it long, so that
// only a notification can wake them.
func SetPollEvery(t interface{ Cleanup(func()) }, d time.Duration) {
	was := pollEvery
	pollEvery = d
	t.Cleanup(func() { pollEvery = was })
}

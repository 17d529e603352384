package store

import (
	"context"
	"database/sql"
	"fmt"
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
// message j of conversation k is words[(k*31+j*7+i*13)%len(words)]).
func (db *DB) SeedSearch(userID string, convs, msgs, wordsPerMessage int, words []string) error {
	ctx := context.Background()
	return db.withTx(ctx, func(tx *txn) error {
		now := db.now()
		for k := range convs {
			id := fmt.Sprintf("c%06d", k)
			if _, err := tx.Exec(`INSERT INTO conversations (id, user_id, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
				id, userID, fmt.Sprintf("Conversation %d about %s", k, words[k%len(words)]), now+int64(k), now+int64(k)); err != nil {
				return err
			}
			for j := range msgs {
				var b []byte
				for i := range wordsPerMessage {
					b = append(b, words[(k*31+j*7+i*13)%len(words)]...)
					b = append(b, ' ')
				}
				if _, err := tx.Exec(`INSERT INTO messages (id, conversation_id, role, content, created_at) VALUES (?, ?, ?, ?, ?)`,
					fmt.Sprintf("%s-m%03d", id, j), id, []string{"user", "assistant"}[j%2], string(b), now+int64(k)); err != nil {
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

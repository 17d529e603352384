package emulator

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// store keeps what must survive a restart: agents and their versions, file metadata,
// conversations, their items and responses. Each object is stored as the JSON the API returns, so
// a row never needs a migration when the wire shape gains a field; the columns beside it exist
// only to look rows up and order them. SQLite rather than JSON files because a turn appends
// several items and a response at once, and a transaction makes that atomic under concurrent
// turns without a lock of our own.
type store struct {
	db *sql.DB
}

// schema is idempotent; there is one version of it so far.
const schema = `
CREATE TABLE IF NOT EXISTS agents (
	name TEXT PRIMARY KEY,
	id TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	last_version INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS agent_versions (
	name TEXT NOT NULL,
	version INTEGER NOT NULL,
	body TEXT NOT NULL,
	PRIMARY KEY (name, version)
);
CREATE TABLE IF NOT EXISTS files (
	seq INTEGER PRIMARY KEY AUTOINCREMENT,
	id TEXT NOT NULL UNIQUE,
	body TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS conversations (
	seq INTEGER PRIMARY KEY AUTOINCREMENT,
	id TEXT NOT NULL UNIQUE,
	body TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS items (
	seq INTEGER PRIMARY KEY AUTOINCREMENT,
	id TEXT NOT NULL UNIQUE,
	conversation_id TEXT NOT NULL,
	body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS items_conversation ON items (conversation_id, seq);
CREATE TABLE IF NOT EXISTS responses (
	seq INTEGER PRIMARY KEY AUTOINCREMENT,
	id TEXT NOT NULL UNIQUE,
	body TEXT NOT NULL
);
`

// errNoRow is returned by lookups that find nothing; handlers turn it into their own 404.
var errNoRow = errors.New("emulator: not found")

// openStore opens (or creates) dir/emulator.db.
func openStore(ctx context.Context, dir string) (*store, error) {
	// WAL lets readers proceed during a turn's write; busy_timeout waits out the writer instead
	// of failing with SQLITE_BUSY; _txlock=immediate takes the write lock at BEGIN so two
	// read-then-write transactions cannot deadlock on the upgrade.
	path := filepath.Join(dir, "emulator.db")
	// SQLite would create the file 0644 and give -wal and -shm its mode;
	// made 0600 first, all three are private whatever the umask. A failure
	// here resurfaces in the open below.
	if f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600); err == nil {
		f.Close()
		os.Chmod(path, 0o600)
	}
	dsn := "file:" + path +
		"?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("emulator: open db: %w", err)
	}
	if _, err := db.ExecContext(ctx, schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("emulator: create schema: %w", err)
	}
	return &store{db: db}, nil
}

func (st *store) close() error { return st.db.Close() }

// withTx runs fn in a transaction, committed only when fn succeeds.
func (st *store) withTx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := st.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() // a no-op after Commit
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// execer is what *sql.DB and *sql.Tx share, so helpers run inside or outside a transaction.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// putObject inserts or replaces the JSON of one object of a seq/id/body table (files,
// conversations, items, responses). Replacing keeps the original seq, hence the order.
func putObject(ctx context.Context, ex execer, table, id string, v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = ex.ExecContext(ctx, `INSERT INTO `+table+` (id, body) VALUES (?, ?)
		ON CONFLICT (id) DO UPDATE SET body = excluded.body`, id, string(body))
	return err
}

// getObject decodes one object by id into v, or returns errNoRow.
func getObject(ctx context.Context, ex execer, table, id string, v any) error {
	var body string
	err := ex.QueryRowContext(ctx, `SELECT body FROM `+table+` WHERE id = ?`, id).Scan(&body)
	if errors.Is(err, sql.ErrNoRows) {
		return errNoRow
	}
	if err != nil {
		return err
	}
	return json.Unmarshal([]byte(body), v)
}

// deleteObject removes one object by id, or returns errNoRow.
func deleteObject(ctx context.Context, ex execer, table, id string) error {
	res, err := ex.ExecContext(ctx, `DELETE FROM `+table+` WHERE id = ?`, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errNoRow
	}
	return nil
}

// listObjects decodes every row of query (which selects one body column) in order.
func listObjects[T any](ctx context.Context, ex execer, query string, args ...any) ([]T, error) {
	rows, err := ex.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		var body string
		if err := rows.Scan(&body); err != nil {
			return nil, err
		}
		var v T
		if err := json.Unmarshal([]byte(body), &v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

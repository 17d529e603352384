// Package store keeps the application's state in SQLite through
// modernc.org/sqlite (Open) or, for several replicas sharing one state, in
// PostgreSQL through pgx (OpenPostgres): plain database/sql and hand-written
// SQL, one API, the differences of the two dialects held in one value (see
// dialect). It imports nothing else of this module; its migrations are
// handed to Open.
package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"database/sql/driver"
	"encoding/base32"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"sync"
	"time"

	"github.com/pressly/goose/v3"
	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// ErrNotFound is returned when a row does not exist or is not visible to the
// caller; the two are deliberately indistinguishable.
var ErrNotFound = errors.New("store: not found")

// ErrConflict is returned when a write would break a uniqueness rule.
var ErrConflict = errors.New("store: conflict")

// DB is the application database.
type DB struct {
	db *sql.DB
	// d is the SQL dialect of the database.
	d *dialect
	// q runs the queries that read: the database, or the transaction of
	// Read.
	q querier
	// searches holds a token for each search running, so that searches can
	// take at most cap(searches) of the pool's connections and never starve
	// the pages of other users.
	searches chan struct{}
	// searchCandidates is SearchCandidates; tests lower it.
	searchCandidates int
	// Now returns the current time; tests replace it to control ordering.
	Now func() time.Time
	// leads holds the tasks this process leads now (see Lead); shared by
	// the copies Read makes.
	leads *sync.Map
	// listen is this server's listener of the notifications of the servers
	// sharing the database (see listen.go); shared by the copies Read makes.
	listen *listener
}

// Open opens (creating if needed) the SQLite database at path and applies
// every migration in migrations that has not run yet.
func Open(ctx context.Context, path string, migrations fs.FS, log *slog.Logger) (*DB, error) {
	if err := restrictFiles(path); err != nil {
		return nil, err
	}
	sqldb, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	// WAL allows one writer and many readers; a few connections are enough
	// and keep the number of open file handles small.
	sqldb.SetMaxOpenConns(maxConns)
	sqldb.SetMaxIdleConns(maxConns)
	sqldb.SetConnMaxIdleTime(5 * time.Minute)
	if err := sqldb.PingContext(ctx); err != nil {
		sqldb.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	return ready(ctx, sqldb, &sqliteDialect, nil, migrations, log)
}

// ready migrates a freshly opened pool and makes the DB of it; it closes
// the pool if that fails.
//
// The listener connects through connector, nil where no other server
// shares the database.
func ready(ctx context.Context, sqldb *sql.DB, d *dialect, connector driver.Connector, migrations fs.FS, log *slog.Logger, opts ...goose.ProviderOption) (*DB, error) {
	if err := migrate(ctx, sqldb, d, migrations, log, opts...); err != nil {
		sqldb.Close()
		return nil, err
	}
	return &DB{db: sqldb, d: d, q: sqldb, searches: make(chan struct{}, searchConns), searchCandidates: SearchCandidates, Now: time.Now, leads: new(sync.Map),
		listen: newListener(connector)}, nil
}

// maxConns is the size of the connection pool.
const maxConns = 8

// privateMode is the mode of the database files: they hold password hashes
// and every conversation, so only the server's user may read them.
const privateMode fs.FileMode = 0o600

// restrictFiles creates the database file with privateMode before SQLite
// opens it, because SQLite creates it 0644 (less the umask) and gives its
// -wal and -shm files the database file's mode. The chmod makes the mode
// independent of the umask and tightens files an older version created.
func restrictFiles(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, privateMode)
	if err != nil {
		return fmt.Errorf("store: open %s: %w", path, err)
	}
	f.Close()
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Chmod(p, privateMode); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("store: %w", err)
		}
	}
	return nil
}

// dsn sets the pragmas in the connection string, so that every pooled
// connection gets them, not only the one an Exec happened to run on.
func dsn(path string) string {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(5000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous(NORMAL)")
	// BEGIN IMMEDIATE takes the write lock up front, so two writers wait on
	// the busy timeout instead of failing with SQLITE_BUSY on upgrade.
	q.Set("_txlock", "immediate")
	return "file:" + path + "?" + q.Encode()
}

// migrate applies the migrations not applied yet, with goose's options for
// the dialect (extra).
func migrate(ctx context.Context, db *sql.DB, d *dialect, migrations fs.FS, log *slog.Logger, extra ...goose.ProviderOption) error {
	// Out-of-order migrations are applied rather than refused: features are
	// built in parallel, so a lower number can land after a higher one.
	opts := append([]goose.ProviderOption{goose.WithDisableGlobalRegistry(true), goose.WithAllowOutofOrder(true)}, extra...)
	if log != nil {
		opts = append(opts, goose.WithSlog(log))
	}
	p, err := goose.NewProvider(d.goose, db, migrations, opts...)
	if err != nil {
		return fmt.Errorf("store: migrations: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("store: migrate: %w", err)
	}
	return nil
}

// Close closes the database.
func (db *DB) Close() error { return db.db.Close() }

// Shared reports whether other servers may share this database
// (PostgreSQL). State that must hold across replicas then lives in the
// database rather than in memory: runs stream and stop across servers
// (Listen, WatchRun, WatchCancel) and are held under leases (ClaimRun), so
// a server starting up must not take the running runs for its own dead
// ones; failed sign-ins are counted in login_failures. It is false on
// SQLite, where one process owns the database.
func (db *DB) Shared() bool { return db != nil && db.d.shared }

// Ping reports whether the database answers; /readyz uses it.
func (db *DB) Ping(ctx context.Context) error {
	var one int
	if err := db.q.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil {
		return fmt.Errorf("store: ping: %w", err)
	}
	return nil
}

// querier is what reads: *sql.DB, or *sql.Tx inside Read.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Read runs fn with a DB whose reads all see one snapshot of the database,
// for a page put together from several queries. The transaction is a
// read-only one, so it holds no write lock and writers go on; fn must not
// write through the DB it is given (a write would not join the snapshot).
func (db *DB) Read(ctx context.Context, fn func(*DB) error) error {
	tx, err := db.db.BeginTx(ctx, db.d.readTx)
	if err != nil {
		return fmt.Errorf("store: read: %w", err)
	}
	defer tx.Rollback()
	in := *db
	in.q = tx
	if err := fn(&in); err != nil {
		return err
	}
	return tx.Commit()
}

// withTx runs fn in a transaction that is committed when fn returns nil and
// rolled back otherwise.
func (db *DB) withTx(ctx context.Context, fn func(*txn) error) error {
	tx, err := db.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(&txn{Tx: tx, d: db.d}); err != nil {
		return err
	}
	return tx.Commit()
}

// now returns the current time in milliseconds since the epoch, the unit of
// every *_at column.
func (db *DB) now() int64 { return db.Now().UnixMilli() }

func fromMillis(ms int64) time.Time { return time.UnixMilli(ms).UTC() }

// optMillis is fromMillis for columns where 0 means "never".
func optMillis(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return fromMillis(ms)
}

func toMillis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

var idEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// newID returns a random, unguessable identifier: ids appear in URLs, and a
// guessable one would tell one user how many conversations another has.
func newID() string {
	b := make([]byte, 10)
	rand.Read(b)
	return idEncoding.EncodeToString(b)
}

// rowScanner is what *sql.Row and *sql.Rows have in common.
type rowScanner interface{ Scan(...any) error }

// collect scans every row with scan and closes rows.
func collect[T any](rows *sql.Rows, scan func(rowScanner) (T, error)) ([]T, error) {
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

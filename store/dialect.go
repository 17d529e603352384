package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/pressly/goose/v3"
)

// dialect holds every way in which the store's SQL differs between SQLite
// and PostgreSQL, so that the rest of the store reads the same on both.
// Placeholders are not among them: the store writes ? and the PostgreSQL
// driver rebinds (see rebind). Everything else is written once in SQL both
// accept: TRUE and FALSE for flags, count(*) FILTER (WHERE …) for sums of
// conditions, ON CONFLICT for upserts, RETURNING, CAST(? AS BIGINT) where
// PostgreSQL cannot infer a parameter's type, and rowid (SQLite's implicit
// one, PostgreSQL's identity column of that name) for the order of writes.
type dialect struct {
	// shared is true where several processes may use the database at once
	// (PostgreSQL); SQLite's file belongs to one.
	shared bool
	// goose is the dialect goose migrates with.
	goose goose.Dialect
	// nocase is expr compared or ordered without regard to case: SQLite's
	// NOCASE collation, PostgreSQL's lower() (its index is on lower too).
	nocase func(expr string) string
	// like is the LIKE that ignores case: SQLite's does, PostgreSQL's ILIKE.
	like string
	// list is a table of the values of a JSON list argument, one text
	// column named value: one argument, however many ids, keeps a statement
	// under SQLite's variable cap.
	list func(arg string) string
	// forUpdate ends a SELECT whose rows the transaction goes on to change
	// by what it read. SQLite's BEGIN IMMEDIATE holds the one write lock
	// from the start; PostgreSQL locks the rows read.
	forUpdate string
	// skipLocked ends the SELECT of rows a statement claims for itself,
	// passing over the rows another one is claiming: PostgreSQL's FOR
	// UPDATE SKIP LOCKED; SQLite has one writer, so nothing to skip.
	skipLocked string
	// lock serializes the transactions that decide about key (a purge's
	// completion, a user's upload limit, a blob's removal): SQLite's write
	// lock already does; PostgreSQL takes a transaction-scoped advisory lock.
	lock func(ctx context.Context, tx *txn, key string) error
	// uniqueViolation reports whether err broke a unique index.
	uniqueViolation func(error) bool
	// readTx begins Read's transaction, whose queries see one snapshot:
	// any SQLite transaction does, a PostgreSQL one from REPEATABLE READ.
	readTx *sql.TxOptions
	// search is how full-text search is asked (see search.go).
	search searchDialect
	// leadLock and leadUnlock take and give back the lead of a task (see
	// leader.go), reading true when taken; empty where one process owns
	// the database (SQLite) and always leads.
	leadLock, leadUnlock string
	// exclusiveLock waits for the lock of an Exclusive (see leader.go);
	// exclusiveUnlock gives it back.
	exclusiveLock, exclusiveUnlock string
	// notify tells every server sharing the database, in the transaction
	// that changed what it is about (see listen.go): pg_notify of a
	// channel and a payload. Empty where one process owns the database.
	notify string
}

// sqliteDialect is SQLite's (modernc.org/sqlite, FTS5).
var sqliteDialect = dialect{
	goose:     goose.DialectSQLite3,
	nocase:    func(expr string) string { return expr + " COLLATE NOCASE" },
	like:      "LIKE",
	list:      func(arg string) string { return "json_each(" + arg + ")" },
	forUpdate: "",
	lock:      func(context.Context, *txn, string) error { return nil },
	uniqueViolation: func(err error) bool {
		return err != nil && strings.Contains(err.Error(), "UNIQUE constraint failed")
	},
	readTx: &sql.TxOptions{ReadOnly: true},
	search: ftsSearch,
}

// postgresDialect is PostgreSQL's (15 and later, through pgx).
var postgresDialect = dialect{
	shared:     true,
	goose:      goose.DialectPostgres,
	nocase:     func(expr string) string { return "lower(" + expr + ")" },
	like:       "ILIKE",
	list:       func(arg string) string { return "jsonb_array_elements_text(CAST(" + arg + " AS jsonb))" },
	forUpdate:  " FOR UPDATE",
	skipLocked: " FOR UPDATE SKIP LOCKED",
	lock: func(ctx context.Context, tx *txn, key string) error {
		_, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtextextended(?, 0))`, key)
		return err
	},
	uniqueViolation: func(err error) bool {
		var pg *pgconn.PgError
		return errors.As(err, &pg) && pg.Code == "23505"
	},
	readTx: &sql.TxOptions{ReadOnly: true, Isolation: sql.LevelRepeatableRead},
	search: tsSearch,
	// Session locks, in a key space of their own ("lead:" + task) apart
	// from the transactions' (lock above).
	leadLock:        `SELECT pg_try_advisory_lock(hashtextextended('lead:' || ?, 0))`,
	leadUnlock:      `SELECT pg_advisory_unlock(hashtextextended('lead:' || ?, 0))`,
	exclusiveLock:   `SELECT pg_advisory_lock(hashtextextended('once:' || ?, 0))`,
	exclusiveUnlock: `SELECT pg_advisory_unlock(hashtextextended('once:' || ?, 0))`,
	notify:          `SELECT pg_notify(?, ?)`,
}

// jsonList is the JSON argument of dialect.list: a JSON array, also when
// values is nil (json.Marshal's null is no list to PostgreSQL).
func jsonList[T any](values []T) string {
	if len(values) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(values)
	return string(b)
}

// txn is a transaction of the store with the dialect of its database, so
// that helpers given a transaction write the dialect's SQL too.
type txn struct {
	*sql.Tx
	d *dialect
}

// notify is d.notify in this transaction: PostgreSQL delivers it when the
// transaction commits, and never if it rolls back.
func (tx *txn) notify(ctx context.Context, channel, payload string) error {
	if tx.d.notify == "" {
		return nil
	}
	_, err := tx.ExecContext(ctx, tx.d.notify, channel, payload)
	return err
}

// lock is d.lock in this transaction.
func (tx *txn) lock(ctx context.Context, key string) error { return tx.d.lock(ctx, tx, key) }

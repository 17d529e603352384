package migrations_test

import (
	"context"
	"database/sql"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/analyst-workbench/workbench/internal/pgtest"
	"github.com/analyst-workbench/workbench/migrations"
	"github.com/analyst-workbench/workbench/store"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// versions maps each migration's version to its name after the number.
func versions(t *testing.T, f fs.FS) map[int]string {
	t.Helper()
	names, err := fs.Glob(f, "*.sql")
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]string{}
	for _, n := range names {
		num, rest, ok := strings.Cut(n, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			t.Fatalf("%s: not NNNN_name.sql", n)
		}
		out[v] = rest
	}
	return out
}

// TestFoldersInStep: PostgreSQL's folder starts with one baseline standing
// for SQLite's migrations up to its number, and from there both folders
// hold the same versions under the same names, so that a migration written
// for one back end cannot land without its twin.
func TestFoldersInStep(t *testing.T) {
	lite, pg := versions(t, migrations.FS), versions(t, migrations.Postgres)
	if len(pg) == 0 {
		t.Fatal("no PostgreSQL migrations")
	}
	baseline := slices.Min(slices.Collect(maps.Keys(pg)))
	if _, ok := lite[baseline]; !ok {
		t.Fatalf("the PostgreSQL baseline %04d has no SQLite migration of its number", baseline)
	}
	for v, name := range lite {
		if v > baseline && pg[v] != name {
			t.Errorf("SQLite migration %04d_%s has no PostgreSQL twin %04d_%s in postgres/", v, name, v, name)
		}
	}
	for v, name := range pg {
		if v > baseline && lite[v] != name {
			t.Errorf("PostgreSQL migration %04d_%s has no SQLite twin %04d_%s", v, name, v, name)
		}
	}
}

// schema is what the two back ends must agree on: tables with their
// columns, indexes and triggers, by name.
type schema struct {
	columns  map[string][]string
	indexes  []string
	triggers []string
}

// What only one side has, and why. SQLite's FTS5 table and its shadow
// tables are PostgreSQL's search_docs.body (the text) and .terms (its
// tsvector, with the GIN index search_docs_terms). PostgreSQL's rowid
// columns are SQLite's implicit rowid made explicit, each with a unique
// index (*_rowid_key); primary keys are indexes of their own there.
var (
	sqliteOnly   = []string{"search_fts", "search_fts_config", "search_fts_content", "search_fts_data", "search_fts_docsize", "search_fts_idx"}
	postgresOnly = map[string][]string{"search_docs": {"body", "terms"}}
	// outbox_notify announces new outbox entries to the replica leading the
	// purge; on SQLite one process queues them and wakes its own worker.
	postgresOnlyTriggers = []string{"outbox_notify"}
)

// TestSchemasMatch migrates an empty database of each back end and wants
// the same tables, columns, indexes and triggers in both, but for the
// differences named above.
func TestSchemasMatch(t *testing.T) {
	lite, liteRowid := sqliteSchema(t)
	pg := postgresSchema(t)
	for table, cols := range pg.columns {
		if slices.Contains(cols, "rowid") {
			if !liteRowid[table] {
				t.Errorf("PostgreSQL's %s has a rowid column, but SQLite's is a WITHOUT ROWID table", table)
			}
			pg.columns[table] = slices.DeleteFunc(cols, func(c string) bool { return c == "rowid" })
		}
		pg.columns[table] = slices.DeleteFunc(pg.columns[table], func(c string) bool {
			return slices.Contains(postgresOnly[table], c)
		})
	}
	for _, table := range sqliteOnly {
		delete(lite.columns, table)
	}
	t.Logf("SQLite: %d tables, %d indexes, %d triggers; PostgreSQL: %d tables, %d indexes, %d triggers",
		len(lite.columns), len(lite.indexes), len(lite.triggers), len(pg.columns), len(pg.indexes), len(pg.triggers))
	for table, cols := range lite.columns {
		if !slices.Equal(cols, pg.columns[table]) {
			t.Errorf("table %s: SQLite has columns %q, PostgreSQL %q", table, cols, pg.columns[table])
		}
	}
	for table := range pg.columns {
		if _, ok := lite.columns[table]; !ok {
			t.Errorf("table %s is only in PostgreSQL", table)
		}
	}
	if !slices.Equal(lite.indexes, pg.indexes) {
		t.Errorf("indexes differ:\n SQLite     %q\n PostgreSQL %q", lite.indexes, pg.indexes)
	}
	pg.triggers = slices.DeleteFunc(pg.triggers, func(n string) bool { return slices.Contains(postgresOnlyTriggers, n) })
	if !slices.Equal(lite.triggers, pg.triggers) {
		t.Errorf("triggers differ:\n SQLite     %q\n PostgreSQL %q", lite.triggers, pg.triggers)
	}
}

// sqliteSchema migrates a new SQLite database and reads its schema, and
// which of its tables have a rowid.
func sqliteSchema(t *testing.T) (schema, map[string]bool) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "app.db")
	db, err := store.Open(context.Background(), path, migrations.FS, nil)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var s schema
	s.columns = columns(t, raw, `SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p
		WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name <> 'goose_db_version' ORDER BY m.name, p.name`)
	s.indexes = names(t, raw, `SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_autoindex_%' ORDER BY name`)
	s.triggers = names(t, raw, `SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name`)
	rowid := map[string]bool{}
	for _, n := range names(t, raw, `SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE '%WITHOUT ROWID%'`) {
		rowid[n] = true
	}
	return s, rowid
}

// postgresSchema migrates a new PostgreSQL database and reads its schema.
func postgresSchema(t *testing.T) schema {
	t.Helper()
	url := pgtest.Shared(t).Database(t, "")
	db, err := store.OpenPostgres(context.Background(), url, migrations.Postgres, store.PostgresOptions{})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	raw, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var s schema
	s.columns = columns(t, raw, `SELECT table_name, column_name FROM information_schema.columns
		WHERE table_schema = current_schema() AND table_name <> 'goose_db_version' ORDER BY table_name, column_name`)
	s.indexes = names(t, raw, `SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()
		AND indexname NOT LIKE '%\_pkey' AND indexname NOT LIKE '%\_rowid\_key' AND indexname <> 'search_docs_terms'
		ORDER BY indexname COLLATE "C"`)
	s.triggers = names(t, raw, `SELECT DISTINCT tgname FROM pg_trigger WHERE NOT tgisinternal`)
	return s
}

// columns reads (table, column) rows into the columns of each table.
func columns(t *testing.T, db *sql.DB, query string) map[string][]string {
	t.Helper()
	rows, err := db.Query(query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string][]string{}
	for rows.Next() {
		var table, col string
		if err := rows.Scan(&table, &col); err != nil {
			t.Fatal(err)
		}
		out[table] = append(out[table], col)
	}
	for _, cols := range out {
		slices.Sort(cols)
	}
	return out
}

// names reads one column of names, sorted bytewise.
func names(t *testing.T, db *sql.DB, query string) []string {
	t.Helper()
	rows, err := db.Query(query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

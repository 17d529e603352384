package store_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/analyst-workbench/workbench/internal/pgtest"
	"github.com/analyst-workbench/workbench/migrations"
	"github.com/analyst-workbench/workbench/store"
)

// backend is the database the tests of this run use: the package's tests
// run once on SQLite, then again on PostgreSQL (TestMain), so that every
// store test holds on both back ends. STORE_BACKENDS=sqlite or =postgres
// runs one of them; -short leaves PostgreSQL out.
var backend = "sqlite"

func TestMain(m *testing.M) {
	code := 0
	for _, b := range backendsToRun() {
		backend = b
		fmt.Printf("=== store tests on %s\n", b)
		if c := m.Run(); c != 0 {
			code = c
		}
	}
	closeSearchCorpus() // the latency benchmark's corpus, if it was built
	pgtest.StopShared()
	os.Exit(code)
}

func backendsToRun() []string {
	if v := os.Getenv("STORE_BACKENDS"); v != "" {
		return strings.Split(v, ",")
	}
	return []string{"sqlite", "postgres"}
}

// openDB opens a fresh, migrated database on this run's back end: a file in
// a temp dir, as the app does, or a PostgreSQL database copied from a
// migrated template.
func openDB(t testing.TB) *store.DB {
	t.Helper()
	if backend == "postgres" {
		return openPostgres(t, postgresDatabase(t))
	}
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "app.db"), migrations.FS, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// postgresDatabase returns the URL of a fresh PostgreSQL database with the
// store's schema, skipping the test with -short.
func postgresDatabase(t testing.TB) string {
	t.Helper()
	c := pgtest.Shared(t)
	err := c.Template("store", func(url string) error {
		db, err := store.OpenPostgres(context.Background(), url, migrations.Postgres, store.PostgresOptions{})
		if err != nil {
			return err
		}
		return db.Close()
	})
	if err != nil {
		t.Fatal(err)
	}
	return c.Database(t, "store")
}

// openPostgres opens the PostgreSQL database at url, closed when t ends.
func openPostgres(t testing.TB, url string) *store.DB {
	t.Helper()
	db, err := store.OpenPostgres(context.Background(), url, migrations.Postgres, store.PostgresOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// only runs the rest of t on back end b: what it tests is b's alone (a
// file's mode, SQLite's pragmas, its migration history).
func only(t *testing.T, b string) {
	t.Helper()
	if backend != b {
		t.Skipf("tests %s only", b)
	}
}

package pgtest_test

import (
	"database/sql"
	"os"
	"testing"

	"github.com/analyst-workbench/workbench/internal/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// TestDatabase_FromTemplate copies a prepared template into a fresh
// database per test, reached over the cluster's socket.
func TestDatabase_FromTemplate(t *testing.T) {
	c := pgtest.Shared(t)
	err := c.Template("tmpl", func(url string) error {
		db, err := sql.Open("pgx", url)
		if err != nil {
			return err
		}
		defer db.Close()
		_, err = db.Exec(`CREATE TABLE marks (n int); INSERT INTO marks VALUES (7)`)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		db, err := sql.Open("pgx", c.Database(t, "tmpl"))
		if err != nil {
			t.Fatal(err)
		}
		var n int
		if err := db.QueryRow(`SELECT n FROM marks`).Scan(&n); err != nil || n != 7 {
			t.Fatalf("copied template: %d, %v", n, err)
		}
		if _, err := db.Exec(`INSERT INTO marks VALUES (8)`); err != nil {
			t.Fatal(err)
		}
		db.Close()
	}
}

// TestPasswordGroup signs a member of PasswordGroup in with its password
// only, and other roles without one.
func TestPasswordGroup(t *testing.T) {
	c := pgtest.Shared(t)
	c.Exec(t, `CREATE ROLE pw_user LOGIN PASSWORD 'secret' IN ROLE `+pgtest.PasswordGroup)
	dbURL := c.Database(t, "")
	for pw, ok := range map[string]bool{"secret": true, "wrong": false, "": false} {
		db, _ := sql.Open("pgx", pgtest.AsRole(dbURL, "pw_user", pw))
		err := db.Ping()
		db.Close()
		if (err == nil) != ok {
			t.Errorf("password %q: ping %v, want success %v", pw, err, ok)
		}
	}
	db, _ := sql.Open("pgx", dbURL)
	defer db.Close()
	if err := db.Ping(); err != nil {
		t.Errorf("superuser without a password: %v", err)
	}
}

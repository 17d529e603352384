package main

import (
	"context"
	"database/sql"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/internal/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// TestOpenStore_DatabaseURL opens PostgreSQL, migrated, when DATABASE_URL
// is set, and keeps no database file in DATA_DIR.
func TestOpenStore_DatabaseURL(t *testing.T) {
	url := pgtest.Shared(t).Database(t, "")
	cfg := config{DataDir: t.TempDir(), DatabaseURL: url}
	db, err := openStore(context.Background(), cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.CreateUser(context.Background(), "ana", "h", "admin", nil); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(cfg.DataDir); len(entries) != 0 {
		t.Errorf("DATA_DIR holds %d entries, want none", len(entries))
	}
}

// TestStartListener: on PostgreSQL the background work holds one listening
// connection, which it lets go when it stops; on SQLite it holds none.
func TestStartListener(t *testing.T) {
	url := pgtest.Shared(t).Database(t, "")
	db, err := openStore(context.Background(), config{DataDir: t.TempDir(), DatabaseURL: url}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	raw, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	listening := func() (n int) {
		raw.QueryRow(`SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'`).Scan(&n)
		return n
	}
	bg := startBackground(context.Background())
	startListener(bg, db)
	waitUntil(t, func() bool { return listening() == 1 })
	bg.stop()
	waitUntil(t, func() bool { return listening() == 0 })

	lite, err := openStore(context.Background(), config{DataDir: t.TempDir()}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer lite.Close()
	bg = startBackground(context.Background())
	startListener(bg, lite) // starts nothing
	bg.stop()
}

// waitUntil polls cond for up to 30 s.
func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 30 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

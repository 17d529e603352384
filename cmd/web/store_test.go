package main

import (
	"context"
	"log/slog"
	"os"
	"testing"

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

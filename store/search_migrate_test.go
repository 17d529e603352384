package store_test

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/analyst-workbench/workbench/migrations"
	"github.com/analyst-workbench/workbench/store"
)

// migrationsBefore returns the migrations numbered below version.
func migrationsBefore(t *testing.T, version string) fs.FS {
	t.Helper()
	names, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil {
		t.Fatal(err)
	}
	out := fstest.MapFS{}
	for _, n := range names {
		if n < version {
			b, _ := fs.ReadFile(migrations.FS, n)
			out[n] = &fstest.MapFile{Data: b}
		}
	}
	return out
}

// TestSearchMigrationIndexesExistingRows upgrades a database that has
// conversations from before the search index: migration 0010 indexes them,
// and strips the "…" old titles were stored with.
func TestSearchMigrationIndexesExistingRows(t *testing.T) {
	only(t, "sqlite")
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "app.db")
	old, err := store.Open(ctx, path, migrationsBefore(t, "0010"), nil)
	if err != nil {
		t.Fatal(err)
	}
	u, _ := old.CreateUser(ctx, "ana", "h", store.RoleAnalyst, nil)
	c, _ := old.CreateConversation(ctx, u.ID, "Which fields had the largest…")
	_, run, err := old.StartTurn(ctx, u.ID, c.ID, "What about vanadium?", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := old.AppendRunEvent(ctx, run.ID, store.RunEvent{Seq: 1, Type: "code_done", Data: `{"cell_id":"c1","text":"df.pivot_table()"}`}); err != nil {
		t.Fatal(err)
	}
	if err := old.FinishRun(ctx, run.ID, store.RunEnd{Status: store.RunCompleted, Answer: "Molybdenum leads."}); err != nil {
		t.Fatal(err)
	}
	if _, err := old.AddFile(ctx, u.ID, store.File{ConversationID: c.ID, Name: "metals.csv", ContentType: "text/csv", Size: 1, SHA256: "m",
		Profile: `{"Columns":[{"Name":"tonnage"}]}`}); err != nil {
		t.Fatal(err)
	}
	old.Close()

	db, err := store.Open(ctx, path, migrations.FS, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for q, want := range map[string]store.SearchKind{
		"largest": store.SearchTitle, "vanadium": store.SearchMessage, "molybdenum": store.SearchMessage,
		"pivot_table": store.SearchCode, "tonnage": store.SearchFile,
	} {
		got := searchFor(t, db, u.ID, q)
		if h, ok := got[c.ID]; !ok || h.Kind != want {
			t.Errorf("after the upgrade, search %q = %+v; want a %s hit", q, got, want)
		}
	}
	hits := searchFor(t, db, u.ID, "molybdenum")
	if a := hits[c.ID].Anchor; a != "run-"+run.ID {
		t.Errorf("answer anchor %q, want run-%s", a, run.ID)
	}
	if conv, _ := db.Conversation(ctx, u.ID, c.ID); strings.HasSuffix(conv.Title, "…") {
		t.Errorf("title %q still ends with …", conv.Title)
	}
	db.SearchDocuments(t)
}

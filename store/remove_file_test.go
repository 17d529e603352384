package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/store"
)

// TestDB_RemoveFile deletes one file through the purge path: the row and
// its search entry go at once, its Foundry copy and blob are queued, and
// nobody else can remove it.
func TestDB_RemoveFile(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	f := newPurgeFixture(t, db) // Ana's file f.csv has Foundry id assistant-ana
	files, _ := db.Files(ctx, f.ana, f.anaConv)
	if len(files) != 1 {
		t.Fatalf("fixture has %d files", len(files))
	}
	id := files[0].ID
	if _, err := db.RemoveFile(ctx, f.bob, f.anaConv, id, "remove_file"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("another user removed the file: %v", err)
	}
	if _, err := db.RemoveFile(ctx, f.ana, f.bobConv, id, "remove_file"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("removed through another conversation: %v", err)
	}
	removed, err := db.RemoveFile(ctx, f.ana, f.anaConv, id, "remove_file")
	if err != nil || removed.Name != "f.csv" {
		t.Fatalf("RemoveFile = %+v, %v", removed, err)
	}
	if left, _ := db.Files(ctx, f.ana, f.anaConv); len(left) != 0 {
		t.Errorf("%d files left", len(left))
	}
	if got := searchFor(t, db, f.ana, "csv"); len(got) != 0 {
		t.Errorf("removed file still found by search: %v", got)
	}
	due, err := db.DueOutbox(ctx, time.Now().Add(time.Hour), 10)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{}
	for _, e := range due {
		kinds[e.Kind] = e.Target
	}
	if kinds[store.OutboxFoundryFile] != "assistant-ana" || kinds[store.OutboxBlob] != sha('s') || len(kinds) != 2 {
		t.Errorf("queued %v; want the Foundry file and the blob", kinds)
	}
	if _, err := db.RemoveFile(ctx, f.ana, f.anaConv, id, "remove_file"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("second removal: %v", err)
	}
}

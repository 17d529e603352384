package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/store"
)

// purgeFixture is two users' conversations, each with a file and an
// artifact, where Ana's file and Bob's artifact share a sha256.
type purgeFixture struct {
	ana, bob         string
	anaConv, bobConv string
}

func newPurgeFixture(t *testing.T, db *store.DB) purgeFixture {
	t.Helper()
	ctx := context.Background()
	var f purgeFixture
	add := func(name, fileSHA, artSHA string) (string, string) {
		u, err := db.CreateUser(ctx, name, "h", store.RoleAnalyst, nil)
		if err != nil {
			t.Fatal(err)
		}
		c, _ := db.CreateConversation(ctx, u.ID, "c")
		file, err := db.AddFile(ctx, u.ID, store.File{ConversationID: c.ID, Name: "f.csv", ContentType: "text/csv", Size: 10, SHA256: fileSHA})
		if err != nil {
			t.Fatal(err)
		}
		db.SetFoundryFileID(ctx, file.ID, "assistant-"+name)
		db.SetFoundryConversation(ctx, c.ID, "conv_"+name)
		_, run, err := db.StartTurn(ctx, u.ID, c.ID, "q", "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.AddArtifact(ctx, store.Artifact{ConversationID: c.ID, RunID: run.ID, ContainerID: "cntr", ContainerFileID: "cf-" + name,
			Name: "a.png", ContentType: "image/png", Size: 100, SHA256: artSHA, Kind: store.ArtifactImage}); err != nil {
			t.Fatal(err)
		}
		return u.ID, c.ID
	}
	f.ana, f.anaConv = add("ana", sha('s'), sha('a'))
	f.bob, f.bobConv = add("bob", sha('b'), sha('s'))
	return f
}

func sha(c byte) string {
	b := make([]byte, 64)
	for i := range b {
		b[i] = c
	}
	return string(b)
}

func TestDB_PurgeSummary(t *testing.T) {
	db := openDB(t)
	f := newPurgeFixture(t, db)
	tests := []struct {
		name string
		sel  store.PurgeSelection
		want store.PurgeSummary
	}{
		{"zero selection picks nothing", store.PurgeSelection{}, store.PurgeSummary{}},
		{"one user, a shared blob kept", store.PurgeSelection{UserID: f.ana}, store.PurgeSummary{Conversations: 1, Files: 1, FileBytes: 10,
			Artifacts: 1, ArtifactBytes: 100, FoundryConversations: 1, FoundryFiles: 1, ContainerFiles: 1, Blobs: 1, BlobBytes: 100, SharedBlobs: 1}},
		{"both, every blob freed", store.PurgeSelection{ConversationIDs: []string{f.anaConv, f.bobConv}}, store.PurgeSummary{Conversations: 2,
			Files: 2, FileBytes: 20, Artifacts: 2, ArtifactBytes: 200, FoundryConversations: 2, FoundryFiles: 2, ContainerFiles: 2, Blobs: 3, BlobBytes: 210}},
		{"before the epoch", store.PurgeSelection{Before: time.Unix(1, 0)}, store.PurgeSummary{}},
	}
	// The second round adds rows of a third user, which makes each
	// selection small beside the whole and so takes the other blob plan.
	for _, round := range []string{"large selections", "small selections"} {
		if round == "small selections" {
			addFiller(t, db, 20)
		}
		for _, tt := range tests {
			t.Run(round+"/"+tt.name, func(t *testing.T) {
				got, err := db.PurgeSummary(context.Background(), tt.sel)
				if err != nil {
					t.Fatal(err)
				}
				if got != tt.want {
					t.Errorf("got %+v, want %+v", got, tt.want)
				}
			})
		}
	}
}

// addFiller gives a new user n conversations with one file each, of bytes
// nobody else has.
func addFiller(t *testing.T, db *store.DB, n int) {
	t.Helper()
	ctx := context.Background()
	u, err := db.CreateUser(ctx, "filler", "h", store.RoleAnalyst, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		c, _ := db.CreateConversation(ctx, u.ID, "c")
		if _, err := db.AddFile(ctx, u.ID, store.File{ConversationID: c.ID, Name: "f", ContentType: "text/csv", Size: 1,
			SHA256: fmt.Sprintf("%064x", i+1)}); err != nil {
			t.Fatal(err)
		}
	}
}

func TestDB_PurgeConversations(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	f := newPurgeFixture(t, db)
	id, err := db.StartPurge(ctx, store.PurgeStart{Actor: "admin", Action: "purge", Selection: store.PurgeSelection{UserID: f.ana}})
	if err != nil {
		t.Fatal(err)
	}
	// Queued, not yet deleted.
	if _, err := db.Conversation(ctx, f.ana, f.anaConv); err != nil {
		t.Fatalf("conversation deleted by StartPurge: %v", err)
	}
	if n, err := db.PurgeConversations(ctx, "", 10); err != nil || n != 1 {
		t.Fatalf("PurgeConversations = %d, %v; want 1", n, err)
	}
	if n, err := db.PurgeConversations(ctx, id, 10); err != nil || n != 0 {
		t.Fatalf("second PurgeConversations = %d, %v; want 0", n, err)
	}
	if _, err := db.Conversation(ctx, f.ana, f.anaConv); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("conversation after purge: err = %v", err)
	}
	if got, _ := db.Artifacts(ctx, f.ana, f.anaConv); len(got) != 0 {
		t.Errorf("artifacts left: %d", len(got))
	}
	due, err := db.DueOutbox(ctx, time.Now().Add(time.Hour), 100)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, e := range due {
		kinds[e.Kind]++
	}
	want := map[string]int{"foundry_conversation": 1, "foundry_file": 1, "container_file": 1, "blob": 2}
	if len(kinds) != len(want) || kinds["blob"] != 2 || kinds["foundry_file"] != 1 || kinds["container_file"] != 1 || kinds["foundry_conversation"] != 1 {
		t.Errorf("queued %v, want %v", kinds, want)
	}

	removed := map[string]bool{}
	remove := func(s string) error { removed[s] = true; return nil }
	for _, e := range due {
		if e.Kind == store.OutboxBlob {
			if _, err := db.RemoveBlob(ctx, e.ID, e.Target, remove); err != nil {
				t.Fatal(err)
			}
			continue
		}
		// Twice: completing is idempotent and finishes the purge once.
		for range 2 {
			if err := db.CompleteOutbox(ctx, e.ID, store.ResultDeleted); err != nil {
				t.Fatal(err)
			}
		}
	}
	if !removed[sha('a')] || removed[sha('s')] {
		t.Errorf("removed %v; want only Ana's own blob", removed)
	}
	log, err := db.AuditLog(ctx, 10)
	if err != nil || len(log) != 2 || log[0].Outcome != store.AuditCompleted || log[1].Outcome != store.AuditStarted {
		t.Fatalf("audit = %+v, %v", log, err)
	}
	var results map[string]map[string]struct{ Count int }
	if err := json.Unmarshal([]byte(log[0].Details), &results); err != nil {
		t.Fatal(err)
	}
	if results["blob"]["kept"].Count != 1 || results["blob"]["deleted"].Count != 1 || results["conversation"]["deleted"].Count != 1 {
		t.Errorf("completed details = %s", log[0].Details)
	}
}

func TestDB_StartPurge_RefusesTheAgentVersionInUse(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	db.RecordAgentVersion(ctx, "analyst", "1")
	db.RecordAgentVersion(ctx, "analyst", "2")
	_, err := db.StartPurge(ctx, store.PurgeStart{Actor: "admin", Action: "purge_objects",
		Objects: []store.PurgeObject{{Kind: store.OutboxAgentVersion, Parent: "analyst", Target: "2"}}})
	if !errors.Is(err, store.ErrInUse) {
		t.Fatalf("purging the version in use: err = %v, want ErrInUse", err)
	}
	if _, err := db.StartPurge(ctx, store.PurgeStart{Actor: "admin", Action: "purge_objects",
		Objects: []store.PurgeObject{{Kind: store.OutboxAgentVersion, Parent: "analyst", Target: "1"}}}); err != nil {
		t.Fatal(err)
	}
	recs, err := db.AgentVersionRecords(ctx)
	if err != nil || len(recs) != 1 || recs[0].Version != "2" {
		t.Errorf("records = %+v, %v; want only version 2", recs, err)
	}
}

// TestDB_PurgeLeavesTombstones tells the owner of a conversation an admin
// purged what happened, and nobody else; an owner's own deletion leaves none.
func TestDB_PurgeLeavesTombstones(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	f := newPurgeFixture(t, db)
	if _, err := db.StartPurge(ctx, store.PurgeStart{Actor: "admin", Action: "purge", Selection: store.PurgeSelection{UserID: f.ana}}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.PurgeConversations(ctx, "", 10); err != nil {
		t.Fatal(err)
	}
	ts, err := db.ConversationTombstone(ctx, f.ana, f.anaConv)
	if err != nil || ts.Action != "purge" || ts.DeletedAt.IsZero() {
		t.Fatalf("tombstone = %+v, %v", ts, err)
	}
	if _, err := db.ConversationTombstone(ctx, f.bob, f.anaConv); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("another user sees the tombstone: %v", err)
	}
	if _, err := db.StartPurge(ctx, store.PurgeStart{Actor: f.bob, Action: "delete_conversation",
		Selection: store.PurgeSelection{UserID: f.bob, ConversationIDs: []string{f.bobConv}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.PurgeConversations(ctx, "", 10); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ConversationTombstone(ctx, f.bob, f.bobConv); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the owner's own deletion left a tombstone: %v", err)
	}
}

package purge_test

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/foundry"
	"github.com/analyst-workbench/workbench/purge"
	"github.com/analyst-workbench/workbench/store"
)

func TestOrphans_PlannedThenPurged(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	ana := e.user(t, "ana")
	s := e.seed(t, ana, "x", "x data", "x chart")
	old := time.Now().Add(-2 * time.Hour)
	orphan, _ := e.put(t, "nobody's bytes")
	young, _ := e.put(t, "an upload whose row is not written yet")
	for _, sha := range []string{orphan, s.file.SHA256} {
		must(t, os.Chtimes(e.blobs.Path(sha), old, old))
	}
	e.lostUpload(t, ana, "assistant-lost")
	e.lostUpload(t, ana, "assistant-fresh")
	e.remote.files = []foundry.File{
		{ID: s.file.FoundryFileID, Bytes: 6, CreatedAt: old},
		{ID: "assistant-lost", Bytes: 9, CreatedAt: old},
		{ID: "assistant-fresh", Bytes: 9, CreatedAt: time.Now()},
		{ID: "assistant-of-another-app", Bytes: 9, CreatedAt: old},
	}

	p, err := e.svc.Plan(ctx, purge.Selection{Orphans: true})
	if err != nil {
		t.Fatal(err)
	}
	o := p.Orphans
	if o.Blobs != 1 || o.BlobBytes != int64(len("nobody's bytes")) || o.Files != 1 || o.FileBytes != 9 || len(o.Preview) != 2 {
		t.Errorf("orphans = %+v, want 1 blob and assistant-lost", o)
	}
	if p.Summary.Conversations != 0 {
		t.Errorf("an orphans-only plan selected %d conversations", p.Summary.Conversations)
	}

	if _, err := e.svc.Execute(ctx, "admin1", purge.Selection{Orphans: true}); err != nil {
		t.Fatal(err)
	}
	e.drain(t)
	if e.blobExists(orphan) {
		t.Error("orphan blob kept")
	}
	if !e.blobExists(young) || !e.blobExists(s.file.SHA256) {
		t.Error("a young or used blob was removed")
	}
	if got := e.remote.counts(true); !slices.Equal(got, []string{"file:assistant-lost=1"}) {
		t.Errorf("remote deletions = %v, want only assistant-lost", got)
	}
}

func TestReconcile_OffersUnknownObjectsAndUnusedVersions(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	ana := e.user(t, "ana")
	s := e.seed(t, ana, "x", "x data", "x chart")
	old := time.Now().Add(-2 * time.Hour)
	// Only what carries the app's tag (or, for files, what the app
	// uploaded) is the app's to offer: a shared project holds others' too.
	e.remote.convs = []foundry.Conversation{{ID: s.conv.FoundryConversationID, CreatedAt: old, Metadata: ourTag},
		{ID: "conv_lost", CreatedAt: old, Metadata: ourTag}, {ID: "conv_of_another_app", CreatedAt: old},
		{ID: "conv_of_another_install", CreatedAt: old, Metadata: map[string]string{"app": "workbench", "workbench_install": "i2"}}}
	e.lostUpload(t, ana, "assistant-lost")
	e.remote.files = []foundry.File{{ID: "assistant-lost", CreatedAt: old}, {ID: "assistant-of-another-app", CreatedAt: old}}
	e.remote.versions = map[string][]foundry.AgentVersion{"analyst": {{Name: "analyst", Version: "1", Metadata: ourTag},
		{Name: "analyst", Version: "2"}, {Name: "analyst", Version: "3"}}, "stranger": {{Name: "stranger", Version: "1"}}}
	must(t, e.db.RecordAgentVersion(ctx, "analyst", "2"))

	r, err := e.svc.Reconcile(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := &purge.Reconciliation{
		Files:         []store.PurgeObject{{Kind: store.OutboxFoundryFile, Target: "assistant-lost"}},
		Conversations: []store.PurgeObject{{Kind: store.OutboxFoundryConversation, Target: "conv_lost"}},
		AgentVersions: []store.PurgeObject{{Kind: store.OutboxAgentVersion, Parent: "analyst", Target: "1"}},
	}
	if !slices.Equal(r.Files, want.Files) || !slices.Equal(r.Conversations, want.Conversations) || !slices.Equal(r.AgentVersions, want.AgentVersions) {
		t.Fatalf("Reconcile = %+v, want %+v", r, want)
	}
	all := slices.Concat(r.Files, r.Conversations, r.AgentVersions)
	if _, err := e.svc.PurgeObjects(ctx, "admin1", all); err != nil {
		t.Fatal(err)
	}
	e.drain(t)
	wantDeleted := []string{"agent_version:analyst/1=1", "conversation:conv_lost=1", "file:assistant-lost=1"}
	if got := e.remote.counts(true); !slices.Equal(got, wantDeleted) {
		t.Errorf("deleted = %v, want %v", got, wantDeleted)
	}
	// The version in use is never purged, even when asked.
	if _, err := e.svc.PurgeObjects(ctx, "admin1", []store.PurgeObject{{Kind: store.OutboxAgentVersion, Parent: "analyst", Target: "2"}}); err == nil {
		t.Error("purging the agent version in use succeeded")
	}
}

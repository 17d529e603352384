package purge_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/purge"
	"github.com/analyst-workbench/workbench/store"
)

func TestPlan_CountsAndDeletesNothing(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	ana, bob := e.user(t, "ana"), e.user(t, "bob")
	a1 := e.seed(t, ana, "a1", "a1 data", "a1 chart")
	e.seed(t, ana, "a2", "a2 data", "shared chart")
	e.seed(t, bob, "b1", "b1 data", "shared chart")

	tests := []struct {
		name                       string
		sel                        purge.Selection
		wantConvs, wantFiles       int64
		wantBlobs, wantSharedBlobs int64
		wantRemote                 int
	}{
		{"one conversation by id", purge.Selection{ConversationIDs: []string{a1.conv.ID}}, 1, 1, 2, 0, 3},
		{"a user", purge.Selection{UserID: ana}, 2, 2, 3, 1, 6},
		{"ids of another user", purge.Selection{ConversationIDs: []string{a1.conv.ID}, UserID: bob}, 0, 0, 0, 0, 0},
		{"older than a day", purge.Selection{OlderThanDays: 1}, 0, 0, 0, 0, 0},
		{"unknown ids narrowed by user", purge.Selection{UserID: bob, ConversationIDs: []string{a1.conv.ID, "nope"}}, 0, 0, 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := e.svc.Plan(ctx, tt.sel)
			if err != nil {
				t.Fatal(err)
			}
			s := p.Summary
			if s.Conversations != tt.wantConvs || s.Files != tt.wantFiles || s.Artifacts != tt.wantConvs ||
				s.Blobs != tt.wantBlobs || s.SharedBlobs != tt.wantSharedBlobs {
				t.Errorf("summary = %+v, want %d conversations, %d files, %d blobs, %d shared", s, tt.wantConvs, tt.wantFiles, tt.wantBlobs, tt.wantSharedBlobs)
			}
			if s.FoundryFiles+s.FoundryConversations+s.ContainerFiles != int64(tt.wantRemote) || len(p.Remote) != tt.wantRemote {
				t.Errorf("remote = %+v and %d listed, want %d", s, len(p.Remote), tt.wantRemote)
			}
			if len(p.Conversations) != int(tt.wantConvs) {
				t.Errorf("previewed %d conversations, want %d", len(p.Conversations), tt.wantConvs)
			}
		})
	}
	if _, err := e.svc.Plan(ctx, purge.Selection{}); !errors.Is(err, purge.ErrEmptySelection) {
		t.Errorf("empty selection: err = %v, want ErrEmptySelection", err)
	}
	// Nothing was deleted, here or remotely, and nothing was queued.
	if calls := e.remote.counts(false); len(calls) != 0 {
		t.Errorf("dry runs called Foundry: %v", calls)
	}
	if _, err := e.db.Conversation(ctx, ana, a1.conv.ID); err != nil {
		t.Errorf("conversation after dry run: %v", err)
	}
	if !e.blobExists(a1.file.SHA256) || !e.blobExists(a1.artifact.SHA256) {
		t.Error("blob removed by a dry run")
	}
	if _, ok, _ := e.db.NextOutbox(ctx); ok {
		t.Error("dry run queued outbox entries")
	}
	if log := e.audit(t); len(log) != 0 {
		t.Errorf("dry run wrote the audit log: %v", log)
	}
}

func TestExecute_RetriesFailuresAndCountsNotFoundAsDone(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	ana := e.user(t, "ana")
	s := e.seed(t, ana, "x", "x data", "x chart")
	e.remote.fails["file:assistant-x"] = 3
	e.remote.fails["container_file:cntr_x/cfile_x"] = 1
	e.remote.gone["conversation:conv_x"] = true

	res, err := e.svc.Execute(ctx, "admin1", purge.Selection{ConversationIDs: []string{s.conv.ID}})
	if err != nil {
		t.Fatal(err)
	}
	// The local rows are gone when Execute returns, before any remote call.
	if _, err := e.db.Conversation(ctx, ana, s.conv.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("conversation after Execute: err = %v, want ErrNotFound", err)
	}
	if got := e.audit(t); !slices.Equal(got, []string{"admin1 purge started"}) {
		t.Errorf("audit before the remote work = %v", got)
	}
	e.drain(t)

	wantCalls := []string{"container_file:cntr_x/cfile_x=2", "conversation:conv_x=1", "file:assistant-x=4"}
	if got := e.remote.counts(false); !slices.Equal(got, wantCalls) {
		t.Errorf("calls = %v, want %v", got, wantCalls)
	}
	if e.blobExists(s.file.SHA256) || e.blobExists(s.artifact.SHA256) {
		t.Error("blobs left behind")
	}
	if got := e.audit(t); !slices.Equal(got, []string{"admin1 purge started", "admin1 purge completed"}) {
		t.Errorf("audit = %v", got)
	}
	p, err := e.db.PurgeProgress(ctx, res.PurgeID)
	if err != nil || p.Pending != 0 || p.Done != 6 {
		t.Errorf("progress = %+v, %v; want 0 pending, 6 done (1 conversation, 3 remote, 2 blobs)", p, err)
	}
}

func TestExecute_IsIdempotent(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	ana := e.user(t, "ana")
	s := e.seed(t, ana, "x", "x data", "x chart")
	sel := purge.Selection{UserID: ana}
	for range 2 {
		if _, err := e.svc.Execute(ctx, "admin1", sel); err != nil {
			t.Fatal(err)
		}
		e.drain(t)
	}
	// Queueing the same objects again, as a second worker or a restart
	// would, meets 404s and still completes.
	objs := []store.PurgeObject{{Kind: store.OutboxFoundryFile, Target: s.file.FoundryFileID},
		{Kind: store.OutboxFoundryConversation, Target: s.conv.FoundryConversationID},
		{Kind: store.OutboxBlob, Target: s.file.SHA256}}
	if _, err := e.svc.PurgeObjects(ctx, "admin1", objs); err != nil {
		t.Fatal(err)
	}
	e.drain(t)
	wantDeleted := []string{"container_file:cntr_x/cfile_x=1", "conversation:conv_x=1", "file:assistant-x=1"}
	if got := e.remote.counts(true); !slices.Equal(got, wantDeleted) {
		t.Errorf("deleted = %v, want %v", got, wantDeleted)
	}
	got := e.audit(t)
	want := []string{"admin1 purge started", "admin1 purge completed", "admin1 purge started", "admin1 purge completed",
		"admin1 purge_objects started", "admin1 purge_objects completed"}
	if !slices.Equal(got, want) {
		t.Errorf("audit = %v, want %v", got, want)
	}
}

func TestExecute_KeepsBlobsSharedWithRemainingRows(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	ana, bob := e.user(t, "ana"), e.user(t, "bob")
	// Ana's upload has the same bytes as Bob's chart, and both made the
	// same chart: each blob is shared by a file and an artifact or by two
	// artifacts across the two users.
	a := e.seed(t, ana, "a", "same bytes", "same chart")
	b := e.seed(t, bob, "b", "bob data", "same bytes")
	if _, err := e.svc.Execute(ctx, "admin1", purge.Selection{UserID: ana}); err != nil {
		t.Fatal(err)
	}
	e.drain(t)
	if !e.blobExists(a.file.SHA256) {
		t.Error("blob shared with Bob's artifact was removed")
	}
	if e.blobExists(a.artifact.SHA256) {
		t.Error("blob only Ana used was kept")
	}
	if _, err := e.svc.Execute(ctx, "admin1", purge.Selection{UserID: bob}); err != nil {
		t.Fatal(err)
	}
	e.drain(t)
	if e.blobExists(b.artifact.SHA256) || e.blobExists(b.file.SHA256) {
		t.Error("blobs left after their last row went")
	}
}

func TestDeleteConversation_OnlyTheOwners(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	ana, bob := e.user(t, "ana"), e.user(t, "bob")
	s := e.seed(t, ana, "x", "x data", "x chart")
	if err := e.svc.DeleteConversation(ctx, bob, s.conv.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Bob deleting Ana's conversation: err = %v, want ErrNotFound", err)
	}
	if err := e.svc.DeleteConversation(ctx, ana, s.conv.ID); err != nil {
		t.Fatal(err)
	}
	e.drain(t)
	if _, err := e.db.Conversation(ctx, ana, s.conv.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("conversation after delete: err = %v", err)
	}
	if got := e.remote.counts(true); len(got) != 3 {
		t.Errorf("remote deletions = %v, want 3", got)
	}
	want := []string{ana + " delete_conversation started", ana + " delete_conversation completed"}
	if got := e.audit(t); !slices.Equal(got, want) {
		t.Errorf("audit = %v, want %v", got, want)
	}
}

func TestRunRetention(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	ana := e.user(t, "ana")
	clock := time.Now().Add(-40 * 24 * time.Hour)
	e.db.Now = func() time.Time { return clock }
	old := e.seed(t, ana, "old", "old data", "old chart")
	clock = time.Now()
	recent := e.seed(t, ana, "new", "new data", "new chart")

	res, err := e.svc.RunRetention(ctx, 30)
	if err != nil || res.Summary.Conversations != 1 {
		t.Fatalf("RunRetention = %+v, %v; want 1 conversation", res, err)
	}
	e.drain(t)
	if _, err := e.db.Conversation(ctx, ana, old.conv.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("old conversation: err = %v, want ErrNotFound", err)
	}
	if _, err := e.db.Conversation(ctx, ana, recent.conv.ID); err != nil {
		t.Errorf("recent conversation: %v", err)
	}
	// A second pass finds nothing and says nothing.
	if res, err := e.svc.RunRetention(ctx, 30); err != nil || res.PurgeID != "" {
		t.Errorf("second RunRetention = %+v, %v; want no purge", res, err)
	}
	want := []string{"retention retention started", "retention retention completed"}
	if got := e.audit(t); !slices.Equal(got, want) {
		t.Errorf("audit = %v, want %v", got, want)
	}
}

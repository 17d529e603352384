package store_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/store"
)

// TestDB_PurgeQueuesTheResponses: a purged conversation's runs that made a
// Foundry response queue its deletion; a run that made none queues nothing.
// The dry run counts and lists them.
func TestDB_PurgeQueuesTheResponses(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	f := newPurgeFixture(t, db) // one running run each, with no response yet
	running, _, err := db.ActiveRuns(ctx, f.anaConv)
	if err != nil || running == "" {
		t.Fatalf("running run %q, %v", running, err)
	}
	if err := db.FinishRun(ctx, running, store.RunEnd{Status: store.RunCompleted, ResponseID: "resp_ana"}); err != nil {
		t.Fatal(err)
	}
	_, second, err := db.StartTurn(ctx, f.ana, f.anaConv, "second", "") // fails before any response
	if err != nil {
		t.Fatal(err)
	}
	if err := db.FinishRun(ctx, second.ID, store.RunEnd{Status: store.RunFailed}); err != nil {
		t.Fatal(err)
	}
	sel := store.PurgeSelection{ConversationIDs: []string{f.anaConv}}
	if s, err := db.PurgeSummary(ctx, sel); err != nil || s.FoundryResponses != 1 {
		t.Errorf("summary counts %d responses, %v; want 1", s.FoundryResponses, err)
	}
	preview, err := db.PurgeRemotePreview(ctx, sel, 50)
	if err != nil || !slices.Contains(preview, store.PurgeObject{Kind: store.OutboxFoundryResponse, Target: "resp_ana"}) {
		t.Errorf("preview %v, %v; want the response listed", preview, err)
	}
	if _, err := db.StartPurge(ctx, store.PurgeStart{Actor: "admin", Action: "purge", Selection: sel}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.PurgeConversations(ctx, "", 10); err != nil {
		t.Fatal(err)
	}
	due, err := db.DueOutbox(ctx, time.Now().Add(time.Hour), 100)
	if err != nil {
		t.Fatal(err)
	}
	var responses []string
	for _, e := range due {
		if e.Kind == store.OutboxFoundryResponse {
			responses = append(responses, e.Target)
		}
	}
	if !slices.Equal(responses, []string{"resp_ana"}) {
		t.Errorf("queued responses %v, want [resp_ana]", responses)
	}
}

// TestDB_AgentDeletion: queueing the deletion of an agent drops every
// record of its versions at once, the one in use too, and the deletion is
// pending until its entry is done.
func TestDB_AgentDeletion(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	for _, v := range []string{"1", "2"} {
		if err := db.RecordAgentVersion(ctx, "analyst", v); err != nil {
			t.Fatal(err)
		}
	}
	db.RecordAgentVersion(ctx, "other", "7")
	if v, err := db.AgentVersionInUse(ctx, "analyst"); v != "2" || err != nil {
		t.Fatalf("in use %q, %v; want 2", v, err)
	}
	if _, err := db.StartPurge(ctx, store.PurgeStart{Actor: "admin", Action: "delete_agent",
		Objects: []store.PurgeObject{{Kind: store.OutboxAgent, Target: "analyst"}}}); err != nil {
		t.Fatal(err)
	}
	if v, err := db.AgentVersionInUse(ctx, "analyst"); v != "" || err != nil {
		t.Errorf("in use after the deletion was queued: %q, %v; want none", v, err)
	}
	recs, _ := db.AgentVersionRecords(ctx)
	if len(recs) != 1 || recs[0].Name != "other" {
		t.Errorf("records %+v; want only the other agent's", recs)
	}
	pending, err := db.AgentDeletionPending(ctx, "analyst")
	if err != nil || !pending {
		t.Fatalf("pending = %v, %v; want true", pending, err)
	}
	if other, _ := db.AgentDeletionPending(ctx, "other"); other {
		t.Error("the other agent's deletion is pending")
	}
	due, _ := db.DueOutbox(ctx, time.Now().Add(time.Hour), 10)
	if len(due) != 1 || due[0].Kind != store.OutboxAgent || due[0].Target != "analyst" {
		t.Fatalf("due %+v", due)
	}
	if err := db.CompleteOutbox(ctx, due[0].ID, store.ResultDeleted); err != nil {
		t.Fatal(err)
	}
	if pending, _ := db.AgentDeletionPending(ctx, "analyst"); pending {
		t.Error("still pending once done")
	}
}

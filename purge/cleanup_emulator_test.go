package purge_test

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/emulator"
	"github.com/analyst-workbench/workbench/foundry"
	"github.com/analyst-workbench/workbench/purge"
	"github.com/analyst-workbench/workbench/store"
)

// The Code Interpreter article's clean-up, against the emulator's REST
// surface through the real client: the conversation's stored responses,
// and the agent with all its versions.

// emulated is a purge service whose Foundry is the emulator.
type emulated struct {
	*env
	client *foundry.Client
	svc    *purge.Service
}

func newEmulated(t *testing.T) *emulated {
	t.Helper()
	e := newEnv(t)
	emu, err := emulator.New(emulator.Config{Token: "t", DataDir: filepath.Join(e.dir, "engine"), Kernels: noKernels{}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(emu)
	t.Cleanup(func() { srv.Close(); emu.Close() })
	client, err := foundry.New(foundry.Config{Endpoint: srv.URL + "/api/projects/test", Credential: foundry.StaticToken("t"), MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	svc := purge.New(purge.Config{DB: e.db, Remote: client, Lister: client, Blobs: e.blobs, MinBackoff: time.Millisecond})
	return &emulated{env: e, client: client, svc: svc}
}

func (em *emulated) drain(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	must(t, em.svc.Drain(ctx))
}

// ensure makes (or finds) a version of agent "analyst" with instructions
// and records it in use, as chat does.
func (em *emulated) ensure(t *testing.T, instructions string) foundry.AgentVersion {
	t.Helper()
	ctx := context.Background()
	v, err := em.client.EnsureAgent(ctx, foundry.AgentSpec{Name: "analyst", Model: "m", Instructions: instructions})
	must(t, err)
	must(t, em.db.RecordAgentVersion(ctx, v.Name, v.Version))
	return v
}

// TestPurgeDeletesTheConversationsResponses: a purged conversation's
// stored responses are deleted too — the emulator, as the service, keeps a
// response readable by id after its conversation is gone.
func TestPurgeDeletesTheConversationsResponses(t *testing.T) {
	em := newEmulated(t)
	ctx := context.Background()
	v := em.ensure(t, "Answer briefly.")
	ana := em.user(t, "ana")
	c, err := em.db.CreateConversation(ctx, ana, "c")
	must(t, err)
	var ids []string
	for _, q := range []string{"first question", "second question"} {
		resp, err := em.client.CreateResponse(ctx, foundry.ResponseRequest{Agent: foundry.AgentRef{Name: v.Name, Version: v.Version}, Input: q})
		must(t, err)
		_, run, err := em.db.StartTurn(ctx, ana, c.ID, q, "")
		must(t, err)
		must(t, em.db.FinishRun(ctx, run.ID, store.RunEnd{Status: store.RunCompleted, ResponseID: resp.ID}))
		ids = append(ids, resp.ID)
	}
	if _, err := em.client.Response(ctx, ids[0]); err != nil {
		t.Fatalf("the response before the purge: %v", err)
	}
	plan, err := em.svc.Plan(ctx, purge.Selection{ConversationIDs: []string{c.ID}})
	must(t, err)
	if plan.Summary.FoundryResponses != 2 || !slices.ContainsFunc(plan.Remote, func(o store.PurgeObject) bool {
		return o.Kind == store.OutboxFoundryResponse && o.Target == ids[1]
	}) {
		t.Errorf("the dry run counts %d responses and lists %v; want both", plan.Summary.FoundryResponses, plan.Remote)
	}

	must(t, em.svc.DeleteConversation(ctx, ana, c.ID))
	em.drain(t)
	for _, id := range ids {
		if _, err := em.client.Response(ctx, id); !foundry.IsNotFound(err) {
			t.Errorf("GET /responses/%s after the purge: err = %v, want 404", id, err)
		}
	}
	if log := em.audit(t); len(log) != 2 || !strings.HasSuffix(log[1], "completed") {
		t.Errorf("audit = %v", log)
	}
}

// TestDeleteAgentDeletesEveryVersion: the admin's deletion of the agent
// lists its versions first, drops the app's records of them at once, and
// deletes the agent with every version through the outbox, audited.
func TestDeleteAgentDeletesEveryVersion(t *testing.T) {
	em := newEmulated(t)
	ctx := context.Background()
	em.ensure(t, "Answer briefly.")
	em.ensure(t, "Answer at length.") // a changed definition makes version 2

	d, err := em.svc.PlanAgentDeletion(ctx, "analyst")
	must(t, err)
	if d.Listing != purge.AgentListed || len(d.Versions) != 2 {
		t.Fatalf("plan: %s with %d versions, want both versions listed", d.Listing, len(d.Versions))
	}
	res, err := em.svc.DeleteAgent(ctx, "admin-id", "analyst")
	must(t, err)
	if v, err := em.db.AgentVersionInUse(ctx, "analyst"); err != nil || v != "" {
		t.Errorf("version in use after the deletion was queued: %q, %v; want none", v, err)
	}
	if pending, _ := em.db.AgentDeletionPending(ctx, "analyst"); !pending {
		t.Error("the deletion is not pending before the worker ran")
	}
	em.drain(t)
	if _, err := em.client.LatestAgentVersion(ctx, "analyst"); !foundry.IsNotFound(err) {
		t.Errorf("the agent after the deletion: err = %v, want 404", err)
	}
	if vs, err := em.client.AgentVersions(ctx, "analyst"); !foundry.IsNotFound(err) || len(vs) != 0 {
		t.Errorf("its versions after the deletion: %v, err = %v; want 404", vs, err)
	}
	if pending, _ := em.db.AgentDeletionPending(ctx, "analyst"); pending {
		t.Error("the deletion is still pending after the worker ran")
	}
	if log := em.audit(t); !slices.Equal(log, []string{"admin-id delete_agent started", "admin-id delete_agent completed"}) {
		t.Errorf("audit = %v", log)
	}
	if pr, err := em.db.PurgeProgress(ctx, res.PurgeID); err != nil || pr.Pending != 0 || pr.Done != 1 {
		t.Errorf("progress = %+v, %v", pr, err)
	}
	if d, _ := em.svc.PlanAgentDeletion(ctx, "analyst"); d.Listing != purge.AgentMissing {
		t.Errorf("a second plan says %s, want the agent missing", d.Listing)
	}
}

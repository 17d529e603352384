package handlers_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/emulator"
	"github.com/analyst-workbench/workbench/files"
	"github.com/analyst-workbench/workbench/foundry"
	"github.com/analyst-workbench/workbench/handlers"
	"github.com/analyst-workbench/workbench/purge"
	"github.com/analyst-workbench/workbench/store"
)

// The Code Interpreter article's "Code Interpreter doesn't run" and its
// clean-up, as the pages show them: a refused agent set-up on /readyz,
// /admin and in a question's answer; the agent's deletion from /admin.

// agentApp is the real handler stack with a chat service and a purge
// service whose Foundry is at endpoint, as cmd/web wires them.
type agentApp struct {
	*app
	turns  *chat.Service
	purger *purge.Service
	client *foundry.Client
}

func newAgentApp(t *testing.T, foundryAt http.Handler, model string) *agentApp {
	t.Helper()
	srv := httptest.NewServer(foundryAt)
	t.Cleanup(srv.Close)
	client, err := foundry.New(foundry.Config{Endpoint: srv.URL + "/api/projects/p", Credential: foundry.StaticToken("t"), MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	blobs, err := files.NewBlobs(filepath.Join(t.TempDir(), "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	var turns *chat.Service
	var purger *purge.Service
	a := newAppWith(t, func(cfg *handlers.Config) {
		turns = chat.New(chat.Config{DB: cfg.DB, Client: client, Files: blobs, AgentRetry: chat.AgentRetry{Refused: time.Hour},
			Agent: foundry.AgentSpec{Name: "workbench-analyst", Model: model}})
		cfg.Chat = turns
		purger = purge.New(purge.Config{DB: cfg.DB, Remote: client, Lister: client, Blobs: blobs, MinBackoff: time.Millisecond})
		cfg.Purge = purger
		cfg.Ready = map[string]handlers.ReadinessCheck{"agent": turns.Ready}
	})
	t.Cleanup(func() { turns.Shutdown(context.Background()) })
	return &agentApp{app: a, turns: turns, purger: purger, client: client}
}

// refusingFoundry knows no agent and refuses to create one: the model
// deployment is not in the project.
func refusingFoundry() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodGet {
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"error":{"code":"not_found","message":"no such agent"}}`))
			return
		}
		w.WriteHeader(http.StatusBadRequest)
		w.Write([]byte(`{"error":{"code":"invalid_model","message":"The model deployment gpt-nope was not found in this project."}}`))
	})
}

// awaitRunEnd waits until the run the page started has ended.
func (a *agentApp) awaitRunEnd(t *testing.T, r response) *store.Run {
	t.Helper()
	m := runIDAttr.FindStringSubmatch(r.body)
	if r.status != http.StatusOK || m == nil {
		t.Fatalf("question refused: %d %s", r.status, excerpt(r.body))
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		run, err := a.db.RunByID(context.Background(), m[1])
		if err != nil {
			t.Fatal(err)
		}
		if run.Status != store.RunRunning && run.Status != store.RunQueued {
			return run
		}
		if time.Now().After(deadline) {
			t.Fatal("the run did not end")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestAgentRefusedShowsWhy: a 400 to the agent's set-up makes /readyz fail
// with the service's status and message (and /healthz stay up), puts an
// alert at the top of /admin that says what to check, and tells an analyst
// who asks a question that the agent is misconfigured — not that the
// service could not be reached.
func TestAgentRefusedShowsWhy(t *testing.T) {
	a := newAgentApp(t, refusingFoundry(), "gpt-nope")
	var refused *chat.AgentMisconfiguredError
	if err := a.turns.EnsureAgent(context.Background()); !errors.As(err, &refused) {
		t.Fatalf("set-up: %v, want the refusal", err)
	}
	anon := a.browser()
	expect(t, anon.get("/healthz"), http.StatusOK, "ok")
	expect(t, anon.get("/readyz"), http.StatusServiceUnavailable,
		"agent: the agent could not be set up: 400 invalid_model: The model deployment gpt-nope was not found in this project.")

	admin := a.signedIn("root", store.RoleAdmin)
	expect(t, admin.get("/admin"), http.StatusOK, `data-testid="agent-failed"`,
		"The Foundry agent could not be set up: 400 invalid_model: The model deployment gpt-nope was not found in this project.",
		"FOUNDRY_MODEL_DEPLOYMENT", "Foundry User role", "tried again every hour")

	ana := a.signedIn("ana", store.RoleAnalyst)
	convID := ana.create()
	run := a.awaitRunEnd(t, ana.postHTMX("/conversations/"+convID+"/messages", url.Values{"content": {"How many rows?"}}))
	if run.Status != store.RunFailed {
		t.Errorf("run %s, want failed", run.Status)
	}
	page := ana.get("/conversations/" + convID)
	expect(t, page, http.StatusOK, "The agent is misconfigured", "An administrator can see why on /admin.")
	if strings.Contains(page.body, "could not be reached") {
		t.Error("the analyst is told the service could not be reached")
	}
}

// plainKernels refuses to run code: these questions need none.
type plainKernels struct{}

func (plainKernels) Session(context.Context, string) (emulator.Kernel, error) {
	return nil, errors.New("no code in these tests")
}

// TestDeleteAgentFromAdmin: the admin's "Delete the Foundry agent" names
// the agent and its versions and says that the next question recreates
// it; confirmed, it deletes every version in the emulator through the
// outbox, audited, and the next question sets the agent up again.
func TestDeleteAgentFromAdmin(t *testing.T) {
	emu, err := emulator.New(emulator.Config{Token: "t", DataDir: t.TempDir(), Kernels: plainKernels{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { emu.Close() })
	a := newAgentApp(t, emu, "local")
	ctx := context.Background()
	if err := a.turns.EnsureAgent(ctx); err != nil {
		t.Fatal(err)
	}
	admin := a.signedIn("root", store.RoleAdmin)
	expect(t, admin.get("/admin"), http.StatusOK, `data-testid="agent-line"`, "workbench-analyst", `href="/admin/agent/delete"`)
	expect(t, admin.get("/admin/agent/delete"), http.StatusOK, "workbench-analyst:1", "1 version",
		"The next question sets the agent up again", `action="/admin/agent/delete"`)

	r := admin.post("/admin/agent/delete", nil)
	if r.status != http.StatusSeeOther || !strings.HasPrefix(r.location, "/admin/purges/") {
		t.Fatalf("delete: %d → %q", r.status, r.location)
	}
	drainOutbox(t, a.purger)
	if _, err := a.client.LatestAgentVersion(ctx, "workbench-analyst"); !foundry.IsNotFound(err) {
		t.Fatalf("the agent after its deletion: %v, want 404", err)
	}
	page := admin.get("/admin")
	expect(t, page, http.StatusOK, `data-testid="agent-removed"`, "delete agent", "completed")
	if err := a.turns.Ready(ctx); err != nil {
		t.Errorf("/readyz's agent check after a deliberate deletion: %v", err)
	}

	ana := a.signedIn("ana", store.RoleAnalyst)
	convID := ana.create()
	run := a.awaitRunEnd(t, ana.postHTMX("/conversations/"+convID+"/messages", url.Values{"content": {"hello"}}))
	if run.Status != store.RunCompleted {
		t.Fatalf("the question after the deletion: %s %q", run.Status, run.Error)
	}
	v, err := a.client.LatestAgentVersion(ctx, "workbench-analyst")
	if err != nil {
		t.Fatalf("the agent was not set up again: %v", err)
	}
	if inUse, _ := a.db.AgentVersionInUse(ctx, "workbench-analyst"); inUse != v.Version {
		t.Errorf("version in use %q, the agent's is %q", inUse, v.Version)
	}
}

// drainOutbox works the purge outbox until nothing is pending.
func drainOutbox(t *testing.T, p *purge.Service) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := p.Drain(ctx); err != nil {
		t.Fatal(err)
	}
}

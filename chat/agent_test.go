package chat_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/emulator"
	"github.com/analyst-workbench/workbench/files"
	"github.com/analyst-workbench/workbench/foundry"
	"github.com/analyst-workbench/workbench/store"
)

// fakeFoundry answers the agents routes only: the agent does not exist,
// and creating a version gets the status it is set to (a version when
// 200). It counts the creations.
type fakeFoundry struct {
	mu      sync.Mutex
	status  int
	creates int
	// waits are the service's own words on each failed set-up: how long it
	// waits before the next try (its log line "trying again", in).
	waits []time.Duration
}

// Enabled, WithAttrs, WithGroup and Handle make the fake the service's log
// handler too, keeping the waits it announces.
func (f *fakeFoundry) Enabled(context.Context, slog.Level) bool { return true }
func (f *fakeFoundry) WithAttrs([]slog.Attr) slog.Handler       { return f }
func (f *fakeFoundry) WithGroup(string) slog.Handler            { return f }
func (f *fakeFoundry) Handle(_ context.Context, r slog.Record) error {
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "in" {
			f.mu.Lock()
			f.waits = append(f.waits, a.Value.Duration())
			f.mu.Unlock()
		}
		return true
	})
	return nil
}

// waited reports whether the service has announced a wait of d.
func (f *fakeFoundry) waited(d time.Duration) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Contains(f.waits, d)
}

func (f *fakeFoundry) set(status int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.status = status
}

func (f *fakeFoundry) created() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.creates
}

func (f *fakeFoundry) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	if r.Method == http.MethodGet {
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"error":{"code":"not_found","message":"Agent 'analyst' not found."}}`))
		return
	}
	f.mu.Lock()
	f.creates++
	status := f.status
	f.mu.Unlock()
	w.Header().Set("apim-request-id", "req-7")
	w.WriteHeader(status)
	switch status {
	case http.StatusOK:
		w.Write([]byte(`{"object":"agent.version","name":"analyst","version":"1","definition":{"kind":"prompt","model":"gpt-nope"}}`))
	case http.StatusBadRequest:
		w.Write([]byte(`{"error":{"code":"invalid_model","message":"The model deployment 'gpt-nope' was not found in this project."}}`))
	default:
		w.Write([]byte(`{"error":{"code":"server_error","message":"Try again."}}`))
	}
}

// newServiceOn is a chat service whose Foundry is f, with retry pacing.
func newServiceOn(t *testing.T, f *fakeFoundry, retry chat.AgentRetry) (*chat.Service, *store.DB) {
	t.Helper()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	client, err := foundry.New(foundry.Config{Endpoint: srv.URL + "/api/projects/p", Credential: foundry.StaticToken("t"), MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	db := openSQLite(t, filepath.Join(dir, "app.db"))
	blobs, err := files.NewBlobs(filepath.Join(dir, "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	svc := chat.New(chat.Config{DB: db, Client: client, Files: blobs, AgentRetry: retry, Logger: slog.New(f),
		Agent: foundry.AgentSpec{Name: "analyst", Model: "gpt-nope"}})
	t.Cleanup(func() { svc.Shutdown(context.Background()) })
	return svc, db
}

// setUpInBackground runs SetUpAgent until the test ends.
func setUpInBackground(t *testing.T, svc *chat.Service) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); svc.SetUpAgent(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
}

// waitForAgent waits until the agent's state is want.
func waitForAgent(t *testing.T, svc *chat.Service, want chat.AgentStatus) chat.AgentState {
	t.Helper()
	var st chat.AgentState
	waitFor(t, func() bool {
		st, _ = svc.Agent(context.Background())
		return st.Status == want
	})
	return st
}

// TestAgentRefusalIsKeptNotRetried: a 400 to the agent's creation is not
// tried again at the pace of a passing failure: it is kept, with the
// service's status, code and message, and /readyz's check says it.
func TestAgentRefusalIsKeptNotRetried(t *testing.T) {
	f := &fakeFoundry{status: http.StatusBadRequest}
	svc, _ := newServiceOn(t, f, chat.AgentRetry{First: time.Millisecond, Max: 2 * time.Millisecond, Refused: time.Hour})
	setUpInBackground(t, svc)
	st := waitForAgent(t, svc, chat.AgentFailed)
	// Once the service has said it waits the refused interval, no try can
	// come before it: the count is final.
	waitFor(t, func() bool { return f.waited(time.Hour) })
	if n := f.created(); n != 1 {
		t.Errorf("%d creations after a 400, want 1", n)
	}
	if st.Failure == nil || st.Failure.HTTPStatus != 400 || st.Failure.Code != "invalid_model" ||
		!strings.Contains(st.Failure.Message, "'gpt-nope' was not found") || st.Failure.RequestID != "req-7" {
		t.Errorf("failure kept: %+v", st.Failure)
	}
	if st.Name != "analyst" || st.Model != "gpt-nope" || st.Retry != time.Hour {
		t.Errorf("state %+v", st)
	}
	err := svc.Ready(context.Background())
	if err == nil || !strings.Contains(err.Error(), "400 invalid_model: The model deployment 'gpt-nope' was not found") {
		t.Errorf("Ready = %v, want the refusal with status, code and message", err)
	}
}

// TestAgentPassingFailureIsRetried: a 5xx keeps being tried at the short
// doubling wait, and the state stays pending with the latest trouble.
func TestAgentPassingFailureIsRetried(t *testing.T) {
	f := &fakeFoundry{status: http.StatusServiceUnavailable}
	svc, _ := newServiceOn(t, f, chat.AgentRetry{First: time.Millisecond, Max: 2 * time.Millisecond, Refused: time.Hour})
	setUpInBackground(t, svc)
	waitFor(t, func() bool { return f.created() >= 3 })
	if n := f.created(); n < 3 {
		t.Fatalf("%d creations after 503s, want the set-up tried again", n)
	}
	st, _ := svc.Agent(context.Background())
	if st.Status != chat.AgentPending || st.Failure == nil || st.Failure.HTTPStatus != 503 {
		t.Errorf("state %s, failure %+v; want pending with the 503", st.Status, st.Failure)
	}
	if err := svc.Ready(context.Background()); err == nil || !strings.Contains(err.Error(), "not set up yet") {
		t.Errorf("Ready = %v", err)
	}
}

// TestAgentRefusalFixedIsPickedUp: the refused set-up is tried again at the
// long interval, so a configuration fixed meanwhile makes the agent ready.
func TestAgentRefusalFixedIsPickedUp(t *testing.T) {
	f := &fakeFoundry{status: http.StatusForbidden}
	svc, db := newServiceOn(t, f, chat.AgentRetry{First: time.Millisecond, Refused: 100 * time.Millisecond})
	setUpInBackground(t, svc)
	waitForAgent(t, svc, chat.AgentFailed)
	f.set(http.StatusOK) // the app's identity was given the Foundry User role
	st := waitForAgent(t, svc, chat.AgentReady)
	if st.Version != "1" || st.Failure != nil {
		t.Errorf("state %+v", st)
	}
	if v, err := db.AgentVersionInUse(context.Background(), "analyst"); v != "1" || err != nil {
		t.Errorf("version in use %q, %v", v, err)
	}
	if err := svc.Ready(context.Background()); err != nil {
		t.Errorf("Ready = %v", err)
	}
}

// TestQuestionWhileAgentRefusedSaysMisconfigured: a question asked while
// the set-up is refused fails at once, without asking Foundry again, with
// words that say the agent is misconfigured and where to see why.
func TestQuestionWhileAgentRefusedSaysMisconfigured(t *testing.T) {
	f := &fakeFoundry{status: http.StatusBadRequest}
	svc, db := newServiceOn(t, f, chat.AgentRetry{Refused: time.Hour})
	if err := svc.EnsureAgent(context.Background()); err == nil {
		t.Fatal("the set-up succeeded against a 400")
	}
	ctx := context.Background()
	u, _ := db.CreateUser(ctx, "ana", "h", store.RoleAnalyst, nil)
	c, _ := db.CreateConversation(ctx, u.ID, store.DefaultTitle)
	e := &env{svc: svc, db: db, userID: u.ID, convID: c.ID}
	a, rec := e.wait(t, e.start(t, "How many rows?"))
	if rec.Status != store.RunFailed || !strings.Contains(a.Error, "The agent is misconfigured") ||
		!strings.Contains(a.Error, "400 invalid_model") || !strings.Contains(a.Error, "An administrator can see why on /admin.") ||
		strings.Contains(a.Error, "could not be reached") {
		t.Errorf("status %s, error %q", rec.Status, a.Error)
	}
	if n := f.created(); n != 1 {
		t.Errorf("%d creations: the question asked Foundry again within a minute of the refusal", n)
	}
}

// TestEmulatorRehearsesCodeInterpreterNotRunning: the local engine refuses
// the agent as the service does when its model deployment is unknown or
// cannot run the Code Interpreter tool; the refusal is kept, and a question
// is told the agent is misconfigured.
func TestEmulatorRehearsesCodeInterpreterNotRunning(t *testing.T) {
	for name, tc := range map[string]struct {
		configure func(*emulator.Config)
		want      string
	}{
		"unknown deployment":  {func(c *emulator.Config) { c.Deployments = []string{"gpt-4.1"} }, "400 invalid_model"},
		"no code interpreter": {func(c *emulator.Config) { c.WithoutCodeInterpreter = []string{"local"} }, "400 code_interpreter_not_configured"},
	} {
		t.Run(name, func(t *testing.T) {
			e := newEnvOpts(t, envOptions{emulator: tc.configure, agentRefused: true})
			st, err := e.svc.Agent(context.Background())
			if err != nil || st.Status != chat.AgentFailed || !strings.HasPrefix(st.Failure.String(), tc.want) {
				t.Fatalf("agent %s, failure %+v, %v; want failed with %s", st.Status, st.Failure, err, tc.want)
			}
			a, rec := e.wait(t, e.start(t, python("print(1)")))
			if rec.Status != store.RunFailed || !strings.Contains(a.Error, "The agent is misconfigured") || !strings.Contains(a.Error, tc.want) {
				t.Errorf("status %s, error %q", rec.Status, a.Error)
			}
		})
	}
}

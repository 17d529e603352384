package chat_test

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/emulator"
	"github.com/analyst-workbench/workbench/files"
	"github.com/analyst-workbench/workbench/foundry"
	"github.com/analyst-workbench/workbench/internal/pgtest"
	"github.com/analyst-workbench/workbench/migrations"
	"github.com/analyst-workbench/workbench/store"
)

// replicas are chat services sharing one PostgreSQL database, one blob
// store and one engine, as web replicas behind a load balancer do; each
// has its own hub and runs.
type replicas struct {
	db     *store.DB
	userID string
	convID string
	newSvc func(name string) *chat.Service
}

func newReplicas(t *testing.T, lease time.Duration) *replicas {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.OpenPostgres(ctx, pgtest.Shared(t).Database(t, ""), migrations.Postgres, store.PostgresOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	emu, err := emulator.New(emulator.Config{Token: "t", DataDir: filepath.Join(dir, "engine"), Kernels: emulator.SandboxKernels{Pool: pool}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(emu)
	t.Cleanup(func() { srv.Close(); emu.Close() })
	client, err := foundry.New(foundry.Config{Endpoint: srv.URL + "/api/projects/test", Credential: foundry.StaticToken("t"), MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	blobs, err := files.NewBlobs(filepath.Join(dir, "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	u, _ := db.CreateUser(ctx, "ana", "h", store.RoleAnalyst, nil)
	c, _ := db.CreateConversation(ctx, u.ID, store.DefaultTitle)
	return &replicas{db: db, userID: u.ID, convID: c.ID, newSvc: func(name string) *chat.Service {
		svc := chat.New(chat.Config{DB: db, Client: client, Files: blobs, Replica: name, LeaseTerm: lease,
			Agent: foundry.AgentSpec{Name: "analyst", Model: "local"}})
		if err := svc.EnsureAgent(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { svc.Shutdown(context.Background()) })
		return svc
	}}
}

// storedEvents waits until the run has at least n stored events and
// returns them.
func (rs *replicas) storedEvents(t *testing.T, runID string, n int, within time.Duration) []store.RunEvent {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		evs, err := rs.db.RunEvents(context.Background(), runID, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(evs) >= n {
			return evs
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d events stored after %s, want %d", len(evs), within, n)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestAdoptRunOfAStoppedReplica: a replica that stops mid-turn leaves the
// run to another, which reads the service's response on from where the
// first one was: the answer ends completed, every line the cell printed
// once and in order, the events numbered with no gap and no repeat.
func TestAdoptRunOfAStoppedReplica(t *testing.T) {
	rs := newReplicas(t, 2*time.Second)
	ctx := context.Background()
	first, second := rs.newSvc("replica-1"), rs.newSvc("replica-2")
	code := "import time\nfor i in range(8):\n    print('line', i, flush=True)\n    time.sleep(0.4)\n"
	_, run, err := first.Start(ctx, chat.Turn{UserID: rs.userID, ConversationID: rs.convID, Content: python(code)})
	if err != nil {
		t.Fatal(err)
	}
	// Wait until the cell has printed a little, then stop the replica
	// that drives the run, as a rolling deploy does.
	deadline := time.Now().Add(60 * time.Second)
	for {
		a, err := first.Answer(ctx, rs.userID, rs.convID, run.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(a.Cells) > 0 && strings.Contains(a.Cells[0].Logs, "line 1") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the cell never printed")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := first.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	rec, err := rs.db.Run(ctx, rs.userID, rs.convID, run.ID)
	if err != nil || rec.Status != store.RunRunning {
		t.Fatalf("after the first replica stopped: %+v, %v; want still running", rec, err)
	}
	waitFinished(t, rs.db, rs.userID, rs.convID, run.ID, 60*time.Second)
	a, err := second.Answer(ctx, rs.userID, rs.convID, run.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := ""
	for i := range 8 {
		want += "line " + string(rune('0'+i)) + "\n"
	}
	if a.Status != store.RunCompleted || len(a.Cells) != 1 || a.Cells[0].Logs != want {
		t.Fatalf("adopted answer: status %q, %d cells, logs %q; want completed, one cell, %q", a.Status, len(a.Cells), logsOf(a), want)
	}
	evs := rs.storedEvents(t, run.ID, 1, time.Second)
	for i, e := range evs {
		if e.Seq != int64(i+1) {
			t.Fatalf("event %d has seq %d: a gap or a repeat", i+1, e.Seq)
		}
	}
	if last := evs[len(evs)-1]; last.Type != string(chat.EventDone) {
		t.Fatalf("last event %s, want done", last.Type)
	}
}

// TestAdoptRunWithoutResponse: a run whose replica stopped before the
// service had a response is ended by its adopter with a message that says
// to ask again, never left running.
func TestAdoptRunWithoutResponse(t *testing.T) {
	rs := newReplicas(t, time.Second)
	ctx := context.Background()
	// A run recorded and claimed by a replica that died at once.
	_, run, err := rs.db.StartTurn(ctx, rs.userID, rs.convID, "How many rows?", "Rows")
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := rs.db.ClaimRun(ctx, run.ID, "gone", time.Now().Add(time.Second)); err != nil || !ok {
		t.Fatalf("claim: %v %v", ok, err)
	}
	svc := rs.newSvc("replica-2")
	rec := waitFinished(t, rs.db, rs.userID, rs.convID, run.ID, 30*time.Second)
	if rec.Status != store.RunFailed || !strings.Contains(rec.Error, "Ask again") {
		t.Fatalf("orphan without response: %s %q", rec.Status, rec.Error)
	}
	_ = svc
}

func waitFinished(t *testing.T, db *store.DB, userID, convID, runID string, within time.Duration) *store.Run {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		rec, err := db.Run(context.Background(), userID, convID, runID)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Done() {
			return rec
		}
		if time.Now().After(deadline) {
			t.Fatalf("run still %s after %s", rec.Status, within)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func logsOf(a *chat.Answer) []string {
	var out []string
	for _, c := range a.Cells {
		out = append(out, c.Logs)
	}
	return out
}

// TestStrandedQueuedQuestionEnds: a question a dead replica held waiting
// behind a stopped answer is ended, as not started, by another replica
// once that answer has been over for a lease, and its followers are told.
func TestStrandedQueuedQuestionEnds(t *testing.T) {
	rs := newReplicas(t, time.Second)
	ctx := context.Background()
	_, stopped, err := rs.db.StartTurn(ctx, rs.userID, rs.convID, "first", "")
	if err != nil {
		t.Fatal(err)
	}
	_, queued, err := rs.db.QueueTurn(ctx, rs.userID, rs.convID, "second", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := rs.db.FinishRun(ctx, stopped.ID, store.RunEnd{Status: store.RunCancelled}); err != nil {
		t.Fatal(err)
	}
	rs.newSvc("replica-2")
	rec := waitFinished(t, rs.db, rs.userID, rs.convID, queued.ID, 30*time.Second)
	if rec.Status != store.RunInterrupted || rec.Error != store.NotStarted {
		t.Fatalf("stranded question: %s %q", rec.Status, rec.Error)
	}
	evs := rs.storedEvents(t, queued.ID, 2, 10*time.Second)
	if last := evs[len(evs)-1]; last.Type != string(chat.EventDone) {
		t.Fatalf("last event of the stranded question: %s, want done", last.Type)
	}
}

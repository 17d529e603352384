package store_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/analyst-workbench/workbench/migrations"
	"github.com/analyst-workbench/workbench/store"
)

// TestQueuedTurn: a question queued behind a running turn waits (one at a
// time), keeps later questions out, is not the run the running turn's
// answer belongs to, and runs once promoted after that turn ended.
func TestQueuedTurn(t *testing.T) {
	db := openDB(t)
	db.Now = fakeClock()
	ctx := context.Background()
	u, _ := db.CreateUser(ctx, "ana", "h", store.RoleAnalyst, nil)
	c, _ := db.CreateConversation(ctx, u.ID, store.DefaultTitle)
	_, first, err := db.StartTurn(ctx, u.ID, c.ID, "first", "")
	if err != nil {
		t.Fatal(err)
	}
	_, queued, err := db.QueueTurn(ctx, u.ID, c.ID, "second", "")
	if err != nil || queued.Status != store.RunQueued || queued.Done() {
		t.Fatalf("QueueTurn: %+v, %v", queued, err)
	}
	if _, _, err := db.QueueTurn(ctx, u.ID, c.ID, "third", ""); err != store.ErrRunInProgress {
		t.Fatalf("a second queued question: %v, want ErrRunInProgress", err)
	}
	if running, waiting, err := db.ActiveRuns(ctx, c.ID); err != nil || running != first.ID || waiting != queued.ID {
		t.Fatalf("ActiveRuns = %q, %q, %v", running, waiting, err)
	}
	if _, err := db.PromoteQueued(ctx, c.ID); err != store.ErrRunInProgress {
		t.Fatalf("promote while the first runs: %v, want ErrRunInProgress", err)
	}
	if err := db.FinishRun(ctx, first.ID, store.RunEnd{Status: store.RunCancelled, Answer: "Zirconium so far."}); err != nil {
		t.Fatal(err)
	}
	if a := searchFor(t, db, u.ID, "zirconium")[c.ID].Anchor; a != "run-"+first.ID {
		t.Errorf("the stopped answer's anchor %q, want run-%s (not the queued run's)", a, first.ID)
	}
	// The queued question goes first: a question asked now is refused.
	if _, _, err := db.StartTurn(ctx, u.ID, c.ID, "jumps the line", ""); err != store.ErrRunInProgress {
		t.Fatalf("StartTurn with a question waiting: %v, want ErrRunInProgress", err)
	}
	turn, err := db.PromoteQueued(ctx, c.ID)
	if err != nil || turn.Run.ID != queued.ID || turn.Run.Status != store.RunRunning || turn.Message.Content != "second" {
		t.Fatalf("PromoteQueued = %+v, %v", turn, err)
	}
	if !turn.Run.StartedAt.After(queued.StartedAt) {
		t.Errorf("promoted run started %v, not after it was queued (%v)", turn.Run.StartedAt, queued.StartedAt)
	}
	if _, err := db.PromoteQueued(ctx, c.ID); err != store.ErrNotFound {
		t.Fatalf("promote with nothing queued: %v, want ErrNotFound", err)
	}
	if ended, err := db.EndQueued(ctx, queued.ID, store.RunCancelled, "x"); err != nil || ended {
		t.Fatalf("EndQueued on a started run = %v, %v; want false", ended, err)
	}
}

// TestQueuedTurnEndsBeforeItStarts: a queued question taken back ends
// without starting, and InterruptRuns says a waiting one never started.
func TestQueuedTurnEndsBeforeItStarts(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	u, _ := db.CreateUser(ctx, "ana", "h", store.RoleAnalyst, nil)
	c, _ := db.CreateConversation(ctx, u.ID, store.DefaultTitle)
	db.StartTurn(ctx, u.ID, c.ID, "first", "")
	_, q, _ := db.QueueTurn(ctx, u.ID, c.ID, "second", "")
	if ended, err := db.EndQueued(ctx, q.ID, store.RunCancelled, "taken back"); err != nil || !ended {
		t.Fatalf("EndQueued = %v, %v", ended, err)
	}
	_, q2, err := db.QueueTurn(ctx, u.ID, c.ID, "third", "")
	if err != nil {
		t.Fatal(err)
	}
	if n, err := db.InterruptRuns(ctx); err != nil || n != 2 {
		t.Fatalf("InterruptRuns = %d, %v; want the running and the queued run", n, err)
	}
	r, _ := db.RunByID(ctx, q2.ID)
	if r.Status != store.RunInterrupted || r.Error != store.NotStarted {
		t.Fatalf("queued run after a restart: %s %q", r.Status, r.Error)
	}
}

// TestQueuedMigrationKeepsRuns upgrades a database with runs, events and
// artifacts to the rebuilt runs table: nothing that hangs off a run is lost,
// and the one-running rule still holds.
func TestQueuedMigrationKeepsRuns(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "app.db")
	old, err := store.Open(ctx, path, migrationsBefore(t, "0014"), nil)
	if err != nil {
		t.Fatal(err)
	}
	u, _ := old.CreateUser(ctx, "ana", "h", store.RoleAnalyst, nil)
	c, _ := old.CreateConversation(ctx, u.ID, "Metals")
	_, done, _ := old.StartTurn(ctx, u.ID, c.ID, "What about vanadium?", "")
	old.AppendRunEvent(ctx, done.ID, store.RunEvent{Seq: 1, Type: "code_done", Data: `{"cell_id":"c1","text":"df.pivot_table()"}`})
	old.FinishRun(ctx, done.ID, store.RunEnd{Status: store.RunCompleted, Answer: "Molybdenum leads."})
	_, live, _ := old.StartTurn(ctx, u.ID, c.ID, "and now?", "")
	old.Close()

	db, err := store.Open(ctx, path, migrations.FS, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if ev, err := db.RunEvents(ctx, done.ID, 0); err != nil || len(ev) != 1 {
		t.Fatalf("events after the upgrade: %v, %v", ev, err)
	}
	if r, err := db.Run(ctx, u.ID, c.ID, live.ID); err != nil || r.Status != store.RunRunning {
		t.Fatalf("running run after the upgrade: %+v, %v", r, err)
	}
	if _, _, err := db.StartTurn(ctx, u.ID, c.ID, "third", ""); err != store.ErrRunInProgress {
		t.Fatalf("StartTurn beside a running run after the upgrade: %v", err)
	}
	if _, err := db.PromoteQueued(ctx, c.ID); err != store.ErrNotFound {
		t.Fatalf("PromoteQueued: %v", err)
	}
	if h := searchFor(t, db, u.ID, "pivot_table")[c.ID]; h.Kind != store.SearchCode {
		t.Errorf("code hit after the upgrade: %+v", h)
	}
	// Foreign keys are on again: deleting the conversation takes its runs.
	if err := db.DeleteConversation(ctx, u.ID, c.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.RunByID(ctx, done.ID); err != store.ErrNotFound {
		t.Fatalf("run of a deleted conversation: %v, want ErrNotFound", err)
	}
	db.SearchDocuments(t)
}

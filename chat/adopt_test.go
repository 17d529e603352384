package chat_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/store"
)

// withLease gives both servers of a sharedEnv a short lease, so that a run
// left by one is adopted by the other within seconds.
func withLease(term time.Duration) envOptions {
	return envOptions{service: func(c *chat.Config) { c.LeaseTerm = term }}
}

// TestAdoptRunOfAStoppedReplica: a replica that stops mid-turn leaves the
// run to another, which reads the service's response on from where the
// first one was: the answer ends completed, every line the cell printed
// once and in order, the events numbered with no gap and no repeat.
func TestAdoptRunOfAStoppedReplica(t *testing.T) {
	s := newSharedEnvOpts(t, withLease(2*time.Second))
	ctx := context.Background()
	code := "import time\nfor i in range(8):\n    print('line', i, flush=True)\n    time.sleep(0.4)\n"
	run := s.start(t, python(code))
	// Wait until the cell has printed a little, then stop the replica
	// that drives the run, as a rolling deploy does.
	waitAnswer(t, s.env, run.ID, func(a *chat.Answer) bool {
		return len(a.Cells) > 0 && strings.Contains(a.Cells[0].Logs, "line 1")
	})
	if err := s.svc.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if rec, err := s.db.RunByID(ctx, run.ID); err != nil || rec.Status != store.RunRunning {
		t.Fatalf("after the first replica stopped: %+v, %v; want still running", rec, err)
	}
	waitEnded(t, s.db, run.ID, store.RunCompleted, time.Minute)
	a, err := s.two.Answer(ctx, s.userID, s.convID, run.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := ""
	for i := range 8 {
		want += "line " + string(rune('0'+i)) + "\n"
	}
	if len(a.Cells) != 1 || a.Cells[0].Logs != want {
		t.Fatalf("adopted answer: %d cells, logs %q; want one cell, %q", len(a.Cells), logsOf(a), want)
	}
	evs, err := s.db.RunEvents(ctx, run.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
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
	s := newSharedEnvOpts(t, withLease(time.Second))
	ctx := context.Background()
	// A run recorded and claimed by a replica that died at once.
	_, run, err := s.db.StartTurn(ctx, s.userID, s.convID, "How many rows?", "Rows")
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := s.db.ClaimRun(ctx, run.ID, "gone", time.Now().Add(time.Second)); err != nil || !ok {
		t.Fatalf("claim: %v %v", ok, err)
	}
	waitEnded(t, s.db, run.ID, store.RunFailed, 30*time.Second)
	if rec, _ := s.db.RunByID(ctx, run.ID); !strings.Contains(rec.Error, "Ask again") {
		t.Fatalf("orphan without response ended %q, want a message to ask again", rec.Error)
	}
}

// TestStrandedQueuedQuestionEnds: a question a dead replica held waiting
// behind a stopped answer is ended, as not started, by another replica
// once that answer has been over for a lease, and its followers are told.
func TestStrandedQueuedQuestionEnds(t *testing.T) {
	s := newSharedEnvOpts(t, withLease(time.Second))
	ctx := context.Background()
	_, stopped, err := s.db.StartTurn(ctx, s.userID, s.convID, "first", "")
	if err != nil {
		t.Fatal(err)
	}
	_, queued, err := s.db.QueueTurn(ctx, s.userID, s.convID, "second", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.db.FinishRun(ctx, stopped.ID, store.RunEnd{Status: store.RunCancelled}); err != nil {
		t.Fatal(err)
	}
	waitEnded(t, s.db, queued.ID, store.RunInterrupted, 30*time.Second)
	if rec, _ := s.db.RunByID(ctx, queued.ID); rec.Error != store.NotStarted {
		t.Fatalf("stranded question ended %q, want %q", rec.Error, store.NotStarted)
	}
	f := s.followTwo(t, queued.ID, 0) // ends with done, or fails
	if len(f.events) < 2 {
		t.Fatalf("the stranded question's followers were told %d events, want its error and done", len(f.events))
	}
}

func logsOf(a *chat.Answer) []string {
	var out []string
	for _, c := range a.Cells {
		out = append(out, c.Logs)
	}
	return out
}

package chat_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/store"
)

// slowCancel holds every cancel of a response at the service until release
// is called (or a minute has passed), as a service that takes its time to
// confirm a stop does.
type slowCancel struct {
	once sync.Once
	gate chan struct{}
}

func newSlowCancel() *slowCancel { return &slowCancel{gate: make(chan struct{})} }

func (s *slowCancel) release() { s.once.Do(func() { close(s.gate) }) }

func (s *slowCancel) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/cancel") {
			select {
			case <-s.gate:
			case <-time.After(time.Minute):
			case <-r.Context().Done():
			}
		}
		next.ServeHTTP(w, r)
	})
}

// stoppingEnv starts a turn whose cell sleeps, waits until the cell runs,
// and stops it; the service's confirmation is held until the returned
// slowCancel is released.
func stoppingEnv(t *testing.T) (*env, *store.Run, *slowCancel) {
	t.Helper()
	slow := newSlowCancel()
	t.Cleanup(slow.release)
	e := newEnvOpts(t, envOptions{wrap: slow.wrap})
	first := e.start(t, python("import time\nprint('first', flush=True)\ntime.sleep(60)"))
	waitForCell(t, e, first)
	if err := e.svc.Cancel(context.Background(), e.userID, e.convID, first.ID); err != nil {
		t.Fatal(err)
	}
	return e, first, slow
}

// waitAnswer polls a run's answer until ok holds, for up to a minute.
func waitAnswer(t *testing.T, e *env, runID string, ok func(*chat.Answer) bool) *chat.Answer {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		a, err := e.svc.Answer(context.Background(), e.userID, e.convID, runID)
		if err == nil && ok(a) {
			return a
		}
		if time.Now().After(deadline) {
			t.Fatalf("answer of %s never got there: %+v, %v", runID, a, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestQuestionAfterStopWaitsThenRuns: Stop, then a question at once, while
// the service has not yet confirmed the stop: the question is accepted,
// queued and shown as waiting, and answered once the stopped turn ends.
func TestQuestionAfterStopWaitsThenRuns(t *testing.T) {
	e, first, slow := stoppingEnv(t)
	ctx := context.Background()
	_, next, err := e.svc.Start(ctx, chat.Turn{UserID: e.userID, ConversationID: e.convID, Content: python("print('second', 6 * 7)")})
	if err != nil {
		t.Fatalf("a question right after Stop: %v, want it accepted", err)
	}
	if next.Status != store.RunQueued {
		t.Fatalf("question after Stop: %s, want queued", next.Status)
	}
	if rec, _ := e.db.RunByID(ctx, first.ID); rec.Status != store.RunRunning {
		t.Fatalf("the stopped run is %s while its stop is unconfirmed, want still running", rec.Status)
	}
	waitAnswer(t, e, next.ID, func(a *chat.Answer) bool { return a.Progress == chat.WaitingForStop })
	// A third question while one waits is refused, saying why.
	if _, _, err := e.svc.Start(ctx, chat.Turn{UserID: e.userID, ConversationID: e.convID, Content: "third"}); !errors.Is(err, chat.ErrAlreadyWaiting) {
		t.Fatalf("a question while one waits: %v, want ErrAlreadyWaiting", err)
	}
	slow.release()
	a, rec := e.wait(t, next)
	if rec.Status != store.RunCompleted || len(a.Cells) != 1 || !strings.Contains(a.Cells[0].Logs, "second 42") {
		t.Fatalf("queued question: %s %q, cells %+v", rec.Status, rec.Error, a.Cells)
	}
	stopped, _ := e.db.RunByID(ctx, first.ID)
	if stopped.Status != store.RunCancelled || rec.StartedAt.Before(stopped.FinishedAt) {
		t.Fatalf("first run %s, finished %v; the queued one started %v", stopped.Status, stopped.FinishedAt, rec.StartedAt)
	}
	turns, _ := e.db.Turns(ctx, e.convID)
	if len(turns) != 2 || turns[1].Run.ID != next.ID {
		t.Fatalf("turns %+v, want the stopped one then the queued one", turns)
	}
}

// TestQueuedQuestionCanBeStopped: Stop on a question that waits takes it
// back before it starts; the stopped turn still ends, and the conversation
// is free again.
func TestQueuedQuestionCanBeStopped(t *testing.T) {
	e, first, slow := stoppingEnv(t)
	ctx := context.Background()
	next := e.start(t, python("print('never')"))
	if err := e.svc.Cancel(ctx, e.userID, e.convID, next.ID); err != nil {
		t.Fatal(err)
	}
	a, rec := e.wait(t, next)
	if rec.Status != store.RunCancelled || !strings.Contains(a.Error, "before it started") || len(a.Cells) != 0 {
		t.Fatalf("queued question stopped: %s %q, cells %d", rec.Status, a.Error, len(a.Cells))
	}
	slow.release()
	if _, rec := e.wait(t, first); rec.Status != store.RunCancelled {
		t.Fatalf("stopped run: %s", rec.Status)
	}
	if _, rec := e.wait(t, e.start(t, python("print('free')"))); rec.Status != store.RunCompleted {
		t.Fatalf("turn after: %s %q", rec.Status, rec.Error)
	}
}

// TestQuestionWhileRunningIsRefused: without Stop, a question while a turn
// runs is refused as before, and nothing is queued.
func TestQuestionWhileRunningIsRefused(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	first := e.start(t, python("import time\ntime.sleep(30)"))
	waitForCell(t, e, first)
	if _, _, err := e.svc.Start(ctx, chat.Turn{UserID: e.userID, ConversationID: e.convID, Content: "again"}); !errors.Is(err, chat.ErrBusy) {
		t.Fatalf("question while running: %v, want ErrBusy", err)
	}
	if _, queued, _ := e.db.ActiveRuns(ctx, e.convID); queued != "" {
		t.Fatalf("a refused question left a queued run %s", queued)
	}
	e.svc.Cancel(ctx, e.userID, e.convID, first.ID)
	e.wait(t, first)
}

// TestShutdownEndsTheQueuedQuestion: at shutdown a question that waits
// behind a stopping run ends as never started, saying to ask it again.
func TestShutdownEndsTheQueuedQuestion(t *testing.T) {
	e, _, slow := stoppingEnv(t)
	next := e.start(t, python("print('late')"))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- e.svc.Shutdown(ctx) }()
	// Once the service refuses questions for shutting down, the stop may end.
	for {
		_, _, err := e.svc.Start(ctx, chat.Turn{UserID: e.userID, ConversationID: e.convID, Content: "more"})
		if errors.Is(err, chat.ErrShuttingDown) {
			break
		}
		if ctx.Err() != nil {
			t.Fatal("the service never began shutting down")
		}
		time.Sleep(20 * time.Millisecond)
	}
	slow.release()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	rec, _ := e.db.RunByID(context.Background(), next.ID)
	if rec.Status != store.RunInterrupted || rec.Error != store.NotStarted {
		t.Fatalf("queued question after shutdown: %s %q, want interrupted, never started", rec.Status, rec.Error)
	}
}

package chat_test

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/foundry"
	"github.com/analyst-workbench/workbench/internal/pgtest"
	"github.com/analyst-workbench/workbench/migrations"
	"github.com/analyst-workbench/workbench/store"
)

// sharedEnv is two servers sharing one PostgreSQL database, as two
// replicas would: env's service drives the turns; two is the other
// replica, with its own hub, its own pool and listener on the same
// database, over the same engine and blobs.
type sharedEnv struct {
	*env
	two *chat.Service
	url string
}

func newSharedEnv(t *testing.T) *sharedEnv { return newSharedEnvOpts(t, envOptions{}) }

// newSharedEnvOpts is newSharedEnv with the first server built as opts say
// (its store aside); opts.service configures the second one too.
func newSharedEnvOpts(t *testing.T, opts envOptions) *sharedEnv {
	t.Helper()
	c := pgtest.Shared(t)
	err := c.Template("chat", func(url string) error {
		db, err := store.OpenPostgres(context.Background(), url, migrations.Postgres, store.PostgresOptions{})
		if err != nil {
			return err
		}
		return db.Close()
	})
	if err != nil {
		t.Fatal(err)
	}
	url := c.Database(t, "chat")
	open := func(tb testing.TB) *store.DB {
		db, err := store.OpenPostgres(context.Background(), url, migrations.Postgres, store.PostgresOptions{})
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { db.Close() })
		ctx, stop := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { db.Listen(ctx); close(done) }()
		tb.Cleanup(func() { stop(); <-done })
		return db
	}
	opts.open = open
	e := newEnvOpts(t, opts)
	cfg := chat.Config{DB: open(t), Client: e.client, Files: e.blobs, Agent: foundry.AgentSpec{Name: "analyst", Model: "local"}}
	if opts.service != nil {
		opts.service(&cfg) // replicas are configured alike
	}
	two := chat.New(cfg)
	if err := two.EnsureAgent(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { two.Shutdown(context.Background()) })
	return &sharedEnv{env: e, two: two, url: url}
}

// followed is what a follower read of a run: every event in order, and
// for those that came live (not in the replay) how long after they were
// made.
type followed struct {
	events []chat.Event
	delays []time.Duration
}

// followTwo follows a run through the second server from after to its
// end, and checks that the events are contiguous from after+1, with no
// repeat, ending with done.
func (s *sharedEnv) followTwo(t *testing.T, runID string, after int64) followed {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	replay, sub, err := s.two.Follow(ctx, s.userID, s.convID, runID, after)
	if err != nil {
		t.Error(err)
		return followed{}
	}
	f := followed{events: replay}
	for sub != nil {
		select {
		case e, ok := <-sub.C:
			if !ok {
				if sub.Dropped() {
					t.Error("the follower was dropped")
				}
				sub.Close()
				sub = nil
				if n := len(f.events); n > 0 && f.events[n-1].Type != chat.EventDone {
					// Let go before the end, as the page's stream is when the
					// run goes on elsewhere: follow on, as it does.
					var more []chat.Event
					more, sub, err = s.two.Follow(ctx, s.userID, s.convID, runID, f.events[n-1].Seq)
					if err != nil {
						t.Error(err)
						return f
					}
					f.events = append(f.events, more...)
				}
				continue
			}
			f.delays = append(f.delays, time.Since(e.At))
			f.events = append(f.events, e)
		case <-ctx.Done():
			sub.Close()
			t.Error("the run did not end for its follower on the other server")
			return f
		}
	}
	for i, e := range f.events {
		if e.Seq != after+int64(i)+1 {
			t.Errorf("event %d has seq %d, want %d: a gap or a repeat", i, e.Seq, after+int64(i)+1)
			break
		}
	}
	if n := len(f.events); n == 0 || f.events[n-1].Type != chat.EventDone {
		t.Errorf("the follow did not end with done (%d events)", n)
	}
	return f
}

// TestShared_FollowOnAnotherServer: a turn run by one server streams live
// to followers on the other, from the start and from the middle, every
// event once and in order, ending with done; an event reaches the other
// server's follower within 500 ms (p95) of being made.
func TestShared_FollowOnAnotherServer(t *testing.T) {
	s := newSharedEnv(t)
	run := s.start(t, manyCells(20))
	fromMiddle := make(chan followed)
	go func() {
		waitStored(t, s.db, run.ID, 10)
		fromMiddle <- s.followTwo(t, run.ID, 10)
	}()
	whole := s.followTwo(t, run.ID, 0)
	middle := <-fromMiddle
	if t.Failed() {
		return
	}
	if len(middle.events) != len(whole.events)-10 {
		t.Fatalf("from the middle: %d events, from the start %d", len(middle.events), len(whole.events))
	}
	a := chat.NewAnswer()
	for _, e := range whole.events {
		a.Apply(e)
	}
	if len(a.Cells) != 20 || a.Status != store.RunCompleted {
		t.Fatalf("the answer followed on the other server: %s, %d cells", a.Status, len(a.Cells))
	}
	d := slices.Clone(whole.delays)
	slices.Sort(d)
	if len(d) < 100 {
		t.Fatalf("%d events came live, want at least 100 to measure", len(d))
	}
	p50, p95 := d[len(d)/2], d[len(d)*95/100]
	t.Logf("store→reader on the other server over %d live events: p50 %s, p95 %s, max %s", len(d), p50, p95, d[len(d)-1])
	if p95 > 500*time.Millisecond {
		t.Fatalf("p95 store→reader %s, want under 500 ms", p95)
	}
	waitNoSubscribers(t, s.two)
}

// TestShared_StopThroughAnotherServer: Stop sent to the server that does
// not run the turn ends it on the one that does, cancelled, within 5 s; a
// follower on the other server sees it end so.
func TestShared_StopThroughAnotherServer(t *testing.T) {
	s := newSharedEnv(t)
	run := s.start(t, python("import time\nprint('started', flush=True)\ntime.sleep(60)"))
	waitForCell(t, s.env, run)
	// A follower that leaves mid-run leaves nothing behind.
	_, left, err := s.two.Follow(context.Background(), s.userID, s.convID, run.ID, 0)
	if err != nil || left == nil {
		t.Fatalf("follow a running run on the other server: %v, subscription %v", err, left)
	}
	left.Close()
	if n := s.two.Subscribers(); n != 0 {
		t.Fatalf("%d subscriptions after Close, want 0", n)
	}
	watched := make(chan followed)
	go func() { watched <- s.followTwo(t, run.ID, 0) }()
	asked := time.Now()
	if err := s.two.Cancel(context.Background(), s.userID, s.convID, run.ID); err != nil {
		t.Fatal(err)
	}
	waitEnded(t, s.db, run.ID, store.RunCancelled, 5*time.Second)
	t.Logf("stopped through the other server in %s", time.Since(asked))
	f := <-watched
	if n := len(f.events); n == 0 || f.events[n-1].Status != chat.EventStatus(store.RunCancelled) {
		t.Fatalf("the follower on the other server did not see the run end cancelled")
	}
}

// TestShared_StopAQuestionWaitingOnAnotherServer: a question waiting on
// one server behind a run being stopped is taken back, never started, by
// a Stop sent to the other, while the stopped run still ends.
func TestShared_StopAQuestionWaitingOnAnotherServer(t *testing.T) {
	s, first, slow := sleepingShared(t)
	ctx := context.Background()
	if err := s.svc.Cancel(ctx, s.userID, s.convID, first.ID); err != nil {
		t.Fatal(err)
	}
	_, next, err := s.svc.Start(ctx, chat.Turn{UserID: s.userID, ConversationID: s.convID, Content: python("print('second')")})
	if err != nil || next.Status != store.RunQueued {
		t.Fatalf("a question after Stop: %v, %+v; want it queued", err, next)
	}
	if err := s.two.Cancel(ctx, s.userID, s.convID, next.ID); err != nil {
		t.Fatal(err)
	}
	waitEnded(t, s.db, next.ID, store.RunCancelled, 5*time.Second)
	if rec, _ := s.db.RunByID(ctx, next.ID); !strings.Contains(rec.Error, "before it started") {
		t.Fatalf("the waiting question ended %q, want taken back before it started", rec.Error)
	}
	if rec, _ := s.db.RunByID(ctx, first.ID); rec.Status != store.RunRunning {
		t.Fatalf("the stopped run is %s before the service confirmed its stop", rec.Status)
	}
	slow.release()
	waitEnded(t, s.db, first.ID, store.RunCancelled, time.Minute)
}

// sleepingShared starts, on the first of two servers, a turn whose cell
// sleeps for a minute, and waits until the cell runs; the service's
// confirmation of any cancel is held until the returned slowCancel is
// released.
func sleepingShared(t *testing.T) (*sharedEnv, *store.Run, *slowCancel) {
	t.Helper()
	slow := newSlowCancel()
	t.Cleanup(slow.release)
	s := newSharedEnvOpts(t, envOptions{wrap: slow.wrap})
	first := s.start(t, python("import time\nprint('first', flush=True)\ntime.sleep(60)"))
	waitForCell(t, s.env, first)
	return s, first, slow
}

// waitEnded waits up to within for the run to end, and checks it ended as
// want.
func waitEnded(t *testing.T, db *store.DB, runID string, want store.RunStatus, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		rec, err := db.RunByID(context.Background(), runID)
		if err == nil && rec.Done() {
			if rec.Status != want {
				t.Fatalf("run %s ended %s (%q), want %s", runID, rec.Status, rec.Error, want)
			}
			// The end is recorded before the done event is appended: the run has ended
			// for its streams once that event is in.
			if evs, err := db.RunEvents(context.Background(), runID, 0); err == nil && len(evs) > 0 && evs[len(evs)-1].Type == string(chat.EventDone) {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("run %s is still %v after %s", runID, rec, within)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestShared_FollowAfterTheListenerDied: with the listening connections
// killed, a follower on the other server still gets every event (the
// listener connects again; meanwhile the poll reads on).
func TestShared_FollowAfterTheListenerDied(t *testing.T) {
	s := newSharedEnv(t)
	raw, err := sql.Open("pgx", s.url)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	killed := killListeners(t, raw)
	run := s.start(t, python("for i in range(20):\n    print('line', i, flush=True)"))
	s.followTwo(t, run.ID, 0)
	// And the listeners are back, on new connections.
	waitFor(t, func() bool {
		var n int
		raw.QueryRow(`SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()
			AND query LIKE 'LISTEN%' AND NOT pid = ANY($1)`, killed).Scan(&n)
		return n == 2
	})
}

// killListeners waits for both servers' listening connections and ends
// them, returning their pids.
func killListeners(t *testing.T, raw *sql.DB) []int64 {
	t.Helper()
	var pids []int64
	waitFor(t, func() bool {
		rows, err := raw.Query(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'`)
		if err != nil {
			return false
		}
		defer rows.Close()
		pids = pids[:0]
		for rows.Next() {
			var pid int64
			rows.Scan(&pid)
			pids = append(pids, pid)
		}
		return len(pids) == 2
	})
	for _, pid := range pids {
		if _, err := raw.Exec(`SELECT pg_terminate_backend($1)`, pid); err != nil {
			t.Fatal(err)
		}
	}
	return pids
}

// manyCells is a question of n fenced cells, each printing a few lines as
// it runs: many events, quickly.
func manyCells(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "Cell %d:\n%s\n", i, python(fmt.Sprintf("for j in range(3):\n    print('cell', %d, j, flush=True)", i)))
	}
	return b.String()
}

// waitStored waits until the run has stored at least n events.
func waitStored(t *testing.T, db *store.DB, runID string, n int) {
	waitFor(t, func() bool {
		rows, err := db.RunEvents(context.Background(), runID, 0)
		return err == nil && len(rows) >= n
	})
}

// waitNoSubscribers waits until the service holds no subscription.
func waitNoSubscribers(t *testing.T, svc *chat.Service) {
	t.Helper()
	waitFor(t, func() bool { return svc.Subscribers() == 0 })
}

// waitFor polls cond for up to 30 s.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Error("condition not met within 30 s")
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestShared_QuestionAfterStopThroughAnotherServer: Stop sent through the
// other server, then a question through it at once, while the service has
// not confirmed the stop: the question is queued, not refused; once the
// stopped answer ends, the server that ran it starts the question, and a
// follower on the other server gets its whole answer.
func TestShared_QuestionAfterStopThroughAnotherServer(t *testing.T) {
	s, first, slow := sleepingShared(t)
	ctx := context.Background()
	if err := s.two.Cancel(ctx, s.userID, s.convID, first.ID); err != nil {
		t.Fatal(err)
	}
	waitAnswer(t, s.env, first.ID, func(a *chat.Answer) bool { return a.Progress == "Stopping…" })
	_, next, err := s.two.Start(ctx, chat.Turn{UserID: s.userID, ConversationID: s.convID, Content: python("print('second')")})
	if err != nil || next.Status != store.RunQueued {
		t.Fatalf("a question through the other server after Stop: %v, %+v; want it queued", err, next)
	}
	done := make(chan followed, 1)
	go func() { done <- s.followTwo(t, next.ID, 0) }()
	slow.release()
	waitEnded(t, s.db, first.ID, store.RunCancelled, time.Minute)
	waitEnded(t, s.db, next.ID, store.RunCompleted, time.Minute)
	f := <-done
	a := chat.NewAnswer()
	for _, e := range f.events {
		a.Apply(e)
	}
	if len(a.Cells) != 1 || !strings.Contains(a.Cells[0].Logs, "second") {
		t.Fatalf("the queued question's answer on the other server: %+v", a.Cells)
	}
}

package store_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/store"
)

// TestWatchRun_AcrossServersAndAReconnection: an event stored through one
// server wakes a watcher of its run on another server sharing the
// database, by notification alone (the poll is an hour here); after the
// listening connection is killed, the listener connects again and the next
// event wakes the watcher too. A watcher of another run stays asleep.
func TestWatchRun_AcrossServersAndAReconnection(t *testing.T) {
	only(t, "postgres")
	store.SetPollEvery(t, time.Hour)
	ctx := context.Background()
	url := postgresDatabase(t)
	one, two := openPostgres(t, url), openPostgres(t, url)
	if !one.Shared() || !two.Shared() {
		t.Fatal("a PostgreSQL store is not shared")
	}
	u, _ := one.CreateUser(ctx, "ana", "h", store.RoleAnalyst, nil)
	c, _ := one.CreateConversation(ctx, u.ID, store.DefaultTitle)
	_, run, err := one.StartTurn(ctx, u.ID, c.ID, "q", "")
	if err != nil {
		t.Fatal(err)
	}
	// The watchers come first, so that each connection's wake-up (sent
	// once its LISTEN holds) reaches them: waiting for it orders the test
	// after the listener is ready, not after a guess.
	woken, unwatch := two.WatchRun(run.ID)
	defer unwatch()
	other, unwatchOther := two.WatchRun("another-run")
	defer unwatchOther()
	lctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { two.Listen(lctx); close(done) }()
	t.Cleanup(func() { stop(); <-done })
	connected := func(what string) {
		select {
		case <-other:
		case <-time.After(30 * time.Second):
			t.Fatalf("the listener's %s woke no watcher", what)
		}
		drain(woken)
	}
	connected("connection")

	raw, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	pid := listenerPID(t, raw, 0)
	for seq := int64(1); seq <= 2; seq++ {
		if err := one.AppendRunEvent(ctx, run.ID, store.RunEvent{Seq: seq, Type: "t", Data: "{}"}); err != nil {
			t.Fatal(err)
		}
		select {
		case <-woken:
		case <-time.After(30 * time.Second):
			t.Fatalf("event %d woke no watcher", seq)
		}
		select {
		case <-other:
			t.Fatal("the watcher of another run was woken")
		default:
		}
		if seq == 1 {
			if _, err := raw.Exec(`SELECT pg_terminate_backend($1)`, pid); err != nil {
				t.Fatal(err)
			}
			connected("reconnection")
		}
	}
}

// TestRequestCancel flags a running run once, wakes its cancel watchers
// where the database is shared, and flags no run that has ended.
func TestRequestCancel(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	u, _ := db.CreateUser(ctx, "ana", "h", store.RoleAnalyst, nil)
	c, _ := db.CreateConversation(ctx, u.ID, store.DefaultTitle)
	_, run, err := db.StartTurn(ctx, u.ID, c.ID, "q", "")
	if err != nil {
		t.Fatal(err)
	}
	if asked, err := db.CancelRequested(ctx, run.ID); err != nil || asked {
		t.Fatalf("asked before any Stop: %v, %v", asked, err)
	}
	if flagged, err := db.RequestCancel(ctx, run.ID); err != nil || !flagged {
		t.Fatalf("a running run was not flagged: %v, %v", flagged, err)
	}
	if asked, err := db.CancelRequested(ctx, run.ID); err != nil || !asked {
		t.Fatalf("the Stop was not recorded: %v, %v", asked, err)
	}
	if err := db.FinishRun(ctx, run.ID, store.RunEnd{Status: store.RunCancelled}); err != nil {
		t.Fatal(err)
	}
	if flagged, err := db.RequestCancel(ctx, run.ID); err != nil || flagged {
		t.Fatalf("an ended run was flagged: %v, %v", flagged, err)
	}
	if c, stop := db.WatchCancel(run.ID); (c == nil) == db.Shared() {
		t.Fatalf("watch channel %v on a store shared %v", c, db.Shared())
	} else {
		stop()
	}
}

// listenerPID waits for the backend of a listening connection other than
// not, and returns its pid.
func listenerPID(t *testing.T, raw *sql.DB, not int) int {
	t.Helper()
	var pid int
	waitFor(t, func() bool {
		err := raw.QueryRow(`SELECT pid FROM pg_stat_activity WHERE datname = current_database()
			AND query LIKE 'LISTEN%' AND pid <> $1 LIMIT 1`, not).Scan(&pid)
		return err == nil
	})
	return pid
}

// drain takes a pending signal off c, if there is one.
func drain(c <-chan struct{}) {
	select {
	case <-c:
	default:
	}
}

// TestWatchOutbox_AcrossServers: a purge queued through one server wakes
// the outbox's watcher on another, by notification; the wake-up of every
// run's watcher (the poll's, or this one once the listener listens) does
// not wake it: the purge worker polls the outbox itself.
func TestWatchOutbox_AcrossServers(t *testing.T) {
	only(t, "postgres")
	store.SetPollEvery(t, time.Hour)
	ctx := context.Background()
	url := postgresDatabase(t)
	one, two := openPostgres(t, url), openPostgres(t, url)
	lctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	woken, unwatch := two.WatchOutbox()
	defer unwatch()
	run, unwatchRun := two.WatchRun("some-run")
	defer unwatchRun()
	go func() { two.Listen(lctx); close(done) }()
	t.Cleanup(func() { stop(); <-done })
	// Once it listens, the listener wakes every run's watcher (what was
	// stored before was not announced), not the outbox's.
	select {
	case <-run:
	case <-time.After(30 * time.Second):
		t.Fatal("the listener never listened")
	}
	select {
	case <-woken:
		t.Fatal("the wake-up of the runs' watchers woke the outbox's")
	default:
	}
	u, _ := one.CreateUser(ctx, "ana", "h", store.RoleAnalyst, nil)
	c, _ := one.CreateConversation(ctx, u.ID, store.DefaultTitle)
	if _, err := one.StartPurge(ctx, store.PurgeStart{Actor: u.ID, Action: "test", Selection: store.PurgeSelection{ConversationIDs: []string{c.ID}}}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-woken:
	case <-time.After(30 * time.Second):
		t.Fatal("a purge queued on another server woke no outbox watcher")
	}
}

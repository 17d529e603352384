package store_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/store"
)

// TestLead_OneLeaderAndAHandOver: of two servers sharing a database,
// exactly one leads a task; when the leader's connection dies (its replica
// was killed: the server drops the connection and its lock) the other
// takes the lead. On SQLite a database has one server, which leads at once.
func TestLead_OneLeaderAndAHandOver(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if backend != "postgres" {
		db := openDB(t)
		ran := make(chan bool, 1)
		db.Lead(ctx, "purge", func(context.Context) { ran <- db.Leading("purge") })
		if !<-ran || db.Leading("purge") {
			t.Fatal("on SQLite the one server leads while fn runs, and only then")
		}
		return
	}
	url := postgresDatabase(t)
	first, second := openPostgres(t, url), openPostgres(t, url)
	secondCtx, killSecond := context.WithCancel(ctx)
	var running atomic.Int32
	lead := func(ctx context.Context, db *store.DB) {
		go db.Lead(ctx, "purge", func(led context.Context) {
			running.Add(1)
			<-led.Done()
			running.Add(-1)
		})
	}
	lead(secondCtx, second)
	waitFor(t, func() bool { return second.Leading("purge") })
	lead(ctx, first)
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		if first.Leading("purge") || running.Load() != 1 {
			t.Fatalf("two leaders: first leads %v, %d running", first.Leading("purge"), running.Load())
		}
		time.Sleep(20 * time.Millisecond) // a poll interval, not an ordering
	}
	// The leader's replica dies: the server drops its lock's connection, and
	// the replica asks no more.
	if n, err := store.TerminateLeadHolders(ctx, first); err != nil || n != 1 {
		t.Fatalf("terminated %d connections: %v", n, err)
	}
	killSecond()
	waitFor(t, func() bool { return first.Leading("purge") })
	if running.Load() != 1 {
		t.Fatalf("%d running after the hand-over", running.Load())
	}
}

// TestExclusive_OneAtATime: two servers' Exclusive of one key run one after
// the other, never together; another key does not wait.
func TestExclusive_OneAtATime(t *testing.T) {
	ctx := context.Background()
	var first, second *store.DB
	if backend == "postgres" {
		url := postgresDatabase(t)
		first, second = openPostgres(t, url), openPostgres(t, url)
	} else {
		first = openDB(t)
		second = first
	}
	holding, release := make(chan struct{}), make(chan struct{})
	go first.Exclusive(ctx, "agent:x", func(context.Context) error { close(holding); <-release; return nil })
	<-holding
	if err := second.Exclusive(ctx, "agent:y", func(context.Context) error { return nil }); err != nil {
		t.Fatalf("another key: %v", err)
	}
	if backend != "postgres" {
		close(release)
		return // one process: the caller serializes its own goroutines
	}
	entered := make(chan struct{})
	go second.Exclusive(ctx, "agent:x", func(context.Context) error { close(entered); return nil })
	select {
	case <-entered:
		t.Fatal("the second server ran while the first held the key")
	case <-time.After(2 * time.Second): // long enough for the second to have been let in wrongly
	}
	close(release)
	waitFor(t, func() bool {
		select {
		case <-entered:
			return true
		default:
			return false
		}
	})
}

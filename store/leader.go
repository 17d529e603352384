package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Jobs that must run once among every server sharing the database (the
// purge worker, the retention sweep) run under a lead: on SQLite the
// database belongs to one process, which always leads; on PostgreSQL the
// lead is a session advisory lock held on a connection of its own, so that
// a replica that dies (its connection gone) hands the lead over to the next
// one that asks.

// The tasks that run under a lead.
const (
	TaskPurge     = "purge"     // the outbox worker: deletions here and in Foundry
	TaskRetention = "retention" // the sweep of conversations past the retention
)

// LeadTasks lists every task that runs under a lead, for the
// workbench_leader gauge.
var LeadTasks = []string{TaskPurge, TaskRetention}

// leadRetry is how often a replica that does not lead asks again, and how
// often the leader checks that its lock's connection is still alive.
var leadRetry = 2 * time.Second

// Lead runs fn while this process leads task, and returns when ctx ends.
// fn's context ends when the lead is lost (the lock's connection broke);
// Lead then asks again, every leadRetry, until it leads once more.
func (db *DB) Lead(ctx context.Context, task string, fn func(context.Context)) {
	if db.d.leadLock == "" {
		db.leading(task, true)
		defer db.leading(task, false)
		fn(ctx)
		return
	}
	for ctx.Err() == nil {
		if !db.leadOnce(ctx, task, fn) {
			select {
			case <-ctx.Done():
			case <-time.After(leadRetry):
			}
		}
	}
}

// leadOnce takes the lead if no one holds it and runs fn under it; it
// reports whether it led.
func (db *DB) leadOnce(ctx context.Context, task string, fn func(context.Context)) bool {
	conn, err := db.db.Conn(ctx)
	if err != nil {
		return false
	}
	defer conn.Close()
	var got bool
	if conn.QueryRowContext(ctx, db.d.leadLock, task).Scan(&got) != nil || !got {
		return false
	}
	led, lost := context.WithCancel(ctx)
	defer lost()
	go watchLead(led, conn, lost)
	db.leading(task, true)
	fn(led)
	db.leading(task, false)
	unlock, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	// An unlock that fails leaves the lock to the connection's end, below.
	_, _ = conn.ExecContext(unlock, db.d.leadUnlock, task)
	return true
}

// watchLead ends the lead when the lock's connection stops answering: the
// server has dropped it (and its lock), or cannot be reached.
func watchLead(led context.Context, conn *sql.Conn, lost context.CancelFunc) {
	t := time.NewTicker(leadRetry)
	defer t.Stop()
	for {
		select {
		case <-led.Done():
			return
		case <-t.C:
			if conn.PingContext(led) != nil {
				lost()
				return
			}
		}
	}
}

// Leading reports whether this process leads task now (for the
// workbench_leader gauge).
func (db *DB) Leading(task string) bool {
	_, ok := db.leads.Load(task)
	return ok
}

func (db *DB) leading(task string, on bool) {
	if on {
		db.leads.Store(task, struct{}{})
	} else {
		db.leads.Delete(task)
	}
}

// Exclusive runs fn while no other server sharing the database runs an
// Exclusive of the same key: two replicas starting together set up one
// agent version, not two. On SQLite, one process's database, fn just runs
// (the caller serializes its own goroutines).
func (db *DB) Exclusive(ctx context.Context, key string, fn func(context.Context) error) error {
	if db.d.exclusiveLock == "" {
		return fn(ctx)
	}
	conn, err := db.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("store: exclusive %s: %w", key, err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, db.d.exclusiveLock, key); err != nil {
		return fmt.Errorf("store: exclusive %s: %w", key, err)
	}
	defer func() {
		unlock, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		// An unlock that fails leaves the lock to the connection's end.
		_, _ = conn.ExecContext(unlock, db.d.exclusiveUnlock, key)
	}()
	return fn(ctx)
}

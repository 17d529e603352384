package chat

import (
	"context"
	"time"

	"github.com/analyst-workbench/workbench/store"
)

// Servers sharing a database (store.Shared) each drive their own runs, and
// a browser may follow a run, or stop it, through any of them. The run's
// events are stored before they are published, so a server that does not
// drive the run follows it from the database, woken by the store when an
// event is stored (store.WatchRun); a Stop it cannot carry out itself is
// recorded on the run, and the server that drives it stops it as a Stop of
// its own (store.WatchCancel). These are the replicas coordinator's; a
// server alone follows and stops every run through its hub.

// endedGrace is how long a follower waits, after the run was found ended,
// for its done event, which is stored just after the run's end is
// recorded; a run that never stored one (its server died) is let go then.
const endedGrace = 2 * time.Second

// followStored follows from the database a run this server does not
// drive while it runs or waits on another server, or has just ended there
// and its done event is not read yet. The run is read after replay, so
// that a run found ended has stored every event but perhaps its done one.
func (c *replicas) followStored(ctx context.Context, runID string, replay []Event, after int64) (*Subscription, error) {
	for _, e := range replay {
		if e.Type == EventDone {
			return nil, nil
		}
	}
	run, err := c.s.db.RunByID(ctx, runID)
	if err != nil {
		return nil, err
	}
	if run.Done() && time.Since(run.FinishedAt) >= endedGrace {
		return nil, nil
	}
	if n := len(replay); n > 0 {
		after = replay[n-1].Seq
	}
	return c.subscribeStored(ctx, runID, after), nil
}

// subscribeStored returns a subscription to the events of runID after seq
// as the database gets them, in order, with no gap and no repeat. Like the
// hub's, it ends after the done event, when the subscriber falls more than
// subscriberBuffer events behind (Dropped), or when Close is called or ctx
// ends; a slow subscriber never holds the reading up.
func (c *replicas) subscribeStored(ctx context.Context, runID string, after int64) *Subscription {
	events := make(chan Event, subscriberBuffer)
	fctx, stop := context.WithCancel(ctx)
	exited := make(chan struct{})
	sub := &Subscription{C: events, c: events, runID: runID}
	sub.stop = func() { stop(); <-exited }
	c.fed.Add(1)
	go func() {
		defer close(exited)
		defer c.fed.Add(-1)
		sub.close(c.feed(fctx, sub, after))
	}()
	return sub
}

// feed sends sub the run's events after seq as they are stored, until the
// done event, the run's end without one, or ctx's end; it reports whether
// it gave up because sub fell behind.
func (c *replicas) feed(ctx context.Context, sub *Subscription, after int64) (dropped bool) {
	woken, unwatch := c.s.db.WatchRun(sub.runID)
	defer unwatch()
	var ended time.Time // when the run was first found ended with nothing more to read
	for {
		rows, err := c.s.db.RunEvents(ctx, sub.runID, after)
		if err != nil && ctx.Err() == nil {
			c.s.log.Warn("follow a run from the database", "run", sub.runID, "err", err) // tried again when woken
		}
		for _, e := range decodeEvents(rows) {
			select {
			case sub.c <- e:
			default:
				return true
			}
			after = e.Seq
			if e.Type == EventDone {
				return false
			}
		}
		if err == nil && len(rows) == 0 && c.endedLongAgo(ctx, sub.runID, &ended) {
			return false
		}
		select {
		case <-ctx.Done():
			return false
		case <-woken:
		}
	}
}

// endedLongAgo reports whether the run has been found ended for
// endedGrace with no done event stored since; ended keeps when it was
// first found so.
func (c *replicas) endedLongAgo(ctx context.Context, runID string, ended *time.Time) bool {
	run, err := c.s.db.RunByID(ctx, runID)
	if err != nil {
		return ctx.Err() == nil // a run deleted meanwhile has nothing more to say
	}
	if !run.Done() {
		*ended = time.Time{}
		return false
	}
	if ended.IsZero() {
		*ended = time.Now()
	}
	return time.Since(*ended) >= endedGrace
}

// stopElsewhere records a Stop of a run this server does not drive, for
// the server that does (see watchStop).
func (c *replicas) stopElsewhere(ctx context.Context, run *store.Run) error {
	if run.Done() {
		return nil
	}
	_, err := c.s.db.RequestCancel(ctx, run.ID)
	return err
}

// stopAsked reports whether a Stop of the run was sent through another
// server: the server running it stops it, and starts the question queued
// behind it once it ends (startQueued, adoptQueued).
func (c *replicas) stopAsked(ctx context.Context, runID string) bool {
	asked, err := c.s.db.CancelRequested(ctx, runID)
	return err == nil && asked
}

// queued watches a question waiting here for a Stop sent through another
// server (watchWaiting).
func (c *replicas) queued(runID string) { go c.watchWaiting(runID) }

// followers counts the subscriptions fed from the database.
func (c *replicas) followers() int { return int(c.fed.Load()) }

// watchStop stops the run this server drives when a Stop of it was
// recorded through another server, as if it had been asked here; it
// returns when ctx (the run's) ends. The first look is at once: a question
// stopped while it waited on this server starts, and stops, at once.
func (c *replicas) watchStop(ctx context.Context, runID string) {
	woken, unwatch := c.s.db.WatchCancel(runID)
	defer unwatch()
	for {
		if asked, err := c.s.db.CancelRequested(ctx, runID); err == nil && asked {
			c.s.cancelHere(runID)
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-woken:
		}
	}
}

// watchWaiting takes back a question waiting on this server when a Stop of
// it was recorded through another server, as takeBack does for one asked
// here; it returns once the question has left the queue (a question that
// started meanwhile is stopped by its run's watchStop instead).
func (c *replicas) watchWaiting(runID string) {
	woken, unwatch := c.s.db.WatchCancel(runID)
	defer unwatch()
	for c.s.isWaiting(runID) {
		if asked, err := c.s.db.CancelRequested(c.s.ctx, runID); err == nil && asked {
			c.s.takeBack(c.s.ctx, runID)
			return
		}
		if c.startedElsewhere(runID) {
			return
		}
		select {
		case <-c.s.ctx.Done():
			return
		case <-woken:
		}
	}
}

// startedElsewhere lets go of a question waiting here that the server
// whose stopped answer it waited for has started (startQueued there), and
// reports whether it did: its followers here are let go, and follow it on
// from the database.
func (c *replicas) startedElsewhere(runID string) bool {
	c.s.queueMu.Lock()
	r := c.s.waiting[runID]
	c.s.queueMu.Unlock()
	if r == nil {
		return true
	}
	run, err := c.s.db.Run(c.s.ctx, r.userID, r.convID, runID)
	if err != nil || run.Status == store.RunQueued {
		return false
	}
	c.s.queueMu.Lock()
	mine := c.s.waiting[runID] == r // else this server started it meanwhile
	if mine {
		delete(c.s.waiting, runID)
	}
	c.s.queueMu.Unlock()
	if mine {
		c.s.log.Info("queued question started by another replica", "run", runID)
		c.s.hub.Close(runID)
	}
	return true
}

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
// its own (store.WatchCancel). On SQLite one server drives every run and
// none of this runs.

// endedGrace is how long a follower waits, after the run was found ended,
// for its done event, which is stored just after the run's end is
// recorded; a run that never stored one (its server died) is let go then.
const endedGrace = 2 * time.Second

// followsElsewhere reports whether a run this server does not drive is
// still to be followed from the database: it runs or waits on another
// server, or has just ended there and its done event is not read yet.
func (s *Service) followsElsewhere(run *store.Run, replay []Event) bool {
	if !s.db.Shared() {
		return false
	}
	for _, e := range replay {
		if e.Type == EventDone {
			return false
		}
	}
	return !run.Done() || time.Since(run.FinishedAt) < endedGrace
}

// subscribeStored returns a subscription to the events of runID after seq
// as the database gets them, in order, with no gap and no repeat. Like the
// hub's, it ends after the done event, when the subscriber falls more than
// subscriberBuffer events behind (Dropped), or when Close is called or ctx
// ends; a slow subscriber never holds the reading up.
func (s *Service) subscribeStored(ctx context.Context, runID string, after int64) *Subscription {
	c := make(chan Event, subscriberBuffer)
	fctx, stop := context.WithCancel(ctx)
	exited := make(chan struct{})
	sub := &Subscription{C: c, c: c, runID: runID}
	sub.stop = func() { stop(); <-exited }
	s.remote.Add(1)
	go func() {
		defer close(exited)
		defer s.remote.Add(-1)
		sub.close(s.feed(fctx, sub, after))
	}()
	return sub
}

// feed sends sub the run's events after seq as they are stored, until the
// done event, the run's end without one, or ctx's end; it reports whether
// it gave up because sub fell behind.
func (s *Service) feed(ctx context.Context, sub *Subscription, after int64) (dropped bool) {
	woken, unwatch := s.db.WatchRun(sub.runID)
	defer unwatch()
	var ended time.Time // when the run was first found ended with nothing more to read
	for {
		rows, err := s.db.RunEvents(ctx, sub.runID, after)
		if err != nil && ctx.Err() == nil {
			s.log.Warn("follow a run from the database", "run", sub.runID, "err", err) // tried again when woken
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
		if err == nil && len(rows) == 0 && s.endedLongAgo(ctx, sub.runID, &ended) {
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
func (s *Service) endedLongAgo(ctx context.Context, runID string, ended *time.Time) bool {
	run, err := s.db.RunByID(ctx, runID)
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

// requestStop records a Stop of a run this server does not drive, for the
// server that does (see watchStop).
func (s *Service) requestStop(ctx context.Context, run *store.Run) error {
	if !s.db.Shared() || run.Done() {
		return nil
	}
	_, err := s.db.RequestCancel(ctx, run.ID)
	return err
}

// watchStop stops the run this server drives when a Stop of it was
// recorded through another server, as if it had been asked here; it
// returns when ctx (the run's) ends. The first look is at once: a question
// stopped while it waited on this server starts, and stops, at once.
func (s *Service) watchStop(ctx context.Context, runID string) {
	woken, unwatch := s.db.WatchCancel(runID)
	defer unwatch()
	for {
		if asked, err := s.db.CancelRequested(ctx, runID); err == nil && asked {
			s.cancelHere(runID)
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
func (s *Service) watchWaiting(runID string) {
	woken, unwatch := s.db.WatchCancel(runID)
	defer unwatch()
	for s.isWaiting(runID) {
		if asked, err := s.db.CancelRequested(s.ctx, runID); err == nil && asked {
			s.takeBack(s.ctx, runID)
			return
		}
		if s.startedElsewhere(runID) {
			return
		}
		select {
		case <-s.ctx.Done():
			return
		case <-woken:
		}
	}
}

// startedElsewhere lets go of a question waiting here that the server
// whose stopped answer it waited for has started (startQueued there), and
// reports whether it did: its followers here are let go, and follow it on
// from the database.
func (s *Service) startedElsewhere(runID string) bool {
	s.queueMu.Lock()
	r := s.waiting[runID]
	s.queueMu.Unlock()
	if r == nil {
		return true
	}
	run, err := s.db.Run(s.ctx, r.userID, r.convID, runID)
	if err != nil || run.Status == store.RunQueued {
		return false
	}
	s.queueMu.Lock()
	mine := s.waiting[runID] == r // else this server started it meanwhile
	if mine {
		delete(s.waiting, runID)
	}
	s.queueMu.Unlock()
	if mine {
		s.log.Info("queued question started by another replica", "run", runID)
		s.hub.Close(runID)
	}
	return true
}

// isWaiting reports whether the queued run waits on this server.
func (s *Service) isWaiting(runID string) bool {
	s.queueMu.Lock()
	defer s.queueMu.Unlock()
	return s.waiting[runID] != nil
}

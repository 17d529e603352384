package purge

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/analyst-workbench/workbench/foundry"
	"github.com/analyst-workbench/workbench/store"
)

// idlePoll bounds how long an idle worker sleeps without looking, in case
// another process queued work it was not told about.
const idlePoll = time.Minute

// attemptTimeout bounds one remote deletion, so a hung connection delays
// one entry, not the worker.
const attemptTimeout = 2 * time.Minute

// defaultClaimLease is how long a worker's claim on its entries lasts
// (Config.ClaimLease): a round of Parallel attempts, each bounded by
// attemptTimeout, and the writes after them, fit well within it.
const defaultClaimLease = 2 * attemptTimeout

// Run works the outbox until ctx ends: local deletions left by a crash
// first, then every due entry, sleeping until the next one is due.
func (s *Service) Run(ctx context.Context) {
	// Entries queued through another replica sharing the database wake
	// this worker too (it leads the purge for all of them).
	queued, stop := s.db.WatchOutbox()
	defer stop()
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-queued:
				s.kick()
			}
		}
	}()
	for ctx.Err() == nil {
		n, err := s.pass(ctx)
		if err != nil && ctx.Err() == nil {
			s.log.Error("purge: worker", "err", err)
		}
		if n > 0 && err == nil {
			continue
		}
		s.sleep(ctx, s.untilNext(ctx))
	}
}

// Drain works the outbox until nothing is pending, waiting out the backoff
// of failed entries; it returns ctx's error if ctx ends first. Tests and a
// shutdown that wants to finish its purges use it.
func (s *Service) Drain(ctx context.Context) error {
	for {
		n, err := s.pass(ctx)
		if err != nil {
			return err
		}
		if n > 0 {
			continue
		}
		if _, ok, err := s.db.NextOutbox(ctx); err != nil || !ok {
			return err
		}
		s.sleep(ctx, s.untilNext(ctx))
		if err := ctx.Err(); err != nil {
			return err
		}
	}
}

func (s *Service) untilNext(ctx context.Context) time.Duration {
	at, ok, err := s.db.NextOutbox(ctx)
	if err != nil || !ok {
		return idlePoll
	}
	return min(max(at.Sub(s.now()), time.Millisecond), idlePoll)
}

func (s *Service) sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-s.wake:
	case <-t.C:
	}
}

// pass does one batch of local deletions and one round of due entries, and
// returns how many it handled. A round is what Parallel attempts take at
// once, claimed (store.ClaimOutbox) so that a second worker overlapping
// this one, during a hand-over of the lead, takes other entries; a small
// round keeps what a worker that dies leaves claimed small too.
func (s *Service) pass(ctx context.Context) (int, error) {
	s.work.Lock()
	defer s.work.Unlock()
	if err := s.releaseDeadClaims(ctx); err != nil {
		return 0, err
	}
	n, err := s.db.PurgeConversations(ctx, "", s.batch)
	if err != nil || n > 0 {
		return n, err
	}
	due, err := s.db.ClaimOutbox(ctx, s.now(), s.cfg.Parallel, s.cfg.ClaimLease)
	if err != nil {
		return 0, err
	}
	s.handleAll(ctx, due)
	return len(due), ctx.Err()
}

// releaseDeadClaims gives back, at the first pass, the claims a process
// that died left, where the database is this process's alone (SQLite): no
// one else can hold a claim there, and this way a restart retries at once,
// not when the leases pass. Shared, a claim may be another replica's, and
// only its lease says when it is dead.
func (s *Service) releaseDeadClaims(ctx context.Context) error {
	if s.claimsChecked || s.db.Shared() {
		return nil
	}
	n, err := s.db.ReleaseOutboxClaims(ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		s.log.Info("purge: released the claims of an earlier process", "entries", n)
	}
	s.claimsChecked = true
	return nil
}

// handleAll handles entries cfg.Parallel at a time: remote deletions are
// slow round trips, and the service takes a few at once well.
func (s *Service) handleAll(ctx context.Context, due []*store.OutboxEntry) {
	sem := make(chan struct{}, s.cfg.Parallel)
	var wg sync.WaitGroup
	for _, e := range due {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			s.handle(ctx, e)
		})
	}
	wg.Wait()
}

// handle makes one attempt at an entry and records how it went.
func (s *Service) handle(ctx context.Context, e *store.OutboxEntry) {
	var err error
	if e.Kind == store.OutboxBlob {
		err = s.removeBlob(ctx, e)
	} else {
		err = s.deleteRemote(ctx, e)
	}
	if err == nil {
		return
	}
	if ctx.Err() != nil {
		// A cancelled attempt is not a failure of the entry: its claim is
		// given back, so that the next worker tries it again at once.
		s.release(ctx, e)
		return
	}
	next := s.now().Add(s.backoff(e.Attempts))
	s.log.Warn("purge: attempt failed", "kind", e.Kind, "target", e.Target, "attempt", e.Attempts+1, "retry_at", next, "err", err)
	s.write.Lock()
	defer s.write.Unlock()
	if ferr := s.db.FailOutbox(ctx, e.ID, err.Error(), next); ferr != nil {
		s.log.Error("purge: record failure", "err", ferr)
	}
}

// release gives back the claim of an entry whose attempt ctx cancelled;
// if that fails too, the claim ends with its lease.
func (s *Service) release(ctx context.Context, e *store.OutboxEntry) {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	s.write.Lock()
	defer s.write.Unlock()
	if err := s.db.ReleaseOutbox(rctx, e.ID); err != nil {
		s.log.Warn("purge: release claim", "target", e.Target, "err", err)
	}
}

// removeBlob completes a blob entry. The store removes the blob inside its
// write transaction; with a remote blob store that is a round trip, so it
// is bounded like any remote deletion.
func (s *Service) removeBlob(ctx context.Context, e *store.OutboxEntry) error {
	actx, cancel := context.WithTimeout(ctx, attemptTimeout)
	defer cancel()
	s.write.Lock()
	defer s.write.Unlock()
	_, err := s.db.RemoveBlob(actx, e.ID, e.Target, func(sha string) error { return s.cfg.Blobs.Remove(actx, sha) })
	return err
}

// deleteRemote deletes a Foundry object and completes its entry; a 404
// completes it too, since the object is gone either way.
func (s *Service) deleteRemote(ctx context.Context, e *store.OutboxEntry) error {
	actx, cancel := context.WithTimeout(ctx, attemptTimeout)
	defer cancel()
	var err error
	switch e.Kind {
	case store.OutboxFoundryFile:
		err = s.cfg.Remote.DeleteFile(actx, e.Target)
	case store.OutboxFoundryConversation:
		err = s.cfg.Remote.DeleteConversation(actx, e.Target)
	case store.OutboxContainerFile:
		err = s.cfg.Remote.DeleteContainerFile(actx, e.Parent, e.Target)
	case store.OutboxAgentVersion:
		err = s.cfg.Remote.DeleteAgentVersion(actx, e.Parent, e.Target)
	case store.OutboxAgent:
		err = s.cfg.Remote.DeleteAgent(actx, e.Target)
	case store.OutboxFoundryResponse:
		err = s.cfg.Remote.DeleteResponse(actx, e.Target)
	default:
		err = fmt.Errorf("purge: unknown outbox kind %q", e.Kind)
	}
	result := store.ResultDeleted
	if foundry.IsNotFound(err) {
		result, err = store.ResultNotFound, nil
	}
	if err != nil {
		return err
	}
	s.write.Lock()
	defer s.write.Unlock()
	return s.db.CompleteOutbox(ctx, e.ID, result)
}

// backoff is the wait after the attempts-th failure: doubling from
// MinBackoff up to MaxBackoff, with jitter over its upper half so that
// entries failing together (an outage) do not retry in lockstep.
func (s *Service) backoff(attempts int) time.Duration {
	d := s.cfg.MinBackoff << min(attempts, 30)
	if d <= 0 || d > s.cfg.MaxBackoff {
		d = s.cfg.MaxBackoff
	}
	return d/2 + rand.N(d/2+1)
}

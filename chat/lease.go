package chat

import (
	"context"
	"crypto/rand"
	"errors"
	"os"
	"time"

	"github.com/analyst-workbench/workbench/foundry"
	"github.com/analyst-workbench/workbench/store"
)

// DefaultLeaseTerm is how long a replica's hold on a run lasts unless it
// renews it. A replica that dies mid-turn leaves its runs to the others
// once their leases lapse: within DefaultLeaseTerm and one scan.
const DefaultLeaseTerm = 10 * time.Second

// leaseTimes paces the holds on runs of a shared database: a hold lasts
// term, is renewed every renew, and every scan a replica looks for runs
// whose holds lapsed.
type leaseTimes struct{ term, renew, scan time.Duration }

func leaseTimesOf(term time.Duration) leaseTimes {
	if term <= 0 {
		term = DefaultLeaseTerm
	}
	return leaseTimes{term: term, renew: term / 3, scan: term / 4}
}

// newReplicaName names this process among the replicas: the host, which
// is the container's name on Azure Container Apps, and a random suffix,
// since one host may run several.
func newReplicaName() string {
	host, _ := os.Hostname()
	return host + "-" + rand.Text()[:8]
}

// errLeaseLost stops a run another replica adopted: its hold lapsed (this
// process stalled, or lost the database), and the other now drives it.
var errLeaseLost = errors.New("chat: another replica took the run over")

// handingOver reports whether the run stops here to go on elsewhere: its
// lease was lost, or this process shuts down while others share the
// database. Such a run is neither recorded as ended nor stopped on the
// service: the replica that adopts it reads the response on.
func (r *runner) handingOver(ctx context.Context) bool {
	cause := context.Cause(ctx)
	return errors.Is(cause, errLeaseLost) || (errors.Is(cause, errShutdown) && r.s.db.Shared())
}

// leave lets a run go on elsewhere. At shutdown its hold is released, so
// that another replica adopts it at its next scan rather than after the
// lease; a run lost to another replica is already that one's.
func (r *runner) leave(ctx context.Context) {
	r.s.log.Info("run left to another replica", "run", r.run.ID, "cause", context.Cause(ctx))
	if errors.Is(context.Cause(ctx), errShutdown) {
		if err := r.s.db.ReleaseRun(context.WithoutCancel(ctx), r.run.ID, r.s.replica); err != nil {
			r.s.log.Warn("release a run at shutdown", "run", r.run.ID, "err", err)
		}
	}
}

// claim makes a run this replica starts its own, before it starts; an
// adopted one is already.
func (s *Service) claim(r *runner) {
	if r.adopted || !s.db.Shared() {
		return
	}
	if ok, err := s.db.ClaimRun(s.ctx, r.run.ID, s.replica, time.Now().Add(s.lease.term)); err != nil || !ok {
		s.log.Warn("claim run", "run", r.run.ID, "claimed", ok, "err", err)
	}
}

// hold keeps this replica's lease on a run it drives until ctx ends, and
// stops the run (errLeaseLost) if another replica has adopted it.
func (s *Service) hold(ctx context.Context, stop context.CancelCauseFunc, r *runner) {
	rec := context.WithoutCancel(ctx)
	t := time.NewTicker(s.lease.renew)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		ok, err := s.db.RenewRun(rec, r.run.ID, s.replica, time.Now().Add(s.lease.term))
		switch {
		case err != nil:
			s.log.Warn("renew the lease of a run", "run", r.run.ID, "err", err)
		case !ok && ctx.Err() == nil:
			s.log.Warn("run taken over by another replica", "run", r.run.ID)
			stop(errLeaseLost)
			return
		}
	}
}

// adoptOrphans drives on, until shutdown, the runs of replicas that died:
// every scan it looks for runs whose leases lapsed and adopts them, one
// replica each (store.AdoptRun).
func (s *Service) adoptOrphans() {
	defer s.wg.Done()
	t := time.NewTicker(s.lease.scan)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
		orphans, err := s.db.OrphanRuns(s.ctx, time.Now(), s.lease.term)
		if err != nil {
			s.log.Warn("look for runs left by other replicas", "err", err)
			continue
		}
		for _, o := range orphans {
			s.adopt(o)
		}
		s.endStranded()
	}
}

// endStranded ends the queued questions a server that died left waiting
// (store.StrandedQueued): nobody holds them to start, so they end as not
// started, telling their followers to ask again, rather than wait forever.
func (s *Service) endStranded() {
	stranded, err := s.db.StrandedQueued(s.ctx, time.Now(), s.lease.term)
	if err != nil {
		s.log.Warn("look for questions left waiting by other replicas", "err", err)
		return
	}
	for _, run := range stranded {
		ended, err := s.db.EndQueued(s.ctx, run.ID, store.RunInterrupted, store.NotStarted)
		if err != nil || !ended {
			continue // another replica was first, or it started
		}
		_, last, err := s.recorded(s.ctx, run.ID)
		if err != nil {
			s.log.Warn("read a question left waiting", "run", run.ID, "err", err)
			continue
		}
		r := &runner{s: s, run: run, convID: run.ConversationID, answer: NewAnswer(), seq: last}
		s.log.Info("question left waiting by another replica ended", "run", run.ID)
		r.endUnstarted(s.ctx, store.RunInterrupted, store.NotStarted, false)
	}
}

// adopt takes an orphan run over, if no other replica is first: it rebuilds
// the answer from the stored events and reads the Foundry response on from
// the last event those events came from (runner.followOn).
func (s *Service) adopt(o store.Orphan) {
	now := time.Now()
	won, err := s.db.AdoptRun(s.ctx, o.Run.ID, s.replica, now, now.Add(s.lease.term))
	if err != nil || !won {
		return
	}
	r, err := s.rebuild(s.ctx, o)
	if err != nil {
		s.log.Error("rebuild an adopted run", "run", o.Run.ID, "err", err)
		return
	}
	s.log.Info("run adopted", "run", o.Run.ID, "conversation", o.Run.ConversationID, "after", r.seq)
	if err := s.launch(r); err != nil {
		s.log.Warn("drive an adopted run", "run", o.Run.ID, "err", err)
	}
}

// rebuild makes the runner of an adopted run from what is stored: the
// answer so far, the last event number, where the Foundry stream was, and
// the conversation's files. This replica's followers get the stored
// events from its hub, then the new ones.
func (s *Service) rebuild(ctx context.Context, o store.Orphan) (*runner, error) {
	events, last, err := s.recorded(ctx, o.Run.ID)
	if err != nil {
		return nil, err
	}
	files, err := s.db.Files(ctx, o.UserID, o.Run.ConversationID)
	if err != nil {
		return nil, err
	}
	r := &runner{s: s, run: o.Run, convID: o.Run.ConversationID, userID: o.UserID, question: o.Question,
		files: files, adopted: true, answer: NewAnswer(), sessionChecked: true, seq: last,
		end: store.RunEnd{Status: store.RunCompleted, ResponseID: o.Run.ResponseID}}
	r.resetCopies()
	s.hub.Open(o.Run.ID)
	for _, e := range events {
		r.answer.Apply(e)
		switch {
		case e.Type == EventRestart:
			r.read = 0 // the events after it come from another response
		case e.Read > 0:
			r.read = e.Read
		}
		s.hub.Publish(o.Run.ID, e)
	}
	return r, nil
}

// recorded returns the stored events of a run another server began, and
// the number of its last one, after which the events this server emits
// for it go on.
func (s *Service) recorded(ctx context.Context, runID string) ([]Event, int64, error) {
	rows, err := s.db.RunEvents(ctx, runID, 0)
	if err != nil || len(rows) == 0 {
		return nil, 0, err
	}
	return decodeEvents(rows), rows[len(rows)-1].Seq, nil
}

// errNoResponse ends an adopted run whose replica died before the service
// had started a response: there is nothing to read on.
var errNoResponse = &UserError{"The server writing this answer stopped before the answer began. Ask again."}

// followOn reads an adopted run's response on from where its last replica
// was, as stream reads a new one.
func (r *runner) followOn(ctx context.Context) error {
	id := r.end.ResponseID
	if id == "" {
		return errNoResponse
	}
	st, err := r.s.client.ResumeResponse(ctx, id, r.read-1)
	if err != nil {
		return err
	}
	return r.readStream(ctx, st, func() (string, bool) { return r.stopRemote(ctx, foundry.ResponseRequest{}, id) })
}

package chat

import (
	"context"
	"crypto/rand"
	"errors"
	"os"
	"sync/atomic"
	"time"

	"github.com/analyst-workbench/workbench/foundry"
	"github.com/analyst-workbench/workbench/store"
)

// replicas is the coordinator of servers sharing a database
// (store.Shared). Each drives its own runs under a lease it renews (this
// file); a browser may follow a run, or stop it, through any of them
// (replicas_remote.go); and the runs of a server that died are adopted by another
// once their leases lapse.
type replicas struct {
	s *Service
	// name owns the runs this process drives; lease times their holds.
	name  string
	lease leaseTimes
	// fed counts the subscriptions fed from the database.
	fed atomic.Int64
}

func newReplicas(s *Service, name string, term time.Duration) *replicas {
	if name == "" {
		name = newReplicaName()
	}
	return &replicas{s: s, name: name, lease: leaseTimesOf(term)}
}

// begin adopts, until shutdown, the runs of replicas that died.
func (c *replicas) begin() {
	c.s.wg.Add(1)
	go c.adoptOrphans()
}

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

// handsOver: a run stops here to go on elsewhere when its lease was lost,
// or when this process shuts down. The replica that adopts it reads the
// response on.
func (c *replicas) handsOver(cause error) bool {
	return errors.Is(cause, errLeaseLost) || errors.Is(cause, errShutdown)
}

// leave lets a run go on elsewhere. At shutdown its hold is released, so
// that another replica adopts it at its next scan rather than after the
// lease; a run lost to another replica is already that one's.
func (c *replicas) leave(ctx context.Context, r *runner) {
	c.s.log.Info("run left to another replica", "run", r.run.ID, "cause", context.Cause(ctx))
	if errors.Is(context.Cause(ctx), errShutdown) {
		if err := c.s.db.ReleaseRun(context.WithoutCancel(ctx), r.run.ID, c.name); err != nil {
			c.s.log.Warn("release a run at shutdown", "run", r.run.ID, "err", err)
		}
	}
}

// owner fences a run's end with this replica's name: a replica that lost
// the run records nothing.
func (c *replicas) owner() string { return c.name }

// drive claims a run this replica starts (an adopted one is its own
// already), keeps its lease while it runs, and stops it when a Stop is
// recorded through another server.
func (c *replicas) drive(ctx context.Context, stop context.CancelCauseFunc, r *runner) (wait func()) {
	if !r.adopted {
		if ok, err := c.s.db.ClaimRun(c.s.ctx, r.run.ID, c.name, time.Now().Add(c.lease.term)); err != nil || !ok {
			c.s.log.Warn("claim run", "run", r.run.ID, "claimed", ok, "err", err)
		}
	}
	c.s.wg.Add(1)
	go func() { defer c.s.wg.Done(); c.hold(ctx, stop, r) }()
	watched := make(chan struct{})
	go func() { defer close(watched); c.watchStop(ctx, r.run.ID) }()
	return func() { <-watched }
}

// responseStarted records the response a run reads, which a replica
// adopting the run reads on.
func (c *replicas) responseStarted(ctx context.Context, runID, responseID string) {
	if err := c.s.db.NoteResponse(ctx, runID, responseID); err != nil {
		c.s.log.Warn("record the response of a run", "run", runID, "err", err)
	}
}

// hold keeps this replica's lease on a run it drives until ctx ends, and
// stops the run (errLeaseLost) if another replica has adopted it.
func (c *replicas) hold(ctx context.Context, stop context.CancelCauseFunc, r *runner) {
	rec := context.WithoutCancel(ctx)
	t := time.NewTicker(c.lease.renew)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		ok, err := c.s.db.RenewRun(rec, r.run.ID, c.name, time.Now().Add(c.lease.term))
		switch {
		case err != nil:
			c.s.log.Warn("renew the lease of a run", "run", r.run.ID, "err", err)
		case !ok && ctx.Err() == nil:
			c.s.log.Warn("run taken over by another replica", "run", r.run.ID)
			stop(errLeaseLost)
			return
		}
	}
}

// adoptOrphans drives on, until shutdown, the runs of replicas that died:
// every scan it looks for runs whose leases lapsed and adopts them, one
// replica each (store.AdoptRun).
func (c *replicas) adoptOrphans() {
	defer c.s.wg.Done()
	t := time.NewTicker(c.lease.scan)
	defer t.Stop()
	for {
		select {
		case <-c.s.ctx.Done():
			return
		case <-t.C:
		}
		orphans, err := c.s.db.OrphanRuns(c.s.ctx, time.Now(), c.lease.term)
		if err != nil {
			c.s.log.Warn("look for runs left by other replicas", "err", err)
			continue
		}
		for _, o := range orphans {
			c.adopt(o)
		}
		c.endStranded()
	}
}

// endStranded ends the queued questions a server that died left waiting
// (store.StrandedQueued): nobody holds them to start, so they end as not
// started, telling their followers to ask again, rather than wait forever.
func (c *replicas) endStranded() {
	stranded, err := c.s.db.StrandedQueued(c.s.ctx, time.Now(), c.lease.term)
	if err != nil {
		c.s.log.Warn("look for questions left waiting by other replicas", "err", err)
		return
	}
	for _, run := range stranded {
		ended, err := c.s.db.EndQueued(c.s.ctx, run.ID, store.RunInterrupted, store.NotStarted)
		if err != nil || !ended {
			continue // another replica was first, or it started
		}
		_, last, err := c.s.recorded(c.s.ctx, run.ID)
		if err != nil {
			c.s.log.Warn("read a question left waiting", "run", run.ID, "err", err)
			continue
		}
		r := &runner{s: c.s, run: run, convID: run.ConversationID, answer: NewAnswer(), seq: last}
		c.s.log.Info("question left waiting by another replica ended", "run", run.ID)
		r.endUnstarted(c.s.ctx, store.RunInterrupted, store.NotStarted, false)
	}
}

// adopt takes an orphan run over, if no other replica is first: it rebuilds
// the answer from the stored events and reads the Foundry response on from
// the last event those events came from (runner.followOn).
func (c *replicas) adopt(o store.Orphan) {
	now := time.Now()
	won, err := c.s.db.AdoptRun(c.s.ctx, o.Run.ID, c.name, now, now.Add(c.lease.term))
	if err != nil || !won {
		return
	}
	r, err := c.rebuild(c.s.ctx, o)
	if err != nil {
		c.s.log.Error("rebuild an adopted run", "run", o.Run.ID, "err", err)
		return
	}
	c.s.log.Info("run adopted", "run", o.Run.ID, "conversation", o.Run.ConversationID, "after", r.seq)
	if err := c.s.launch(r); err != nil {
		c.s.log.Warn("drive an adopted run", "run", o.Run.ID, "err", err)
	}
}

// rebuild makes the runner of an adopted run from what is stored: the
// answer so far, the last event number, where the Foundry stream was, and
// the conversation's files. This replica's followers get the stored
// events from its hub, then the new ones.
func (c *replicas) rebuild(ctx context.Context, o store.Orphan) (*runner, error) {
	events, last, err := c.s.recorded(ctx, o.Run.ID)
	if err != nil {
		return nil, err
	}
	files, err := c.s.db.Files(ctx, o.UserID, o.Run.ConversationID)
	if err != nil {
		return nil, err
	}
	r := &runner{s: c.s, run: o.Run, convID: o.Run.ConversationID, userID: o.UserID, question: o.Question,
		files: files, adopted: true, answer: NewAnswer(), sessionChecked: true, seq: last,
		end: store.RunEnd{Status: store.RunCompleted, ResponseID: o.Run.ResponseID}}
	r.resetCopies()
	c.s.hub.Open(o.Run.ID)
	for _, e := range events {
		r.answer.Apply(e)
		switch {
		case e.Type == EventRestart:
			r.read = 0 // the events after it come from another response
		case e.Read > 0:
			r.read = e.Read
		}
		c.s.hub.Publish(o.Run.ID, e)
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

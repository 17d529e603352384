package chat

import (
	"context"

	"github.com/analyst-workbench/workbench/store"
)

// A coordinator is how this process shares its runs with other servers,
// chosen once in New: alone (SQLite, one server drives every run) or
// replicas (a shared database: leases, Stops and followers through the
// store, orphans adopted). The rest of the package walks one path and
// asks the coordinator at the few points where sharing changes a step.
type coordinator interface {
	// begin starts the coordinator's background work, which ends at
	// shutdown (the service's context), counted in the service's wait group.
	begin()
	// drive is called as this process starts driving r, whose context is
	// ctx and whose stop is stop; the returned function, called once ctx
	// has ended, waits for what drive started to end.
	drive(ctx context.Context, stop context.CancelCauseFunc, r *runner) (wait func())
	// handsOver reports whether a run stopped with cause goes on on
	// another server: it is neither recorded as ended nor stopped on the
	// service here.
	handsOver(cause error) bool
	// leave lets a run handsOver reported go on elsewhere.
	leave(ctx context.Context, r *runner)
	// owner is the name a run's end is fenced with (store.RunEnd.Owner);
	// "" records it unfenced.
	owner() string
	// responseStarted notes the Foundry response a run reads, for a server
	// that may have to read it on.
	responseStarted(ctx context.Context, runID, responseID string)
	// followStored returns a subscription to a run's events after seq,
	// fed from the store, when the run goes on on another server; nil when
	// replay is all there is.
	followStored(ctx context.Context, runID string, replay []Event, after int64) (*Subscription, error)
	// stopElsewhere asks the server that drives run, not this one, to stop it.
	stopElsewhere(ctx context.Context, run *store.Run) error
	// stopAsked reports whether a Stop of the run was sent through another
	// server.
	stopAsked(ctx context.Context, runID string) bool
	// queued is called when a question starts waiting on this server, so
	// that a Stop sent through another server can take it back.
	queued(runID string)
	// followers counts the subscriptions the coordinator feeds.
	followers() int
}

// alone is the coordinator of a server that shares its database with no
// other: every run is driven, stopped and followed here, through the hub.
type alone struct{}

func (alone) begin()                                                         {}
func (alone) drive(context.Context, context.CancelCauseFunc, *runner) func() { return func() {} }
func (alone) handsOver(error) bool                                           { return false }
func (alone) leave(context.Context, *runner)                                 {}
func (alone) owner() string                                                  { return "" }
func (alone) responseStarted(context.Context, string, string)                {}
func (alone) followStored(context.Context, string, []Event, int64) (*Subscription, error) {
	return nil, nil
}
func (alone) stopElsewhere(context.Context, *store.Run) error { return nil }
func (alone) stopAsked(context.Context, string) bool          { return false }
func (alone) queued(string)                                   {}
func (alone) followers() int                                  { return 0 }

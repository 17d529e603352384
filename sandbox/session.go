package sandbox

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Session is one conversation's persistent Python kernel: variables, imports
// and files in /mnt/data survive from cell to cell until the session ends.
// Calls are safe from several goroutines; they run one at a time, except
// Interrupt and Close, which act at once.
//
// Two locks, with separate jobs: mu orders the protocol exchanges with the
// kernel and may be held for as long as a cell runs; stateMu guards the
// session's state (see sessionState) and what changes with it, and is held
// only for a moment, so Interrupt, end and the pool can always take it.
// When both are held (to swap the kernel), mu is taken first; the pool's
// lock, when held, comes before stateMu.
type Session struct {
	id      string
	pool    *Pool
	cfg     Config
	created time.Time
	owner   string // who the session is for; eviction is fair between owners

	mu       sync.Mutex     // one protocol exchange at a time; its holder owns saved, restored and memLimit
	saved    *savedState    // the evicted session's state on disk, until a restore loads it or the session ends
	restored *RestoreReport // said once, by the next Exec after a restore
	memLimit int64          // the kernel's address space as LimitMemory set it; 0 leaves Config.MemoryBytes

	stateMu sync.Mutex
	state   sessionState
	err     error // why the session ended: set with stateEnded
	// w is the session's kernel, nil while evicted. It changes only with
	// both mu and stateMu held, so the holder of either may read it: the
	// protocol under mu, Interrupt and end under stateMu.
	w          *worker
	running    bool   // a cell is being run
	cell       uint64 // number of the latest cell sent
	active     int    // calls in progress or waiting; the idle clock runs only at zero
	lastActive time.Time
	idle       *time.Timer
	life       *time.Timer

	// mem is the kernel's measured memory, 0 while evicted or ended. It is
	// a measurement, not state: the pool's budget sums it under the pool's
	// lock, so it is an atomic rather than a third lock to order.
	mem  atomic.Int64
	done chan struct{}
}

func newSession(p *Pool, w *worker, owner string) *Session {
	now := time.Now()
	s := &Session{id: w.id, pool: p, w: w, cfg: p.cfg, created: now, owner: owner, lastActive: now, done: make(chan struct{})}
	s.mem.Store(p.kernelSize())
	s.stateMu.Lock() // the timers' callbacks read them under stateMu
	s.idle = time.AfterFunc(s.cfg.IdleTimeout, func() { s.end(ErrIdleTimeout) })
	s.life = time.AfterFunc(s.cfg.Lifetime, func() { s.end(ErrLifetime) })
	s.stateMu.Unlock()
	p.spawn(func() { s.watchExit(w) })
	return s
}

// kernel returns the session's worker, nil while it is evicted.
func (s *Session) kernel() *worker {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	return s.w
}

// ID returns the session's unguessable identifier.
func (s *Session) ID() string { return s.id }

// Created returns when the session was claimed; it ends at Created plus
// Config.Lifetime at the latest.
func (s *Session) Created() time.Time { return s.created }

// LastActive returns when the latest call finished (or the session was
// claimed); it ends once idle for Config.IdleTimeout after that.
func (s *Session) LastActive() time.Time {
	_, at, _ := s.status()
	return at
}

// Done is closed when the session ends: idle timeout, lifetime, a reset,
// Close, or the pool closing.
func (s *Session) Done() <-chan struct{} { return s.done }

// Err returns why the session ended (ErrIdleTimeout, ErrLifetime, an error
// wrapping ErrSessionReset, ErrClosed), or nil while it is open.
func (s *Session) Err() error {
	_, err := s.phase()
	return err
}

// Close ends the session and kills its sandbox. Its files are gone.
func (s *Session) Close() error {
	s.end(ErrClosed)
	return nil
}

// Interrupt raises KeyboardInterrupt in the running cell, as Jupyter's
// interrupt does; variables survive. Without a running cell it does nothing.
func (s *Session) Interrupt() error {
	if err := s.Err(); err != nil {
		return err
	}
	cell, running := s.runningCell()
	if !running {
		return nil
	}
	return s.interruptCell(cell)
}

// interruptCell interrupts cell number cell of the current kernel, if any.
func (s *Session) interruptCell(cell uint64) error {
	w := s.kernel()
	if w == nil {
		return nil // evicted: nothing runs
	}
	return w.interrupt(cell)
}

// end closes the session once, for the first reason given. Removing its
// saved state waits for any exchange (an eviction, a restore) to let go of
// it, so it runs in the pool's wait group, which Close waits for.
func (s *Session) end(reason error) {
	s.stateMu.Lock()
	w, ok := s.finishLocked(reason)
	s.stateMu.Unlock()
	if !ok {
		return
	}
	if w != nil {
		w.kill()
		w.release(s.pool)
	}
	s.mem.Store(0)
	s.pool.remove(s)
	close(s.done)
	s.pool.nudge()
	s.pool.signal()
	s.pool.spawn(s.dropSaved)
}

// watchExit ends the session when its kernel w dies between calls, so Done
// fires promptly and the session stops using the memory budget. A kernel
// retired by an eviction is expected to exit.
func (s *Session) watchExit(w *worker) {
	select {
	case <-w.exited:
		if !w.retired.Load() {
			s.reset(w)
		}
	case <-s.done:
	}
}

// reset ends the session because its kernel w died or the protocol broke,
// and returns the error the caller sees. A session already ended for another
// reason (Close, a timer) keeps that reason.
func (s *Session) reset(w *worker) error {
	select {
	case <-w.exited:
	case <-time.After(500 * time.Millisecond): // let the exit status arrive for the message
	}
	s.end(fmt.Errorf("%w (%s)", ErrSessionReset, w.exitReason()))
	return s.Err()
}

// begin marks a call in progress: it stops the idle clock and fails fast on
// an ended session.
func (s *Session) begin() error {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	if s.state == stateEnded {
		return s.err
	}
	s.active++
	s.idle.Stop()
	return nil
}

// finish restarts the idle clock when the last call returns; the session
// may then be evicted, so waiting claims are told.
func (s *Session) finish() {
	s.stateMu.Lock()
	s.active--
	s.lastActive = time.Now()
	idle := s.active == 0
	if idle && s.state != stateEnded {
		s.idle.Reset(s.cfg.IdleTimeout)
	}
	s.stateMu.Unlock()
	if idle {
		s.pool.signal()
	}
}

// guard kills the session if ctx ends and the exchange has not finished
// within the interrupt grace: normal exchanges take milliseconds, so this
// only fires on a kernel wedged by user code (a thread holding the GIL).
func (s *Session) guard(ctx context.Context) (stop func()) {
	finished := make(chan struct{})
	stopAfter := context.AfterFunc(ctx, func() {
		t := time.NewTimer(s.cfg.InterruptGrace)
		defer t.Stop()
		select {
		case <-finished:
		case <-t.C:
			s.end(fmt.Errorf("%w (call abandoned: %v)", ErrSessionReset, context.Cause(ctx)))
		}
	})
	return func() {
		close(finished)
		stopAfter()
	}
}

// failure ends the session after an exchange that broke: a file too large
// leaves it open, a refused reply (LimitError, protocol error) ends it with
// its own message, anything else means the kernel died.
func (s *Session) failure(err error) error {
	if ended := s.Err(); ended != nil {
		return ended
	}
	switch {
	case errors.Is(err, ErrFileTooLarge):
		return err
	case errors.Is(err, ErrSessionReset):
		// A refused reply (a LimitError or a protocol error): it ends the
		// session with its own message.
		s.end(err)
		return s.Err()
	}
	return s.reset(s.w)
}

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
type Session struct {
	id      string
	pool    *Pool
	cfg     Config
	created time.Time
	owner   string // who the session is for; eviction is fair between owners

	mu sync.Mutex // one protocol exchange at a time; held to swap w
	// w is the session's kernel, nil while the session is evicted. It is
	// read under mu by the protocol, and under wMu by Interrupt and end.
	w        *worker
	wMu      sync.Mutex
	saved    *savedState    // the evicted session's state on disk, nil while live
	restored *RestoreReport // said once, by the next Exec after a restore
	mem      atomic.Int64   // the kernel's measured memory, 0 while evicted
	evicting atomic.Bool    // an eviction has picked this session
	running  atomic.Bool
	cell     atomic.Uint64 // number of the latest cell sent

	done    chan struct{}
	endOnce sync.Once
	errMu   sync.Mutex
	err     error

	timerMu    sync.Mutex
	active     int // calls in progress or waiting; the idle clock runs only at zero
	lastActive time.Time
	idle       *time.Timer
	life       *time.Timer
}

func newSession(p *Pool, w *worker, owner string) *Session {
	now := time.Now()
	s := &Session{id: w.id, pool: p, w: w, cfg: p.cfg, created: now, owner: owner, lastActive: now, done: make(chan struct{})}
	s.mem.Store(p.kernelSize())
	s.idle = time.AfterFunc(s.cfg.IdleTimeout, func() { s.end(ErrIdleTimeout) })
	s.life = time.AfterFunc(s.cfg.Lifetime, func() { s.end(ErrLifetime) })
	go s.watchExit(w)
	return s
}

// kernel returns the session's worker, nil while it is evicted.
func (s *Session) kernel() *worker {
	s.wMu.Lock()
	defer s.wMu.Unlock()
	return s.w
}

// setKernel swaps the session's worker; the caller holds s.mu.
func (s *Session) setKernel(w *worker) {
	s.wMu.Lock()
	s.w = w
	s.wMu.Unlock()
}

// ID returns the session's unguessable identifier.
func (s *Session) ID() string { return s.id }

// Created returns when the session was claimed; it ends at Created plus
// Config.Lifetime at the latest.
func (s *Session) Created() time.Time { return s.created }

// LastActive returns when the latest call finished (or the session was
// claimed); it ends once idle for Config.IdleTimeout after that.
func (s *Session) LastActive() time.Time {
	s.timerMu.Lock()
	defer s.timerMu.Unlock()
	return s.lastActive
}

// Done is closed when the session ends: idle timeout, lifetime, a reset,
// Close, or the pool closing.
func (s *Session) Done() <-chan struct{} { return s.done }

// Err returns why the session ended (ErrIdleTimeout, ErrLifetime, an error
// wrapping ErrSessionReset, ErrClosed), or nil while it is open.
func (s *Session) Err() error {
	s.errMu.Lock()
	defer s.errMu.Unlock()
	return s.err
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
	if !s.running.Load() {
		return nil
	}
	return s.interruptCell(s.cell.Load())
}

// interruptCell interrupts cell number cell of the current kernel, if any.
func (s *Session) interruptCell(cell uint64) error {
	w := s.kernel()
	if w == nil {
		return nil // evicted: nothing runs
	}
	return w.interrupt(cell)
}

// end closes the session once, for the first reason given.
func (s *Session) end(reason error) {
	s.endOnce.Do(func() {
		s.errMu.Lock()
		s.err = reason
		s.errMu.Unlock()
		s.idle.Stop()
		s.life.Stop()
		s.wMu.Lock()
		w := s.w
		s.wMu.Unlock()
		if w != nil {
			w.kill()
			w.release(s.pool)
		}
		s.mem.Store(0)
		s.pool.remove(s)
		close(s.done)
		s.pool.nudge()
		s.pool.signal()
		go s.dropSaved() // may wait for an eviction or restore to let go of the state
	})
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
	s.timerMu.Lock()
	s.active++
	s.idle.Stop()
	s.timerMu.Unlock()
	if err := s.Err(); err != nil {
		s.finish()
		return err
	}
	return nil
}

// finish restarts the idle clock when the last call returns; the session
// may then be evicted, so waiting claims are told.
func (s *Session) finish() {
	s.timerMu.Lock()
	s.active--
	s.lastActive = time.Now()
	idle := s.active == 0
	if idle && s.Err() == nil {
		s.idle.Reset(s.cfg.IdleTimeout)
	}
	s.timerMu.Unlock()
	if idle {
		s.pool.signal()
	}
}

// idleSince reports whether no call is in progress or waiting, and since
// when.
func (s *Session) idleSince() (time.Time, bool) {
	s.timerMu.Lock()
	defer s.timerMu.Unlock()
	return s.lastActive, s.active == 0
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

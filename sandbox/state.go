package sandbox

import "time"

// sessionState is where a session is in its life. It changes only under
// Session.stateMu, and only along the edges leadsTo allows:
//
//	live -> evicting -> evicted -> live
//	evicting -> live            (the eviction was called off)
//	live, evicting, evicted -> ended
//
// Ended is final. The state, not the kernel pointer or the saved state,
// says whether a session has a kernel: a session is live or evicting
// exactly when it has one.
type sessionState int

const (
	stateLive     sessionState = iota // has a kernel
	stateEvicting                     // picked to be evicted; its kernel is being saved
	stateEvicted                      // its state waits on disk, with no kernel
	stateEnded                        // over, for the reason in Session.err
)

// String names the state, for test failures and logs.
func (st sessionState) String() string {
	switch st {
	case stateLive:
		return "live"
	case stateEvicting:
		return "evicting"
	case stateEvicted:
		return "evicted"
	case stateEnded:
		return "ended"
	}
	return "unknown"
}

// leadsTo reports whether a session may go from st to next.
func (st sessionState) leadsTo(next sessionState) bool {
	switch next {
	case stateEvicting, stateEvicted:
		return next == st+1
	case stateLive:
		return st == stateEvicting || st == stateEvicted
	case stateEnded:
		return st != stateEnded
	}
	return false
}

// moveLocked changes the session from from to to, and refuses (returning
// false) when the session is not in from or the edge is not allowed. The
// caller holds s.stateMu.
func (s *Session) moveLocked(from, to sessionState) bool {
	if s.state != from || !from.leadsTo(to) {
		return false
	}
	s.state = to
	return true
}

// phase returns the session's state and, once it ended, why.
func (s *Session) phase() (sessionState, error) {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	return s.state, s.err
}

// status returns the session's state, when its latest call finished, and
// whether no call is in progress or waiting: what the pool's budget and
// eviction read.
func (s *Session) status() (st sessionState, lastActive time.Time, idle bool) {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	return s.state, s.lastActive, s.active == 0
}

// markEvicting picks the session for an eviction: it must be live with no
// call in progress. Only one eviction can hold the mark.
func (s *Session) markEvicting() bool {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	return s.active == 0 && s.moveLocked(stateLive, stateEvicting)
}

// callOffEviction makes an evicting session live again, its kernel kept;
// a session that ended meanwhile stays ended.
func (s *Session) callOffEviction() {
	s.stateMu.Lock()
	s.moveLocked(stateEvicting, stateLive)
	s.stateMu.Unlock()
}

// retire takes the kernel from an evicting session, whose state is saved,
// and returns it to be killed. It refuses (nil) when the session ended
// meanwhile: end has killed the kernel then. The caller holds s.mu.
func (s *Session) retire() *worker {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	if !s.moveLocked(stateEvicting, stateEvicted) {
		return nil
	}
	w := s.w
	w.retired.Store(true) // its exit is expected: watchExit lets it go
	s.w = nil
	s.mem.Store(0)
	return w
}

// attach makes w the kernel of the evicted session, unless the session
// ended meanwhile; then the caller kills w. The caller holds s.mu.
func (s *Session) attach(w *worker) bool {
	s.stateMu.Lock()
	ok := s.moveLocked(stateEvicted, stateLive)
	if ok {
		s.w = w
	}
	s.stateMu.Unlock()
	if !ok {
		return false
	}
	s.pool.spawn(func() { s.watchExit(w) })
	// The worker stops being a spare and becomes the session's, in one step
	// for the budget.
	s.pool.mu.Lock()
	s.pool.spare--
	s.mem.Store(s.pool.kernelSize())
	s.pool.mu.Unlock()
	return true
}

// finishLocked ends the session for reason and returns its kernel, if it
// has one, to be killed; false when it had already ended. The caller holds
// s.stateMu.
func (s *Session) finishLocked(reason error) (*worker, bool) {
	if !s.moveLocked(s.state, stateEnded) {
		return nil, false
	}
	s.err = reason
	s.idle.Stop()
	s.life.Stop()
	return s.w, true
}

// startCell numbers the next cell and marks it running, so that Interrupt
// can reach it from the moment it is sent.
func (s *Session) startCell() uint64 {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	s.cell++
	s.running = true
	return s.cell
}

// stopCell marks that no cell runs.
func (s *Session) stopCell() {
	s.stateMu.Lock()
	s.running = false
	s.stateMu.Unlock()
}

// runningCell returns the latest cell's number and whether it still runs.
func (s *Session) runningCell() (cell uint64, running bool) {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	return s.cell, s.running
}

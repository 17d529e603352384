package sandbox

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"
)

// execFields are the fields of an exec request (see request).
type execFields struct {
	Cell           uint64 `json:"cell"`
	Code           string `json:"code"`
	MaxOutput      int    `json:"max_output"`
	MaxFigures     int    `json:"max_figures"`
	MaxFigureBytes int    `json:"max_figure_bytes"`
	// Stream asks for partial output frames while the cell runs (stream.go).
	Stream bool `json:"stream,omitzero"`
	// LiveFigures asks, with Stream, for the figures the cell shows or
	// saves as it does so (stream.go).
	LiveFigures bool `json:"live_figures,omitzero"`
}

// Exec runs code as the next cell of the session. A Python exception comes
// back in Result.Error with a nil error. Exec's own error means the cell did
// not complete as a cell: the session ended (ErrSessionReset, ErrIdleTimeout,
// ErrLifetime, ErrClosed) or ctx ended, in which case the cell was
// interrupted like a timeout and the session, if it survived, stays usable.
//
// A cell running past Config.CellTimeout gets SIGINT; if it stops within
// Config.InterruptGrace, Exec returns a Result with TimedOut set and a
// KeyboardInterrupt error, state intact. Otherwise the sandbox is killed and
// Exec returns an error wrapping ErrSessionReset.
//
// The host holds the reply to Config's caps whatever the worker claims: a
// reply over them ends the session with a *LimitError (which wraps
// ErrSessionReset) that names the limit; output cut at the caps is marked
// in Result.Truncated.
func (s *Session) Exec(ctx context.Context, code string) (*Result, error) {
	if err := s.pool.awaitFairShare(ctx, s.owner); err != nil {
		return nil, err
	}
	if err := s.begin(); err != nil {
		return nil, err
	}
	defer s.finish()
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.ensureLive(ctx); err != nil {
		return nil, err
	}
	start := time.Now()
	cell := s.startCell() // before the send: an early Interrupt is kept for the cell (see worker.py)
	ex := &execFields{Cell: cell, Code: code, MaxOutput: s.cfg.MaxOutputBytes,
		MaxFigures: s.cfg.MaxFigures, MaxFigureBytes: s.cfg.MaxFigureBytes}
	req := request{Op: "exec", execFields: ex}
	out := &outputStream{fn: outputFrom(ctx), room: s.cfg.MaxOutputBytes}
	ex.Stream = out.fn != nil
	if ex.Stream {
		out.figures, out.figuresLeft = figuresFrom(ctx), s.cfg.MaxFigures
		ex.LiveFigures = out.figures != nil
	}
	if err := s.w.conn.send(req); err != nil {
		s.stopCell()
		return nil, s.failure(err)
	}
	var timedOut atomic.Bool
	stop := s.watchCell(ctx, cell, &timedOut)
	reply, figs, err := s.readExecReply(out)
	stop()
	s.stopCell()
	if err != nil {
		return nil, s.failure(err)
	}
	s.measure(reply.DataBytes)
	res := s.result(reply, figs)
	res.Duration = time.Since(start)
	res.Restored, s.restored = s.restored, nil
	if timedOut.Load() {
		res.TimedOut = true
		if res.Error != nil && res.Error.Name == "KeyboardInterrupt" {
			res.Error.Value = fmt.Sprintf("cell timed out after %s and was interrupted; variables are kept", s.cfg.CellTimeout)
		}
	}
	if ctx.Err() != nil && !timedOut.Load() {
		return nil, fmt.Errorf("sandbox: exec interrupted: %w", ctx.Err())
	}
	return res, nil
}

// watchCell interrupts the cell when it times out or ctx ends, and kills
// the session when the interrupt is not honoured within the grace period
// (a C extension holding the GIL, or code that swallows KeyboardInterrupt).
// It arms a timer and a context callback rather than starting a goroutine
// per cell: a new goroutine wakes an idle processor, a thread on another
// CPU, which on a small machine costs a warm cell's round trip a tenth.
func (s *Session) watchCell(ctx context.Context, cell uint64, timedOut *atomic.Bool) (stop func()) {
	finished := make(chan struct{})
	var fired atomic.Bool // the timeout or ctx, whichever comes first, acts
	fire := func(timeout bool) {
		if !fired.CompareAndSwap(false, true) {
			return
		}
		select {
		case <-finished:
			return
		default:
		}
		if timeout {
			timedOut.Store(true)
		}
		_ = s.interruptCell(cell)
		grace := time.NewTimer(s.cfg.InterruptGrace)
		defer grace.Stop()
		select {
		case <-finished:
		case <-grace.C:
			s.end(fmt.Errorf("%w (the cell did not stop within %s of an interrupt)", ErrSessionReset, s.cfg.InterruptGrace))
		}
	}
	timer := time.AfterFunc(s.cfg.CellTimeout, func() { fire(true) })
	stopCtx := context.AfterFunc(ctx, func() { fire(false) })
	return func() {
		close(finished)
		timer.Stop()
		stopCtx()
	}
}

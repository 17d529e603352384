package sandbox

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"
)

type execRequest struct {
	Op             string `json:"op"`
	Cell           uint64 `json:"cell"`
	Code           string `json:"code"`
	MaxOutput      int    `json:"max_output"`
	MaxFigures     int    `json:"max_figures"`
	MaxFigureBytes int    `json:"max_figure_bytes"`
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
func (s *Session) Exec(ctx context.Context, code string) (*Result, error) {
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
	cell := s.cell.Add(1)
	req := execRequest{Op: "exec", Cell: cell, Code: code, MaxOutput: s.cfg.MaxOutputBytes,
		MaxFigures: s.cfg.MaxFigures, MaxFigureBytes: s.cfg.MaxFigureBytes}
	s.running.Store(true) // before the send: an early Interrupt is kept for the cell (see worker.py)
	if err := s.w.conn.send(req); err != nil {
		s.running.Store(false)
		return nil, s.failure(err)
	}
	var timedOut atomic.Bool
	stop := s.watchCell(ctx, cell, &timedOut)
	reply, figs, err := s.readExecReply()
	stop()
	s.running.Store(false)
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
func (s *Session) watchCell(ctx context.Context, cell uint64, timedOut *atomic.Bool) (stop func()) {
	finished := make(chan struct{})
	go func() {
		timer := time.NewTimer(s.cfg.CellTimeout)
		defer timer.Stop()
		select {
		case <-finished:
			return
		case <-timer.C:
			timedOut.Store(true)
		case <-ctx.Done():
		}
		select {
		case <-finished: // select picks at random among ready cases
			return
		default:
		}
		_ = s.interruptCell(cell)
		grace := time.NewTimer(s.cfg.InterruptGrace)
		defer grace.Stop()
		select {
		case <-finished:
		case <-grace.C:
			s.end(fmt.Errorf("%w (the cell did not stop within %s of an interrupt)", ErrSessionReset, s.cfg.InterruptGrace))
		}
	}()
	return func() { close(finished) }
}

func (s *Session) readExecReply() (*wireReply, [][]byte, error) {
	var reply wireReply
	if err := s.w.conn.recv(&reply); err != nil {
		return nil, nil, err
	}
	figs := make([][]byte, 0, len(reply.Figures))
	for range reply.Figures {
		b, err := s.w.conn.recvBlob()
		if err != nil {
			return nil, nil, err
		}
		figs = append(figs, b)
	}
	return &reply, figs, nil
}

// result turns a reply into a Result, enforcing the output cap in bytes
// (the worker counts characters) and marking anything that was cut.
func (s *Session) result(r *wireReply, figs [][]byte) *Result {
	max := s.cfg.MaxOutputBytes
	stdout, cutOut := capBytes(r.Stdout, max)
	stderr, cutErr := capBytes(r.Stderr, max-len(stdout))
	res := &Result{Error: r.execError(), Files: fileInfos(r.Files)}
	if r.Truncated || cutOut || cutErr {
		res.Truncated = true
		stdout += truncatedMarker
	}
	if r.FiguresDropped > 0 {
		res.Truncated = true
		stderr += fmt.Sprintf("\n[sandbox: %d figure(s) dropped: over %d per cell or %d bytes each]\n",
			r.FiguresDropped, s.cfg.MaxFigures, s.cfg.MaxFigureBytes)
	}
	res.Stdout, res.Stderr = stdout, stderr
	if r.Value != nil {
		res.Value = &Value{Text: r.Value.Text, HTML: r.Value.HTML}
	}
	for _, b := range figs {
		res.Figures = append(res.Figures, newFigure(b))
	}
	return res
}

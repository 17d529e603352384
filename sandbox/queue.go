package sandbox

import (
	"context"
	"fmt"
	"time"
)

// Claims for a kernel (a new session, or the restore of an evicted one)
// wait in one FIFO line. Only the head of the line takes a warm worker or
// evicts an idle kernel to make room for one, so nobody is overtaken; the
// others wait for a signal that something changed. The line is bounded in
// length (Config.MaxQueue) and in time (Config.QueueTimeout).

// waiter is one claim in the line. It is not zero-sized: pointers to
// distinct zero-size values may compare equal, and the line finds claims by
// pointer.
type waiter struct {
	since time.Time
	owner string // whose claim it is (see awaitFairShare)
}

// WaitTrace is told a claim's place in the line (1 is next) whenever the
// claim has to wait for a free sandbox: every kernel is busy running code,
// or others are ahead. It is not called when a warm worker is at hand.
type WaitTrace func(position int)

type waitTraceKey struct{}

// WithWaitTrace returns a context whose claims report their place in the
// line to trace, as httptrace does for requests: Pool.Session, and any call
// on an evicted session that has to restore it.
func WithWaitTrace(ctx context.Context, trace WaitTrace) context.Context {
	return context.WithValue(ctx, waitTraceKey{}, trace)
}

func waitTraceFrom(ctx context.Context) WaitTrace {
	t, _ := ctx.Value(waitTraceKey{}).(WaitTrace)
	return t
}

// signal wakes every waiting claim: a worker became ready, a session went
// idle or ended, or memory was freed.
func (p *Pool) signal() {
	p.mu.Lock()
	close(p.changed)
	p.changed = make(chan struct{})
	p.mu.Unlock()
}

// enqueue adds owner's claim at the end of the line.
func (p *Pool) enqueue(owner string) (*waiter, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.closed:
		return nil, ErrClosed
	case p.readyErr != nil:
		return nil, p.readyErr
	case len(p.queue) >= p.cfg.MaxQueue:
		p.stats.Refused++
		return nil, fmt.Errorf("%w (%d waiting)", ErrQueueFull, len(p.queue))
	}
	w := &waiter{since: time.Now(), owner: owner}
	p.queue = append(p.queue, w)
	p.arrived.add(w.since, p.cfg.memory())
	return w, nil
}

// leave takes a claim out of the line, wherever it is. A head that leaves
// no longer holds the line up.
func (p *Pool) leave(me *waiter) {
	p.mu.Lock()
	for i, w := range p.queue {
		if w == me {
			p.queue = append(p.queue[:i], p.queue[i+1:]...)
			if i == 0 {
				p.stuck = false
			}
			break
		}
	}
	p.mu.Unlock()
	p.signal()
}

// place returns the claim's position (1 is the head), the channel that
// closes on the next change, and what the claim should do now.
func (p *Pool) place(me *waiter) (pos int, changed <-chan struct{}, step claimStep) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, w := range p.queue {
		if w == me {
			pos = i + 1
		}
	}
	changed = p.changed
	switch {
	case p.closed:
		step = stepClosed
	case pos != 1 && p.stuck:
		step = stepWait
	case pos != 1:
		step = stepFollow
	case len(p.ready) > 0:
		step = stepTake
	case p.starting > 0 || p.roomLocked():
		step = stepAwaitWorker // one is starting, or the refill loop may start one
	default:
		step = stepEvict
	}
	return pos, changed, step
}

// claimStep is what the head of the line does next.
type claimStep int

const (
	stepWait        claimStep = iota // not the head, and the head waits for a kernel to go idle
	stepFollow                       // not the head, and the line moves: wait for a change
	stepTake                         // a warm worker is ready
	stepAwaitWorker                  // a worker is starting or may start within the budget
	stepEvict                        // the budget is full: evict an idle kernel, or wait
	stepClosed                       // the pool is closing
)

// claimWorker waits owner's turn in the line and returns a warm worker,
// evicting idle kernels as needed to stay within the memory budget.
func (p *Pool) claimWorker(ctx context.Context, owner string) (*worker, error) {
	me, err := p.enqueue(owner)
	if err != nil {
		return nil, err
	}
	defer p.leave(me)
	trace := waitTraceFrom(ctx)
	// The wait limit counts from the first time the claim had to wait for
	// others; waiting for a worker to start is bounded by StartTimeout.
	var deadline time.Time
	told := 0
	for {
		p.nudge()
		pos, changed, step := p.place(me)
		var ready <-chan *worker
		switch step {
		case stepClosed:
			return nil, ErrClosed
		case stepTake, stepAwaitWorker:
			p.setStuck(false)
			ready = p.ready
		case stepEvict:
			if v := p.victim(); v != nil {
				p.setStuck(false)
				p.evict(v)
				continue
			}
			p.setStuck(true)
		}
		// Waiting for kernels to stop running code, not for a worker to start:
		// the claim is in line for a free sandbox, and told so.
		blocked := step == stepWait || step == stepEvict
		var limit <-chan time.Time
		if blocked {
			if deadline.IsZero() {
				deadline = time.Now().Add(p.cfg.QueueTimeout)
				p.countQueued()
			}
			limit = time.After(time.Until(deadline))
		}
		if blocked && pos != told {
			if trace != nil {
				trace(pos)
			}
			told = pos
		}
		select {
		case w, ok := <-ready:
			if !ok {
				return nil, ErrClosed
			}
			if w.alive() {
				return w, nil
			}
			w.release(p) // died while warm; take the next one
			p.unspare()
		case <-changed:
		case <-ctx.Done():
			return nil, fmt.Errorf("sandbox: waiting for a free sandbox: %w", ctx.Err())
		case <-p.ctx.Done():
			return nil, ErrClosed
		case <-limit:
			return nil, fmt.Errorf("%w after %s", ErrQueueTimeout, p.cfg.QueueTimeout)
		}
	}
}

// setStuck records whether the head of the line waits for a busy kernel
// to go idle; those behind it are then waiting for a free sandbox too.
func (p *Pool) setStuck(stuck bool) {
	p.mu.Lock()
	changed := p.stuck != stuck
	p.stuck = stuck
	p.mu.Unlock()
	if changed {
		p.signal()
	}
}

// countQueued counts a claim that had to wait for a free sandbox.
func (p *Pool) countQueued() {
	p.mu.Lock()
	p.stats.QueuedTotal++
	p.mu.Unlock()
}

// victim picks an idle kernel to evict and marks it evicting, or returns
// nil. Picking and marking under p.mu keep two evictions off one session.
func (p *Pool) victim() *Session {
	p.mu.Lock()
	defer p.mu.Unlock()
	for {
		v := p.victimLocked()
		if v == nil || v.markEvicting() {
			return v
		}
		// A call began on it since it was read: it is busy now, so the
		// next pick passes it by.
	}
}

package sandbox

import (
	"context"
	"fmt"
)

// Busy kernels are shared fairly between owners when kernels are short. A
// kernel running code cannot be evicted, so an owner running cells in many
// sessions at once could keep every kernel busy, cell after cell, while
// another owner's claim waits in line for one to go idle. So while a claim
// of another owner waits, an owner's next cell waits for their own busy
// kernels to fall below a fair share of the pool (its capacity over the
// owners with kernels or claims); an idle kernel then goes to the line.
// Nobody waiting, nobody is held back. Where cgroups are missing this is
// also the only bound on one owner's share of the CPU.

// awaitFairShare returns when owner may start a cell: at once unless a claim
// of another owner waits and owner's busy kernels already make up their
// fair share.
func (p *Pool) awaitFairShare(ctx context.Context, owner string) error {
	for {
		over, changed := p.overShare(owner)
		if !over {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("sandbox: waiting for a fair share of the sandboxes: %w", ctx.Err())
		case <-p.ctx.Done():
			return ErrClosed
		}
	}
}

// overShare reports whether owner's busy kernels make up a fair share while
// another owner's claim waits, and the channel that closes on the next
// change.
func (p *Pool) overShare(owner string) (bool, <-chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	owners := map[string]bool{owner: true}
	othersWait := false
	for _, w := range p.queue {
		owners[w.owner] = true
		othersWait = othersWait || w.owner != owner
	}
	if !othersWait {
		return false, p.changed
	}
	busy := 0
	for _, s := range p.sessions {
		st, _, idle := s.status()
		if st != stateLive && st != stateEvicting {
			continue
		}
		owners[s.owner] = true
		if !idle && s.owner == owner {
			busy++
		}
	}
	share := max(p.capacity()/len(owners), 1)
	return busy >= share, p.changed
}

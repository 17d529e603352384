package sandbox

import (
	"time"
)

// The warm pool is sized to demand. Cfg.Warm workers are always kept ready
// (the floor); beyond it, the pool keeps as many as the busiest minute of
// the last hour asked for, so that the second wave of a morning rush finds
// its kernels warm rather than cold-starting them while everyone waits.
// When the rush is an hour old the pool shrinks back to the floor. Warm
// workers never push the pool past its memory budget, and they are the
// first to go when live kernels grow into it (see trim).

const (
	// demandSpan is how far back the arrivals that size the pool reach.
	demandSpan = time.Hour
	// demandWindow is the span whose busiest instance of the last
	// demandSpan sets the pool's size.
	demandWindow = time.Minute
	// defaultMaxWarm caps the warm pool when Warm is left to its default.
	defaultMaxWarm = 16
	// maxArrivals bounds the arrivals remembered; a pool this busy is at its
	// cap anyway.
	maxArrivals = 4096
	// defaultWarmCheck is how often the pool looks for warm workers beyond
	// its shrinking target.
	defaultWarmCheck = 30 * time.Second
)

// arrivals remembers when claims arrived, oldest first.
type arrivals struct {
	at []time.Time
}

// add records an arrival at now and forgets those older than span.
func (a *arrivals) add(now time.Time, span time.Duration) {
	a.forget(now, span)
	if len(a.at) == maxArrivals {
		a.at = a.at[1:]
	}
	a.at = append(a.at, now)
}

// forget drops the arrivals older than span.
func (a *arrivals) forget(now time.Time, span time.Duration) {
	i := 0
	for i < len(a.at) && now.Sub(a.at[i]) > span {
		i++
	}
	a.at = a.at[i:]
}

// peak is the most arrivals within any window of the given width among
// those remembered: a two-pointer sweep over the sorted times.
func (a *arrivals) peak(window time.Duration) int {
	best, lo := 0, 0
	for hi, t := range a.at {
		for t.Sub(a.at[lo]) >= window {
			lo++
		}
		best = max(best, hi-lo+1)
	}
	return best
}

// warmTargetLocked is how many workers the pool keeps ready now: the
// floor, or the peak demand of the last hour, at most maxWarm and at most
// half the kernels the budget holds (the other half is for live sessions).
// The budget check of each start (roomLocked) still applies. The caller
// holds p.mu.
func (p *Pool) warmTargetLocked(now time.Time) int {
	p.arrived.forget(now, p.cfg.demandSpan)
	ceiling := max(p.cfg.Warm, min(p.cfg.MaxWarm, p.capacity()/2))
	return min(max(p.cfg.Warm, p.arrived.peak(p.cfg.demandWindow)), ceiling)
}

// shrinkWarm kills the warm workers beyond the target, once the rush that
// raised it is over.
func (p *Pool) shrinkWarm() {
	p.mu.Lock()
	surplus := len(p.ready) - p.warmTargetLocked(time.Now())
	p.mu.Unlock()
	for ; surplus > 0; surplus-- {
		if !p.dropWarm() {
			return
		}
	}
}

// dropWarm kills one warm worker, if there is one, freeing its share of
// the budget.
func (p *Pool) dropWarm() bool {
	select {
	case w, ok := <-p.ready:
		if !ok {
			return false
		}
		w.kill()
		w.release(p)
		p.unspare()
		p.signal()
		return true
	default:
		return false
	}
}

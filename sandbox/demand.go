package sandbox

import (
	"sort"
	"time"
)

// The warm pool is sized to demand. A floor of workers is always kept ready
// (Config.Warm, more by default when kernels fork); beyond it, the pool keeps as many as the busiest minute of
// the last hour asked for, so that the second wave of a morning rush finds
// its kernels warm rather than cold-starting them while everyone waits.
// And it looks ahead: a team's day repeats, so the pool also keeps as many
// as the busiest minute of the coming half hour asked for a day ago and a
// week ago, and the first wave of the 9 am rush finds them warm too. When
// the rush is an hour old, and none is due, the pool shrinks back to the
// floor. Warm workers never push the pool past its memory budget, and they
// are the first to go when live kernels grow into it (see trim).

const (
	// demandSpan is how far back the arrivals that size the pool reach.
	demandSpan = time.Hour
	// demandWindow is the span whose busiest instance of the last
	// demandSpan sets the pool's size.
	demandWindow = time.Minute
	// demandDay is the rhythm a team's arrivals repeat on; the same
	// stretch a day and a week ago forecasts the coming forecastLead.
	demandDay = 24 * time.Hour
	// forecastLead is how far ahead the pool warms for a rush it expects:
	// enough for a cold start of every worker on a busy machine.
	forecastLead = 30 * time.Minute
	// defaultMaxWarm caps the warm pool when Warm is left to its default.
	defaultMaxWarm = 16
	// maxArrivals bounds the arrivals remembered (a week of them); a pool
	// this busy is at its cap anyway.
	maxArrivals = 1 << 14
	// defaultWarmCheck is how often the pool looks for warm workers beyond
	// its shrinking target, or short of a growing one.
	defaultWarmCheck = 30 * time.Second
)

// forecastDays are the days back whose arrivals forecast the coming ones:
// yesterday, and the same weekday last week (so that Monday follows last
// Monday rather than Sunday).
var forecastDays = []int{1, 7}

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
// those remembered.
func (a *arrivals) peak(window time.Duration) int {
	if len(a.at) == 0 {
		return 0
	}
	return a.peakBetween(a.at[0], a.at[len(a.at)-1].Add(1), window)
}

// peakBetween is the most arrivals within any window of the given width
// among those at from or later and before to: a two-pointer sweep over the
// sorted times.
func (a *arrivals) peakBetween(from, to time.Time, window time.Duration) int {
	at := a.at[sort.Search(len(a.at), func(i int) bool { return !a.at[i].Before(from) }):]
	at = at[:sort.Search(len(at), func(i int) bool { return !at[i].Before(to) })]
	best, lo := 0, 0
	for hi, t := range at {
		for t.Sub(at[lo]) >= window {
			lo++
		}
		best = max(best, hi-lo+1)
	}
	return best
}

// memory is how long arrivals are remembered: the last demandSpan, and
// the forecast's stretches a week back.
func (c *Config) memory() time.Duration {
	days := 0
	for _, d := range forecastDays {
		days = max(days, d)
	}
	return max(c.demandSpan, time.Duration(days)*c.demandDay)
}

// forecast is the busiest window expected in the coming forecastLead: the
// busiest of the same stretch a day ago and a week ago.
func (p *Pool) forecastLocked(now time.Time) int {
	best := 0
	for _, d := range forecastDays {
		from := now.Add(-time.Duration(d) * p.cfg.demandDay)
		best = max(best, p.arrived.peakBetween(from, from.Add(p.cfg.forecastLead), p.cfg.demandWindow))
	}
	return best
}

// warmTargetLocked is how many workers the pool keeps ready now: the
// floor, or the peak demand of the last hour or the one forecast, at most
// maxWarm and at most half the kernels the budget holds (the other half is
// for live sessions). The budget check of each start (roomLocked) still
// applies. The caller holds p.mu.
func (p *Pool) warmTargetLocked(now time.Time) int {
	p.arrived.forget(now, p.cfg.memory())
	floor := p.warmFloorLocked()
	ceiling := max(floor, min(p.cfg.MaxWarm, p.capacity()/2))
	recent := p.arrived.peakBetween(now.Add(-p.cfg.demandSpan), now.Add(1), p.cfg.demandWindow)
	return min(max(floor, recent, p.forecastLocked(now)), ceiling)
}

// forkedWarm is the default floor of warm workers when kernels fork from
// the template. A warm fork holds about 2.5 MB of its own (a kernel that
// starts Python itself, about 100 MB), so eight cost less than one did, and
// ten analysts who ask at once wait for two forks, not eight: forks are
// CPU-bound, about 100 ms each on two cores, and queue behind one another.
const forkedWarm = 8

// warmFloorLocked is the number of warm workers always kept: Config.Warm,
// or, left to its default while kernels fork, forkedWarm (at most half the
// kernels the budget holds). The caller holds p.mu.
func (p *Pool) warmFloorLocked() int {
	if !p.cfg.warmDefaulted || !p.forking() {
		return p.cfg.Warm
	}
	return max(p.cfg.Warm, min(forkedWarm, p.capacity()/2))
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

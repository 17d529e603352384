package sandbox

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// TestArrivalsPeak counts the busiest window among remembered arrivals and
// forgets those older than the span.
func TestArrivalsPeak(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	var a arrivals
	for _, s := range []int{0, 10, 20, 30, 200, 201, 202, 203, 204, 400} {
		a.add(t0.Add(time.Duration(s)*time.Second), time.Hour)
	}
	if got := a.peak(time.Minute); got != 5 {
		t.Fatalf("peak over a minute: %d, want 5 (200–204 s)", got)
	}
	if got := a.peak(time.Second); got != 1 {
		t.Fatalf("peak over a second: %d, want 1", got)
	}
	a.forget(t0.Add(time.Hour+250*time.Second), time.Hour)
	if got := a.peak(time.Minute); got != 1 {
		t.Fatalf("peak after the rush is an hour old: %d, want 1 (only 400 s is left)", got)
	}
}

// TestWarmPoolGrowsAfterARushAndShrinksBack: four claims at once make the
// pool keep four workers warm for the next wave; once the rush is older
// than the span that remembers it, the pool shrinks back to its floor.
func TestWarmPoolGrowsAfterARushAndShrinksBack(t *testing.T) {
	p := budgetPool(t, 20, func(c *Config) {
		c.Warm, c.MaxWarm, c.RefillParallel = 1, 6, 2
		c.warmCheck = 50 * time.Millisecond
	})
	waitFor(t, "the floor's warm worker", func() bool { return p.Stats().Ready == 1 })
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var rush []*Session
	for range 4 {
		s, err := p.Session(ctx)
		if err != nil {
			t.Fatal(err)
		}
		rush = append(rush, s)
	}
	if st := p.Stats(); st.WarmGoal != 4 {
		t.Fatalf("warm goal after four claims: %d, want 4; %+v", st.WarmGoal, st)
	}
	for _, s := range rush {
		s.Close()
	}
	waitWithin(t, 4*time.Minute, "four warm workers for the next wave", func() bool { return p.Stats().Ready == 4 })
	p.mu.Lock()
	p.cfg.demandSpan = time.Millisecond // as if the rush were an hour old
	p.mu.Unlock()
	waitFor(t, "the pool back at its floor", func() bool {
		st := p.Stats()
		return st.WarmGoal == 1 && st.Ready == 1
	})
}

// TestWarmPoolStaysWithinHalfTheBudget: a rush never makes the pool keep
// more warm workers than half the kernels its budget holds.
func TestWarmPoolStaysWithinHalfTheBudget(t *testing.T) {
	p := budgetPool(t, 6, func(c *Config) { c.Warm, c.MaxWarm = 1, 16 })
	waitFor(t, "a measured warm worker", func() bool { return p.Stats().KernelSize == unit })
	now := time.Now()
	p.mu.Lock()
	for range 10 {
		p.arrived.add(now, p.cfg.demandSpan)
	}
	goal := p.warmTargetLocked(now)
	p.mu.Unlock()
	if goal != 3 {
		t.Fatalf("warm goal after ten arrivals with room for six kernels: %d, want 3", goal)
	}
}

// TestTrimDropsWarmWorkersBeforeEvicting: when a live kernel grows past
// the budget, the warm workers go first; the user's idle kernel stays.
func TestTrimDropsWarmWorkersBeforeEvicting(t *testing.T) {
	var grown atomic.Int64
	grown.Store(unit)
	p := budgetPool(t, 3.5, func(c *Config) {
		c.Warm = 2
		c.memoryOf = func(int) int64 { return grown.Load() }
	})
	s := ownedSession(t, p, "ana")
	waitFor(t, "two warm workers beside the session", func() bool { return p.Stats().Ready == 2 })
	grown.Store(2 * unit) // the session and each warm worker now measure two units
	runOK(t, s, "y = 2")  // the cell's measure finds the pool over budget
	waitFor(t, "warm workers dropped to fit the budget", func() bool {
		st := p.Stats()
		return st.Used <= st.Budget
	})
	if evicted(s) {
		t.Fatalf("the idle session was evicted while warm workers could go: %+v", p.Stats())
	}
}

// TestWarmForecast: the arrivals of the same stretch a day and a week ago
// forecast the coming half hour's; those outside it, or older than the
// week, do not.
func TestWarmForecast(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 2, 8, 45, 0, 0, time.UTC)
	p := &Pool{cfg: Config{Warm: 1, MaxWarm: 16}.withDefaults()}
	at := func(ago time.Duration, n int) {
		for i := range n {
			p.arrived.add(now.Add(-ago+time.Duration(i)*time.Second), p.cfg.memory())
		}
	}
	// Oldest first, as claims arrive: eight days ago, twelve arrivals in a
	// minute; last week at 9:10, four; yesterday at 8:30 (behind now's time
	// of day), nine; yesterday at 9:00 (fifteen minutes ahead), six.
	at(8*24*time.Hour-15*time.Minute, 12)
	at(7*24*time.Hour-25*time.Minute, 4)
	at(24*time.Hour+15*time.Minute, 9)
	at(24*time.Hour-15*time.Minute, 6)
	if got := p.forecastLocked(now); got != 6 {
		t.Fatalf("forecast at 8:45: %d, want 6 (yesterday's 9:00)", got)
	}
	if got := p.forecastLocked(now.Add(time.Hour)); got != 0 {
		t.Fatalf("forecast at 9:45: %d, want 0 (nothing a day or a week back)", got)
	}
	// The pool itself: with room for twenty kernels, it keeps six warm.
	p.cfg.MemoryBudget, p.cfg.memoryOf = 20*unit, func(int) int64 { return unit }
	p.warmSize.Store(unit)
	if got := p.warmTargetLocked(now); got != 6 {
		t.Fatalf("warm goal at 8:45: %d, want 6", got)
	}
}

// TestWarmPoolWarmsUpForAForecastRush: a pool whose arrivals of a day ago
// forecast a rush grows to it before it comes, with no claim to start it.
func TestWarmPoolWarmsUpForAForecastRush(t *testing.T) {
	p := budgetPool(t, 20, func(c *Config) {
		c.Warm, c.MaxWarm, c.RefillParallel = 1, 6, 2
		c.warmCheck = 50 * time.Millisecond
	})
	waitFor(t, "the floor's warm worker", func() bool { return p.Stats().Ready == 1 })
	p.mu.Lock()
	yesterday := time.Now().Add(-p.cfg.demandDay + time.Minute)
	for i := range 3 {
		p.arrived.add(yesterday.Add(time.Duration(i)*time.Second), p.cfg.memory())
	}
	p.mu.Unlock()
	waitWithin(t, 4*time.Minute, "three warm workers for the rush forecast", func() bool {
		st := p.Stats()
		return st.WarmGoal == 3 && st.Ready == 3
	})
}

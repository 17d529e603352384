package sandbox

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

// burstSize is the rush of issue 28: ten new conversations asking at once.
const burstSize = 10

// BenchmarkBurst10 times ten new sessions claimed at once, each running
// print(1), from the claim to the cell's output: the first question of ten
// analysts arriving together. Side by side:
//   - cold: a pool at its default floor (eight warm when kernels fork), as
//     after a quiet night;
//   - floor2: a pool kept at two warm, the default before kernels forked;
//   - second-wave: the same pool after that rush, grown to the demand;
//   - forecast: a pool at its floor whose arrivals of a day ago, at this
//     time, were such a rush: it grows before the rush, with no claim;
//   - floor10: a pool configured to keep ten warm (SANDBOX_WARM=10).
//
// Between iterations the pool refills, untimed. It reports the median and
// the p95 over every session of every iteration, and fails if the kernels
// ever used more than the budget.
func BenchmarkBurst10(b *testing.B) {
	for _, tc := range []struct {
		name   string
		warm   int
		prime  bool // run one untimed rush first, so the pool has seen demand
		expect int  // warm workers to wait for before each timed rush; 0: the pool's floor
		// yesterday records a rush at this time a day ago, to forecast.
		yesterday bool
	}{
		{"cold", 0, false, 0, false},
		{"floor2", 2, false, 2, false},
		{"second-wave", 0, true, burstSize, false},
		{"forecast", 0, false, burstSize, true},
		{"floor10", burstSize, false, burstSize, false},
	} {
		b.Run(tc.name, func(b *testing.B) {
			cfg := sharedConfig()
			cfg.Warm, cfg.MaxWarm, cfg.MemoryBudget = tc.warm, 0, 4<<30
			cfg.warmCheck = time.Second // the forecast's growth is seen at a check
			p := newTestPool(b, cfg)
			if tc.prime {
				waitReady(b, p, 2)
				rush(b, p)
			}
			if tc.yesterday {
				p.mu.Lock()
				at := time.Now().Add(-p.cfg.demandDay + time.Minute)
				for i := range burstSize {
					p.arrived.add(at.Add(time.Duration(i)*time.Millisecond), p.cfg.memory())
				}
				p.mu.Unlock()
			}
			expect := cmp.Or(tc.expect, p.Stats().WarmGoal)
			var all []time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				if !tc.prime && !tc.yesterday && i > 0 {
					forgetRush(p) // each iteration cold again, not grown by the last one
				}
				waitReady(b, p, expect)
				b.StartTimer()
				all = append(all, rush(b, p)...)
			}
			b.StopTimer()
			reportQuantiles(b, all)
			if st := p.Stats(); st.Used > st.Budget {
				b.Fatalf("the kernels used %d bytes of a %d budget", st.Used, st.Budget)
			}
		})
	}
}

// forgetRush forgets the claims seen so far and drops the warm workers
// they called for, back to the floor.
func forgetRush(p *Pool) {
	p.mu.Lock()
	p.arrived = arrivals{}
	p.mu.Unlock()
	p.shrinkWarm()
}

// rush claims burstSize sessions at once, each running print(1), and
// returns each one's time from claim to output; the sessions are closed
// after, untimed.
func rush(b *testing.B, p *Pool) []time.Duration {
	b.Helper()
	ds, sessions, err := claimAtOnce(p, burstSize)
	b.StopTimer()
	defer b.StartTimer()
	closeAll(sessions)
	if err != nil {
		b.Fatal(err)
	}
	return ds
}

// claimAtOnce claims n sessions at once, each running print(1), and returns
// each one's time from claim to output, the sessions, and the first error.
func claimAtOnce(p *Pool, n int) ([]time.Duration, []*Session, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	ds := make([]time.Duration, n)
	sessions := make([]*Session, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			start := time.Now()
			s, err := p.Session(ctx)
			if err != nil {
				errs[i] = err
				return
			}
			sessions[i] = s
			r, err := s.Exec(ctx, "print(1)")
			if err == nil && r.Stdout != "1\n" {
				err = fmt.Errorf("print(1) gave %q", r.Stdout)
			}
			ds[i], errs[i] = time.Since(start), err
		})
	}
	wg.Wait()
	return ds, sessions, errors.Join(errs...)
}

// closeAll closes the sessions that were opened.
func closeAll(sessions []*Session) {
	for _, s := range sessions {
		if s != nil {
			s.Close()
		}
	}
}

// waitReady waits, untimed, until p holds n warm workers.
func waitReady(b *testing.B, p *Pool, n int) {
	b.Helper()
	b.StopTimer()
	defer b.StartTimer()
	waitWithin(b, 5*time.Minute, fmt.Sprintf("%d warm workers", n), func() bool { return p.Stats().Ready >= n })
}

// reportQuantiles adds the median and the 95th percentile of ds, in
// milliseconds, to the benchmark's output.
func reportQuantiles(b *testing.B, ds []time.Duration) {
	if len(ds) == 0 {
		return
	}
	slices.Sort(ds)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(ds[len(ds)/2]), "median-ms")
	b.ReportMetric(ms(ds[(len(ds)*95+99)/100-1]), "p95-ms")
}

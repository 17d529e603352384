package handlers_test

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/sandbox"
)

// BenchmarkFirstQuestion10App is issue 39's rush through the app's HTTP
// API: ten new conversations ask their first question at once (a fenced
// print, as htmx posts it), each needing a kernel of its own, on a pool at
// its default floor (cold) or kept at two warm (floor2, the default before
// kernels forked). It reports the median and p95 from the post to the
// answer's first event and to its end. Each rush is on a new app, whose
// conversations are made before it, untimed.
func BenchmarkFirstQuestion10App(b *testing.B) {
	for _, tc := range []struct {
		name  string
		floor int // the pool's Warm; -1: its default (0 would be newLiveApp's one)
	}{{"cold", -1}, {"floor2", 2}} {
		b.Run(tc.name, func(b *testing.B) {
			var first, done []time.Duration
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				l := newLiveApp(b, sandbox.Config{Warm: tc.floor, MemoryBudget: 4 << 30}) // cold each time
				c := newLoadClient(b, l, "ana")
				convs := make([]string, 10)
				for i := range convs {
					id, err := c.createConversation()
					if err != nil {
						b.Fatal(err)
					}
					convs[i] = id
				}
				awaitFloor(b, l.pool)
				b.StartTimer()
				f, d := appRush(b, c, convs)
				first, done = append(first, f...), append(done, d...)
			}
			b.StopTimer()
			reportQuantilesMs(b, "first", first)
			reportQuantilesMs(b, "answer", done)
		})
	}
}

// awaitFloor waits, untimed, until a new pool holds the warm workers of its
// floor (its goal before it has seen any claim).
func awaitFloor(b *testing.B, p *sandbox.Pool) {
	floor := p.Stats().WarmGoal
	deadline := time.Now().Add(5 * time.Minute)
	for p.Stats().Ready < floor {
		if time.Now().After(deadline) {
			b.Fatalf("the pool did not reach %d warm workers in 5 minutes: %+v", floor, p.Stats())
		}
		time.Sleep(10 * time.Millisecond) // a poll interval, not an ordering
	}
}

// appRush asks a fenced print in each conversation at once and returns each
// one's time to its first event and to its end.
func appRush(b *testing.B, c *loadClient, convs []string) (first, done []time.Duration) {
	first, done = make([]time.Duration, len(convs)), make([]time.Duration, len(convs))
	errs := make([]error, len(convs))
	var wg sync.WaitGroup
	for i, id := range convs {
		wg.Go(func() {
			start := time.Now()
			first[i], errs[i] = c.ask(id, "```python\nprint('rush', 6*7)\n```", "rush 42")
			done[i] = time.Since(start)
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			b.Fatal(err)
		}
	}
	return first, done
}

// reportQuantilesMs adds the median and p95 of ds, in milliseconds, as
// "<what>-median-ms" and "<what>-p95-ms".
func reportQuantilesMs(b *testing.B, what string, ds []time.Duration) {
	slices.Sort(ds)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(ds[len(ds)/2]), what+"-median-ms")
	b.ReportMetric(ms(ds[(len(ds)*95+99)/100-1]), what+"-p95-ms")
}

package sandbox

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// reportMedian adds the median of ds, in milliseconds, to the benchmark
// output; the goals in the issue are stated as medians.
func reportMedian(b *testing.B, ds []time.Duration) {
	if len(ds) == 0 {
		return
	}
	slices.Sort(ds)
	b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, "median-ms")
}

// waitWarm waits, outside the timed region, until p has a warm worker.
func waitWarm(b *testing.B, p *Pool) {
	b.Helper()
	waitWithin(b, 2*time.Minute, "a warm worker", func() bool { return p.Stats().Ready > 0 })
}

// BenchmarkFirstCellWarmPool: a new session from a warm pool plus print(1).
// The wait for the pool to refill between iterations is not timed.
func BenchmarkFirstCellWarmPool(b *testing.B) {
	ctx := context.Background()
	p := sharedPool(b)
	var ds []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		waitWarm(b, p)
		b.StartTimer()
		start := time.Now()
		s, err := p.Session(ctx)
		if err != nil {
			b.Fatal(err)
		}
		r, err := s.Exec(ctx, "print(1)")
		if err != nil || r.Stdout != "1\n" {
			b.Fatalf("print(1): %+v, %v", r, err)
		}
		ds = append(ds, time.Since(start))
		b.StopTimer()
		s.Close()
		b.StartTimer()
	}
	b.StopTimer()
	reportMedian(b, ds)
}

// BenchmarkCellWithFigure: a cell that draws one small chart, so the
// figure's PNG crosses the protocol and the host's reply checks.
func BenchmarkCellWithFigure(b *testing.B) {
	ctx := context.Background()
	s := openSession(b, sharedPool(b))
	runOK(b, s, "import matplotlib.pyplot as plt")
	ds := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		r, err := s.Exec(ctx, "plt.plot([1, 3, 2]); plt.title('x')")
		if err != nil || r.Error != nil || len(r.Figures) != 1 {
			b.Fatalf("chart cell: %+v, %v", r, err)
		}
		ds = append(ds, time.Since(start))
	}
	b.StopTimer()
	reportMedian(b, ds)
}

// BenchmarkPoolRefill claims every warm worker of a pool and measures how
// fast the pool is full again: the refill rate the warm-pool size must
// cover. It also reports the idle memory (PSS) of a warm worker.
func BenchmarkPoolRefill(b *testing.B) {
	ctx := context.Background()
	cfg := sharedConfig()
	cfg.Warm, cfg.RefillParallel = 4, 2
	p := newTestPool(b, cfg)
	fill := func() {
		for p.Stats().Ready < cfg.Warm {
			time.Sleep(5 * time.Millisecond)
		}
	}
	fill()
	pss := warmPSS(b, p)
	var total time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := 0; j < cfg.Warm; j++ {
			s, err := p.Session(ctx)
			if err != nil {
				b.Fatal(err)
			}
			s.Close()
		}
		start := time.Now()
		fill()
		total += time.Since(start)
	}
	b.StopTimer()
	perWorker := total / time.Duration(b.N*cfg.Warm)
	b.ReportMetric(float64(perWorker.Milliseconds()), "ms/worker")
	b.ReportMetric(float64(time.Second)/float64(perWorker), "workers/s")
	b.ReportMetric(pss/(1<<20), "pss-MB/worker") // after ResetTimer, which drops metrics
}

// warmPSS returns the mean proportional set size of the warm workers'
// Python processes, from /proc/<pid>/smaps_rollup.
func warmPSS(tb testing.TB, p *Pool) float64 {
	var ws []*worker
	for len(ws) < cap(p.ready) {
		select {
		case w := <-p.ready:
			ws = append(ws, w)
		default:
			goto measured
		}
	}
measured:
	var sum float64
	for _, w := range ws {
		kb, err := pssKB(w.pyPid)
		if err != nil {
			tb.Fatal(err)
		}
		sum += float64(kb) * 1024
		select {
		case p.ready <- w:
		default: // the pool refilled meanwhile
			w.kill()
			w.release(p)
		}
	}
	if len(ws) == 0 {
		tb.Fatal("no warm worker to measure")
	}
	return sum / float64(len(ws))
}

func pssKB(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "Pss:" {
			return strconv.ParseInt(f[1], 10, 64)
		}
	}
	return 0, fmt.Errorf("no Pss in smaps_rollup of %d", pid)
}

// TestWarmWorkerMemory keeps the idle cost of a warm worker in check: the
// design budget is about 70 MB PSS (reference/sandbox.md §4b).
func TestWarmWorkerMemory(t *testing.T) {
	p := sharedPool(t)
	for p.Stats().Ready == 0 {
		time.Sleep(10 * time.Millisecond)
	}
	pss := warmPSS(t, p)
	t.Logf("warm worker PSS %.1f MB", pss/(1<<20))
	if pss > 150<<20 {
		t.Fatalf("warm worker PSS %.1f MB, budget 150 MB", pss/(1<<20))
	}
}

package emulator

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/sandbox"
)

// BenchmarkBurst10REST is issue 28's rush through the emulator's REST API:
// ten new conversations ask their first question at once, a fenced
// print(1), streamed, each turn making its own container. It reports the median and p95 time to
// the first streamed event and to response.completed, over every
// conversation of every iteration, side by side for a pool at its default
// floor (cold, as after a quiet night) and the same pool after one rush
// (second-wave, grown to the demand), and for a pool kept at two warm, the
// default before kernels forked (floor2). Refills between rushes are untimed.
func BenchmarkBurst10REST(b *testing.B) {
	for _, tc := range []struct {
		name  string
		floor int // the pool's Warm; 0: its default
		prime bool
		warm  int // warm workers to wait for before each rush; 0: the pool's floor
	}{{"cold", 0, false, 0}, {"floor2", 2, false, 2}, {"second-wave", 0, true, 10}} {
		b.Run(tc.name, func(b *testing.B) {
			var first, done []time.Duration
			var ts *testServer
			var pool *sandbox.Pool
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				if ts == nil || !tc.prime { // a cold rush on a new engine each time; a second wave on the first one
					ts, pool = burstServer(b, tc.floor)
				}
				floor := pool.Stats().WarmGoal
				if tc.prime && i == 0 {
					awaitWarm(b, pool, floor)
					restRush(b, ts)
				}
				awaitWarm(b, pool, cmp.Or(tc.warm, floor))
				b.StartTimer()
				f, d := restRush(b, ts)
				first, done = append(first, f...), append(done, d...)
				if st := pool.Stats(); st.Used > st.Budget {
					b.Fatalf("the kernels used %d bytes of a %d budget", st.Used, st.Budget)
				}
			}
			b.StopTimer()
			reportMsQuantiles(b, "first", first)
			reportMsQuantiles(b, "answer", done)
		})
	}
}

// burstServer is an emulator on a pool of its own whose Warm is floor (0:
// the default), closed when the benchmark ends.
func burstServer(b *testing.B, floor int) (*testServer, *sandbox.Pool) {
	pool, err := sandbox.NewPool(context.Background(), sandbox.Config{Warm: floor, MemoryBudget: 4 << 30,
		CellTimeout: 90 * time.Second, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { pool.Close() })
	return newTestServer(b, func(c *Config) { c.Kernels = SandboxKernels{Pool: pool} }), pool
}

// restRush opens ten containers and streams a first question in each at
// once; it returns each one's time to the first event and to completion.
func restRush(b *testing.B, ts *testServer) (first, done []time.Duration) {
	b.Helper()
	const n = 10
	first, done = make([]time.Duration, n), make([]time.Duration, n)
	errs := make([]error, n)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: n}}
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			first[i], done[i], errs[i] = firstQuestion(client, ts)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			b.Fatal(err)
		}
	}
	return first, done
}

// firstQuestion streams one fenced print(1) in a new conversation, as the
// app's first question does: the turn makes its container itself (the
// agent's code_interpreter tool with an automatic container), so the
// conversation's first event need not wait for a kernel.
func firstQuestion(client *http.Client, ts *testServer) (first, done time.Duration, err error) {
	start := time.Now()
	status, data := ts.do("POST", "/openai/v1/conversations", map[string]any{})
	var conv struct{ ID string }
	if status != http.StatusOK || json.Unmarshal(data, &conv) != nil {
		return 0, 0, errors.New("create conversation: " + string(data))
	}
	body, _ := json.Marshal(map[string]any{"model": "m", "stream": true, "conversation": conv.ID,
		"input": "```python\nprint(1)\n```",
		"tools": []any{map[string]any{"type": "code_interpreter", "container": map[string]any{"type": "auto"}}}})
	req, _ := http.NewRequest("POST", ts.base+"/openai/v1/responses", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+testToken)
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return 0, 0, err
	}
	defer resp.Body.Close()
	r := newSSEReader(resp.Body)
	last := ""
	for {
		name, _, err := r.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return 0, 0, err
		}
		if first == 0 {
			first = time.Since(start)
		}
		last = name
	}
	if last != "response.completed" {
		return 0, 0, errors.New("stream ended with " + last)
	}
	return first, time.Since(start), nil
}

// awaitWarm waits, untimed, until the pool holds n warm workers.
func awaitWarm(b *testing.B, p *sandbox.Pool, n int) {
	b.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	for p.Stats().Ready < n {
		if time.Now().After(deadline) {
			b.Fatalf("the pool did not reach %d warm workers in 5 minutes: %+v", n, p.Stats())
		}
		time.Sleep(10 * time.Millisecond) // a poll interval, not an ordering
	}
}

// reportMsQuantiles adds the median and p95 of ds, in milliseconds, as
// "<what>-median-ms" and "<what>-p95-ms".
func reportMsQuantiles(b *testing.B, what string, ds []time.Duration) {
	if len(ds) == 0 {
		return
	}
	slices.Sort(ds)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(ds[len(ds)/2]), what+"-median-ms")
	b.ReportMetric(ms(ds[(len(ds)*95+99)/100-1]), what+"-p95-ms")
}

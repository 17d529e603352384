package emulator

import (
	"bytes"
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
// ten new conversations (a container each) ask their first question at
// once, a fenced print(1), streamed. It reports the median and p95 time to
// the first streamed event and to response.completed, over every
// conversation of every iteration, side by side for a pool at its default
// floor (cold, as after a quiet night) and the same pool after one rush
// (second-wave, grown to the demand). Refills between rushes are untimed.
func BenchmarkBurst10REST(b *testing.B) {
	for _, tc := range []struct {
		name  string
		prime bool
		warm  int
	}{{"cold", false, 2}, {"second-wave", true, 10}} {
		b.Run(tc.name, func(b *testing.B) {
			pool, err := sandbox.NewPool(context.Background(), sandbox.Config{MemoryBudget: 4 << 30,
				CellTimeout: 90 * time.Second, Logger: slog.New(slog.DiscardHandler)})
			if err != nil {
				b.Fatal(err)
			}
			defer pool.Close()
			ts := newTestServer(b, func(c *Config) { c.Kernels = SandboxKernels{Pool: pool} })
			if tc.prime {
				awaitWarm(b, pool, 2)
				restRush(b, ts)
			}
			var first, done []time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				awaitWarm(b, pool, tc.warm)
				b.StartTimer()
				f, d := restRush(b, ts)
				first, done = append(first, f...), append(done, d...)
			}
			b.StopTimer()
			reportMsQuantiles(b, "first", first)
			reportMsQuantiles(b, "answer", done)
			if st := pool.Stats(); st.Used > st.Budget {
				b.Fatalf("the kernels used %d bytes of a %d budget", st.Used, st.Budget)
			}
		})
	}
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

// firstQuestion makes a container and streams one fenced print(1) in it.
func firstQuestion(client *http.Client, ts *testServer) (first, done time.Duration, err error) {
	start := time.Now()
	status, data := ts.do("POST", "/openai/v1/containers", map[string]any{"name": "rush"})
	var c struct{ ID string }
	if status != http.StatusOK || json.Unmarshal(data, &c) != nil {
		return 0, 0, errors.New("create container: " + string(data))
	}
	body, _ := json.Marshal(map[string]any{"model": "m", "stream": true, "input": "```python\nprint(1)\n```",
		"tools": []any{map[string]any{"type": "code_interpreter", "container": c.ID}}})
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

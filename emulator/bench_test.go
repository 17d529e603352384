package emulator

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"testing"
	"time"
)

// BenchmarkStreamTurn streams a scripted turn (a fenced "x = 1") from the emulator to a plain
// HTTP SSE reader, in one container, and reports events per second. Compare its ns/op with
// BenchmarkSandboxExec's to get the time the emulator adds to a turn.
func BenchmarkStreamTurn(b *testing.B) {
	ts := newTestServer(b)
	c := ts.json("POST", "/openai/v1/containers", map[string]any{"name": "bench"}, 200)
	body, _ := json.Marshal(map[string]any{"model": "m", "stream": true, "input": "```python\nx = 1\n```",
		"tools": []any{map[string]any{"type": "code_interpreter", "container": c["id"]}}})
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	baseline := execBaseline(b)
	events := 0
	b.ResetTimer()
	start := time.Now()
	for b.Loop() {
		n, err := streamOnce(client, ts.base+"/openai/v1/responses", body)
		if err != nil {
			b.Fatal(err)
		}
		events += n
	}
	elapsed := time.Since(start)
	b.ReportMetric(float64(events)/float64(b.N), "events/op")
	b.ReportMetric(float64(events)/elapsed.Seconds(), "events/s")
	added := elapsed/time.Duration(b.N) - baseline
	b.ReportMetric(float64(added.Microseconds())/1000, "added-ms/op")
}

// execBaseline times the same cell on a bare sandbox session: what a turn costs without the
// emulator.
func execBaseline(b *testing.B) time.Duration {
	k, err := testKernels.Session(context.Background(), "")
	if err != nil {
		b.Fatal(err)
	}
	defer k.Close()
	const runs = 200
	start := time.Now()
	for range runs {
		if _, err := k.Exec(context.Background(), "x = 1"); err != nil {
			b.Fatal(err)
		}
	}
	return time.Since(start) / runs
}

// streamOnce posts one streaming request and counts the events up to response.completed.
func streamOnce(client *http.Client, url string, body []byte) (int, error) {
	req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+testToken)
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	r := newSSEReader(resp.Body)
	n, last := 0, ""
	for {
		name, _, err := r.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return n, err
		}
		n, last = n+1, name
	}
	if last != "response.completed" {
		return n, errors.New("stream ended with " + last)
	}
	return n, nil
}

// BenchmarkSandboxExec runs the same cell on a sandbox session directly: the baseline.
func BenchmarkSandboxExec(b *testing.B) {
	k, err := testKernels.Session(context.Background(), "")
	if err != nil {
		b.Fatal(err)
	}
	defer k.Close()
	for b.Loop() {
		if _, err := k.Exec(context.Background(), "x = 1"); err != nil {
			b.Fatal(err)
		}
	}
}

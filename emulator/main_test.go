package emulator

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/sandbox"
)

// testKernels is one sandbox pool shared by every test of the package: starting a pool per test
// would cost a second of CPU each on a small machine.
var testKernels Kernels

func TestMain(m *testing.M) {
	pool, err := sandbox.NewPool(context.Background(), sandbox.Config{Warm: 2,
		Logger: slog.New(slog.DiscardHandler)})
	if errors.Is(err, sandbox.ErrIsolationUnavailable) {
		// A machine without user namespaces still runs the turns, unsandboxed, rather than
		// testing nothing; the log says so.
		fmt.Fprintln(os.Stderr, "emulator tests: sandbox isolation unavailable, running kernels without it:", err)
		if pool != nil {
			pool.Close()
		}
		pool, err = sandbox.NewPool(context.Background(), sandbox.Config{Isolation: sandbox.IsolationNone,
			Warm: 2, Logger: slog.New(slog.DiscardHandler)})
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "emulator tests: start sandbox:", err)
		os.Exit(1)
	}
	testKernels = SandboxKernels{Pool: pool}
	code := m.Run()
	pool.Close()
	os.Exit(code)
}

const testToken = "test-token"

// testClock is a settable clock for container expiry.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// testServer is an emulator behind an httptest server, with helpers that speak JSON to it.
type testServer struct {
	t     testing.TB
	srv   *Server
	http  *httptest.Server
	clock *testClock
	base  string // project endpoint
}

func newTestServer(t testing.TB, change ...func(*Config)) *testServer {
	t.Helper()
	return newTestServerIn(t, t.TempDir(), change...)
}

func newTestServerIn(t testing.TB, dir string, change ...func(*Config)) *testServer {
	t.Helper()
	cfg := Config{Token: testToken, DataDir: dir, Kernels: testKernels, Logger: slog.New(slog.DiscardHandler)}
	for _, c := range change {
		c(&cfg)
	}
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	clock := &testClock{now: time.Now()}
	srv.now = clock.Now
	hs := httptest.NewServer(srv)
	ts := &testServer{t: t, srv: srv, http: hs, clock: clock, base: hs.URL + "/api/projects/test"}
	t.Cleanup(ts.close)
	return ts
}

var closeOnce sync.Map

func (ts *testServer) close() {
	if _, done := closeOnce.LoadOrStore(ts, true); done {
		return
	}
	ts.http.Close()
	if err := ts.srv.Close(); err != nil {
		ts.t.Errorf("close: %v", err)
	}
}

// do sends a request with the test token and returns the status and the raw body.
func (ts *testServer) do(method, path string, body any, header ...string) (int, []byte) {
	ts.t.Helper()
	resp := ts.send(method, path, body, header...)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		ts.t.Fatalf("%s %s: read body: %v", method, path, err)
	}
	return resp.StatusCode, data
}

func (ts *testServer) send(method, path string, body any, header ...string) *http.Response {
	ts.t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		r = strings.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			ts.t.Fatal(err)
		}
		r = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, ts.base+path, r)
	if err != nil {
		ts.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+testToken)
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		ts.t.Fatalf("%s %s: %v", method, path, err)
	}
	return resp
}

// json sends a request, checks the status and decodes the body.
func (ts *testServer) json(method, path string, body any, wantStatus int) map[string]any {
	ts.t.Helper()
	status, data := ts.do(method, path, body)
	if status != wantStatus {
		ts.t.Fatalf("%s %s: got status %d, want %d; body %s", method, path, status, wantStatus, data)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		ts.t.Fatalf("%s %s: decode %s: %v", method, path, data, err)
	}
	return m
}

// createAgent makes agent name with a code interpreter whose files are slots f1 and f2.
func (ts *testServer) createAgent(name string) map[string]any {
	ts.t.Helper()
	return ts.json("POST", "/agents/"+name+"/versions?api-version=v1", map[string]any{
		"definition": map[string]any{"kind": "prompt", "model": "local", "instructions": "Analyse {{f1}}.",
			"tools": []any{map[string]any{"type": "code_interpreter",
				"container": map[string]any{"type": "auto", "file_ids": []string{"{{f1}}", "{{f2}}"}}}},
			"structured_inputs": map[string]any{"f1": map[string]any{"required": false}, "f2": map[string]any{}}},
	}, http.StatusOK)
}

// upload stores a file through the multipart route.
func (ts *testServer) upload(name, content string) string {
	ts.t.Helper()
	status, body := ts.uploadRaw(name, content, "assistants")
	if status != http.StatusOK {
		ts.t.Fatalf("upload %s: status %d: %s", name, status, body)
	}
	var f fileObject
	if err := json.Unmarshal(body, &f); err != nil {
		ts.t.Fatal(err)
	}
	return f.ID
}

func (ts *testServer) uploadRaw(name, content, purpose string) (int, []byte) {
	ts.t.Helper()
	var buf bytes.Buffer
	boundary := "xXxBoundaryxXx"
	if purpose != "" {
		fmt.Fprintf(&buf, "--%s\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\n%s\r\n", boundary, purpose)
	}
	fmt.Fprintf(&buf, "--%s\r\nContent-Disposition: form-data; name=\"file\"; filename=%q\r\nContent-Type: text/csv\r\n\r\n%s\r\n--%s--\r\n",
		boundary, name, content, boundary)
	req, _ := http.NewRequest("POST", ts.base+"/openai/v1/files", &buf)
	req.Header.Set("Authorization", "Bearer "+testToken)
	req.Header.Set("Content-Type", "multipart/form-data; boundary="+boundary)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		ts.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, data
}

// sseEvent is one decoded event of a response stream.
type sseEvent struct {
	Name string
	Data map[string]any
}

// readSSE reads a whole event stream.
func readSSE(t testing.TB, r io.Reader) ([]sseEvent, error) {
	t.Helper()
	var events []sseEvent
	dec := newSSEReader(r)
	for {
		name, data, err := dec.next()
		if errors.Is(err, io.EOF) {
			return events, nil
		}
		if err != nil {
			return events, err
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("event %s: bad JSON %s", name, data)
		}
		events = append(events, sseEvent{Name: name, Data: m})
	}
}

// stream posts a streaming response request and reads every event.
func (ts *testServer) stream(body map[string]any, header ...string) []sseEvent {
	ts.t.Helper()
	body["stream"] = true
	resp := ts.send("POST", "/openai/v1/responses", body, header...)
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		data, _ := io.ReadAll(resp.Body)
		ts.t.Fatalf("stream: status %d: %s", resp.StatusCode, data)
	}
	events, err := readSSE(ts.t, resp.Body)
	if err != nil {
		ts.t.Fatalf("stream: %v", err)
	}
	return events
}

// lastResponse returns the response of the terminal event of a stream.
func lastResponse(t testing.TB, events []sseEvent) map[string]any {
	t.Helper()
	if len(events) == 0 {
		t.Fatal("no events")
	}
	resp, _ := events[len(events)-1].Data["response"].(map[string]any)
	if resp == nil {
		t.Fatalf("last event %s has no response", events[len(events)-1].Name)
	}
	return resp
}

// get walks a decoded JSON value by keys and indices, e.g. get(m, "output", 0, "id").
func get(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			l, _ := v.([]any)
			if k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}

// doURL GETs an absolute URL without a token.
func (ts *testServer) doURL(url string) (int, string) {
	ts.t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		ts.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}

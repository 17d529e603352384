package emulator

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
)

// brokenKernels stands for a sandbox whose isolation self-test failed.
type brokenKernels struct{ err error }

func (b brokenKernels) Session(context.Context, string) (Kernel, error) { return nil, b.err }
func (b brokenKernels) Ready() error                                    { return b.err }

// TestNotReady checks that without a working sandbox the emulator still serves, says why on
// /readyz, answers turns without code, and fails turns with code with the reason.
func TestNotReady(t *testing.T) {
	reason := errors.New("sandbox: isolation unavailable: no user namespaces")
	ts := newTestServer(t, func(c *Config) { c.Kernels = brokenKernels{reason} })
	for path, want := range map[string]string{"/healthz": "200 ok", "/readyz": "503 not ready: " + reason.Error()} {
		status, body := ts.doURL(ts.http.URL + path)
		if got := strings.TrimSpace(strconv.Itoa(status) + " " + body); got != want {
			t.Errorf("GET %s: %q, want %q", path, got, want)
		}
	}
	plain := ts.json("POST", "/openai/v1/responses", map[string]any{"model": "m", "input": "hi"}, 200)
	if plain["status"] != "completed" {
		t.Errorf("turn without code: %v", plain["status"])
	}
	coded := ts.json("POST", "/openai/v1/responses", map[string]any{"model": "m", "input": "```python\nx = 1\n```"}, 200)
	if coded["status"] != "failed" || !strings.Contains(stringOr(get(coded, "error", "message")), "isolation unavailable") {
		t.Errorf("turn with code: %v %v", coded["status"], coded["error"])
	}
}

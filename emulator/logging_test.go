package emulator

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"
)

// lockedBuffer is a bytes.Buffer safe for the server's goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestDebugRequestLog checks that debug logging records requests with their status, and that
// streams still flush through the logging writer.
func TestDebugRequestLog(t *testing.T) {
	var logs lockedBuffer
	ts := newTestServer(t, func(c *Config) {
		c.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	events := ts.stream(map[string]any{"model": "m", "input": "hi"})
	if events[len(events)-1].Name != "response.completed" {
		t.Fatalf("stream through the logging writer ended with %s", events[len(events)-1].Name)
	}
	ts.do("GET", "/openai/v1/files/file-x", nil)
	out := logs.String()
	for _, want := range []string{"path=/api/projects/test/openai/v1/responses", "status=200",
		"path=/api/projects/test/openai/v1/files/file-x", "status=404"} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
}

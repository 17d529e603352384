package sandbox

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"
)

// A cell's output reaches the host while it runs: the first line arrives
// before the cell ends (the test stops the cell when it sees the line; a
// cell whose output came only at the end would run into its timeout).
func TestSession_StreamsOutputWhileRunning(t *testing.T) {
	s := openSession(t, sharedPool(t))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var mu sync.Mutex
	var got strings.Builder
	ctx = WithOutput(ctx, func(text string) {
		mu.Lock()
		defer mu.Unlock()
		got.WriteString(text)
		if strings.Contains(got.String(), "first line") {
			cancel()
		}
	})
	_, err := s.Exec(ctx, "import time\nprint('first line', flush=True)\nfor _ in range(600):\n    time.sleep(0.1)\nprint('never')")
	if err == nil {
		t.Fatal("the cell ran to its end: its first line never streamed")
	}
	mu.Lock()
	defer mu.Unlock()
	if got.String() != "first line\n" {
		t.Fatalf("streamed %q", got.String())
	}
	if r := runOK(t, s, "print('after')"); r.Stdout != "after\n" {
		t.Fatalf("next cell: %q", r.Stdout)
	}
}

// Streaming keeps the output cap: what streams is never more than the
// reply may carry, and the reply still carries everything, marked as cut.
func TestSession_StreamKeepsOutputCap(t *testing.T) {
	s := openSession(t, sharedPool(t))
	var streamed int
	ctx := WithOutput(context.Background(), func(text string) { streamed += len(text) })
	r, err := s.Exec(ctx, "for i in range(30000):\n    print('x' * 99)")
	if err != nil {
		t.Fatal(err)
	}
	max := s.cfg.MaxOutputBytes
	if streamed == 0 || streamed > max {
		t.Fatalf("streamed %d bytes, cap %d", streamed, max)
	}
	if !r.Truncated || len(r.Stdout) < max {
		t.Fatalf("reply: truncated %v, %d bytes", r.Truncated, len(r.Stdout))
	}
}

// Without WithOutput nothing streams and the reply is as before.
func TestSession_NoStreamByDefault(t *testing.T) {
	s := openSession(t, sharedPool(t))
	if r := runOK(t, s, "print('a')\nprint('b')"); r.Stdout != "a\nb\n" {
		t.Fatalf("stdout %q", r.Stdout)
	}
}

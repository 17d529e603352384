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

// Streaming keeps the output cap: a cell that prints three times the cap
// and then waits streams exactly the cap (the test stops it then; a cell
// whose stream ignored the cap, or never reached it, would run into its
// timeout instead).
func TestSession_StreamKeepsOutputCap(t *testing.T) {
	s := openSession(t, sharedPool(t))
	max := s.cfg.MaxOutputBytes
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var streamed int
	ctx = WithOutput(ctx, func(text string) {
		if streamed += len(text); streamed >= max {
			cancel()
		}
	})
	_, err := s.Exec(ctx, "import time\nfor i in range(30000):\n    print('x' * 99)\nwhile True:\n    time.sleep(0.05)")
	if err == nil || streamed != max {
		t.Fatalf("streamed %d bytes, cap %d (exec error %v)", streamed, max, err)
	}
}

// Without WithOutput nothing streams and the reply is as before.
func TestSession_NoStreamByDefault(t *testing.T) {
	s := openSession(t, sharedPool(t))
	if r := runOK(t, s, "print('a')\nprint('b')"); r.Stdout != "a\nb\n" {
		t.Fatalf("stdout %q", r.Stdout)
	}
}

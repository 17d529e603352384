package purge_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/purge"
)

func TestBackoff_DoublesWithinBoundsAndJitters(t *testing.T) {
	svc := purge.New(purge.Config{MinBackoff: time.Second, MaxBackoff: time.Minute})
	tests := []struct {
		attempts int
		lo, hi   time.Duration
	}{
		{0, 500 * time.Millisecond, time.Second},
		{1, time.Second, 2 * time.Second},
		{3, 4 * time.Second, 8 * time.Second},
		{6, 30 * time.Second, time.Minute},
		{1000, 30 * time.Second, time.Minute},
	}
	for _, tt := range tests {
		seen := map[time.Duration]bool{}
		for range 50 {
			d := purge.Backoff(svc, tt.attempts)
			if d < tt.lo || d > tt.hi {
				t.Errorf("backoff after %d failures = %v, want within [%v, %v]", tt.attempts, d, tt.lo, tt.hi)
			}
			seen[d] = true
		}
		if len(seen) < 2 {
			t.Errorf("backoff after %d failures never varies", tt.attempts)
		}
	}
}

// TestRun_WorksWhatExecuteQueues checks the loop cmd/web starts: woken by
// Execute, it finishes a purge whose first attempts fail, then stops with
// its context.
func TestRun_WorksWhatExecuteQueues(t *testing.T) {
	e := newEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { e.svc.Run(ctx); close(stopped) }()
	ana := e.user(t, "ana")
	s := e.seed(t, ana, "x", "x data", "x chart")
	e.remote.mu.Lock()
	e.remote.fails["conversation:conv_x"] = 2
	e.remote.mu.Unlock()
	if _, err := e.svc.Execute(ctx, "admin1", purge.Selection{ConversationIDs: []string{s.conv.ID}}); err != nil {
		t.Fatal(err)
	}
	want := []string{"admin1 purge started", "admin1 purge completed"}
	deadline := time.Now().Add(10 * time.Second)
	for !slices.Equal(e.audit(t), want) {
		if time.Now().After(deadline) {
			t.Fatalf("audit = %v, want %v", e.audit(t), want)
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	select {
	case <-stopped:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not stop with its context")
	}
}

package auth

import (
	"context"
	"strconv"
	"testing"
	"time"
)

// TestMemoryLogBoundsItsKeys: past maxMemoryKeys the log forgets failures
// that no longer matter and keys within their spare failures, and keeps
// the keys that are being throttled.
func TestMemoryLogBoundsItsKeys(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	m := newMemoryLog(time.Hour, 3)
	for range 3 {
		m.Add(ctx, "guesser", at)
	}
	m.Add(ctx, "old", at.Add(-2*time.Hour))
	for i := range maxMemoryKeys {
		m.Add(ctx, "once"+strconv.Itoa(i), at)
	}
	// The sweep ran when the keys passed the bound; one key came after.
	if n := len(m.failures); n != 2 {
		t.Fatalf("%d keys after the sweep, want 2 (the one with 3 failures, the last one)", n)
	}
	if _, ok := m.failures["old"]; ok {
		t.Fatal("a failure past its hour was kept")
	}
	if fs, _ := m.Since(ctx, "guesser", at.Add(-time.Hour)); len(fs) != 3 {
		t.Fatalf("the guesser's failures = %v, want 3", fs)
	}
}

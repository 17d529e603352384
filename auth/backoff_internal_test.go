package auth

import (
	"context"
	"testing"
	"time"
)

// fail and wait are b.Fail and b.Wait in memory, which never errs.
func fail(b *Backoff, key string) { _ = b.Fail(context.Background(), key) }

func wait(b *Backoff, key string) time.Duration {
	d, _ := b.Wait(context.Background(), key)
	return d
}

func TestBackoffGrowsAndForgets(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	b := NewBackoff(3, 2*time.Second, time.Minute)
	b.now = func() time.Time { return now }

	var waits []time.Duration
	for i := 0; i < 8; i++ {
		fail(b, "k")
		waits = append(waits, wait(b, "k"))
	}
	want := []time.Duration{0, 0, 2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second, 32 * time.Second, time.Minute}
	for i := range want {
		if waits[i] != want[i] {
			t.Fatalf("waits after each failure = %v, want %v", waits, want)
		}
	}
	if wait(b, "other") != 0 {
		t.Fatal("an unrelated key waits")
	}
	now = now.Add(59 * time.Second)
	if w := wait(b, "k"); w != time.Second {
		t.Fatalf("Wait 59 s later = %v, want 1s", w)
	}
	// Waiting out the ceiling does not wipe the count: the next failure
	// waits the ceiling again, not a free attempt.
	now = now.Add(time.Hour)
	fail(b, "k")
	if w := wait(b, "k"); w != time.Minute {
		t.Fatalf("after the ceiling passed, one more failure waits %v, want 1m", w)
	}
	now = now.Add(backoffMemory + time.Second)
	fail(b, "k")
	if w := wait(b, "k"); w != 0 {
		t.Fatalf("a day later the count starts over, but Wait = %v", w)
	}
	b.Reset(context.Background(), "k")
	if wait(b, "k") != 0 {
		t.Fatal("waits after reset")
	}
}

func TestAddressKey(t *testing.T) {
	for in, want := range map[string]string{
		"192.0.2.1":        "192.0.2.1",
		"::ffff:192.0.2.1": "192.0.2.1",
		"2001:db8::1":      "2001:db8::/64",
		"2001:db8::ffff:1": "2001:db8::/64",
		"2001:db8:0:1::1":  "2001:db8:0:1::/64",
		"fe80::1%eth0":     "fe80::/64",
		"not an address":   "not an address",
	} {
		if got := addressKey(in); got != want {
			t.Errorf("addressKey(%q) = %q, want %q", in, got, want)
		}
	}
}

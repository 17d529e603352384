package auth

import (
	"sync"
	"time"
)

// Throttle counts failed sign-ins per key (an account, an address) in a
// sliding window and refuses more attempts once a key reaches its limit.
// It is in memory: a restart forgives everyone, which is acceptable for a
// single-process app and keeps a locked-out admin from staying locked out.
type Throttle struct {
	mu       sync.Mutex
	window   time.Duration
	failures map[string][]time.Time
	now      func() time.Time
}

// NewThrottle returns a throttle that remembers failures for window.
func NewThrottle(window time.Duration) *Throttle {
	return &Throttle{window: window, failures: map[string][]time.Time{}, now: time.Now}
}

// Allowed reports whether key has fewer than limit failures in the window.
func (t *Throttle) Allowed(key string, limit int) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.recent(key)) < limit
}

// Fail records a failure for key.
func (t *Throttle) Fail(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.failures[key] = append(t.recent(key), t.now())
	if len(t.failures) > 10000 {
		t.sweep()
	}
}

// Reset forgets key's failures, after a successful sign-in.
func (t *Throttle) Reset(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.failures, key)
}

// recent drops failures older than the window and returns the rest.
func (t *Throttle) recent(key string) []time.Time {
	cutoff := t.now().Add(-t.window)
	fs := t.failures[key]
	i := 0
	for i < len(fs) && fs[i].Before(cutoff) {
		i++
	}
	if i == len(fs) {
		delete(t.failures, key)
		return nil
	}
	t.failures[key] = fs[i:]
	return fs[i:]
}

// sweep bounds memory when many keys (addresses) have failed once.
func (t *Throttle) sweep() {
	for key := range t.failures {
		t.recent(key)
	}
}

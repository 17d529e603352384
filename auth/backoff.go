package auth

import (
	"sync"
	"time"
)

// Backoff makes each failure for a key wait longer than the last before
// the next attempt is accepted: the first few failures are free (people
// mistype), then the delay doubles up to a ceiling. Unlike a lockout it
// never refuses for long, and its key is an account *and* an address, so
// someone guessing a password from one address slows down only there,
// while the owner signs in from theirs.
type Backoff struct {
	mu      sync.Mutex
	free    int
	base    time.Duration
	max     time.Duration
	entries map[string]backoffEntry
	now     func() time.Time
}

type backoffEntry struct {
	failures int
	last     time.Time
}

// backoffMemory is how long a key's failures are remembered after its last
// one. It is well above the ceiling, so that waiting out the longest delay
// does not also wipe the count and hand out free attempts again.
const backoffMemory = 24 * time.Hour

// maxBackoffKeys bounds the memory many one-off failures can take.
const maxBackoffKeys = 10000

// NewBackoff returns a Backoff that lets free failures pass, then waits
// base, 2×base, 4×base … up to max after each further failure.
func NewBackoff(free int, base, max time.Duration) *Backoff {
	return &Backoff{free: free, base: base, max: max, entries: map[string]backoffEntry{}, now: time.Now}
}

// Wait returns how long key must still wait before its next attempt; zero
// means now.
func (b *Backoff) Wait(key string) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	e, ok := b.entries[key]
	if !ok {
		return 0
	}
	return max(0, e.last.Add(b.delay(e.failures)).Sub(b.now()))
}

// Fail records a failure for key.
func (b *Backoff) Fail(key string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now()
	e := b.entries[key]
	if now.Sub(e.last) > backoffMemory {
		e.failures = 0
	}
	b.entries[key] = backoffEntry{failures: e.failures + 1, last: now}
	if len(b.entries) > maxBackoffKeys {
		b.sweep(now)
	}
}

// Reset forgets key's failures, after a successful sign-in.
func (b *Backoff) Reset(key string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.entries, key)
}

// delay is the wait after n failures.
func (b *Backoff) delay(n int) time.Duration {
	if n < b.free {
		return 0
	}
	d := b.base
	for i := b.free; i < n && d < b.max; i++ {
		d *= 2
	}
	return min(d, b.max)
}

// sweep drops keys whose failures are forgotten, and keys still within
// their free failures: when many addresses fail once, those are the ones
// not worth keeping, and the per-address throttle still counts them.
func (b *Backoff) sweep(now time.Time) {
	for k, e := range b.entries {
		if now.Sub(e.last) > backoffMemory || e.failures < b.free {
			delete(b.entries, k)
		}
	}
}

package auth

import (
	"context"
	"time"
)

// Backoff makes each failure for a key wait longer than the last before
// the next attempt is accepted: the first few failures are free (people
// mistype), then the delay doubles up to a ceiling. Unlike a lockout it
// never refuses for long, and its key is an account *and* an address, so
// someone guessing a password from one address slows down only there,
// while the owner signs in from theirs. Its failures are kept in a
// FailureLog, as Throttle's are.
type Backoff struct {
	free int
	base time.Duration
	max  time.Duration
	log  FailureLog
	now  func() time.Time
}

// backoffMemory is how long each failure counts towards a key's delay. It
// is well above the ceiling, so that waiting out the longest delay does not
// also wipe the count and hand out free attempts again.
const backoffMemory = 24 * time.Hour

// NewBackoff returns a Backoff that lets free failures pass, then waits
// base, 2×base, 4×base … up to max after each further failure. It keeps
// its failures in memory; when many keys have failed, those within their
// free failures are forgotten first, since the per-address throttle still
// counts them.
func NewBackoff(free int, base, max time.Duration) *Backoff {
	return NewBackoffIn(newMemoryLog(backoffMemory, free), free, base, max)
}

// NewBackoffIn is NewBackoff keeping its failures in log, which other
// processes may share.
func NewBackoffIn(log FailureLog, free int, base, max time.Duration) *Backoff {
	return &Backoff{free: free, base: base, max: max, log: log, now: time.Now}
}

// Wait returns how long key must still wait before its next attempt; zero
// means now.
func (b *Backoff) Wait(ctx context.Context, key string) (time.Duration, error) {
	now := b.now()
	fs, err := b.log.Since(ctx, key, now.Add(-backoffMemory))
	if err != nil {
		return 0, err
	}
	return b.wait(fs, now), nil
}

// wait is the rule: with fs the failures that count, oldest first, the
// key waits the delay of their number after the last one.
func (b *Backoff) wait(fs []time.Time, now time.Time) time.Duration {
	if len(fs) == 0 {
		return 0
	}
	return max(0, fs[len(fs)-1].Add(b.delay(len(fs))).Sub(now))
}

// Fail records a failure for key.
func (b *Backoff) Fail(ctx context.Context, key string) error {
	return b.log.Add(ctx, key, b.now())
}

// Reset forgets key's failures, after a successful sign-in.
func (b *Backoff) Reset(ctx context.Context, key string) error {
	return b.log.Reset(ctx, key)
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

package auth

import (
	"context"
	"net/netip"
	"strconv"
	"time"
)

// Throttle counts failed sign-ins per key (a client address) in a sliding
// window and refuses more attempts once a key reaches its limit. Its
// failures are kept in a FailureLog: in memory by default, so that a
// restart forgives everyone, which is acceptable for a single-process app
// and keeps a locked-out admin from staying locked out.
type Throttle struct {
	window time.Duration
	log    FailureLog
	now    func() time.Time
}

// NewThrottle returns a throttle that remembers failures for window, in
// memory.
func NewThrottle(window time.Duration) *Throttle {
	return NewThrottleIn(newMemoryLog(window, 0), window)
}

// NewThrottleIn returns a throttle that keeps its failures in log, which
// other processes may share.
func NewThrottleIn(log FailureLog, window time.Duration) *Throttle {
	return &Throttle{window: window, log: log, now: time.Now}
}

// Wait returns how long until key has fewer than limit failures in the
// window, when its oldest counted failure leaves it; zero means now.
func (t *Throttle) Wait(ctx context.Context, key string, limit int) (time.Duration, error) {
	now := t.now()
	fs, err := t.log.Since(ctx, key, now.Add(-t.window))
	if err != nil {
		return 0, err
	}
	return t.wait(fs, limit, now), nil
}

// wait is the rule: with fs the failures in the window, oldest first, a
// key at its limit waits until the oldest of its last limit failures
// leaves the window.
func (t *Throttle) wait(fs []time.Time, limit int, now time.Time) time.Duration {
	if len(fs) < limit {
		return 0
	}
	return max(0, fs[len(fs)-limit].Add(t.window).Sub(now))
}

// Fail records a failure for key.
func (t *Throttle) Fail(ctx context.Context, key string) error {
	return t.log.Add(ctx, key, t.now())
}

// Reset forgets key's failures, after a successful sign-in.
func (t *Throttle) Reset(ctx context.Context, key string) error {
	return t.log.Reset(ctx, key)
}

// ThrottleError refuses a sign-in attempt that came too soon after failed
// ones. It matches ErrThrottled with errors.Is.
type ThrottleError struct {
	// Wait is how long until the next attempt is accepted.
	Wait time.Duration
}

func (e *ThrottleError) Error() string { return "auth: sign-in throttled for " + e.Wait.String() }

// UserMessage says how long to wait, rounded up to what a person reads.
func (e *ThrottleError) UserMessage() string {
	return "Too many failed sign-ins. Wait " + roundWait(e.Wait) + ", then try again."
}

// Is makes errors.Is(err, ErrThrottled) true.
func (e *ThrottleError) Is(target error) bool { return target == ErrThrottled }

func roundWait(d time.Duration) string {
	if d <= time.Minute {
		s := int((d + time.Second - 1) / time.Second)
		if s <= 1 {
			return "a second"
		}
		return strconv.Itoa(s) + " seconds"
	}
	m := int((d + time.Minute - 1) / time.Minute)
	return strconv.Itoa(m) + " minutes"
}

// addressKey is the throttle's name for a client address. An IPv6 client
// usually has a whole /64 to itself, so it is counted as one address;
// otherwise each attempt could come from a fresh one.
func addressKey(addr string) string {
	ip, err := netip.ParseAddr(addr)
	if err != nil {
		return addr
	}
	ip = ip.Unmap()
	if ip.Is4() {
		return ip.String()
	}
	p, _ := ip.WithZone("").Prefix(64)
	return p.String()
}

package auth

import (
	"net/netip"
	"strconv"
	"sync"
	"time"
)

// Throttle counts failed sign-ins per key (a client address) in a sliding
// window and refuses more attempts once a key reaches its limit.
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

// Wait returns how long until key has fewer than limit failures in the
// window, when its oldest counted failure leaves it; zero means now.
func (t *Throttle) Wait(key string, limit int) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	fs := t.recent(key)
	if len(fs) < limit {
		return 0
	}
	return max(0, fs[len(fs)-limit].Add(t.window).Sub(t.now()))
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

package auth

import (
	"context"
	"sync"
	"time"
)

// FailureLog keeps the times of failed sign-ins per key. Throttle and
// Backoff keep their failures in one and decide, each by its own rule,
// how long a key waits from the times the log gives back, wherever it
// keeps them: this process's memory (one server, the default), or the
// database when several replicas share it (see NewAccounts), so that
// failures split across the replicas count towards one limit.
type FailureLog interface {
	// Add records a failure of key at at.
	Add(ctx context.Context, key string, at time.Time) error
	// Since returns the times of key's failures at or after since, oldest
	// first.
	Since(ctx context.Context, key string, since time.Time) ([]time.Time, error)
	// Reset forgets key's failures.
	Reset(ctx context.Context, key string) error
}

// maxMemoryKeys bounds the memory many one-off failures can take.
const maxMemoryKeys = 10000

// memoryLog is a FailureLog in this process's memory: a restart forgives
// everyone, which is acceptable for a single-process app and keeps a
// locked-out admin from staying locked out.
type memoryLog struct {
	mu       sync.Mutex
	failures map[string][]time.Time
	// keep is how long a failure matters to the log's owner; older ones
	// are dropped as they are met.
	keep time.Duration
	// spare is how few failures a key may have to be dropped early, when
	// more than maxMemoryKeys have failed: those are the keys least worth
	// keeping.
	spare int
}

// newMemoryLog returns a memoryLog whose failures matter for keep.
func newMemoryLog(keep time.Duration, spare int) *memoryLog {
	return &memoryLog{failures: map[string][]time.Time{}, keep: keep, spare: spare}
}

func (m *memoryLog) Add(_ context.Context, key string, at time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.failures[key] = append(m.recent(key, at.Add(-m.keep)), at)
	if len(m.failures) > maxMemoryKeys {
		m.sweep(at.Add(-m.keep))
	}
	return nil
}

func (m *memoryLog) Since(_ context.Context, key string, since time.Time) ([]time.Time, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	fs := m.failures[key]
	i := 0
	for i < len(fs) && fs[i].Before(since) {
		i++
	}
	return append([]time.Time(nil), fs[i:]...), nil
}

func (m *memoryLog) Reset(_ context.Context, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.failures, key)
	return nil
}

// recent drops key's failures before cutoff and returns the rest.
func (m *memoryLog) recent(key string, cutoff time.Time) []time.Time {
	fs := m.failures[key]
	i := 0
	for i < len(fs) && fs[i].Before(cutoff) {
		i++
	}
	if i == len(fs) {
		delete(m.failures, key)
		return nil
	}
	m.failures[key] = fs[i:]
	return fs[i:]
}

// sweep bounds memory when many keys (addresses) have failed once: it drops
// the failures before cutoff, and the keys with fewer than spare left.
func (m *memoryLog) sweep(cutoff time.Time) {
	for key := range m.failures {
		if len(m.recent(key, cutoff)) < m.spare {
			delete(m.failures, key)
		}
	}
}

package purge

import "time"

// SetBatch makes local deletions go n conversations per transaction.
func SetBatch(s *Service, n int) { s.batch = n }

// SetAfterBatch runs f after every local batch of s.
func SetAfterBatch(s *Service, f func()) { s.afterBatch = f }

// Backoff is the wait of s after the attempts-th failure.
func Backoff(s *Service, attempts int) time.Duration { return s.backoff(attempts) }

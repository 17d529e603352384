package purge

// SetBatch makes local deletions go n conversations per transaction.
func SetBatch(s *Service, n int) { s.batch = n }

// SetAfterBatch runs f after every local batch of s.
func SetAfterBatch(s *Service, f func()) { s.afterBatch = f }

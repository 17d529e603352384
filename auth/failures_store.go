package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"sync"
	"time"

	"github.com/analyst-workbench/workbench/store"
)

// storeLog is a FailureLog in the database, for replicas that share it.
// Its keys are hashed with the log's name (two logs share one table), so
// the table holds neither typed usernames nor addresses in the clear, and
// a key with any bytes in it (a pair's is split by a NUL) is plain text.
type storeLog struct {
	db   *store.DB
	name string
	mu   sync.Mutex
	// pruned is when this process last deleted the rows no rule counts.
	pruned time.Time
}

// storeKeep is how long the table keeps a failure: the longest any rule
// counts one (Backoff's memory). Every log prunes the whole table, so it
// is one horizon for all.
const storeKeep = backoffMemory

// pruneEvery is how often a process prunes the table, at a failure.
const pruneEvery = time.Minute

// StoreFailures returns a FailureLog in db's login_failures table; logs
// of different names keep apart.
func StoreFailures(db *store.DB, name string) FailureLog {
	return &storeLog{db: db, name: name}
}

func (s *storeLog) Add(ctx context.Context, key string, at time.Time) error {
	if err := s.db.AddLoginFailure(ctx, s.key(key), at); err != nil {
		return err
	}
	return s.prune(ctx, at)
}

func (s *storeLog) Since(ctx context.Context, key string, since time.Time) ([]time.Time, error) {
	return s.db.LoginFailures(ctx, s.key(key), since)
}

func (s *storeLog) Reset(ctx context.Context, key string) error {
	return s.db.ResetLoginFailures(ctx, s.key(key))
}

func (s *storeLog) key(key string) string {
	sum := sha256.Sum256([]byte(s.name + "\x00" + key))
	return hex.EncodeToString(sum[:])
}

// prune deletes the failures older than storeKeep, at most every
// pruneEvery, so that the table stays as small as the failures that count.
func (s *storeLog) prune(ctx context.Context, now time.Time) error {
	s.mu.Lock()
	due := now.Sub(s.pruned) >= pruneEvery
	if due {
		s.pruned = now
	}
	s.mu.Unlock()
	if !due {
		return nil
	}
	_, err := s.db.PruneLoginFailures(ctx, now.Add(-storeKeep))
	return err
}

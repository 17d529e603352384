package store

import "context"

// TerminateLeadHolders ends, from db, every server connection holding a
// lead's advisory lock, as the death of the replicas holding them would;
// it returns how many it ended.
func TerminateLeadHolders(ctx context.Context, db *DB) (int, error) {
	var n int
	err := db.db.QueryRowContext(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_locks
		WHERE locktype = 'advisory' AND granted AND pid <> pg_backend_pid()`).Scan(&n)
	return n, err
}

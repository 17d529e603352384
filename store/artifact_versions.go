package store

import (
	"context"
	"fmt"
)

// ArtifactRuns returns the run that made each of the artifacts ids, keyed
// by artifact id; ids not found are left out.
func (db *DB) ArtifactRuns(ctx context.Context, ids []string) (map[string]string, error) {
	out := map[string]string{}
	if len(ids) == 0 {
		return out, nil
	}
	list := jsonList(ids)
	rows, err := db.q.QueryContext(ctx, `SELECT id, run_id FROM artifacts WHERE id IN (SELECT value FROM `+db.d.list("?")+`)`, list)
	if err != nil {
		return nil, fmt.Errorf("store: artifact runs: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, run string
		if err := rows.Scan(&id, &run); err != nil {
			return nil, fmt.Errorf("store: artifact runs: %w", err)
		}
		out[id] = run
	}
	return out, rows.Err()
}

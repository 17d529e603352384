package store_test

import (
	"context"
	"testing"

	"github.com/analyst-workbench/workbench/store"
)

// TestRead_OneSnapshot: the reads inside Read all see the database as it
// was at the first, though another connection writes meanwhile, and the
// write is not held up by the snapshot.
func TestRead_OneSnapshot(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	if _, err := db.CreateUser(ctx, "ana", "x", "analyst", nil); err != nil {
		t.Fatal(err)
	}
	err := db.Read(ctx, func(r *store.DB) error {
		before, err := r.Users(ctx)
		if err != nil {
			return err
		}
		if _, err := db.CreateUser(ctx, "ben", "x", "analyst", nil); err != nil {
			t.Fatalf("a write during a Read: %v", err)
		}
		after, err := r.Users(ctx)
		if err != nil {
			return err
		}
		if len(before) != 1 || len(after) != 1 {
			t.Errorf("users inside one Read: %d then %d, want 1 both times", len(before), len(after))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if users, err := db.Users(ctx); err != nil || len(users) != 2 {
		t.Fatalf("users after the Read: %d, %v; want 2", len(users), err)
	}
}

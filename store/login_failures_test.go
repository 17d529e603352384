package store_test

import (
	"context"
	"testing"
	"time"
)

// TestLoginFailures: failures are kept per key, read from a time on oldest
// first, forgotten by key on reset and by age on prune.
func TestLoginFailures(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, f := range []struct {
		key string
		at  time.Duration
	}{{"a", 2 * time.Second}, {"a", 0}, {"a", 5 * time.Second}, {"b", time.Second}} {
		if err := db.AddLoginFailure(ctx, f.key, t0.Add(f.at)); err != nil {
			t.Fatal(err)
		}
	}
	got, err := db.LoginFailures(ctx, "a", t0.Add(time.Second))
	if err != nil || len(got) != 2 || !got[0].Equal(t0.Add(2*time.Second)) || !got[1].Equal(t0.Add(5*time.Second)) {
		t.Fatalf("a's failures from t0+1s = %v, %v; want t0+2s and t0+5s", got, err)
	}
	if err := db.ResetLoginFailures(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.LoginFailures(ctx, "a", t0); len(got) != 0 {
		t.Fatalf("after reset a has %v", got)
	}
	if got, _ := db.LoginFailures(ctx, "b", t0); len(got) != 1 {
		t.Fatalf("a's reset touched b: %v", got)
	}
	db.AddLoginFailure(ctx, "b", t0.Add(time.Minute))
	if n, err := db.PruneLoginFailures(ctx, t0.Add(30*time.Second)); err != nil || n != 1 {
		t.Fatalf("prune = %d, %v; want 1", n, err)
	}
	if got, _ := db.LoginFailures(ctx, "b", t0); len(got) != 1 || !got[0].Equal(t0.Add(time.Minute)) {
		t.Fatalf("after prune b has %v, want only t0+1m", got)
	}
}

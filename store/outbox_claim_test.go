package store_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/store"
)

// queueRemote starts a purge of n Foundry files and returns it.
func queueRemote(t *testing.T, db *store.DB, n int) string {
	t.Helper()
	var objects []store.PurgeObject
	for i := range n {
		objects = append(objects, store.PurgeObject{Kind: store.OutboxFoundryFile, Target: fmt.Sprintf("assistant-%d", i)})
	}
	id, err := db.StartPurge(context.Background(), store.PurgeStart{Actor: "admin", Action: "purge", Objects: objects})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestClaimOutbox_ConcurrentClaimersTakeDisjointEntries: two workers
// claiming at once, a few entries at a time until none is left, never get
// the same entry, and between them get every one.
func TestClaimOutbox_ConcurrentClaimersTakeDisjointEntries(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	queueRemote(t, db, 50)
	at := time.Now().Add(time.Hour)
	claimed := make([][]int64, 2)
	errs := atOnce(2, func(i int) error {
		for {
			got, err := db.ClaimOutbox(ctx, at, 3, time.Minute)
			if err != nil || len(got) == 0 {
				return err
			}
			for _, e := range got {
				claimed[i] = append(claimed[i], e.ID)
			}
		}
	})
	if ok, _, other := count(errs, nil); ok != 2 {
		t.Fatalf("claim failed: %v", other)
	}
	all := slices.Concat(claimed[0], claimed[1])
	slices.Sort(all)
	if len(slices.Compact(slices.Clone(all))) != len(all) {
		t.Fatalf("an entry was claimed twice: %v and %v", claimed[0], claimed[1])
	}
	if len(all) != 50 {
		t.Fatalf("%d entries claimed (%d + %d), want all 50", len(all), len(claimed[0]), len(claimed[1]))
	}
	t.Logf("claimed %d and %d", len(claimed[0]), len(claimed[1]))
}

// TestClaimOutbox_ClaimLastsItsLease: a claimed entry is due to no one
// until its lease passes or it is failed, released or completed.
func TestClaimOutbox_ClaimLastsItsLease(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	queueRemote(t, db, 3)
	at := time.Now().Add(time.Hour)
	claim := func(now time.Time) []*store.OutboxEntry {
		t.Helper()
		got, err := db.ClaimOutbox(ctx, now, 10, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	first := claim(at)
	if len(first) != 3 || first[0].ID > first[1].ID || first[1].ID > first[2].ID {
		t.Fatalf("first claim = %+v, want the 3 entries in order", first)
	}
	if got := claim(at.Add(59 * time.Second)); len(got) != 0 {
		t.Fatalf("claimed again within the lease: %d entries", len(got))
	}
	if due, _ := db.DueOutbox(ctx, at.Add(59*time.Second), 10); len(due) != 0 {
		t.Fatalf("%d claimed entries listed as due", len(due))
	}
	if next, ok, err := db.NextOutbox(ctx); err != nil || !ok || !next.Equal(at.Add(time.Minute).Truncate(time.Millisecond)) {
		t.Fatalf("NextOutbox = %v, %v, %v; want the claim's end %v", next, ok, err, at.Add(time.Minute))
	}

	// Completed, failed and released entries leave their claim early.
	if err := db.CompleteOutbox(ctx, first[0].ID, store.ResultDeleted); err != nil {
		t.Fatal(err)
	}
	if err := db.FailOutbox(ctx, first[1].ID, "503", at.Add(10*time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := db.ReleaseOutbox(ctx, first[2].ID); err != nil {
		t.Fatal(err)
	}
	if got := claim(at.Add(time.Second)); len(got) != 1 || got[0].ID != first[2].ID {
		t.Fatalf("after release, claim = %+v; want the released entry", got)
	}
	if got := claim(at.Add(10 * time.Second)); len(got) != 1 || got[0].ID != first[1].ID || got[0].Attempts != 1 {
		t.Fatalf("after the failure's retry time, claim = %+v; want the failed entry", got)
	}

	// An expired claim is claimable again, by anyone: both claims above
	// have ended a minute on, the completed entry stays done.
	later := at.Add(10*time.Second + time.Minute)
	// The released entry comes first: its next attempt was due earlier.
	if got := claim(later); len(got) != 2 || got[0].ID != first[2].ID || got[1].ID != first[1].ID {
		t.Fatalf("after the leases, claim = %+v; want the 2 entries not completed", got)
	}
	// A process that owns the database gives back every claim at start.
	if n, err := db.ReleaseOutboxClaims(ctx); err != nil || n != 2 {
		t.Fatalf("ReleaseOutboxClaims = %d, %v; want 2", n, err)
	}
	if got := claim(later); len(got) != 2 {
		t.Fatalf("after releasing every claim, claim = %d entries; want 2", len(got))
	}
}

package store_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/store"
)

// TestRunLeases: a claimed run is its owner's while renewed; once its lease
// lapses it is an orphan that exactly one of two adopters gets, after
// which the first owner can no longer renew it; a run never claimed is an
// orphan only after the grace.
func TestRunLeases(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	u, _ := db.CreateUser(ctx, "ana", "h", store.RoleAnalyst, nil)
	c, _ := db.CreateConversation(ctx, u.ID, store.DefaultTitle)
	_, run, err := db.StartTurn(ctx, u.ID, c.ID, "How many rows?", "")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if orphans, err := db.OrphanRuns(ctx, now, time.Minute); err != nil || len(orphans) != 0 {
		t.Fatalf("a run just started, unclaimed, within the grace: %+v, %v", orphans, err)
	}
	if ok, err := db.ClaimRun(ctx, run.ID, "a", now.Add(10*time.Second)); err != nil || !ok {
		t.Fatalf("claim: %v %v", ok, err)
	}
	if ok, _ := db.ClaimRun(ctx, run.ID, "b", now.Add(10*time.Second)); ok {
		t.Fatal("a claimed run was claimed again")
	}
	if err := db.NoteResponse(ctx, run.ID, "resp_1"); err != nil {
		t.Fatal(err)
	}
	if ok, err := db.RenewRun(ctx, run.ID, "a", now.Add(20*time.Second)); err != nil || !ok {
		t.Fatalf("renew: %v %v", ok, err)
	}
	if orphans, _ := db.OrphanRuns(ctx, now.Add(15*time.Second), time.Minute); len(orphans) != 0 {
		t.Fatalf("a renewed run is an orphan: %+v", orphans)
	}
	later := now.Add(30 * time.Second)
	orphans, err := db.OrphanRuns(ctx, later, time.Minute)
	if err != nil || len(orphans) != 1 {
		t.Fatalf("lapsed lease: %+v, %v", orphans, err)
	}
	if o := orphans[0]; o.Run.ID != run.ID || o.UserID != u.ID || o.Question != "How many rows?" || o.Run.ResponseID != "resp_1" {
		t.Fatalf("orphan = %+v (run %+v)", o, o.Run)
	}
	var wg sync.WaitGroup
	won := make([]bool, 2)
	for i, owner := range []string{"b", "c"} {
		wg.Go(func() {
			ok, err := db.AdoptRun(ctx, run.ID, owner, later, later.Add(10*time.Second))
			if err != nil {
				t.Error(err)
			}
			won[i] = ok
		})
	}
	wg.Wait()
	if won[0] == won[1] {
		t.Fatalf("adopters won %v, want exactly one", won)
	}
	if ok, _ := db.RenewRun(ctx, run.ID, "a", later.Add(time.Minute)); ok {
		t.Fatal("the first owner renewed a run another adopted")
	}
	if err := db.FinishRun(ctx, run.ID, store.RunEnd{Status: store.RunCompleted, Owner: "a"}); !errors.Is(err, store.ErrNotOwner) {
		t.Fatalf("the first owner ended a run another adopted: %v, want ErrNotOwner", err)
	}
	winner := map[bool]string{true: "b", false: "c"}[won[0]]
	if err := db.ReleaseRun(ctx, run.ID, winner); err != nil {
		t.Fatal(err)
	}
	if orphans, _ := db.OrphanRuns(ctx, later.Add(time.Second), time.Minute); len(orphans) != 1 {
		t.Fatalf("a released run is no orphan: %+v", orphans)
	}
}

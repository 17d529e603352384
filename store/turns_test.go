package store_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/analyst-workbench/workbench/store"
)

// TestRunEventsOf reads the events of many runs at once, each run's in
// order, and only those asked for.
func TestRunEventsOf(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	u, _ := db.CreateUser(ctx, "ana", "h", store.RoleAnalyst)
	var ids []string
	for i := range 3 {
		c, _ := db.CreateConversation(ctx, u.ID, store.DefaultTitle)
		_, run, err := db.StartTurn(ctx, u.ID, c.ID, "q", "")
		if err != nil {
			t.Fatal(err)
		}
		for seq := int64(1); seq <= int64(i+1); seq++ {
			if err := db.AppendRunEvent(ctx, run.ID, store.RunEvent{Seq: seq, Type: "t", Data: fmt.Sprint(i, seq)}); err != nil {
				t.Fatal(err)
			}
		}
		ids = append(ids, run.ID)
	}
	got, err := db.RunEventsOf(ctx, []string{ids[0], ids[2], "missing"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || len(got[ids[0]]) != 1 || len(got[ids[2]]) != 3 || got[ids[1]] != nil {
		t.Fatalf("got %v", got)
	}
	for i, e := range got[ids[2]] {
		if e.Seq != int64(i+1) || e.Data != fmt.Sprint(2, i+1) {
			t.Fatalf("event %d of the third run: %+v", i, e)
		}
	}
}

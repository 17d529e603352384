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
	u, _ := db.CreateUser(ctx, "ana", "h", store.RoleAnalyst, nil)
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

// TestStartStep records a step as such, with its author, and keeps it
// apart from questions when the turns are read back; a step, like a
// question, cannot start while a turn runs.
func TestStartStep(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	u, _ := db.CreateUser(ctx, "ana", "h", store.RoleAnalyst, nil)
	c, _ := db.CreateConversation(ctx, u.ID, "Sales")
	_, run, err := db.StartTurn(ctx, u.ID, c.ID, "plot sales", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.StartStep(ctx, u.ID, c.ID, "x = 1", "Python: x = 1"); err != store.ErrRunInProgress {
		t.Fatalf("a step during a running turn: %v, want ErrRunInProgress", err)
	}
	if err := db.FinishRun(ctx, run.ID, store.RunEnd{Status: store.RunCompleted}); err != nil {
		t.Fatal(err)
	}
	msg, _, err := db.StartStep(ctx, u.ID, c.ID, "x = 1", "Python: x = 1")
	if err != nil {
		t.Fatal(err)
	}
	if msg.Kind != store.KindStep || msg.Author != "ana" || msg.Content != "x = 1" {
		t.Fatalf("started step: %+v", msg)
	}
	turns, err := db.Turns(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(turns) != 2 {
		t.Fatalf("%d turns, want 2", len(turns))
	}
	if q := turns[0].Message; q.Kind != store.KindQuestion || q.Author != "" {
		t.Errorf("question read back as %+v", q)
	}
	if s := turns[1].Message; s.Kind != store.KindStep || s.Author != "ana" || s.Content != "x = 1" {
		t.Errorf("step read back as %+v", s)
	}
	if got, _ := db.Conversation(ctx, u.ID, c.ID); got.Title != "Sales" {
		t.Errorf("a step renamed the conversation to %q", got.Title)
	}
}

// TestRunsBelong accepts runs only of the user's own conversation: another
// conversation's run, someone else's conversation or an unknown run is
// refused, in the one query chat's reads use to check the owner.
func TestRunsBelong(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	ana, _ := db.CreateUser(ctx, "ana", "h", store.RoleAnalyst, nil)
	ben, _ := db.CreateUser(ctx, "ben", "h", store.RoleAnalyst, nil)
	mine, _ := db.CreateConversation(ctx, ana.ID, store.DefaultTitle)
	other, _ := db.CreateConversation(ctx, ana.ID, store.DefaultTitle)
	_, first, _ := db.StartTurn(ctx, ana.ID, mine.ID, "q1", "")
	if err := db.FinishRun(ctx, first.ID, store.RunEnd{Status: store.RunCompleted}); err != nil {
		t.Fatal(err)
	}
	_, second, _ := db.StartTurn(ctx, ana.ID, mine.ID, "q2", "")
	_, elsewhere, _ := db.StartTurn(ctx, ana.ID, other.ID, "q3", "")
	for _, tc := range []struct {
		name     string
		user, cv string
		runs     []string
		want     bool
	}{
		{"both runs of the conversation", ana.ID, mine.ID, []string{first.ID, second.ID}, true},
		{"one run asked twice", ana.ID, mine.ID, []string{second.ID, second.ID}, true},
		{"no runs of an own conversation", ana.ID, mine.ID, nil, true},
		{"a run of another conversation", ana.ID, mine.ID, []string{first.ID, elsewhere.ID}, false},
		{"an unknown run", ana.ID, mine.ID, []string{"run_missing"}, false},
		{"someone else's conversation", ben.ID, mine.ID, []string{first.ID}, false},
		{"no runs of someone else's conversation", ben.ID, mine.ID, nil, false},
	} {
		got, err := db.RunsBelong(ctx, tc.user, tc.cv, tc.runs)
		if err != nil || got != tc.want {
			t.Errorf("%s: %v, %v; want %v", tc.name, got, err, tc.want)
		}
	}
}

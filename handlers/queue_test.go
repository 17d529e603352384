package handlers_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/analyst-workbench/workbench/store"
)

// TestQuestionNotStartedOffersToAskAgain: a question that waited behind a
// stopped answer when the server restarted shows as never started, with a
// button that puts it back in the composer.
func TestQuestionNotStartedOffersToAskAgain(t *testing.T) {
	a := newApp(t)
	b := a.signedIn("ana", store.RoleAnalyst)
	ctx := context.Background()
	u := mustUser(t, a, "ana")
	c, _ := a.db.CreateConversation(ctx, u.ID, "Metals")
	_, first, _ := a.db.StartTurn(ctx, u.ID, c.ID, "plot tonnage", "")
	a.db.QueueTurn(ctx, u.ID, c.ID, "and vanadium by year?", "")
	a.db.InterruptRuns(ctx) // the restart
	r := b.get("/conversations/" + c.ID)
	expect(t, r, http.StatusOK, store.NotStarted, `data-testid="ask-again"`, `data-example="and vanadium by year?"`)
	if rec, _ := a.db.RunByID(ctx, first.ID); rec.Status != store.RunInterrupted {
		t.Fatalf("the running answer after the restart: %s", rec.Status)
	}
}

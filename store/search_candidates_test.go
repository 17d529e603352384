package store_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/analyst-workbench/workbench/store"
)

// hitKeys lists hits as conversation, kind, anchor and passage, in order.
func hitKeys(hits []store.SearchHit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = fmt.Sprintf("%s %s %s %q", h.Conversation.ID, h.Kind, h.Anchor, h.Snippet)
	}
	return out
}

// TestSearchBelowTheCapIsUnchanged: every query whose matches fit in the
// candidates, and every query that fewer conversations match than a page
// holds (limit 500 of 200), gets the same hits in the same order, passages
// included, as the search that ranked every match; so do broad queries
// ("e4" matches most of the 2,000 messages) where conversations were
// written one after another, as people mostly write them.
func TestSearchBelowTheCapIsUnchanged(t *testing.T) {
	only(t, "sqlite") // the old search it compares with was FTS5's
	db := openDB(t)
	ana := seedSlowSearch(t, db) // 200 conversations of 10 messages from 500 words
	ctx := context.Background()
	for _, q := range []string{"e42x", "e4", "e42", "e1x e14x", "e1 e2 e3", "conversation", "zzq", "e42x e99x e7"} {
		for _, limit := range []int{50, 500} {
			got, err := db.SearchConversations(ctx, ana, q, limit)
			if err != nil {
				t.Fatal(err)
			}
			want, err := db.LegacySearch(ctx, ana, q, limit)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(hitKeys(got), hitKeys(want)) {
				t.Errorf("search %q (limit %d): %d hits differ from ranking every match (%d)\n got %v\nwant %v",
					q, limit, len(got), len(want), hitKeys(got), hitKeys(want))
			}
		}
	}
}

// TestSearchRanksTheNewestCandidates holds the rule of SearchCandidates
// with a cap of two: the page is the conversations of the newest matches,
// most recently updated first, not a conversation whose only match is old;
// and a page the candidates cannot fill is searched again until it is.
func TestSearchRanksTheNewestCandidates(t *testing.T) {
	db := openDB(t)
	db.Now = fakeClock()
	db.SetSearchCandidates(2)
	ctx := context.Background()
	u, _ := db.CreateUser(ctx, "ana", "h", store.RoleAnalyst, nil)
	ask := func(convID, q string) {
		t.Helper()
		_, run, err := db.StartTurn(ctx, u.ID, convID, q, "")
		if err != nil {
			t.Fatal(err)
		}
		db.FinishRun(ctx, run.ID, store.RunEnd{Status: store.RunCompleted})
	}
	old, _ := db.CreateConversation(ctx, u.ID, "Old")
	ask(old.ID, "vanadium prices") // the oldest match
	y, _ := db.CreateConversation(ctx, u.ID, "Y")
	ask(y.ID, "vanadium again")
	z, _ := db.CreateConversation(ctx, u.ID, "Z")
	ask(z.ID, "vanadium once more")
	ask(old.ID, "something else") // Old is now the most recently updated

	ids := func(limit int) []string {
		hits, err := db.SearchConversations(ctx, u.ID, "vanad", limit)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, h := range hits {
			out = append(out, h.Conversation.Title)
		}
		return out
	}
	if got, want := ids(2), []string{"Z", "Y"}; !slices.Equal(got, want) {
		t.Errorf("a full page from two candidates: %v, want %v (the conversations of the newest matches)", got, want)
	}
	if got, want := ids(3), []string{"Old", "Z", "Y"}; !slices.Equal(got, want) {
		t.Errorf("a page two candidates cannot fill: %v, want %v (searched again, every match ranked)", got, want)
	}
}

package store_test

import (
	"context"
	"strings"
	"testing"

	"github.com/analyst-workbench/workbench/store"
)

// searchFor returns the ids of the user's conversations matching q, with
// each hit's kind and snippet.
func searchFor(t *testing.T, db *store.DB, userID, q string) map[string]store.SearchHit {
	t.Helper()
	hits, err := db.SearchConversations(context.Background(), userID, q, 0)
	if err != nil {
		t.Fatalf("search %q: %v", q, err)
	}
	out := map[string]store.SearchHit{}
	for _, h := range hits {
		out[h.Conversation.ID] = h
	}
	return out
}

// TestSearch_IndexesWhatIsInserted finds a conversation by its title, a
// question, an answer, a cell's code, a file name and a column name, and
// points each hit at where it is.
func TestSearch_IndexesWhatIsInserted(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	ana, _ := db.CreateUser(ctx, "ana", "h", store.RoleAnalyst, nil)
	bob, _ := db.CreateUser(ctx, "bob", "h", store.RoleAnalyst, nil)
	c, _ := db.CreateConversation(ctx, ana.ID, "Quarterly review")
	_, run, err := db.StartTurn(ctx, ana.ID, c.ID, "How did NVDA do?", "")
	if err != nil {
		t.Fatal(err)
	}
	code := `{"cell_id":"ci_1","text":"df.groupby('sector').sum()"}`
	if err := db.AppendRunEvent(ctx, run.ID, store.RunEvent{Seq: 1, Type: "code_done", Data: code}); err != nil {
		t.Fatal(err)
	}
	if err := db.FinishRun(ctx, run.ID, store.RunEnd{Status: store.RunCompleted, Answer: "Turnover rose by 12 %."}); err != nil {
		t.Fatal(err)
	}
	profile := `{"Format":"csv","Columns":[{"Name":"ebitda_margin","Type":"number"}]}`
	file, err := db.AddFile(ctx, ana.ID, store.File{ConversationID: c.ID, Name: "holdings-2026.csv", ContentType: "text/csv", Size: 1, SHA256: sha('h'), Profile: profile})
	if err != nil {
		t.Fatal(err)
	}
	bobs, _ := db.CreateConversation(ctx, bob.ID, "Turnover of NVDA")

	for q, want := range map[string]struct {
		kind   store.SearchKind
		anchor string
	}{
		"quarterly": {store.SearchTitle, ""},
		"nvda":      {store.SearchMessage, "run-" + run.ID},
		"turnover":  {store.SearchMessage, "run-" + run.ID},
		"groupby":   {store.SearchCode, "cell-ci_1"},
		"holdings":  {store.SearchFile, "file-" + file.ID},
		"ebitda":    {store.SearchFile, "file-" + file.ID},
		"EBITDA_MA": {store.SearchFile, "file-" + file.ID},
	} {
		got := searchFor(t, db, ana.ID, q)
		h, ok := got[c.ID]
		if !ok || len(got) != 1 {
			t.Errorf("search %q = %v; want only %s", q, got, c.ID)
			continue
		}
		if h.Kind != want.kind || h.Anchor != want.anchor || !strings.Contains(h.Snippet, store.HitStart) {
			t.Errorf("search %q: kind %s anchor %q snippet %q; want %s %q with a marked hit", q, h.Kind, h.Anchor, h.Snippet, want.kind, want.anchor)
		}
	}
	if got := searchFor(t, db, bob.ID, "turnover"); len(got) != 1 || got[bobs.ID].Conversation == nil {
		t.Errorf("bob's search = %v; want only his own conversation", got)
	}
	if got := searchFor(t, db, ana.ID, `^"nvda*:(`); len(got) != 1 {
		t.Errorf("FTS syntax in the query: got %d hits, want the one conversation", len(got))
	}
}

// TestSearch_FollowsUpdates finds a renamed conversation by its new title
// only, and a re-profiled file by its new columns.
func TestSearch_FollowsUpdates(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	ana, _ := db.CreateUser(ctx, "ana", "h", store.RoleAnalyst, nil)
	c, _ := db.CreateConversation(ctx, ana.ID, store.DefaultTitle)
	if _, _, err := db.StartTurn(ctx, ana.ID, c.ID, "plain question", "Bananas imported"); err != nil {
		t.Fatal(err)
	}
	if got := searchFor(t, db, ana.ID, "bananas"); len(got) != 1 {
		t.Fatalf("title set by the first turn not found: %v", got)
	}
	if _, err := db.RenameConversation(ctx, ana.ID, c.ID, "Cherries exported"); err != nil {
		t.Fatal(err)
	}
	if got := searchFor(t, db, ana.ID, "bananas"); len(got) != 0 {
		t.Errorf("old title still found: %v", got)
	}
	if got := searchFor(t, db, ana.ID, "cherries"); len(got) != 1 {
		t.Errorf("new title not found: %v", got)
	}
}

// TestSearch_ForgetsPurgedConversations leaves nothing of a purged or
// deleted conversation in the index.
func TestSearch_ForgetsPurgedConversations(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	f := newPurgeFixture(t, db) // each conversation has a file f.csv and a question "q"
	if got := searchFor(t, db, f.ana, "csv"); len(got) != 1 {
		t.Fatalf("before purge: %v", got)
	}
	if _, err := db.StartPurge(ctx, store.PurgeStart{Actor: "admin", Action: "purge", Selection: store.PurgeSelection{UserID: f.ana}}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.PurgeConversations(ctx, "", 10); err != nil {
		t.Fatal(err)
	}
	if got := searchFor(t, db, f.ana, "csv"); len(got) != 0 {
		t.Errorf("purged conversation still found: %v", got)
	}
	if err := db.DeleteConversation(ctx, f.bob, f.bobConv); err != nil {
		t.Fatal(err)
	}
	if n := db.SearchDocuments(t); n != 0 {
		t.Errorf("%d documents left in the index after every conversation went", n)
	}
}

// TestSearch_FoldsCaseAndDiacritics finds "Café" by "cafe" and "CAFÉ", on
// both back ends' indexes, and a word inside code split at its punctuation.
func TestSearch_FoldsCaseAndDiacritics(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	ana, _ := db.CreateUser(ctx, "ana", "h", store.RoleAnalyst, nil)
	c, _ := db.CreateConversation(ctx, ana.ID, "Le Café de Flore: naïve_forecast.csv")
	for _, q := range []string{"cafe", "CAFÉ", "caf", "naive", "forecast", "csv"} {
		got := searchFor(t, db, ana.ID, q)
		if h, ok := got[c.ID]; !ok || !strings.Contains(h.Snippet, store.HitStart) {
			t.Errorf("search %q = %+v; want the conversation with a marked hit", q, got)
		}
	}
	if got := searchFor(t, db, ana.ID, "flora"); len(got) != 0 {
		t.Errorf("search flora = %v; want nothing", got)
	}
}

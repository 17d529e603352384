package handlers_test

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/analyst-workbench/workbench/store"
)

// earlierURL finds the "Show earlier questions" button's address.
var earlierURL = regexp.MustCompile(`hx-get="([^"]*turns\?before=[^"]*)"`)

// TestLongConversationLoadsItsLatestTurnsFirst: a conversation of 23
// questions opens with its last 10 and a button for the 13 before them,
// which brings 10 more, then the first 3, each batch in order.
func TestLongConversationLoadsItsLatestTurnsFirst(t *testing.T) {
	a := newApp(t)
	ana := a.signedIn("ana", store.RoleAnalyst)
	convID := ana.create()
	u := mustUser(t, a, "ana")
	ctx := context.Background()
	for i := 1; i <= 23; i++ {
		_, run, err := a.db.StartTurn(ctx, u.ID, convID, fmt.Sprintf("question number %d", i), "")
		if err != nil {
			t.Fatal(err)
		}
		if err := a.db.FinishRun(ctx, run.ID, store.RunEnd{Status: store.RunCompleted, Answer: fmt.Sprintf("answer number %d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	for name, path := range map[string]string{"own page": "/conversations/" + convID,
		"shared link": "/s/" + ana.share(convID, url.Values{"anyone": {"1"}})} {
		t.Run(name, func(t *testing.T) { followEarlier(t, ana, path) })
	}
	other := a.signedIn("bob", store.RoleAnalyst)
	expect(t, other.get("/conversations/"+convID+"/turns?before=x"), http.StatusNotFound)
}

// followEarlier opens a page of the 23 questions and follows its "Show
// earlier questions" to the first.
func followEarlier(t *testing.T, ana *browser, path string) {
	questions := func(body string) []string {
		return regexp.MustCompile(`question number (\d+)`).FindAllString(body, -1)
	}
	page := ana.get(path)
	expect(t, page, http.StatusOK, "Show 13 earlier questions")
	if q := questions(page.body); len(q) != 10 || q[0] != "question number 14" || q[9] != "question number 23" {
		t.Fatalf("the page shows %v, want questions 14 to 23", q)
	}
	for _, want := range []struct {
		first, last string
		more        string
	}{{"question number 4", "question number 13", "Show 3 earlier questions"}, {"question number 1", "question number 3", ""}} {
		m := earlierURL.FindStringSubmatch(page.body)
		if m == nil {
			t.Fatalf("no button for the earlier questions in:\n%s", excerpt(page.body))
		}
		page = ana.get(html.UnescapeString(m[1]))
		expect(t, page, http.StatusOK)
		q := questions(page.body)
		if len(q) == 0 || q[0] != want.first || q[len(q)-1] != want.last {
			t.Fatalf("earlier turns %v, want %s to %s", q, want.first, want.last)
		}
		if got := strings.Contains(page.body, "earlier question"); got != (want.more != "") || want.more != "" && !strings.Contains(page.body, want.more) {
			t.Fatalf("after %s, the button for more is %v, want %q", want.first, got, want.more)
		}
	}
}

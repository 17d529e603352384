package handlers_test

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/store"
)

// ranCode records a finished turn of the conversation that ran code in
// container from start to end, with the store's clock set to those times.
func (a *app) ranCode(t *testing.T, userID, convID, container string, start, end time.Time) {
	t.Helper()
	ctx := context.Background()
	defer func() { a.db.Now = time.Now }()
	a.db.Now = func() time.Time { return start }
	_, run, err := a.db.StartTurn(ctx, userID, convID, "plot it", "")
	if err != nil {
		t.Fatal(err)
	}
	a.db.Now = func() time.Time { return end }
	if err := a.db.FinishRun(ctx, run.ID, store.RunEnd{Status: store.RunCompleted, ContainerID: container}); err != nil {
		t.Fatal(err)
	}
}

// tableRow returns the <tr> of body that carries attr, or "".
func tableRow(body, attr string) string {
	return regexp.MustCompile(`<tr [^>]*` + regexp.QuoteMeta(attr) + `[^>]*>.*?</tr>`).FindString(body)
}

// TestSessionUsageOnAdminAndConversation: two Code Interpreter sessions of
// one conversation, one ended by its idle timeout after 40 minutes, the
// other used for 20 minutes and ended 30 later, show as 2 sessions and
// 1.5 estimated hours for the user on /admin, in its list of conversations
// with the most sessions with the rule explained, and as a quiet line under
// the conversation; a conversation that ran no code shows no line.
func TestSessionUsageOnAdminAndConversation(t *testing.T) {
	a := newApp(t)
	root := a.signedIn("root", store.RoleAdmin)
	ana := a.signedIn("ana", store.RoleAnalyst)
	convID, quietID := ana.create(), ana.create()
	anaID := mustUser(t, a, "ana").ID
	base := time.Now().Add(-5 * time.Hour)
	a.ranCode(t, anaID, convID, "cntr_first", base, base.Add(10*time.Minute))
	a.ranCode(t, anaID, convID, "cntr_second", base.Add(2*time.Hour), base.Add(2*time.Hour+20*time.Minute))

	r := root.get("/admin")
	expect(t, r, http.StatusOK, "Session time, last 30 days", "Sessions per user",
		"A session lasts until 30 minutes after its last use, at most an hour; each conversation that asks at the same time opens its own.",
		"Conversations with the most sessions")
	user := tableRow(r.body, `data-session-user="ana"`)
	if !strings.Contains(user, `<td class="num">2</td>`) || !strings.Contains(user, `<td class="num">1.5</td>`) {
		t.Errorf("ana's row of sessions per user lacks 2 sessions and 1.5 hours: %q", user)
	}
	if tableRow(r.body, `data-session-user="root"`) != "" {
		t.Error("a user with no session is listed")
	}
	conv := tableRow(r.body, `data-session-conversation="`+convID+`"`)
	if !strings.Contains(conv, `<td class="num">2</td>`) || !strings.Contains(conv, "1 h 30 min") {
		t.Errorf("the conversation's row lacks 2 sessions and 1 h 30 min: %q", conv)
	}

	expect(t, ana.get("/conversations/"+convID), http.StatusOK, "2 Code Interpreter sessions · about 1 h 30 min")
	if page := ana.get("/conversations/" + quietID); strings.Contains(page.body, `data-testid="session-usage"`) {
		t.Error("a conversation that ran no code shows a session line")
	}
}

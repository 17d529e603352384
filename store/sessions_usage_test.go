package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/store"
)

// sessionsT0 is the start of the made-up session histories below.
var sessionsT0 = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

// at is a time of the made-up histories, minutes after sessionsT0.
func at(minutes int) time.Time { return sessionsT0.Add(time.Duration(minutes) * time.Minute) }

// codeTurn records a finished turn of the conversation that ran code in
// container from minute start to minute end, with the store's clock set to
// those times.
func codeTurn(t *testing.T, db *store.DB, userID, convID, container string, start, end int) {
	t.Helper()
	ctx := context.Background()
	db.Now = func() time.Time { return at(start) }
	_, run, err := db.StartTurn(ctx, userID, convID, "plot it", "")
	if err != nil {
		t.Fatal(err)
	}
	db.Now = func() time.Time { return at(end) }
	if err := db.FinishRun(ctx, run.ID, store.RunEnd{Status: store.RunCompleted, ContainerID: container}); err != nil {
		t.Fatal(err)
	}
}

// sessionsOf returns the conversation's session totals at minute now.
func sessionsOf(t *testing.T, db *store.DB, convID string, now int) store.SessionTotals {
	t.Helper()
	got, err := db.ConversationSessions(context.Background(), convID, at(now))
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestConversationSessionsFollowTheArticlesRule: a session lasts until 30
// minutes after its last use, at most an hour after its start; a new
// container, or the same one seen after its session ended, counts again;
// a live session counts up to now, also while its turn still runs.
func TestConversationSessionsFollowTheArticlesRule(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	u, _ := db.CreateUser(ctx, "ana", "h", store.RoleAnalyst, nil)
	conv := func(title string) string {
		c, err := db.CreateConversation(ctx, u.ID, title)
		if err != nil {
			t.Fatal(err)
		}
		return c.ID
	}
	idle, capped, renewed, reused, live, running, none := conv("idle"), conv("capped"), conv("renewed"),
		conv("reused"), conv("live"), conv("running"), conv("none")

	codeTurn(t, db, u.ID, idle, "cntr_idle", 0, 5) // ends 30 min after 0:05

	codeTurn(t, db, u.ID, capped, "cntr_cap", 0, 2) // used every 25 min: the hour ends it
	codeTurn(t, db, u.ID, capped, "cntr_cap", 25, 27)
	codeTurn(t, db, u.ID, capped, "cntr_cap", 50, 55)

	codeTurn(t, db, u.ID, renewed, "cntr_a", 0, 10)    // 40 min
	codeTurn(t, db, u.ID, renewed, "cntr_b", 120, 125) // a new container: 35 min

	codeTurn(t, db, u.ID, reused, "cntr_r", 0, 1)     // 31 min
	codeTurn(t, db, u.ID, reused, "cntr_r", 180, 181) // long after it ended: another 31 min

	codeTurn(t, db, u.ID, live, "cntr_live", 290, 295) // at 300 it has 25 idle minutes left

	db.Now = func() time.Time { return at(280) } // a turn still running: only the conversation knows its container
	if _, _, err := db.StartTurn(ctx, u.ID, running, "plot it", ""); err != nil {
		t.Fatal(err)
	}
	db.UseSession(ctx, running, "cntr_run", at(281))
	db.UseSession(ctx, running, "cntr_run", at(298))

	db.Now = func() time.Time { return at(10) } // a turn that ran no code opens no session
	_, plain, _ := db.StartTurn(ctx, u.ID, none, "hello", "")
	db.FinishRun(ctx, plain.ID, store.RunEnd{Status: store.RunCompleted})

	for _, tc := range []struct {
		name, conv string
		want       store.SessionTotals
	}{
		{"expiry by idle", idle, store.SessionTotals{Sessions: 1, Time: 35 * time.Minute}},
		{"cap by one hour", capped, store.SessionTotals{Sessions: 1, Time: time.Hour}},
		{"two containers of one conversation", renewed, store.SessionTotals{Sessions: 2, Time: 75 * time.Minute}},
		{"a container seen again after it ended", reused, store.SessionTotals{Sessions: 2, Time: 62 * time.Minute}},
		{"a live session, up to now", live, store.SessionTotals{Sessions: 1, Live: 1, Time: 10 * time.Minute}},
		{"a session whose turn still runs", running, store.SessionTotals{Sessions: 1, Live: 1, Time: 19 * time.Minute}},
		{"no code, no session", none, store.SessionTotals{}},
	} {
		if got := sessionsOf(t, db, tc.conv, 300); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
	if got := sessionsOf(t, db, live, 400); got.Live != 0 || got.Time != 35*time.Minute {
		t.Errorf("the live session, once it expired: %+v, want 35 min and none live", got)
	}
}

// TestSessionReportPerUserAndTopConversations: the admin's report sums
// sessions per user, most time first, ranks conversations by sessions,
// keeps the top ones, and leaves out sessions older than the window.
func TestSessionReportPerUserAndTopConversations(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	ana, _ := db.CreateUser(ctx, "ana", "h", store.RoleAnalyst, nil)
	bob, _ := db.CreateUser(ctx, "bob", "h", store.RoleAnalyst, nil)
	db.CreateUser(ctx, "cy", "h", store.RoleAnalyst, nil) // no session: not listed
	busy, _ := db.CreateConversation(ctx, ana.ID, "busy")
	quiet, _ := db.CreateConversation(ctx, ana.ID, "quiet")
	bobs, _ := db.CreateConversation(ctx, bob.ID, "bob's")
	old, _ := db.CreateConversation(ctx, bob.ID, "old")

	codeTurn(t, db, ana.ID, busy.ID, "cntr_1", 0, 10)    // 40 min
	codeTurn(t, db, ana.ID, busy.ID, "cntr_2", 100, 105) // 35 min
	codeTurn(t, db, ana.ID, busy.ID, "cntr_3", 200, 205) // 35 min
	codeTurn(t, db, ana.ID, quiet.ID, "cntr_4", 0, 50)   // the hour
	codeTurn(t, db, bob.ID, bobs.ID, "cntr_5", 0, 5)     // 35 min
	codeTurn(t, db, bob.ID, bobs.ID, "cntr_6", 60, 65)   // 35 min
	codeTurn(t, db, bob.ID, old.ID, "cntr_7", -40*24*60, -40*24*60+5)

	r, err := db.SessionReport(ctx, at(300), 30, 2)
	if err != nil {
		t.Fatal(err)
	}
	if r.Total != (store.SessionTotals{Sessions: 6, Time: 4 * time.Hour}) {
		t.Errorf("total = %+v, want 6 sessions, 4 h", r.Total)
	}
	wantUsers := []store.UserSessions{
		{UserID: ana.ID, Username: "ana", SessionTotals: store.SessionTotals{Sessions: 4, Time: 170 * time.Minute}},
		{UserID: bob.ID, Username: "bob", SessionTotals: store.SessionTotals{Sessions: 2, Time: 70 * time.Minute}},
	}
	if len(r.PerUser) != len(wantUsers) || r.PerUser[0] != wantUsers[0] || r.PerUser[1] != wantUsers[1] {
		t.Errorf("per user = %+v, want %+v", r.PerUser, wantUsers)
	}
	wantTop := []store.ConversationSessions{
		{ConversationID: busy.ID, Title: "busy", Username: "ana", SessionTotals: store.SessionTotals{Sessions: 3, Time: 110 * time.Minute}},
		{ConversationID: bobs.ID, Title: "bob's", Username: "bob", SessionTotals: store.SessionTotals{Sessions: 2, Time: 70 * time.Minute}},
	}
	if len(r.TopConversations) != len(wantTop) || r.TopConversations[0] != wantTop[0] || r.TopConversations[1] != wantTop[1] {
		t.Errorf("top conversations = %+v, want %+v", r.TopConversations, wantTop)
	}
}

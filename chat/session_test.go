package chat_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/emulator"
	"github.com/analyst-workbench/workbench/foundry"
	"github.com/analyst-workbench/workbench/store"
)

// TestExpiredContainerStartsANewSession runs against the emulator as strict
// as the hosted service, with a 2 s idle timeout: ask, let the session
// expire, ask again. The service refuses the old conversation ("Container
// is expired."); the turn moves to a new one, seeded with what came before
// and with the files attached again, and is answered, with one notice.
func TestExpiredContainerStartsANewSession(t *testing.T) {
	e := newEnvWith(t, func(c *emulator.Config) { c.IdleTimeout = 2 * time.Second })
	ctx := context.Background()
	if _, err := e.svc.Upload(ctx, e.userID, e.convID, "a.csv", strings.NewReader("v\n5\n")); err != nil {
		t.Fatal(err)
	}
	first, rec := e.wait(t, e.start(t, "Remember this.\n"+python("secret = 41\nprint('stored')")))
	if rec.Status != store.RunCompleted || len(first.Notices) != 0 {
		t.Fatalf("first turn: %s %q %v", rec.Status, first.Error, first.Notices)
	}
	old := mustConv(t, e).FoundryConversationID

	time.Sleep(2500 * time.Millisecond) // the container's idle timeout passes
	if st := chat.Session(mustConv(t, e), time.Now()); st.State == "expired" {
		t.Fatal("the app's own clock (30 min) already says expired; this test is about the service saying so")
	}
	a, rec := e.wait(t, e.start(t, python("import pandas as pd\nprint('v', pd.read_csv("+mounted("a.csv")+").v.sum())\nprint('secret' in globals())")))
	if rec.Status != store.RunCompleted || a.Error != "" {
		t.Fatalf("second turn: %s %q", rec.Status, a.Error)
	}
	if len(a.Notices) != 1 || a.Notices[0] != chat.SessionRenewedNotice || !rec.NewSession {
		t.Errorf("notices %q, new session %v; want exactly the renewal notice", a.Notices, rec.NewSession)
	}
	if len(a.Cells) != 1 || !strings.Contains(a.Cells[0].Logs, "v 5\nFalse") {
		t.Fatalf("cells of the second turn: %+v", a.Cells)
	}

	conv := mustConv(t, e)
	if conv.FoundryConversationID == old || conv.FoundryConversationID == "" {
		t.Fatalf("Foundry conversation %q, want a new one instead of %q", conv.FoundryConversationID, old)
	}
	items, err := e.client.ConversationItems(ctx, conv.FoundryConversationID)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) < 3 || !strings.Contains(items[0].Text, "a.csv") || !strings.Contains(items[1].Text, "Remember this.") ||
		!strings.Contains(items[2].Text, "secret = 41") {
		t.Errorf("the new conversation does not start with the summary: %+v", items[:min(3, len(items))])
	}
	due, _ := e.db.DueOutbox(ctx, time.Now().Add(time.Hour), 10)
	if len(due) != 1 || due[0].Kind != store.OutboxFoundryConversation || due[0].Target != old {
		t.Errorf("outbox %+v, want the old conversation queued for deletion", due)
	}
}

// TestStopStopsTheResponseOnTheService: Stop cancels the response on the
// service and the run ends only once the service says it has; the next
// question is then answered (the hosted service would refuse it while the
// stopped one still ran).
func TestStopStopsTheResponseOnTheService(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	run := e.start(t, python("import time\nprint('started', flush=True)\ntime.sleep(60)"))
	waitForCell(t, e, run)
	if err := e.svc.Cancel(ctx, e.userID, e.convID, run.ID); err != nil {
		t.Fatal(err)
	}
	_, rec := e.wait(t, run)
	if rec.Status != store.RunCancelled || rec.ResponseID == "" {
		t.Fatalf("after Stop: %s, response %q", rec.Status, rec.ResponseID)
	}
	resp, err := e.client.Response(ctx, rec.ResponseID)
	if err != nil || resp.Status != foundry.StatusCancelled {
		t.Fatalf("the service's response: %q, %v; want cancelled", resp.Status, err)
	}
	if _, rec := e.wait(t, e.start(t, python("print('next')"))); rec.Status != store.RunCompleted {
		t.Fatalf("turn after Stop: %s %q", rec.Status, rec.Error)
	}
}

// waitForCell follows a run until its first cell runs.
func waitForCell(t *testing.T, e *env, run *store.Run) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if a, err := e.svc.Answer(context.Background(), e.userID, e.convID, run.ID); err == nil && len(a.Cells) > 0 && a.Cells[0].Status == chat.CellRunning {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the cell never started")
}

// TestUnreadableStoredEvent: a stored event this version cannot read (a
// broken row, a row of a newer version) shows as an unreadable step, and
// the rest of the answer still shows.
func TestUnreadableStoredEvent(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	run := e.start(t, python("print('fine')"))
	_, rec := e.wait(t, run)
	n := int64(1000)
	for _, data := range []string{`{"v":2,"at":`, `{"v":99,"at":"2026-01-01T00:00:00Z","text":"from the future"}`, `{"foundry":"not an object"}`} {
		n++
		if err := e.db.AppendRunEvent(ctx, rec.ID, store.RunEvent{Seq: n, Type: "text_delta", Data: data}); err != nil {
			t.Fatal(err)
		}
	}
	a, err := e.svc.Answer(ctx, e.userID, e.convID, rec.ID)
	if err != nil {
		t.Fatalf("Answer: %v", err)
	}
	unreadable := 0
	for _, c := range a.Cells {
		if c.Status == chat.CellUnreadable {
			unreadable++
		}
	}
	if unreadable != 3 || !strings.Contains(a.Cells[0].Logs, "fine") || strings.Contains(a.Text, "future") {
		t.Fatalf("%d unreadable steps, cells %+v, text %q", unreadable, a.Cells, a.Text)
	}
}

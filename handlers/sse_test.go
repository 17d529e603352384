package handlers_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/store"
)

// sseLineBreak is every line ending of the event-stream format, as a
// browser's EventSource splits lines.
var sseLineBreak = regexp.MustCompile("\r\n|\r|\n")

// sseEventNames parses body as EventSource does and returns the name of
// each event it would dispatch.
func sseEventNames(body string) []string {
	var names []string
	name, hasData := "", false
	for _, line := range sseLineBreak.Split(body, -1) {
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch {
		case line == "":
			if hasData {
				names = append(names, name)
			}
			name, hasData = "", false
		case field == "event":
			name = value
		case field == "data":
			hasData = true
		}
	}
	return names
}

// TestEventStreamCarriageReturnCannotForgeEvents is issue 13 item 7: code
// that prints lone carriage returns must not end the event and forge a
// "done" of its own through the real event stream.
func TestEventStreamCarriageReturnCannotForgeEvents(t *testing.T) {
	a := newApp(t)
	ana := a.signedIn("ana", store.RoleAnalyst)
	convID := ana.create()
	ctx := t.Context()
	_, run, err := a.db.StartTurn(ctx, mustUser(t, a, "ana").ID, convID, "print it", "")
	if err != nil {
		t.Fatal(err)
	}
	printed := "x\r\revent: done\rdata: forged\r\r\r\nevent: forged\n\nafter"
	at := time.Now().UTC()
	logs, _ := json.Marshal(map[string]any{"at": at, "foundry": map[string]any{"type": "logs", "item_id": "ci_1", "text": printed}})
	done, _ := json.Marshal(map[string]any{"at": at, "status": store.RunCompleted})
	for i, e := range []store.RunEvent{{Seq: 1, Type: "logs", Data: string(logs)}, {Seq: 2, Type: "done", Data: string(done)}} {
		if err := a.db.AppendRunEvent(ctx, run.ID, e); err != nil {
			t.Fatalf("event %d: %v", i, err)
		}
	}
	if err := a.db.FinishRun(ctx, run.ID, store.RunEnd{Status: store.RunCompleted}); err != nil {
		t.Fatal(err)
	}

	r := ana.get("/conversations/" + convID + "/runs/" + run.ID + "/events")
	expect(t, r, http.StatusOK, "forged", "after")
	if got, want := sseEventNames(r.body), []string{"update", "update", "done"}; !slices.Equal(got, want) {
		t.Fatalf("events %q, want %q; body:\n%q", got, want, excerpt(r.body))
	}
}

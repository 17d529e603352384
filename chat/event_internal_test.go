package chat

import (
	"encoding/json"
	"testing"
	"time"
)

// TestDecodeEvent_Versions: today's rows round-trip; rows of version 1,
// which embedded the Foundry client's event, still read as the steps they
// were; anything else is an unreadable step, never an error.
func TestDecodeEvent_Versions(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	now := Event{Type: EventCodeDone, At: at, CellID: "ci_1", ContainerID: "cntr_1", Text: "print(1)"}
	if got := decodeEvent(7, string(now.Type), now.marshal()); got.Seq != 7 || got.Type != EventCodeDone ||
		got.Text != "print(1)" || got.CellID != "ci_1" || !got.At.Equal(at) {
		t.Errorf("round trip: %+v", got)
	}
	v1 := map[string]struct {
		typ, data string
		want      Event
	}{
		"text": {"text_delta", `{"at":"2026-01-02T03:04:05Z","foundry":{"type":"text_delta","sequence":9,"item_id":"msg_1","text":"Hi"}}`,
			Event{Type: EventText, CellID: "msg_1", Text: "Hi"}},
		"code cell added": {"item_added", `{"at":"2026-01-02T03:04:05Z","foundry":{"type":"item_added","item_id":"ci_1","container_id":"cntr_1","item":{"id":"ci_1","type":"code_interpreter_call"}}}`,
			Event{Type: EventCellAdded, CellID: "ci_1", ContainerID: "cntr_1"}},
		"cell done": {"item_done", `{"at":"2026-01-02T03:04:05Z","foundry":{"type":"item_done","item_id":"ci_1","item":{"type":"code_interpreter_call","status":"failed","code":"1/0"}}}`,
			Event{Type: EventCellDone, CellID: "ci_1", Text: "1/0", Status: "failed"}},
		"notice": {"notice", `{"at":"2026-01-02T03:04:05Z","text":"New session"}`, Event{Type: EventNotice, Text: "New session"}},
	}
	for name, tt := range v1 {
		got := decodeEvent(3, tt.typ, tt.data)
		if got.Type != tt.want.Type || got.CellID != tt.want.CellID || got.Text != tt.want.Text || got.Status != tt.want.Status ||
			got.ContainerID != tt.want.ContainerID || !got.At.Equal(at) {
			t.Errorf("version 1 %s: %+v, want %+v", name, got, tt.want)
		}
	}
	for _, data := range []string{"", "{", `{"v":5,"text":"x"}`, `{"at":"yesterday"}`} {
		if got := decodeEvent(4, "text_delta", data); got.Type != EventUnreadable || got.Seq != 4 {
			t.Errorf("decodeEvent(%q) = %+v, want an unreadable step", data, got)
		}
	}
}

// TestDecodeEvent_InBandReportsOfVersion2: a version 2 row's logs lose the
// engine's "@@wb…" lines, its table marker becomes the cell's table at the
// text form it stood for, and a loader cell is known by its code; a
// version 3 row's logs are output, whatever they say.
func TestDecodeEvent_InBandReportsOfVersion2(t *testing.T) {
	logs := "@@wb-session {}\nloaded\n@@wb {\"kind\":\"stat\"}\n" +
		`@@wb-table {"text_lines":2,"table":{"columns":["a"],"rows":[[0,1]],"total_rows":1,"total_columns":1}}` + "\n" +
		"   a\n0  1\nafter\n"
	got := decodeEvent(1, string(EventLogs), `{"v":2,"text":`+quoteJSON(logs)+`}`)
	if got.Text != "loaded\n   a\n0  1\nafter\n" || got.Table == nil || got.Table.Columns[0] != "a" {
		t.Fatalf("v2 logs: %q, table %+v", got.Text, got.Table)
	}
	if form := got.Text[got.Table.TextStart:got.Table.TextEnd]; form != "   a\n0  1\n" {
		t.Errorf("the table stands for %q", form)
	}
	done := decodeEvent(2, string(EventCellDone), `{"v":2,"text":"FILES = []\nprint('@@wb-profile ' + x)"}`)
	if !done.Loader {
		t.Error("a version 2 loader cell is not known as the loader")
	}
	now := decodeEvent(3, string(EventLogs), Event{Type: EventLogs, Text: logs}.marshal())
	if now.Text != logs || now.Table != nil {
		t.Errorf("v4 logs were read for markers: %q, %+v", now.Text, now.Table)
	}
}

// TestDecodeEvent_WhoWroteTheCell: a cell stored before cells said who
// wrote them is read as the analyst's (its _emit lines hidden, as the page
// showed it then); a cell stored now says so itself.
func TestDecodeEvent_WhoWroteTheCell(t *testing.T) {
	for _, v := range []string{"2", "3"} {
		if old := decodeEvent(1, string(EventCellAdded), `{"v":`+v+`}`); !old.Analyst {
			t.Errorf("a version %s cell is not read as the analyst's", v)
		}
	}
	if text := decodeEvent(1, string(EventText), `{"v":3,"text":"x"}`); text.Analyst {
		t.Error("a version 3 text event was marked as a cell")
	}
	users := decodeEvent(2, string(EventCellAdded), Event{Type: EventCellAdded}.marshal())
	analysts := decodeEvent(3, string(EventCellAdded), Event{Type: EventCellAdded, Analyst: true}.marshal())
	if users.Analyst || !analysts.Analyst {
		t.Errorf("version 4 cells: the user's %v, the analyst's %v", users.Analyst, analysts.Analyst)
	}
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

package chat

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/foundry"
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
	for _, data := range []string{"", "{", `{"v":6,"text":"x"}`, `{"at":"yesterday"}`} {
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

// TestDecodeEvent_PrintedReportsOfVersion4: up to version 4 an analyst's
// report statements were found in its code and a loader's shapes in its
// logs, so such rows read that way; from version 5 the engine says both in
// typed fields, and a printed "Loaded …" line or an _emit( line is the
// code's own output or code, read as nothing else.
func TestDecodeEvent_PrintedReportsOfVersion4(t *testing.T) {
	t.Parallel()
	code := "x = 1\n_emit(\"n\", v=x)\nx"
	old := decodeEvent(1, string(EventCellDone), `{"v":4,"analyst":true,"text":`+quoteJSON(code)+`}`)
	if len(old.Hidden) != 1 || old.Hidden[0].First != 2 {
		t.Errorf("v4 analyst cell: hidden %+v", old.Hidden)
	}
	logs := "Loaded sales.xlsx:Q1: 1,234 rows x 11 columns\nCould not load b.csv: it is empty\nRead notes.pdf as a document (pdf)\n"
	oldLogs := decodeEvent(2, string(EventLogs), `{"v":4,"text":`+quoteJSON(logs)+`}`)
	if want := "[{sales.xlsx:Q1 1234 11  } {b.csv 0 0  it is empty}]"; fmt.Sprint(oldLogs.Loaded) != want {
		t.Errorf("v4 loader logs: %v, want %s", oldLogs.Loaded, want)
	}
	now := decodeEvent(1, string(EventCellDone), Event{Type: EventCellDone, Analyst: true, Text: code}.marshal())
	nowLogs := decodeEvent(2, string(EventLogs), Event{Type: EventLogs, Text: logs}.marshal())
	if now.Hidden != nil || nowLogs.Loaded != nil || nowLogs.Text != logs {
		t.Errorf("v5 rows read printed text as reports: hidden %+v, loaded %+v", now.Hidden, nowLogs.Loaded)
	}
}

// TestTranslate_UsageCountedNotEstimated: the service's token counts are
// the turn's usage; the local engine's, which it marks as estimates, are
// none, so that no page and no sum shows them as usage.
func TestTranslate_UsageCountedNotEstimated(t *testing.T) {
	t.Parallel()
	counted := &foundry.Event{Type: foundry.EventUsage, Usage: foundry.Usage{InputTokens: 10, OutputTokens: 5}}
	if e, ok := translate(counted); !ok || e.Usage == nil || e.Usage.InputTokens != 10 || e.Usage.OutputTokens != 5 {
		t.Errorf("counted usage: %+v, %v", e, ok)
	}
	estimated := *counted
	estimated.Usage.Extension = json.RawMessage(`{"estimated":true}`)
	if e, ok := translate(&estimated); ok {
		t.Errorf("an estimate became usage: %+v", e.Usage)
	}
}

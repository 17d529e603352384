package chat

import (
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
	for _, data := range []string{"", "{", `{"v":3,"text":"x"}`, `{"at":"yesterday"}`} {
		if got := decodeEvent(4, "text_delta", data); got.Type != EventUnreadable || got.Seq != 4 {
			t.Errorf("decodeEvent(%q) = %+v, want an unreadable step", data, got)
		}
	}
}

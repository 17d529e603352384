package foundry

import (
	"context"
	"strings"
	"testing"
)

// A background stream whose code call completed with "outputs": [], as
// users report of background mode.
var (
	evCallAdded = `{"type":"response.output_item.added","sequence_number":1,"output_index":0,"item":{"type":"code_interpreter_call","id":"ci_1","status":"in_progress","container_id":"cntr_1","code":"","outputs":null}}`
	evCallDone  = `{"type":"response.output_item.done","sequence_number":2,"output_index":0,"item":{"type":"code_interpreter_call","id":"ci_1","status":"completed","container_id":"cntr_1","code":"print(42)","outputs":[]}}`
	evCallEnd   = `{"type":"response.completed","sequence_number":3,"response":{"id":"resp_r","status":"completed","output":[{"type":"code_interpreter_call","id":"ci_1","status":"completed","container_id":"cntr_1","code":"print(42)","outputs":[]}]}}`
)

func storedCall(outputs string) string {
	return `{"id":"resp_r","object":"response","status":"completed","background":true,"output":[{"type":"code_interpreter_call","id":"ci_1",` +
		`"status":"completed","container_id":"cntr_1","code":"print(42)","outputs":` + outputs + `}]}`
}

// TestStream_EmptyOutputsFetchedAgain: the outputs come from the stored
// response, read with include once the response completed, before its end.
func TestStream_EmptyOutputsFetchedAgain(t *testing.T) {
	rs := newReplay(t, map[string][]reply{
		"POST /openai/v1/responses": {{sse: true, body: sseOf(evCreated, evCallAdded, evCallDone, evCallEnd)}},
		"GET /openai/v1/responses/resp_r": {{body: storedCall(
			`[{"type":"logs","logs":"42\n"},{"type":"image","url":"data:image/png;base64,iVBO"}]`)}},
	})
	s, err := rs.client(t).StreamResponse(context.Background(), bgTurn)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var order []string
	for s.Next() {
		e := s.Event()
		switch e.Type {
		case EventLogs:
			order = append(order, "logs:"+e.Text)
		case EventImage, EventOutputsMissing, EventCompleted:
			order = append(order, string(e.Type))
		}
		if e.Type == EventLogs && (e.ItemID != "ci_1" || e.ContainerID != "cntr_1") {
			t.Errorf("logs for item %q in %q", e.ItemID, e.ContainerID)
		}
	}
	if got := strings.Join(order, ", "); got != "logs:42\n, image, completed" {
		t.Errorf("events %q, want the stored logs and image, then completed", got)
	}
	if q := rs.requests()[1].Query; !strings.Contains(q, "include") || !strings.Contains(q, "code_interpreter_call.outputs") {
		t.Errorf("read again with %q, want include[]=code_interpreter_call.outputs", q)
	}
}

// TestStream_OutputsStillMissing: the stored response has none either; the
// stream says so for that call, and only once.
func TestStream_OutputsStillMissing(t *testing.T) {
	rs := newReplay(t, map[string][]reply{
		"POST /openai/v1/responses":       {{sse: true, body: sseOf(evCreated, evCallAdded, evCallDone, evCallEnd)}},
		"GET /openai/v1/responses/resp_r": {{body: storedCall(`[]`)}},
	})
	s, err := rs.client(t).StreamResponse(context.Background(), bgTurn)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	missing := 0
	for s.Next() {
		if e := s.Event(); e.Type == EventOutputsMissing {
			missing++
			if e.ItemID != "ci_1" {
				t.Errorf("missing outputs reported for %q", e.ItemID)
			}
		}
	}
	if s.Err() != nil || missing != 1 {
		t.Errorf("err %v, %d outputs_missing events, want 1", s.Err(), missing)
	}
}

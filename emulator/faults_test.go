package emulator

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestParseFault(t *testing.T) {
	t.Parallel()
	tests := []struct {
		spec      string
		wantName  string
		wantCount int
		wantErr   bool
	}{
		{spec: "429", wantName: "429", wantCount: -1},
		{spec: " cut-stream ", wantName: "cut-stream", wantCount: -1},
		{spec: "content-500:3", wantName: "content-500", wantCount: 3},
		{spec: "429:0", wantErr: true},
		{spec: "429:x", wantErr: true},
		{spec: "teapot", wantErr: true},
	}
	for _, tt := range tests {
		name, count, err := ParseFault(tt.spec)
		if (err != nil) != tt.wantErr || name != tt.wantName || count != tt.wantCount {
			t.Errorf("ParseFault(%q) = %q, %d, %v; want %q, %d, error %v", tt.spec, name, count, err, tt.wantName, tt.wantCount, tt.wantErr)
		}
	}
}

// TestRequestFaults checks the faults that replace a whole answer, by header.
func TestRequestFaults(t *testing.T) {
	ts := newTestServer(t)
	c := ts.json("POST", "/openai/v1/containers", map[string]any{"name": "faults"}, 200)
	cf := ts.json("POST", "/openai/v1/containers/"+c["id"].(string)+"/files", map[string]any{"file_id": ts.upload("a.csv", "a\n1\n")}, 200)
	content := "/openai/v1/containers/" + c["id"].(string) + "/files/" + cf["id"].(string) + "/content"
	tests := []struct {
		name       string
		path       string
		fault      string
		wantStatus int
		wantCode   string
		wantHeader map[string]string
	}{
		{name: "429", path: "/openai/v1/files", fault: "429", wantStatus: 429, wantCode: "rate_limit_exceeded",
			wantHeader: map[string]string{"Retry-After-Ms": "1000", "Retry-After": "1"}},
		{name: "429 on agents", path: "/agents?api-version=v1", fault: "429", wantStatus: 429, wantCode: "rate_limit_exceeded",
			wantHeader: map[string]string{"x-ms-error-code": "rate_limit_exceeded"}},
		{name: "500", path: "/openai/v1/conversations", fault: "slow-tokens, 500", wantStatus: 500, wantCode: "server_error"},
		{name: "content-500 on content", path: content, fault: "content-500", wantStatus: 500, wantCode: "server_error"},
		{name: "content-500 elsewhere", path: "/openai/v1/files", fault: "content-500", wantStatus: 200},
		{name: "content without fault", path: content, wantStatus: 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := ts.send("GET", tt.path, nil, FaultHeader, tt.fault)
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.wantStatus {
				t.Fatalf("got %d, want %d: %s", resp.StatusCode, tt.wantStatus, body)
			}
			if tt.wantCode != "" && !strings.Contains(string(body), `"code":"`+tt.wantCode+`"`) {
				t.Errorf("body %s lacks code %s", body, tt.wantCode)
			}
			for k, v := range tt.wantHeader {
				if got := resp.Header.Get(k); got != v {
					t.Errorf("header %s = %q, want %q", k, got, v)
				}
			}
		})
	}
}

// TestCutStream checks that cut-stream drops the connection mid-way, that the turn still
// completes, and that the events of a background response can be replayed after the last one
// received (those of a foreground one cannot, as on the hosted service).
func TestCutStream(t *testing.T) {
	ts := newTestServer(t)
	foreground := ts.json("POST", "/openai/v1/responses", map[string]any{"model": "m", "input": "hello"}, 200)
	if status, body := ts.do("GET", "/openai/v1/responses/"+foreground["id"].(string)+"?stream=true", nil); status != 400 ||
		!strings.Contains(string(body), "background") {
		t.Errorf("replay of a foreground response: %d %s", status, body)
	}
	resp := ts.send("POST", "/openai/v1/responses", map[string]any{"model": "m", "input": "hello", "stream": true, "background": true},
		FaultHeader, FaultCutStream)
	events, err := readSSE(t, resp.Body)
	resp.Body.Close()
	if err == nil || events[len(events)-1].Name != "response.output_text.delta" {
		t.Fatalf("stream not cut: %d events, last %s, err %v", len(events), events[len(events)-1].Name, err)
	}
	id := get(events[0].Data, "response", "id").(string)
	last := int(events[len(events)-1].Data["sequence_number"].(float64))
	replay := ts.send("GET", "/openai/v1/responses/"+id+"?stream=true&starting_after="+strconv.Itoa(last), nil)
	rest, err := readSSE(t, replay.Body)
	replay.Body.Close()
	if err != nil || len(rest) == 0 {
		t.Fatalf("replay: %d events, %v", len(rest), err)
	}
	if seq := rest[0].Data["sequence_number"].(float64); int(seq) != last+1 {
		t.Errorf("replay starts at %v, want %d", seq, last+1)
	}
	if rest[len(rest)-1].Name != "response.completed" {
		t.Errorf("replay ends with %s", rest[len(rest)-1].Name)
	}
}

// TestSlowTokens checks that slow-tokens spaces the text deltas out, and only when asked.
func TestSlowTokens(t *testing.T) {
	ts := newTestServer(t, func(c *Config) { c.Faults.TokenDelay = 20 * time.Millisecond })
	timed := func(header ...string) (time.Duration, int) {
		start := time.Now()
		events := ts.stream(map[string]any{"model": "m", "input": "hello"}, header...)
		n := 0
		for _, e := range events {
			if e.Name == "response.output_text.delta" {
				n++
			}
		}
		return time.Since(start), n
	}
	fast, n := timed()
	slow, _ := timed(FaultHeader, FaultSlowTokens)
	// Without the fault the deltas come without pauses, so the stream takes less than the pauses
	// alone would; with it, at least as long.
	if pauses := time.Duration(n) * 20 * time.Millisecond; n < 5 || slow < pauses || fast >= pauses {
		t.Errorf("%d deltas: %v without the fault, %v with it", n, fast, slow)
	}
}

// TestBackgroundCancel checks that a background response can be polled and cancelled while its
// cell runs, that the cancel interrupts the cell, and that a second cancel returns the
// cancelled response again (cancelling is idempotent).
func TestBackgroundCancel(t *testing.T) {
	ts := newTestServer(t)
	queued := ts.json("POST", "/openai/v1/responses", map[string]any{"model": "m", "background": true,
		"input": "```python\nimport time\ntime.sleep(60)\n```"}, 200)
	id := queued["id"].(string)
	if queued["status"] != "queued" || queued["background"] != true {
		t.Errorf("created %v, background %v", queued["status"], queued["background"])
	}
	waitFor(t, func() bool {
		rn := ts.srv.runs.get(id)
		frames, _, _ := rn.next(0)
		return len(frames) > 0 && frames[len(frames)-1].typ == "response.code_interpreter_call.interpreting"
	})
	if got := ts.json("GET", "/openai/v1/responses/"+id, nil, 200); got["status"] != "in_progress" {
		t.Errorf("while running: %v", got["status"])
	}
	start := time.Now()
	cancelled := ts.json("POST", "/openai/v1/responses/"+id+"/cancel", nil, 200)
	if cancelled["status"] != "cancelled" || time.Since(start) > 20*time.Second {
		t.Errorf("cancel: status %v after %v", cancelled["status"], time.Since(start))
	}
	if again := ts.json("POST", "/openai/v1/responses/"+id+"/cancel", nil, 200); again["status"] != "cancelled" {
		t.Errorf("second cancel: %v", again["status"])
	}
	if got := ts.json("GET", "/openai/v1/responses/"+id, nil, 200); got["status"] != "cancelled" || got["error"] != nil {
		t.Errorf("stored status %v, error %v", got["status"], got["error"])
	}
}

// TestCancelRules checks what may be cancelled: never a foreground response on the hosted
// service; anything running in the lenient emulator, which also ends a cancelled stream with
// response.failed where the hosted one just ends it.
func TestCancelRules(t *testing.T) {
	slow := map[string]any{"model": "m", "input": "```python\nimport time\ntime.sleep(60)\n```", "stream": true}
	for _, lenient := range []bool{false, true} {
		t.Run(fmt.Sprintf("lenient=%v", lenient), func(t *testing.T) {
			ts := newTestServer(t, func(c *Config) { c.Lenient = lenient })
			resp := ts.send("POST", "/openai/v1/responses", slow)
			defer resp.Body.Close()
			var id string
			waitFor(t, func() bool {
				var rn *run
				id, rn = ts.onlyRun()
				if rn == nil {
					return false
				}
				frames, _, _ := rn.next(0)
				return len(frames) > 0 && frames[len(frames)-1].typ == "response.code_interpreter_call.interpreting"
			})
			status, body := ts.do("POST", "/openai/v1/responses/"+id+"/cancel", nil)
			if lenient && status != 200 || !lenient && (status != 400 || !strings.Contains(string(body), "background=true")) {
				t.Fatalf("cancel of a foreground response: %d %s", status, body)
			}
			if !lenient {
				return
			}
			events, _ := readSSE(t, resp.Body)
			if last := events[len(events)-1]; last.Name != "response.failed" || get(last.Data, "response", "status") != "cancelled" {
				t.Errorf("lenient cancelled stream ends with %s %v", last.Name, last.Data)
			}
		})
	}
	t.Run("hosted stream of a cancelled response", func(t *testing.T) {
		ts := newTestServer(t)
		bg := map[string]any{"background": true}
		for k, v := range slow {
			bg[k] = v
		}
		resp := ts.send("POST", "/openai/v1/responses", bg)
		defer resp.Body.Close()
		done := make(chan []sseEvent)
		go func() { events, _ := readSSE(t, resp.Body); done <- events }()
		var id string
		waitFor(t, func() bool { id, _ = ts.onlyRun(); return id != "" })
		ts.json("POST", "/openai/v1/responses/"+id+"/cancel", nil, 200)
		events := <-done
		for _, e := range events {
			if e.Name == "response.failed" || e.Name == "response.completed" {
				t.Errorf("a cancelled response's stream ends with %s", e.Name)
			}
		}
	})
}

// onlyRun returns the server's one run, if it has one yet.
func (ts *testServer) onlyRun() (string, *run) {
	ts.srv.runs.mu.Lock()
	defer ts.srv.runs.mu.Unlock()
	for id, rn := range ts.srv.runs.runs {
		return id, rn
	}
	return "", nil
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in 30s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestBare429Fault: a 429 that names no wait in any header.
func TestBare429Fault(t *testing.T) {
	ts := newTestServer(t)
	resp := ts.send("GET", "/openai/v1/files", nil, FaultHeader, FaultBare429)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 429 || !strings.Contains(string(body), `"rate_limit_exceeded"`) {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	for _, h := range []string{"Retry-After", "Retry-After-Ms", "X-Ms-Retry-After-Ms"} {
		if v := resp.Header.Get(h); v != "" {
			t.Errorf("%s: %q, want none", h, v)
		}
	}
}

// TestEmptyStreamOutputsFault: the stream of a background turn carries its
// code call with outputs [] and no live output; the stored response, read
// with include, has them.
func TestEmptyStreamOutputsFault(t *testing.T) {
	ts := newTestServer(t)
	ts.createAgent("analyst")
	events := ts.stream(turnBody("analyst", map[string]any{"input": "```python\nprint(6 * 7)\n```", "background": true,
		"include": []string{"code_interpreter_call.outputs"}}), FaultHeader, FaultEmptyStreamOutputs)
	var id string
	for _, e := range events {
		switch e.Name {
		case logsDeltaEvent, partialImageEvent:
			t.Errorf("live output %s under the fault", e.Name)
		case "response.output_item.done":
			if get(e.Data, "item", "type") == "code_interpreter_call" {
				if outs, ok := get(e.Data, "item", "outputs").([]any); !ok || len(outs) != 0 {
					t.Errorf("streamed call outputs %v, want []", get(e.Data, "item", "outputs"))
				}
			}
		}
	}
	final := lastResponse(t, events)
	id, _ = final["id"].(string)
	if outs, _ := get(final, "output", 0, "outputs").([]any); len(outs) != 0 {
		t.Errorf("completed response outputs %v, want []", outs)
	}
	stored := ts.json("GET", "/openai/v1/responses/"+id+"?include[]=code_interpreter_call.outputs", nil, 200)
	if logs, _ := get(stored, "output", 0, "outputs", 0, "logs").(string); !strings.Contains(logs, "42") {
		t.Errorf("stored outputs %v, want the logs", get(stored, "output", 0, "outputs"))
	}
}

// TestExpiredExpectedContainerFault: the next turn of a conversation with a
// container is refused with the recorded wording, and the container is
// expired from then on.
func TestExpiredExpectedContainerFault(t *testing.T) {
	ts := newTestServer(t)
	ts.createAgent("analyst")
	conv := ts.json("POST", "/openai/v1/conversations", map[string]any{}, 200)["id"].(string)
	first := ts.json("POST", "/openai/v1/responses", turnBody("analyst", map[string]any{"conversation": conv,
		"input": "```python\nx = 1\n```"}), 200)
	cid, _ := get(first, "output", 0, "container_id").(string)
	status, body := ts.do("POST", "/openai/v1/responses", turnBody("analyst", map[string]any{"conversation": conv, "input": "hi"}),
		FaultHeader, FaultExpiredExpectedContainer)
	if status != 400 || !strings.Contains(string(body), "Expected container_id: "+cid) {
		t.Fatalf("faulted turn: %d %s", status, body)
	}
	status, body = ts.do("POST", "/openai/v1/responses", turnBody("analyst", map[string]any{"conversation": conv, "input": "hi"}))
	if status != 400 || !strings.Contains(string(body), "Container is expired.") {
		t.Errorf("turn after: %d %s", status, body)
	}
	fresh := ts.json("POST", "/openai/v1/conversations", map[string]any{}, 200)["id"].(string)
	ts.json("POST", "/openai/v1/responses", turnBody("analyst", map[string]any{"conversation": fresh, "input": "hi"}), 200)
}

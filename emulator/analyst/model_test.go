package analyst

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
)

// scripted is a fake chat-completions endpoint: each request gets the next scripted reply,
// streamed as server-sent events the way OpenAI does, and every request body is kept.
type scripted struct {
	mu      sync.Mutex
	replies []func(w http.ResponseWriter)
	bodies  []map[string]any
}

func newScripted(t *testing.T, replies ...func(w http.ResponseWriter)) (*scripted, *Model) {
	t.Helper()
	s := &scripted{replies: replies}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	m, err := NewModel(ModelConfig{URL: srv.URL + "/v1", Model: "test-model", APIKey: "k", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	return s, m
}

func (s *scripted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var body map[string]any
	b, _ := io.ReadAll(r.Body)
	json.Unmarshal(b, &body)
	s.bodies = append(s.bodies, body)
	if r.URL.Path != "/v1/chat/completions" || len(s.replies) == 0 {
		http.Error(w, `{"error":{"message":"unexpected"}}`, http.StatusNotFound)
		return
	}
	next := s.replies[0]
	s.replies = s.replies[1:]
	next(w)
}

// sse streams chat.completion.chunk deltas, then [DONE].
func sse(deltas ...map[string]any) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i, d := range deltas {
			chunk := map[string]any{"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "test-model",
				"choices": []any{map[string]any{"index": 0, "delta": d, "finish_reason": nil}}}
			if i == len(deltas)-1 {
				chunk["choices"].([]any)[0].(map[string]any)["finish_reason"] = "stop"
			}
			b, _ := json.Marshal(chunk)
			fmt.Fprintf(w, "data: %s\n\n", b)
			w.(http.Flusher).Flush()
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	}
}

func text(s string) map[string]any { return map[string]any{"content": s} }

// toolDelta is one fragment of a streamed tool call; the first carries id and name.
func toolDelta(first bool, args string) map[string]any {
	call := map[string]any{"index": 0, "function": map[string]any{"arguments": args}}
	if first {
		call["id"], call["type"] = "call_x", "function"
		call["function"].(map[string]any)["name"] = "python"
	}
	return map[string]any{"tool_calls": []any{call}}
}

func fail(status int) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		http.Error(w, `{"error":{"message":"boom","type":"server_error"}}`, status)
	}
}

func TestModel_ToolLoopStreamsText(t *testing.T) {
	s, m := newScripted(t,
		sse(text("Let me "), text("look."), toolDelta(true, `{"code": "print(`), toolDelta(false, `6*7)"}`)),
		sse(text("The answer "), text("is 42.")))
	var got []string
	ctx := WithTextStream(context.Background(), func(d string) { got = append(got, d) })
	turn := &Turn{Question: "what is 6*7?", Files: []string{"a.csv"}, History: []Message{{Role: "user", Text: "hi"}, {Role: "assistant", Text: "hello"}}}
	step, err := m.Next(ctx, turn)
	if err != nil || step.Code != "print(6*7)" {
		t.Fatalf("first step %+v, %v; want code print(6*7)", step, err)
	}
	turn.Cells = append(turn.Cells, Cell{Code: step.Code, Stdout: "42\n"})
	step, err = m.Next(ctx, turn)
	if err != nil || step.Code != "" || step.Text != "The answer is 42." {
		t.Fatalf("second step %+v, %v", step, err)
	}
	if strings.Join(got, "|") != "Let me |look.|The answer |is 42." {
		t.Errorf("streamed deltas %q", got)
	}
	first, second := s.bodies[0], s.bodies[1]
	if first["model"] != "test-model" || first["tools"] == nil {
		t.Errorf("first request lacks model or tools: %v", first)
	}
	if sys := first["messages"].([]any)[0].(map[string]any)["content"].(string); !strings.Contains(sys, "a.csv") {
		t.Errorf("system prompt does not name the files: %q", sys)
	}
	msgs := second["messages"].([]any)
	tool := msgs[len(msgs)-1].(map[string]any)
	if tool["role"] != "tool" || tool["tool_call_id"] != "call_1" || tool["content"] != "42" {
		t.Errorf("last message of the second request %v, want the tool result", tool)
	}
	call := msgs[len(msgs)-2].(map[string]any)["tool_calls"].([]any)[0].(map[string]any)
	if args := call["function"].(map[string]any)["arguments"]; args != `{"code":"print(6*7)"}` {
		t.Errorf("tool call arguments %v", args)
	}
}

func TestModel_Stops(t *testing.T) {
	same := &CellError{Name: "KeyError", Value: "'x'"}
	tests := []struct {
		name  string
		cells []Cell
		want  string
	}{
		{name: "cap", cells: make([]Cell, maxModelCells), want: "Stopped after 6 code cells."},
		{name: "repeated error", cells: []Cell{{Code: "a", Error: same}, {Code: "b", Error: &CellError{Name: "KeyError", Value: "'x'"}}}, want: "same error twice (KeyError: 'x')"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, m := newScripted(t, sse(text("Done.")))
			step, err := m.Next(context.Background(), &Turn{Question: "q", Cells: tt.cells})
			if err != nil || step.Code != "" || !strings.Contains(step.Text, tt.want) || !strings.HasSuffix(step.Text, "Done.") {
				t.Fatalf("step %+v, %v; want a final reply noting %q", step, err, tt.want)
			}
			if s.bodies[0]["tools"] != nil {
				t.Errorf("the final request still offered tools")
			}
		})
	}
}

func TestModel_RawArgumentsAndOtherTools(t *testing.T) {
	tests := []struct {
		name  string
		calls map[int64]*toolCall
		want  string
	}{
		{name: "json", calls: map[int64]*toolCall{0: call("python", `{"code":"x=1"}`)}, want: "x=1"},
		{name: "raw code", calls: map[int64]*toolCall{0: call("python", "print(2)")}, want: "print(2)"},
		{name: "other tool first", calls: map[int64]*toolCall{0: call("search", `{"q":"a"}`), 1: call("python", `{"code":"y"}`)}, want: "y"},
		{name: "broken json", calls: map[int64]*toolCall{0: call("python", `{"code": "unterminated`)}, want: ""},
	}
	for _, tt := range tests {
		if got := firstPython(tt.calls); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

func call(name, args string) *toolCall {
	c := &toolCall{name: name}
	c.args.WriteString(args)
	return c
}

// TestModel_FallsBackToRules: a failing endpoint hands the turn to the rules, which say so in
// the reply, and no later call of the turn asks the endpoint again.
func TestModel_FallsBackToRules(t *testing.T) {
	s, m := newScripted(t, fail(http.StatusInternalServerError))
	turn := &Turn{Question: "total revenue", Files: []string{"sales.csv"}}
	step, err := m.Next(context.Background(), turn)
	if err != nil || !strings.HasPrefix(step.Code, profileHeader) || !strings.Contains(step.Code, "# note: the model endpoint failed (HTTP 500)") {
		t.Fatalf("step %+v, %v; want the rules' loading cell with a note", step, err)
	}
	golden, _ := os.ReadFile("testdata/profiles/sales.csv.json")
	turn.Cells = append(turn.Cells, loaded(step.Code, golden))
	step, err = m.Next(context.Background(), turn)
	if err != nil || !strings.Contains(step.Code, `df["revenue"].sum()`) {
		t.Fatalf("step %+v, %v; want the rules' analysis cell", step, err)
	}
	turn.Cells = append(turn.Cells, Cell{Code: step.Code, Reports: []Report{{Kind: resultReport,
		Body: []byte(`{"kind": "stat", "col": "revenue", "agg": "sum", "value": 2470890.11, "n": 900}`)}}})
	step, err = m.Next(context.Background(), turn)
	want := "_Note: the model endpoint failed (HTTP 500), so the built-in rules answered instead_\n\nThe total of `revenue` is **2,470,890.11** (over 900 values)."
	if err != nil || step.Text != want {
		t.Fatalf("reply %q, %v; want %q", step.Text, err, want)
	}
	if len(s.bodies) != 1 {
		t.Errorf("the endpoint was asked %d times, want once", len(s.bodies))
	}
}

func TestNewModel_NeedsURLAndModel(t *testing.T) {
	if _, err := NewModel(ModelConfig{URL: "http://x"}); err == nil || !strings.HasPrefix(err.Error(), "analyst: ") {
		t.Errorf("err %v, want an analyst: error", err)
	}
}

func TestModel_FencedRunsAsWritten(t *testing.T) {
	s, m := newScripted(t)
	turn := &Turn{Question: "```python\nprint(1)\n```"}
	step, err := m.Next(context.Background(), turn)
	if err != nil || step.Code != "print(1)" {
		t.Fatalf("step %+v, %v", step, err)
	}
	turn.Cells = []Cell{{Code: step.Code, Stdout: "1\n"}}
	if step, _ = m.Next(context.Background(), turn); !strings.Contains(step.Text, "printed `1`.") {
		t.Errorf("reply %q", step.Text)
	}
	if len(s.bodies) != 0 {
		t.Errorf("the endpoint was asked %d times for a fenced block", len(s.bodies))
	}
}

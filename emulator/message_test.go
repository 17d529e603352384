package emulator

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/analyst-workbench/workbench/emulator/analyst"
)

// TestStreamedPlannerText: a planner that writes text as it thinks (a model) streams it as
// it comes: words before a cell become their own message ahead of the cell, and a reply
// that continues what was streamed is not sent twice.
func TestStreamedPlannerText(t *testing.T) {
	planner := PlannerFunc(func(ctx context.Context, turn *Turn) (Step, error) {
		sink := textSink(ctx)
		if sink == nil {
			return Step{Text: "no sink"}, nil
		}
		if len(turn.Cells) == 0 {
			sink("Let me look. ")
			return Step{Code: "print(6 * 7)"}, nil
		}
		sink("The answer ")
		sink("is 42.")
		return Step{Text: "The answer is 42."}, nil
	})
	ts := newTestServer(t, func(c *Config) { c.Planner = planner })
	ts.createAgent("talker")
	events := ts.stream(turnBody("talker", map[string]any{"input": "six times seven?"}))
	var order, deltas []string
	for _, e := range events {
		switch e.Name {
		case "response.output_item.added":
			order = append(order, stringOr(get(e.Data, "item", "type")))
		case "response.output_text.delta":
			deltas = append(deltas, stringOr(e.Data["delta"]))
		}
	}
	if got := strings.Join(order, ","); got != "message,code_interpreter_call,message" {
		t.Errorf("items %s, want the streamed words, the cell, the answer", got)
	}
	if got := strings.Join(deltas, "|"); got != "Let me look. |The answer |is 42." {
		t.Errorf("deltas %q: the reply repeated what was streamed", got)
	}
	resp := lastResponse(t, events)
	if get(resp, "output", 0, "content", 0, "text") != "Let me look. " || get(resp, "output", 2, "content", 0, "text") != "The answer is 42." {
		t.Errorf("output %v", resp["output"])
	}
}

// TestModelTextStreamsThroughEmulator runs the analyst's model planner against a fake chat
// endpoint that streams its words: they reach the response stream as text deltas, in order,
// the words before the tool call ahead of the cell.
func TestModelTextStreamsThroughEmulator(t *testing.T) {
	replies := []string{
		chatChunks(`{"content":"Let me "}`, `{"content":"look."}`,
			`{"tool_calls":[{"index":0,"id":"call_x","type":"function","function":{"name":"python","arguments":"{\"code\": \"print(6*7)\"}"}}]}`),
		chatChunks(`{"content":"It is "}`, `{"content":"42."}`),
	}
	var mu sync.Mutex
	model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if len(replies) == 0 {
			http.Error(w, `{"error":{"message":"unexpected"}}`, http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, replies[0])
		replies = replies[1:]
	}))
	defer model.Close()
	m, err := analyst.NewModel(analyst.ModelConfig{URL: model.URL + "/v1", Model: "m", APIKey: "k", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	ts := newTestServer(t, func(c *Config) { c.Planner = AnalystPlanner(m) })
	ts.createAgent("modelled")
	events := ts.stream(turnBody("modelled", map[string]any{"input": "six times seven?"}))
	var deltas []string
	for _, e := range events {
		if e.Name == "response.output_text.delta" {
			deltas = append(deltas, stringOr(e.Data["delta"]))
		}
	}
	if got := strings.Join(deltas, "|"); got != "Let me |look.|It is |42." {
		t.Errorf("text deltas %q, want the model's words as it streamed them", got)
	}
	if resp := lastResponse(t, events); get(resp, "output", 2, "content", 0, "text") != "It is 42." {
		t.Errorf("output %v", resp["output"])
	}
}

// chatChunks is a chat-completions stream of the given deltas.
func chatChunks(deltas ...string) string {
	var b strings.Builder
	for i, d := range deltas {
		finish := "null"
		if i == len(deltas)-1 {
			finish = `"stop"`
		}
		fmt.Fprintf(&b, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":%s,\"finish_reason\":%s}]}\n\n", d, finish)
	}
	return b.String() + "data: [DONE]\n\n"
}

// TestAnalystNamesTheUploadByItsName: the upload is mounted as
// <file_id>-<filename>, yet the built-in analyst's answer names it as the
// user does.
func TestAnalystNamesTheUploadByItsName(t *testing.T) {
	ts := newTestServer(t, func(c *Config) { c.Planner = AnalystPlanner(&analyst.Rules{}) })
	ts.createAgent("analyst")
	fileID := ts.upload("sales.csv", "region,amount\nnorth,10\nsouth,32\n")
	resp := ts.json("POST", "/openai/v1/responses", turnBody("analyst", map[string]any{
		"input": "how many rows?", "structured_inputs": map[string]any{"f1": fileID}}), http.StatusOK)
	var code, text strings.Builder
	for _, it := range resp["output"].([]any) {
		m := it.(map[string]any)
		if c, ok := m["code"].(string); ok {
			code.WriteString(c)
		}
		text.WriteString(messageText(item(m)))
	}
	if !strings.Contains(code.String(), fileID+"-sales.csv") {
		t.Errorf("the loader does not read the mounted file %s-sales.csv:\n%s", fileID, code.String())
	}
	if !strings.Contains(text.String(), "sales.csv") || strings.Contains(text.String(), fileID) {
		t.Errorf("answer %q: want the file named sales.csv, without its id", text.String())
	}
}

package emulator

import (
	"context"
	"strings"
	"testing"
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

package analyst

import (
	"context"
	"strings"
	"testing"
)

// TestShowVariable: a question that only asks to see a name that earlier code of the
// conversation assigned runs one cell of that name and replies with its value; a name no code
// assigned, or a longer question, is planned as usual.
func TestShowVariable(t *testing.T) {
	history := []Message{
		{Role: "user", Text: "Run it exactly as written.\n\n```python\nx = 21\nlo, hi = 1, 9\nif x:\n    inner = 1\ny == 2\n```"},
		{Role: "assistant", Text: "The code ran without printing anything."},
	}
	for q, want := range map[string]string{
		"show x": "x", "What is `hi`?": "hi", "print lo": "lo", "show me the variable x.": "x",
		"show inner": "", "show y": "", "show z": "", "show x by region": "", "plot x": "",
	} {
		name, ok := askedVariable(q, history)
		if name != want || ok != (want != "") {
			t.Errorf("%q: asked for %q (%v), want %q", q, name, ok, want)
		}
	}

	r := &Rules{}
	turn := &Turn{Question: "show x", History: history}
	step, err := r.Next(context.Background(), turn)
	if err != nil || step.Code != "x" {
		t.Fatalf("first step %+v, %v: want the cell x", step, err)
	}
	turn.Cells = []Cell{{Code: "x", Value: "21"}}
	if step, _ = r.Next(context.Background(), turn); !strings.Contains(step.Text, "21") || step.Code != "" {
		t.Fatalf("reply %+v: want the value 21", step)
	}
	turn.Cells = []Cell{{Code: "x", Error: &CellError{Name: "NameError", Value: "name 'x' is not defined"}}}
	if step, _ = r.Next(context.Background(), turn); !strings.Contains(step.Text, "not defined in this session") {
		t.Fatalf("reply %+v: want the session's end explained", step)
	}
}

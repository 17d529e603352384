package emulator

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestFencedBlocks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, text string
		want       []string
	}{
		{name: "none", text: "plot sales by region", want: nil},
		{name: "one", text: "```python\nx = 1\n```", want: []string{"x = 1"}},
		{name: "two with prose", text: "a\n```python\nx = 1\ny = 2\n```\nb\n```py\nprint(x)\n```\n", want: []string{"x = 1\ny = 2", "print(x)"}},
		{name: "other language ignored", text: "```sql\nselect 1\n```\n```python\nz = 3\n```", want: []string{"z = 3"}},
		{name: "windows newlines", text: "```python\r\nx = 1\r\n```", want: []string{"x = 1"}},
		{name: "indentation kept", text: "```python\nfor i in range(2):\n    print(i)\n```", want: []string{"for i in range(2):\n    print(i)"}},
	}
	for _, tt := range tests {
		if got := FencedBlocks(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestFencedPlanner(t *testing.T) {
	p := FencedPlanner{}
	turn := &Turn{Question: "```python\nprint('a')\n```\n```python\n1/0\n```", Files: []string{"d.csv"}}
	for i, want := range []string{"print('a')", "1/0"} {
		step, err := p.Next(context.Background(), turn)
		if err != nil || step.Code != want {
			t.Fatalf("step %d: %+v %v, want code %q", i, step, err, want)
		}
		res := &ExecResult{Stdout: "a\n"}
		if i == 1 {
			res = &ExecResult{Error: &ExecError{Name: "ZeroDivisionError", Value: "division by zero"}}
		}
		turn.Cells = append(turn.Cells, resultCell(step.Code, res))
	}
	step, _ := p.Next(context.Background(), turn)
	want := "Cell 1 printed `a`.\n\nCell 2 failed with ZeroDivisionError: division by zero."
	if step.Code != "" || step.Text != want {
		t.Errorf("reply %q, want %q", step.Text, want)
	}
	step, _ = p.Next(context.Background(), &Turn{Question: "mean of x?", Files: []string{"d.csv"}})
	if step.Code != "" || !strings.Contains(step.Text, "fenced") || !strings.Contains(step.Text, "d.csv") {
		t.Errorf("no-code reply %q", step.Text)
	}
}

func TestCiteFiles(t *testing.T) {
	c := &container{id: "cntr_1", copied: map[string]bool{}}
	chart, _ := c.upsertFile(KernelFile{Name: "chart.png", Size: 3, ModTime: time.Unix(1, 0)}, "assistant", time.Unix(1, 0))
	table, _ := c.upsertFile(KernelFile{Name: "/mnt/data/t.csv", Size: 3, ModTime: time.Unix(1, 0)}, "assistant", time.Unix(1, 0))
	// A table result's full CSV is the kernel's own (issue 40: ".wb/result-15.csv" leaked into
	// the reply): copied out and offered by its table, never listed as a file written.
	own, _ := c.upsertFile(KernelFile{Name: ".wb/result-15.csv", Size: 3, ModTime: time.Unix(1, 0)}, "assistant", time.Unix(1, 0))
	text, anns := citeFiles("Voilà: [the chart](sandbox:/mnt/data/chart.png).", c, []*containerFile{chart, table, own})
	wantText := "Voilà: [the chart](sandbox:/mnt/data/chart.png).\n\nFiles written:\n- [t.csv](sandbox:/mnt/data/t.csv)"
	if text != wantText {
		t.Fatalf("text %q, want %q", text, wantText)
	}
	if len(anns) != 2 {
		t.Fatalf("%d annotations, want 2", len(anns))
	}
	runes := []rune(text)
	for i, want := range []string{"[the chart](sandbox:/mnt/data/chart.png)", "[t.csv](sandbox:/mnt/data/t.csv)"} {
		a := anns[i].(map[string]any)
		if got := string(runes[a["start_index"].(int):a["end_index"].(int)]); got != want {
			t.Errorf("annotation %d covers %q, want %q", i, got, want)
		}
	}
	if a := anns[0].(map[string]any); a["file_id"] != chart.ID || a["container_id"] != "cntr_1" || a["filename"] != "chart.png" {
		t.Errorf("annotation %v", a)
	}
	if _, changed := c.upsertFile(KernelFile{Name: "chart.png", Size: 3, ModTime: time.Unix(1, 0)}, "assistant", time.Now()); changed {
		t.Error("an unchanged file was reported as written")
	}
}

func TestChunks(t *testing.T) {
	for _, s := range []string{"", "x = 1", "a\nb\nc\nd\ne\nf\ng", "résumé über alles, ünïcödé everywhere", "one two three four five six seven"} {
		if got := strings.Join(codeChunks(s), ""); got != s {
			t.Errorf("codeChunks(%q) joins to %q", s, got)
		}
		if got := strings.Join(textChunks(s), ""); got != s {
			t.Errorf("textChunks(%q) joins to %q", s, got)
		}
		if n := len(codeChunks(s)); n > 4 {
			t.Errorf("codeChunks(%q): %d chunks", s, n)
		}
	}
	if n := len(codeChunks("a\nb\nc\nd\ne\nf\ng")); n != 4 {
		t.Errorf("seven lines in %d chunks, want 4", n)
	}
}

// TestCustomPlanner plugs in a planner as the analyst package will: it sees the history and the
// attached files, reacts to a failed cell, and links the file it wrote where it wants.
func TestCustomPlanner(t *testing.T) {
	var seen []*Turn
	planner := PlannerFunc(func(_ context.Context, turn *Turn) (Step, error) {
		seen = append(seen, turn)
		switch len(turn.Cells) {
		case 0:
			return Step{Code: "import pandas as pd\ndf = pd.read_csv('missing.csv')"}, nil
		case 1:
			if turn.Cells[0].Error == nil {
				return Step{Text: "expected an error"}, nil
			}
			return Step{Code: "import pandas as pd\ndf = pd.read_csv('" + turn.Files[0] + "')\ndf.to_csv('/mnt/data/copy.csv')"}, nil
		}
		return Step{Text: "Copied to [the copy](sandbox:/mnt/data/copy.csv) after " + turn.Cells[0].Error.Name + "."}, nil
	})
	ts := newTestServer(t, func(c *Config) { c.Planner = planner })
	ts.createAgent("custom")
	fileID := ts.upload("input.csv", "a\n1\n")
	conv := ts.json("POST", "/openai/v1/conversations", map[string]any{"items": []any{
		map[string]any{"role": "user", "content": "earlier question"}}}, 200)
	resp := ts.json("POST", "/openai/v1/responses", turnBody("custom", map[string]any{"conversation": conv["id"],
		"input": "copy it", "structured_inputs": map[string]any{"f1": fileID}}), 200)
	last := seen[len(seen)-1]
	if len(seen) != 3 || last.Question != "copy it" || !slices.Equal(last.Files, []string{fileID + "-input.csv"}) ||
		len(last.History) != 1 || last.History[0].Text != "earlier question" || last.Instructions != "Analyse "+fileID+"." {
		t.Fatalf("planner saw %d calls, last %+v", len(seen), last)
	}
	if !slices.Equal(last.Cells[1].Files, []string{"copy.csv"}) {
		t.Errorf("second cell files %v", last.Cells[1].Files)
	}
	text := get(resp, "output", 2, "content", 0, "text")
	if text != "Copied to [the copy](sandbox:/mnt/data/copy.csv) after FileNotFoundError." {
		t.Errorf("reply %q: the planner's own link should be kept and nothing appended", text)
	}
	if get(resp, "output", 2, "content", 0, "annotations", 0, "start_index") != 10.0 {
		t.Errorf("annotations %v", get(resp, "output", 2, "content", 0, "annotations"))
	}
}

// TestPlannerFailures checks that a planner's error or panic fails the response, not the server.
func TestPlannerFailures(t *testing.T) {
	for name, planner := range map[string]Planner{
		"error": PlannerFunc(func(context.Context, *Turn) (Step, error) { return Step{}, errors.New("model unreachable") }),
		"panic": PlannerFunc(func(context.Context, *Turn) (Step, error) { panic("bad rule") }),
	} {
		t.Run(name, func(t *testing.T) {
			ts := newTestServer(t, func(c *Config) { c.Planner = planner })
			events := ts.stream(map[string]any{"model": "m", "input": "hi"})
			resp := lastResponse(t, events)
			msg := stringOr(get(resp, "error", "message"))
			if events[len(events)-1].Name != "response.failed" || resp["status"] != "failed" ||
				get(resp, "error", "code") != "server_error" || (!strings.Contains(msg, "model unreachable") && !strings.Contains(msg, "bad rule")) {
				t.Errorf("last event %s, response status %v, error %v", events[len(events)-1].Name, resp["status"], resp["error"])
			}
			if got := ts.json("GET", "/openai/v1/responses/"+resp["id"].(string), nil, 200); got["status"] != "failed" {
				t.Errorf("stored status %v", got["status"])
			}
		})
	}
}

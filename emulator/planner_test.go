package emulator

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestFencedBlocks(t *testing.T) {
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
		turn.Cells = append(turn.Cells, Cell{Code: step.Code, Result: res})
	}
	step, _ := p.Next(context.Background(), turn)
	want := "Cell 1 printed:\n\n```\na\n```\n\nCell 2 failed with ZeroDivisionError: division by zero."
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
	text, anns := citeFiles("Voilà: [the chart](sandbox:/mnt/data/chart.png).", c, []*containerFile{chart, table})
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

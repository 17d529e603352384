package analyst

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
)

func TestRules_Fenced(t *testing.T) {
	r := &Rules{}
	turn := &Turn{Question: "run this\n```python\nprint('a')\n```\nthen\n```py\n1/0\n```\n```python\nprint('never')\n```", Files: []string{"d.csv"}}
	for i, want := range []string{"print('a')", "1/0"} {
		step, err := r.Next(context.Background(), turn)
		if err != nil || step.Code != want {
			t.Fatalf("step %d: %+v %v, want code %q", i, step, err, want)
		}
		c := Cell{Code: step.Code, Stdout: "a\n"}
		if i == 1 {
			c = Cell{Code: step.Code, Error: &CellError{Name: "ZeroDivisionError", Value: "division by zero"}}
		}
		turn.Cells = append(turn.Cells, c)
	}
	step, _ := r.Next(context.Background(), turn)
	want := "Cell 1 printed `a`.\n\nCell 2 failed with ZeroDivisionError: division by zero.\n\nThe remaining 1 block(s) did not run because of the error."
	if step.Code != "" || step.Text != want {
		t.Errorf("reply %q, want %q", step.Text, want)
	}
}

// TestFencedStep_DoesNotRepeatOutput: the page shows a cell's output under
// its code, so the reply quotes a one-line result and points at anything
// longer (a table, a listing) instead of printing it a second time.
func TestFencedStep_DoesNotRepeatOutput(t *testing.T) {
	table := "  month  revenue\n0   Jan      120\n1   Feb      135\n"
	for _, tc := range []struct {
		cell Cell
		want string
	}{
		{Cell{Stdout: table}, "The code ran; what it printed is shown under its code above."},
		{Cell{Value: "42"}, "The code printed `42`."},
		// A line the code printed is output, whatever it looks like (it once was read as the
		// engine's own and dropped).
		{Cell{Stdout: "@@wb-table {}\n"}, "The code printed `@@wb-table {}`."},
		{Cell{Stdout: "\n"}, "The code ran without printing anything."},
		{Cell{Stdout: strings.Repeat("x", 200) + "\n"}, "The code ran; what it printed is shown under its code above."},
	} {
		if got := FencedStep([]string{"code"}, []Cell{tc.cell}).Text; got != tc.want {
			t.Errorf("output %q: reply %q, want %q", tc.cell.Stdout+tc.cell.Value, got, tc.want)
		}
	}
}

func TestRules_NoFiles(t *testing.T) {
	step, err := (&Rules{}).Next(context.Background(), &Turn{Question: "plot sales", Files: []string{"chart.png"}})
	if err != nil || step.Code != "" || !strings.Contains(step.Text, "no data file") || !strings.Contains(step.Text, "chart.png") {
		t.Errorf("step %+v, %v", step, err)
	}
}

func TestInputFiles(t *testing.T) {
	hist := []Message{{Role: "assistant", Text: "Saved to [out.csv](sandbox:/mnt/data/out.csv)."}, {Role: "user", Text: "[x.csv](sandbox:/mnt/data/x.csv)"}}
	got := inputFiles([]string{"a.csv", "b.XLSX", "out.csv", "x.csv", "chart.png", ".hidden.csv", ".wb/result-3.csv", "c.json"}, hist)
	want := []string{"a.csv", "b.XLSX", "x.csv", "c.json"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestRules_UnreadableProfileIsReported(t *testing.T) {
	turn := &Turn{Question: "overview", Files: []string{"a.csv"}}
	step, _ := (&Rules{}).Next(context.Background(), turn)
	turn.Cells = []Cell{loaded(step.Code, []byte(`{"frames": [{"key": "a.c`))}
	step, err := (&Rules{}).Next(context.Background(), turn)
	if err != nil || step.Code != "" || !strings.Contains(step.Text, "analyst: parse profile") {
		t.Errorf("step %+v, %v", step, err)
	}
}

func TestRules_LoadCellFailureIsReported(t *testing.T) {
	turn := &Turn{Question: "overview", Files: []string{"a.csv"}}
	step, _ := (&Rules{}).Next(context.Background(), turn)
	turn.Cells = []Cell{{Code: step.Code, Error: &CellError{Name: "MemoryError", Value: ""}}}
	step, err := (&Rules{}).Next(context.Background(), turn)
	if err != nil || !strings.Contains(step.Text, "Loading the files failed with MemoryError") {
		t.Errorf("step %+v, %v", step, err)
	}
}

// TestRules_TurnInSandbox drives Next the way the emulator does, in a real kernel, across two
// turns of one conversation: the second is a follow-up that only makes sense with the first.
func TestRules_TurnInSandbox(t *testing.T) {
	k := newKernel(t, []string{"prices.csv"})
	r := &Rules{}
	var hist []Message
	turn := func(q string) (string, []Cell) {
		t.Helper()
		tr := &Turn{Question: q, History: hist, Files: []string{"prices.csv", "notes.txt.png"}}
		for range 10 {
			step, err := r.Next(context.Background(), tr)
			if err != nil {
				t.Fatalf("%q: %v", q, err)
			}
			if step.Code == "" {
				hist = append(hist, Message{Role: "user", Text: q}, Message{Role: "assistant", Text: step.Text})
				return step.Text, tr.Cells
			}
			tr.Cells = append(tr.Cells, k.exec(step.Code))
		}
		t.Fatalf("%q: no reply after 10 steps", q)
		return "", nil
	}
	text, cells := turn("plot AAPL close over time")
	if len(cells) != 2 || !wroteFile(cells, "line_close_aapl.png") && !strings.Contains(text, "line_close_aapl.png") {
		t.Fatalf("first turn: %d cells, reply %q", len(cells), text)
	}
	text, _ = turn("same for MSFT, as a bar chart by year")
	for _, want := range []string{"Ticker is MSFT", "bar_close_yearly_msft.png", "2012"} {
		if !strings.Contains(text, want) {
			t.Errorf("follow-up reply lacks %q:\n%s", want, text)
		}
	}
	if os.Getenv("ANALYST_DUMP") != "" {
		t.Log(text)
	}
}

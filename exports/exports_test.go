package exports_test

import (
	"io"
	"testing"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/exports"
)

// answer folds a loader cell and a cell that returned a table.
func answer(text string) *chat.Answer {
	a := chat.NewAnswer()
	table := &chat.Table{Index: []string{""}, Columns: []string{"n"}, Numeric: []bool{true}, Rows: [][]any{{0.0, 1.5}, {1.0, 2.0}},
		TotalRows: 2, TotalColumns: 1, TextStart: 0, TextEnd: len("   n\n0  1.5\n1  2.0\n")}
	for _, e := range []chat.Event{
		{Type: chat.EventCellAdded, CellID: "load", Loader: true},
		{Type: chat.EventCodeDone, CellID: "load", Text: "FILES = ['a.csv']"},
		{Type: chat.EventLogs, CellID: "load", Text: "Loaded a.csv: 2 rows x 1 columns\n"},
		{Type: chat.EventCellDone, CellID: "load", Status: "completed"},
		{Type: chat.EventCellAdded, CellID: "c"},
		{Type: chat.EventCodeDone, CellID: "c", Text: "df"},
		{Type: chat.EventLogs, CellID: "c", Text: "   n\n0  1.5\n1  2.0\n", Table: table},
		{Type: chat.EventCellDone, CellID: "c", Status: "completed"},
		{Type: chat.EventText, Text: text},
	} {
		a.Apply(e)
	}
	return a
}

// TestReportAndNotebook: the report keeps the loader once, shows a result
// as the table it stands for, formatted as the page shows it, and the
// notebook numbers every cell it keeps in order.
func TestReportAndNotebook(t *testing.T) {
	t.Parallel()
	x := &chat.Export{Title: "Q3", Turns: []chat.ExportTurn{
		{N: 1, Question: "first", Answer: answer("one")},
		{N: 2, Question: "second", EditedBy: "ana", Answer: answer("two")},
	}}
	none := func(string) (io.ReadCloser, error) { t.Fatal("no blob should be read"); return nil, nil }
	r := exports.Report(x, none)
	if len(r.Turns) != 2 || len(r.Turns[0].Cells) != 2 || len(r.Turns[1].Cells) != 1 || r.Turns[1].EditedBy != "ana" {
		t.Fatalf("turns %+v", r.Turns)
	}
	out := r.Turns[0].Cells[1].Output
	if len(out) != 1 || out[0].Table == nil || out[0].Table.Rows[0][1] != "1.5" || out[0].Table.Rows[1][1] != "2.0" {
		t.Fatalf("the result's table: %+v", out)
	}
	nb := exports.Notebook(r)
	if n := nb.Turns[1].Cells[0].ExecutionCount; n != 3 {
		t.Errorf("the second turn's cell is numbered %d, want 3", n)
	}
}

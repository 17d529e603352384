package chat_test

import (
	"testing"

	"github.com/analyst-workbench/workbench/chat"
)

// The result table stands for its text form in the logs, at the offsets
// the engine gave; the text around it stays, and nothing in the text is
// read as anything but output.
func TestSplitOutput(t *testing.T) {
	printed := "loaded\n@@wb-table {\"text_lines\":1,\"table\":{}}\n"
	form := "   a\n0  1\n1  NaN\n"
	logs := printed + form + "after\n"
	table := &chat.Table{Index: []string{""}, Columns: []string{"a"}, Numeric: []bool{true},
		Rows: [][]any{{0.0, 1.0}, {1.0, nil}}, TotalRows: 2, TotalColumns: 1,
		TextStart: len(printed), TextEnd: len(printed) + len(form)}
	parts := chat.SplitOutput(logs, table)
	if len(parts) != 3 || parts[0].Text != printed || parts[1].Table != table || parts[2].Text != "after\n" {
		t.Fatalf("parts %+v", parts)
	}
	if got := chat.SplitOutput("plain\n", nil); len(got) != 1 || got[0].Text != "plain\n" {
		t.Fatalf("plain: %+v", got)
	}
	bad := &chat.Table{TextStart: 3, TextEnd: 99}
	if got := chat.SplitOutput("x\n", bad); len(got) != 2 || got[0].Text != "x\n" || got[1].Table != bad {
		t.Fatalf("offsets past the logs: %+v", got)
	}
}

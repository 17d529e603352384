package chat_test

import (
	"testing"

	"github.com/analyst-workbench/workbench/chat"
)

// A table marker replaces the text form of the result after it; other
// markers are dropped, and the text around stays.
func TestSplitOutput(t *testing.T) {
	logs := "@@wb-session {}\nloaded\n" +
		`@@wb-table {"text_lines":3,"table":{"index":[""],"columns":["a"],"dtypes":["int64"],"numeric":[true],"rows":[[0,1],[1,null]],"total_rows":2,"total_columns":1}}` + "\n" +
		"   a\n0  1\n1  NaN\n" + "after\n"
	parts := chat.SplitOutput(logs)
	if len(parts) != 3 || parts[0].Text != "loaded\n" || parts[2].Text != "after\n" {
		t.Fatalf("parts %+v", parts)
	}
	tb := parts[1].Table
	if tb == nil || tb.TotalRows != 2 || tb.Rows[0][1] != 1.0 || tb.Rows[1][1] != nil || !tb.Numeric[0] {
		t.Fatalf("table %+v", tb)
	}
	if got := chat.SplitOutput("plain\n"); len(got) != 1 || got[0].Text != "plain\n" {
		t.Fatalf("plain: %+v", got)
	}
	if got := chat.SplitOutput("@@wb-table {broken\nx\n"); len(got) != 1 || got[0].Text != "x\n" {
		t.Fatalf("broken marker: %+v", got)
	}
}

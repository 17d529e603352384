package chat_test

import (
	"testing"

	"github.com/analyst-workbench/workbench/chat"
)

func TestParseFrameText(t *testing.T) {
	describe := "          price       qty\n" +
		"count  4.000000  4.000000\n" +
		"mean   4.187500  4.000000\n" +
		"std    3.986302  3.559026\n" +
		"min    1.250000       NaN\n"
	tb, ok := chat.ParseFrameText(describe)
	if !ok || len(tb.Columns) != 2 || tb.Columns[1] != "qty" || len(tb.Rows) != 4 || tb.Rows[1][1] != 4.1875 || tb.Rows[3][2] != nil || !tb.Numeric[0] {
		t.Fatalf("describe: %v %+v", ok, tb)
	}

	long := "     a    b\n0    1    x\n1    2    y\n..  ...  ...\n9    9    z\n\n[1000 rows x 2 columns]\n"
	tb, ok = chat.ParseFrameText(long)
	if !ok || tb.TotalRows != 1000 || len(tb.Rows) != 3 || tb.Numeric[1] || !tb.Numeric[0] {
		t.Fatalf("long: %v %+v", ok, tb)
	}

	series := "North    1500.5\nSouth     980.25\nName: revenue, dtype: float64\n"
	tb, ok = chat.ParseFrameText(series)
	if !ok || tb.Columns[0] != "revenue" || tb.Rows[1][0] != "South" || tb.Rows[1][1] != 980.25 {
		t.Fatalf("series: %v %+v", ok, tb)
	}

	named := "         units\ndate          \n2026-01     17\n2026-02     21\n2026-03     17\n"
	tb, ok = chat.ParseFrameText(named)
	if !ok || tb.Index[0] != "date" || tb.Columns[0] != "units" || len(tb.Rows) != 3 || tb.Rows[1][0] != "2026-02" || tb.Rows[1][1] != 21.0 {
		t.Fatalf("named index: %v %+v", ok, tb)
	}

	pivot := "region   East  North\ndate                \n2026-01   1.0    2.0\n2026-02   3.0    NaN\n"
	tb, ok = chat.ParseFrameText(pivot)
	if !ok || tb.Index[0] != "date" || len(tb.Columns) != 2 || tb.Columns[1] != "North" || tb.Rows[1][2] != nil || tb.Rows[0][1] != 1.0 {
		t.Fatalf("pivot: %v %+v", ok, tb)
	}

	namedSeries := "date\n2026-01    17\n2026-02    21\nName: units, dtype: int64\n"
	tb, ok = chat.ParseFrameText(namedSeries)
	if !ok || tb.Index[0] != "date" || tb.Columns[0] != "units" || len(tb.Rows) != 2 || tb.Rows[1][1] != 21.0 {
		t.Fatalf("series with a named index: %v %+v", ok, tb)
	}

	for _, text := range []string{"tick 0\ntick 1\ntick 2\ntick 3\n", "total 6\n", "hello world\nthis is text\n", "  indented words here\nand a line that is longer than the header\n"} {
		if _, ok := chat.ParseFrameText(text); ok {
			t.Errorf("%q read as a table", text)
		}
	}
}

// Printed frames in a cell's output read as tables; the text around stays.
func TestSplitOutputReadsPrintedFrames(t *testing.T) {
	logs := "Summary:\n     a    b\n0    1    x\n1    2    y\n\n[1000 rows x 2 columns]\nDone.\n\nbye\n"
	parts := chat.SplitOutput(logs, nil)
	if len(parts) != 3 || parts[0].Text != "Summary:\n" || parts[1].Table == nil || parts[1].Table.TotalRows != 1000 || parts[2].Text != "Done.\n\nbye\n" {
		for _, p := range parts {
			t.Logf("%q %+v", p.Text, p.Table)
		}
		t.Fatal("parts differ")
	}
}

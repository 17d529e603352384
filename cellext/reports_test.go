package cellext_test

import (
	"reflect"
	"testing"

	"github.com/analyst-workbench/workbench/cellext"
)

// analystCode is a built-in analyst's cell with report statements: on one
// line, over two, alone in a block, and inside a loop with other lines.
const analystCode = "df = frames[\"stocks.csv\"]\n" +
	"_emit(\"rows\", n=len(df), where=\"Close (above) 100\")\n" +
	"result = df.describe()\n" +
	"_emit(\"overview\", key=\"stocks.csv\",\n" +
	"      kinds=[[c, str(t)] for c, t in df.dtypes.items()])\n" +
	"if _note:\n" +
	"    _emit(\"thinned\", note=_note)\n" +
	"for key, d in frames.items():\n" +
	"    print(key)\n" +
	"    _emit(\"columns\", key=key)\n" +
	"result"

// TestReportLines finds every report statement, one over several lines
// included, and a block header they alone filled; the code without them
// reads as an analyst would write it.
func TestReportLines(t *testing.T) {
	t.Parallel()
	got := cellext.ReportLines(analystCode)
	want := []cellext.Lines{{First: 2, Last: 2}, {First: 4, Last: 7}, {First: 10, Last: 10}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ReportLines = %+v, want %+v", got, want)
	}
	shown := "df = frames[\"stocks.csv\"]\nresult = df.describe()\nfor key, d in frames.items():\n    print(key)\nresult"
	if s := cellext.Without(analystCode, got); s != shown {
		t.Errorf("Without =\n%s\nwant\n%s", s, shown)
	}
	if plain := "print(1)\nif x:\n    y()"; cellext.ReportLines(plain) != nil || cellext.Without(plain, nil) != plain {
		t.Errorf("code without reports changed: %+v", cellext.ReportLines(plain))
	}
}

// TestWithout_PartOfTheCode drops the hidden lines of code still streaming
// in: those that have arrived, and the first lines of a statement cut
// short.
func TestWithout_PartOfTheCode(t *testing.T) {
	t.Parallel()
	hidden := cellext.ReportLines(analystCode)
	if got := cellext.Without("df = frames[\"stocks.csv\"]\n_emit(\"ro", hidden); got != "df = frames[\"stocks.csv\"]" {
		t.Errorf("Without = %q", got)
	}
}

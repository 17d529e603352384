package chat_test

import (
	"testing"

	"github.com/analyst-workbench/workbench/cellext"
	"github.com/analyst-workbench/workbench/chat"
)

// TestShownCode_TheEngineSaysWhatIsHidden leaves out of an analyst's cell
// the lines the engine says report to it, and nothing else: an _emit( line
// the engine did not name is the code's own and shown, and so is every
// line of code the user or a model wrote, and the loader's.
func TestShownCode_TheEngineSaysWhatIsHidden(t *testing.T) {
	t.Parallel()
	code := "df = frames[\"a.csv\"]\n_emit(\"rows\", n=len(df))\n_emit(\"mine\")\ndf"
	hidden := []cellext.Lines{{First: 2, Last: 2}}
	if got, want := (&chat.Cell{Code: code, Analyst: true, Hidden: hidden}).ShownCode(), "df = frames[\"a.csv\"]\n_emit(\"mine\")\ndf"; got != want {
		t.Errorf("ShownCode = %q, want %q", got, want)
	}
	for _, c := range []*chat.Cell{
		{Code: code, Analyst: true},
		{Code: code, Hidden: hidden},
		{Code: code, Loader: true, Analyst: true, Hidden: hidden},
	} {
		if got := c.ShownCode(); got != code {
			t.Errorf("%+v: ShownCode = %q, want the code as it ran", c, got)
		}
	}
}

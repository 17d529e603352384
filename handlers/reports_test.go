package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/analyst-workbench/workbench/emulator"
	"github.com/analyst-workbench/workbench/emulator/analyst"
	"github.com/analyst-workbench/workbench/sandbox"
	"github.com/analyst-workbench/workbench/store"
)

// TestPrintedReportsArePlainOutput pins the contract between the local
// engine and the app (issue 41): the loader's line comes from what the
// engine reports beside its output, the analyst's report statements are
// hidden because the engine names them, and nothing a cell prints or
// calls is read as a report: a user's block that prints a "Loaded …" line
// and calls an _emit( of its own shows its code and output as they ran.
func TestPrintedReportsArePlainOutput(t *testing.T) {
	l := newLiveAppPlanner(t, sandbox.Config{}, emulator.AnalystPlanner(&analyst.Rules{}))
	ana := l.signedIn("ana", store.RoleAnalyst)
	convID := ana.create()
	path := "/conversations/" + convID
	expect(t, ana.upload(path+"/files", true, part{"file", "sales.csv", salesCSV}), http.StatusOK, `data-file-name="sales.csv"`)

	asked := l.awaitAnswer(ana.postHTMX(path+"/messages", url.Values{"content": {"what is the average revenue?"}}))
	if len(asked.Cells) < 2 || !asked.Cells[0].Loader {
		t.Fatalf("the answer has no loader cell: %+v", asked.Cells)
	}
	if got := asked.Cells[0].Loaded; len(got) != 1 || got[0].Name != "sales.csv" || got[0].Rows != 3 || got[0].Columns != 3 {
		t.Fatalf("the engine reported the loader loaded %+v", got)
	}
	step := asked.Cells[1]
	if !strings.Contains(step.Code, "_emit(") || strings.Contains(step.ShownCode(), "_emit(") || len(step.Hidden) == 0 {
		t.Fatalf("the analyst's reports, hidden %+v, show as:\n%s", step.Hidden, step.ShownCode())
	}
	expect(t, ana.get(path), http.StatusOK, "Loaded sales.csv: 3 × 3")

	block := "```python\ndef _emit(*a):\n    print('mine', *a)\nprint('Loaded fake.csv: 9 rows x 9 columns')\n_emit('shown')\n```"
	own := l.awaitAnswer(ana.postHTMX(path+"/messages", url.Values{"content": {block}}))
	if len(own.Cells) != 1 {
		t.Fatalf("the block ran as %d cells", len(own.Cells))
	}
	c := own.Cells[0]
	if c.Loader || c.Loaded != nil || c.Hidden != nil || !strings.Contains(c.ShownCode(), "_emit('shown')") {
		t.Fatalf("the user's block read as the engine's: loader %v, loaded %+v, hidden %+v, code %q", c.Loader, c.Loaded, c.Hidden, c.ShownCode())
	}
	if !strings.Contains(c.Logs, "Loaded fake.csv: 9 rows x 9 columns\nmine shown") {
		t.Fatalf("the block printed %q", c.Logs)
	}
	if page := ana.get(path); strings.Contains(page.body, "fake.csv: 9 × 9") {
		t.Fatal("a printed line was shown as a file the loader loaded")
	}
}

package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/analyst-workbench/workbench/emulator"
	"github.com/analyst-workbench/workbench/emulator/analyst"
	"github.com/analyst-workbench/workbench/sandbox"
	"github.com/analyst-workbench/workbench/store"
)

// stockCSV is a small daily price file, named as an analyst's download is.
func stockCSV() string {
	var b strings.Builder
	b.WriteString("Date,Open,Close,Volume\n")
	for day := 1; day <= 28; day++ {
		fmt.Fprintf(&b, "2024-02-%02d,%.2f,%.2f,%d\n", day, 400+float64(day)*1.5, 401+float64(day)*1.25, 20_000_000+day*150_000)
	}
	return b.String()
}

// regionCSV is a sales file with a category, a date and money.
const regionCSV = "date,region,product,units,revenue\n" +
	"2024-01-03,North,P1,4,120.50\n2024-01-09,South,P2,2,80.00\n2024-02-11,East,P1,7,245.25\n" +
	"2024-02-15,North,P3,1,35.00\n2024-03-02,West,P2,5,199.90\n2024-03-20,South,P1,3,90.75\n" +
	"2024-04-05,North,P2,6,240.00\n2024-04-18,East,P3,2,70.10\n"

// notebookQuestions are the kinds of step, before and after a second file
// is uploaded: the kinds of step an analyst's conversation holds:
// overviews, a question naming its file, group-bys and charts, filtered
// rows saved, follow-ups that build on the last answer, statistics, and
// code of the analyst's own.
var notebookQuestions = [2][]string{{
	"describe the data",
	"total revenue by region as a bar chart",
	"now only North",
	"show the rows where units is above 3",
	"save them as a CSV file",
	"what is the correlation between units and revenue?",
}, {
	"what is the average Close in msft.csv?",
	"plot Close over time for msft.csv",
	"how many rows does each file have?",
	"which region has the highest revenue?",
	"describe msft.csv",
	"what is the highest Volume?",
}}

// ownCode is a step of the analyst's own code: it reads an upload by the
// path the engine gives it, writes a chart and a file in /mnt/data and
// reads the file back, all of which the notebook must do beside itself.
const ownCode = "```python\nimport pandas as pd\nimport matplotlib.pyplot as plt\nd = pd.read_csv('%s')\n" +
	"d.plot.bar(x='region', y='units')\nplt.savefig('/mnt/data/units.png')\nd.to_csv('/mnt/data/copy.csv', index=False)\n" +
	"print(len(pd.read_csv('/mnt/data/copy.csv')), d['units'].sum())\n```"

// TestExportedNotebookRunsTopToBottom exports a conversation of every kind
// of step as a notebook and runs it in a Jupyter kernel with the uploads
// beside it, as an analyst who downloads both does: every cell must run.
func TestExportedNotebookRunsTopToBottom(t *testing.T) {
	python := nbclientPython(t)
	l := newLiveAppPlanner(t, sandbox.Config{}, emulator.AnalystPlanner(&analyst.Rules{}))
	ana := l.signedIn("ana", store.RoleAnalyst)
	convID := ana.create()
	uploads := map[string]string{"sales.csv": regionCSV, "msft.csv": stockCSV()}
	for i, name := range []string{"sales.csv", "msft.csv"} { // the second arrives mid-conversation
		expect(t, ana.upload("/conversations/"+convID+"/files", true, part{"file", name, uploads[name]}), http.StatusOK)
		for _, q := range notebookQuestions[i] {
			l.askAndWait(ana, convID, q)
		}
	}
	files, err := l.db.Files(context.Background(), mustUser(t, l.app, "ana").ID, convID)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f.Name == "sales.csv" {
			l.askAndWait(ana, convID, fmt.Sprintf(ownCode, "/mnt/data/"+f.FoundryFileID+"-sales.csv"))
		}
	}
	r := ana.get("/conversations/" + convID + "/export.ipynb")
	expect(t, r, http.StatusOK)
	dir := t.TempDir()
	for name, body := range uploads {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "conversation.ipynb")
	if err := os.WriteFile(path, []byte(r.body), 0o644); err != nil {
		t.Fatal(err)
	}
	runNotebook(t, python, path)
}

// runNotebook executes every cell of the notebook at path in a fresh
// Jupyter kernel, in the notebook's directory, and fails with the first
// error and its cell.
func runNotebook(t *testing.T, python, path string) {
	t.Helper()
	cmd := exec.Command(python, "../notebook/testdata/run_notebook.py", path)
	cmd.Env = append(os.Environ(), "MPLBACKEND=Agg", "PYDEVD_DISABLE_FILE_VALIDATION=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the exported notebook stops at a cell: %v\n%s", err, out)
	}
	t.Log(strings.TrimSpace(string(out)))
}

// nbclientPython returns Debian's python3, skipping the test when it
// cannot run notebooks (make deps installs python3-nbclient and
// python3-ipykernel).
func nbclientPython(t *testing.T) string {
	t.Helper()
	const python = "/usr/bin/python3"
	if err := exec.Command(python, "-c", "import nbclient, ipykernel").Run(); err != nil {
		t.Skipf("%s cannot run notebooks (apt-get install python3-nbclient python3-ipykernel): %v", python, err)
	}
	return python
}

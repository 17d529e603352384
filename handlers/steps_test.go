package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/emulator"
	"github.com/analyst-workbench/workbench/emulator/analyst"
	"github.com/analyst-workbench/workbench/sandbox"
	"github.com/analyst-workbench/workbench/store"
)

// postHTMX posts a form as htmx does and returns the run id the answer carries.
func (b *browser) postHTMX(path string, form url.Values) response {
	form.Set("_csrf", b.csrf)
	return b.postRaw(path, form, "HX-Request", "true")
}

// awaitAnswer follows a run started through the page to its end.
func (l *liveApp) awaitAnswer(r response) *chat.Answer {
	l.t.Helper()
	m := runIDAttr.FindStringSubmatch(r.body)
	if r.status != http.StatusOK || m == nil {
		l.t.Fatalf("turn refused: %d %s", r.status, excerpt(r.body))
	}
	a, _, err := awaitRun(l, m[1], time.Now(), nil)
	if err != nil {
		l.t.Fatal(err)
	}
	return a
}

// logsOf joins what every cell of an answer printed.
func logsOf(a *chat.Answer) string {
	var b strings.Builder
	for _, c := range a.Cells {
		b.WriteString(c.Logs)
	}
	return b.String()
}

// TestStep_EditedCodeRunsInTheSessionAndTheNextQuestionUsesIt is issue 17's
// "Edit and re-run a step": the analyst's edited code runs as written, in
// the conversation's session, as a step marked with its author, shown after
// a reload and exported; then a question uses a variable the step defined,
// in code and in plain words.
func TestStep_EditedCodeRunsInTheSessionAndTheNextQuestionUsesIt(t *testing.T) {
	l := newLiveAppPlanner(t, sandbox.Config{}, emulator.AnalystPlanner(&analyst.Rules{}))
	ana := l.signedIn("ana", store.RoleAnalyst)
	convID := ana.create()
	path := "/conversations/" + convID

	first := l.awaitAnswer(ana.postHTMX(path+"/messages", url.Values{"content": {"```python\nx = 20\nprint('x is', x)\n```"}}))
	if !strings.Contains(logsOf(first), "x is 20") {
		t.Fatalf("the first question printed %q", logsOf(first))
	}

	// The browser sends a textarea's lines with CRLF; the step runs them as Python lines.
	edited := "x = 21\r\ny = x * 2\r\nprint('y is', y)\r\n"
	r := ana.postHTMX(path+"/steps", url.Values{"code": {edited}})
	expect(t, r, http.StatusOK, `data-testid="step-head"`, "Edited by <strong>ana</strong>", "sse-connect")
	step := l.awaitAnswer(r)
	if step.Status != store.RunCompleted || len(step.Cells) != 1 {
		t.Fatalf("step ended %s (%s) with %d cells", step.Status, step.Error, len(step.Cells))
	}
	if got, want := step.Cells[0].Code, "x = 21\ny = x * 2\nprint('y is', y)"; got != want {
		t.Fatalf("the step ran %q, want the code as written %q", got, want)
	}
	if !strings.Contains(logsOf(step), "y is 42") {
		t.Fatalf("the step printed %q", logsOf(step))
	}
	for _, n := range step.Notices {
		if n == chat.StepChangedNotice || n == chat.StepNotRunNotice || n == chat.StepExtraNotice {
			t.Fatalf("the step ran as written, yet it says %q", n)
		}
	}

	// The next question runs in the same kernel, which has the step's variables.
	next := l.awaitAnswer(ana.postHTMX(path+"/messages", url.Values{"content": {"```python\nprint('twice', y * 2)\n```"}}))
	if !strings.Contains(logsOf(next), "twice 84") {
		t.Fatalf("the question after the step printed %q (%s)", logsOf(next), next.Error)
	}
	// The agent knows what the step ran: asked in words, it shows the variable.
	words := l.awaitAnswer(ana.postHTMX(path+"/messages", url.Values{"content": {"show y"}}))
	if !strings.Contains(words.Text, "42") || len(words.Cells) != 1 || words.Cells[0].Code != "y" {
		t.Fatalf("\"show y\" answered %q with cells %+v", words.Text, words.Cells)
	}

	// A chart a step draws is kept in the gallery like any other, captioned with its author.
	chart := l.awaitAnswer(ana.postHTMX(path+"/steps", url.Values{"code": {
		"import matplotlib.pyplot as plt\nplt.bar(['x', 'y'], [x, y])\nplt.savefig('/mnt/data/step_chart.png')"}}))
	if len(chart.Artifacts) != 1 || chart.Artifacts[0].Name != "step_chart.png" {
		t.Fatalf("the chart step kept %+v", chart.Artifacts)
	}
	expect(t, ana.get(path+"/gallery"), http.StatusOK, "step_chart.png", "Edited by ana")

	// Reloaded, the steps are still steps, and every finished cell offers Edit and Run again.
	page := ana.get(path)
	expect(t, page, http.StatusOK, "Edited by <strong>ana</strong>", `data-testid="edit-step"`, `data-testid="run-again"`)
	if n := strings.Count(page.body, `data-testid="step-head"`); n != 2 {
		t.Fatalf("the page shows %d steps, want 2", n)
	}
	nb := ana.get(path + "/export.ipynb")
	expect(t, nb, http.StatusOK, "Edited by ana", `"y = x * 2\n"`)

	// A shared page shows the steps read-only; a link for anyone does not name their author.
	bob := l.signedIn("bob", store.RoleAnalyst)
	for form, by := range map[string]string{"": "ana", "1": "the analyst"} {
		reader := bob
		if form == "1" {
			reader = l.browser()
		}
		shared := reader.get("/s/" + ana.share(convID, url.Values{"anyone": {form}}))
		expect(t, shared, http.StatusOK, "Edited by <strong>"+by+"</strong>", "y is 42")
		if strings.Contains(shared.body, `data-testid="edit-step"`) || strings.Contains(shared.body, `data-testid="run-again"`) {
			t.Errorf("the shared page (anyone=%q) offers to edit or run code", form)
		}
	}
}

// TestStep_Refusals: empty code, code over the cap, a turn still running
// and another user's conversation each get a clear answer, and nothing runs.
func TestStep_Refusals(t *testing.T) {
	l := newLiveApp(t, sandbox.Config{})
	ana, convID, run := l.startLive()
	path := "/conversations/" + convID + "/steps"

	expect(t, ana.postHTMX(path, url.Values{"code": {" \r\n\t"}}), http.StatusUnprocessableEntity, "Write some code before running it.")
	expect(t, ana.postHTMX(path, url.Values{"code": {strings.Repeat("x = 1\n", 20_000)}}), http.StatusUnprocessableEntity,
		"The code is too long: keep it under 100 KB")
	expect(t, ana.postHTMX(path, url.Values{"code": {"print(1)"}}), http.StatusUnprocessableEntity,
		"A question is still being answered in this conversation")

	bob := l.signedIn("bob", store.RoleAnalyst)
	expect(t, bob.postHTMX(path, url.Values{"code": {"print(1)"}}), http.StatusNotFound)

	turns, err := l.db.Turns(context.Background(), convID)
	if err != nil {
		t.Fatal(err)
	}
	if len(turns) != 1 || turns[0].Run.ID != run.ID {
		t.Fatalf("refused steps left %d turns behind", len(turns))
	}
}

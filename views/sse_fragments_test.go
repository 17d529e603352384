package views_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/a-h/templ"
	"golang.org/x/net/html"

	"github.com/analyst-workbench/workbench/views"
)

// The fragments an answer's event stream swaps into the page: AnswerBody
// replaces a live answer's content on every update, FinishedUpdate ends it
// and swaps the composer, the session badge and the title out of band. The
// page's script, its SSE swaps and the browser tests find them by these
// ids, classes and attributes; these tests pin them.

// liveAnswer is a small running answer: one cell printing as it runs.
func liveAnswer() views.Answer {
	return views.Answer{
		ConversationID: "c1", RunID: "r1", Live: true, Status: views.RunRunning,
		StatusLine: "Running code…",
		Cells:      []views.AnswerCell{{ID: "k1", Code: "print('tick')", Logs: "tick 0\n", Status: views.CellRunning}},
	}
}

// finishedAnswer is the same answer once done: text, a chart, a file and
// the tokens it used.
func finishedAnswer() views.Answer {
	a := liveAnswer()
	a.Live, a.Status, a.StatusLine = false, views.RunCompleted, ""
	a.Cells[0].Status, a.Cells[0].Logs = views.CellCompleted, "tick 0\ntick 1\n"
	a.TextHTML = "<p>The total is 42.</p>"
	a.Charts = []views.Chart{{ID: "ch1", Name: "totals.png", VegaLite: "/artifacts/ch2?inline=1"}}
	a.Files = []views.ArtifactChip{{ID: "f1", Name: "totals.csv", Size: 2048}}
	a.InputTokens, a.OutputTokens = 1200, 300
	return a
}

// render renders c as the body of a page and parses it.
func render(t *testing.T, c templ.Component) *html.Node {
	t.Helper()
	var b strings.Builder
	if err := c.Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(strings.NewReader("<!doctype html><html><body>" + b.String() + "</body></html>"))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// find returns the first element for which match holds, or nil.
func find(n *html.Node, match func(*html.Node) bool) *html.Node {
	if n.Type == html.ElementNode && match(n) {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if m := find(c, match); m != nil {
			return m
		}
	}
	return nil
}

func attr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func hasClass(n *html.Node, class string) bool {
	v, _ := attr(n, "class")
	return strings.Contains(" "+v+" ", " "+class+" ")
}

func byClass(class string) func(*html.Node) bool {
	return func(n *html.Node) bool { return hasClass(n, class) }
}

func byAttr(key, val string) func(*html.Node) bool {
	return func(n *html.Node) bool { v, ok := attr(n, key); return ok && v == val }
}

func text(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return strings.Join(strings.Fields(b.String()), " ")
}

// must returns the element match finds, and fails the test naming what
// when there is none.
func must(t *testing.T, doc *html.Node, what string, match func(*html.Node) bool) *html.Node {
	t.Helper()
	n := find(doc, match)
	if n == nil {
		t.Fatalf("no %s in the fragment", what)
	}
	return n
}

// TestAnswerBody_Live: a live update shows the running cell with its
// output so far and the status line, and no finished status yet.
func TestAnswerBody_Live(t *testing.T) {
	t.Parallel()
	doc := render(t, views.AnswerBody(liveAnswer()))
	cell := must(t, doc, "running cell", byClass("cell-running"))
	if id, _ := attr(cell, "data-cell-id"); id != "k1" {
		t.Errorf("running cell's data-cell-id = %q, want k1", id)
	}
	if out := must(t, cell, "cell output", byAttr("data-testid", "cell-output")); !strings.Contains(text(out), "tick 0") {
		t.Errorf("cell output %q, want the lines printed so far", text(out))
	}
	progress := must(t, doc, "progress", byClass("progress"))
	if role, _ := attr(progress, "role"); role != "status" || !strings.Contains(text(progress), "Running code…") {
		t.Errorf("progress role %q, text %q", role, text(progress))
	}
	if find(doc, byClass("answer-status")) != nil {
		t.Error("a live update carries a finished status")
	}
}

// TestAnswerBody_Finished: the final content carries the run's status
// (hidden, for the page and tests to read), text, chart, file and usage,
// and no progress line.
func TestAnswerBody_Finished(t *testing.T) {
	t.Parallel()
	doc := render(t, views.AnswerBody(finishedAnswer()))
	status := must(t, doc, "answer status", byClass("answer-status"))
	if st, _ := attr(status, "data-status"); st != "completed" {
		t.Errorf("answer-status data-status = %q, want completed", st)
	}
	if _, hidden := attr(status, "hidden"); !hidden {
		t.Error("the answer status shows")
	}
	if find(doc, byClass("progress")) != nil || find(doc, byClass("cell-running")) != nil {
		t.Error("a finished answer still shows progress or a running cell")
	}
	if got := text(must(t, doc, "answer text", byClass("answer-text"))); got != "The total is 42." {
		t.Errorf("answer text %q", got)
	}
	chart := must(t, doc, "chart card", byClass("chart-card"))
	if id, _ := attr(chart, "data-artifact-id"); id != "ch1" {
		t.Errorf("chart data-artifact-id = %q", id)
	}
	if spec, _ := attr(chart, "data-vega-lite"); spec != "/artifacts/ch2?inline=1" {
		t.Errorf("chart data-vega-lite = %q", spec)
	}
	chip := must(t, doc, "file chip", byAttr("data-testid", "artifact"))
	if href, _ := attr(chip, "href"); href != "/artifacts/f1" || !strings.Contains(text(chip), "totals.csv") {
		t.Errorf("file chip href %q, text %q", href, text(chip))
	}
	if _, dl := attr(chip, "download"); !dl {
		t.Error("the file chip does not download")
	}
	if usage := text(must(t, doc, "usage", byAttr("data-testid", "usage"))); !strings.Contains(usage, "in ·") || !strings.Contains(usage, "out") {
		t.Errorf("usage %q", usage)
	}
}

// TestFinishedUpdate_SwapsOutOfBand: the last update brings the Send button
// back, the session badge and the title, each swapped by id out of band.
func TestFinishedUpdate_SwapsOutOfBand(t *testing.T) {
	t.Parallel()
	conv := views.Conversation{ID: "c1", Title: "Totals by region"}
	item := views.ConversationItem{ID: "c1", Title: "Totals by region", UpdatedAt: time.Now(), Active: true}
	badge := views.SessionBadge{State: views.SessionActive}
	doc := render(t, views.FinishedUpdate(finishedAnswer(), badge, "tok", conv, item, ""))

	must(t, doc, "answer status", byClass("answer-status"))
	oob := map[string]string{
		"composer-action":    "outerHTML",
		"session-badge":      "outerHTML",
		"conversation-title": "outerHTML",
		"conv-item-c1":       "outerHTML",
		"topbar-title":       "true",
	}
	for id, swap := range oob {
		n := must(t, doc, "#"+id, byAttr("id", id))
		if got, _ := attr(n, "hx-swap-oob"); got != swap {
			t.Errorf("#%s hx-swap-oob = %q, want %q", id, got, swap)
		}
	}
	composer := must(t, doc, "#composer-action", byAttr("id", "composer-action"))
	if find(composer, byAttr("data-testid", "send")) == nil || find(composer, byAttr("data-testid", "stop")) != nil {
		t.Error("the composer is not the Send button again")
	}
	if got := text(must(t, doc, "#session-badge", byAttr("id", "session-badge"))); got != "Session active" {
		t.Errorf("session badge %q", got)
	}
	if got := text(must(t, doc, "#topbar-title", byAttr("id", "topbar-title"))); got != "Totals by region" {
		t.Errorf("top bar title %q", got)
	}
}

// TestFinishedUpdate_QuestionWaiting: an answer that ends with a question
// queued behind it leaves Stop, for that question, in the composer.
func TestFinishedUpdate_QuestionWaiting(t *testing.T) {
	t.Parallel()
	doc := render(t, views.FinishedUpdate(finishedAnswer(), views.SessionBadge{State: views.SessionActive}, "tok",
		views.Conversation{}, views.ConversationItem{}, "r2"))
	composer := must(t, doc, "#composer-action", byAttr("id", "composer-action"))
	stop := must(t, composer, "stop", byAttr("data-testid", "stop"))
	if got, _ := attr(stop, "hx-post"); !strings.HasSuffix(got, "/runs/r2/cancel") {
		t.Errorf("Stop posts to %q, want the waiting question's cancel", got)
	}
}

// TestFinishedUpdate_NoTitle: without a conversation (the title did not
// change) no title is swapped.
func TestFinishedUpdate_NoTitle(t *testing.T) {
	t.Parallel()
	doc := render(t, views.FinishedUpdate(finishedAnswer(), views.SessionBadge{State: views.SessionIdle, ExpiresIn: 29 * time.Minute}, "tok",
		views.Conversation{}, views.ConversationItem{}, ""))
	if find(doc, byAttr("id", "conversation-title")) != nil || find(doc, byAttr("id", "topbar-title")) != nil {
		t.Error("a title was swapped though none was given")
	}
	if got := text(must(t, doc, "#session-badge", byAttr("id", "session-badge"))); !strings.HasPrefix(got, "Idle — expires in") {
		t.Errorf("session badge %q", got)
	}
}

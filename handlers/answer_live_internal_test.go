package handlers

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/store"
	"github.com/analyst-workbench/workbench/views"
)

// renderEvents folds events into an answer and renders it as the page does.
func renderEvents(t *testing.T, live bool, events ...chat.Event) string {
	t.Helper()
	a := chat.NewAnswer()
	for i, e := range events {
		e.Seq = int64(i + 1)
		if e.At.IsZero() {
			e.At = time.Now()
		}
		a.Apply(e)
	}
	var b strings.Builder
	if err := views.AnswerBody(answerView("conv", "run", a, answerOptions{live: live, now: time.Now()})).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

const (
	liveURL  = "data:image/png;base64,bGl2ZQ=="
	finalURL = "data:image/png;base64,ZmluYWw="
)

// A live image shows in its running cell; the final image replaces it,
// and the kept chart replaces both. A stopped cell keeps it.
func TestAnswerLiveImageThenFinal(t *testing.T) {
	// The page shows inline images by URL (showRunImage), never their bytes.
	shownAt := func(dataURL string) string { return "/conversations/conv/runs/run/images/" + chat.ImageKey(dataURL) }
	running := []chat.Event{
		{Type: chat.EventCellAdded, CellID: "c"},
		{Type: chat.EventCodeDone, CellID: "c", Text: "plt.savefig('a.png'); time.sleep(3)"},
		{Type: chat.EventPartialImage, CellID: "c", Image: liveURL, Text: "a.png"},
		{Type: chat.EventLogsDelta, CellID: "c", Text: "saved a.png\n"},
	}
	if html := renderEvents(t, true, running...); !strings.Contains(html, `src="`+shownAt(liveURL)) || strings.Count(html, "<img") != 1 || !strings.Contains(html, "saved a.png") {
		t.Fatalf("the running cell does not show its live image once:\n%s", html)
	}
	final := append(running, chat.Event{Type: chat.EventLogs, CellID: "c", Text: ""},
		chat.Event{Type: chat.EventImage, CellID: "c", Image: finalURL},
		chat.Event{Type: chat.EventCellDone, CellID: "c", Status: "completed"})
	if html := renderEvents(t, true, final...); strings.Contains(html, shownAt(liveURL)) || strings.Count(html, `src="`+shownAt(finalURL)) != 1 {
		t.Fatalf("the final image does not replace the live one:\n%s", html)
	}
	kept := append(final, chat.Event{Type: chat.EventArtifact, Artifact: &chat.ArtifactRef{ID: "art1", Name: "a.png",
		Kind: store.ArtifactImage, ContentType: "image/png", CellID: "c"}})
	if html := renderEvents(t, true, kept...); strings.Contains(html, shownAt(liveURL)) || strings.Contains(html, shownAt(finalURL)) || !strings.Contains(html, "/artifacts/art1") {
		t.Fatalf("the kept chart does not replace the images:\n%s", html)
	}
	stopped := append(running, chat.Event{Type: chat.EventDone, Status: chat.EventStatus(store.RunCancelled)})
	if html := renderEvents(t, false, stopped...); !strings.Contains(html, `src="`+shownAt(liveURL)) || !strings.Contains(html, "stopped") {
		t.Fatalf("the stopped cell lost its live image:\n%s", html)
	}
}

// tableLogs is the logs event of cell c whose result is a 50,000-row
// frame of which the payload carries 3 rows, with the CSV fields of full.
func tableLogs(full chat.Table) chat.Event {
	text := "[50000 rows x 1 columns]\n"
	table := full
	table.Index, table.Columns, table.Dtypes, table.Numeric = []string{""}, []string{"a"}, []string{"int64"}, []bool{true}
	table.Rows, table.TotalRows, table.TotalColumns = [][]any{{0.0, 0.0}, {1.0, 1.0}, {2.0, 2.0}}, 50000, 1
	table.TextStart, table.TextEnd = 0, len(text)
	return chat.Event{Type: chat.EventLogs, CellID: "c", Text: text, Table: &table}
}

// A cut table links the artifact that holds its whole result, named with
// its rows, and the answer does not list that file again; other files
// stay listed. Until the artifact is kept, and when the CSV was too big,
// the table says so.
func TestTableLinksFullCSV(t *testing.T) {
	cell := []chat.Event{
		{Type: chat.EventCellAdded, CellID: "c"},
		{Type: chat.EventCodeDone, CellID: "c", Text: "df"},
		tableLogs(chat.Table{CSV: ".wb/result-4.csv", CSVBytes: 388890}),
		{Type: chat.EventCellDone, CellID: "c", Status: "completed"},
	}
	pending := renderEvents(t, true, cell...)
	if !strings.Contains(pending, "being kept as CSV") || strings.Contains(pending, `data-testid="download-full-csv"`) {
		t.Fatalf("before the copy:\n%s", pending)
	}
	kept := append(cell,
		chat.Event{Type: chat.EventArtifact, Artifact: &chat.ArtifactRef{ID: "csv1", Name: "result-4.csv", Kind: store.ArtifactFile, ContentType: "text/csv", Size: 388890, CellID: "c"}},
		chat.Event{Type: chat.EventArtifact, Artifact: &chat.ArtifactRef{ID: "xl1", Name: "out.xlsx", Kind: store.ArtifactFile, ContentType: "application/vnd.ms-excel", Size: 10, CellID: "c"}},
		chat.Event{Type: chat.EventDone, Status: chat.EventStatus(store.RunCompleted)})
	html := renderEvents(t, false, kept...)
	if !strings.Contains(html, `href="/artifacts/csv1"`) || !strings.Contains(html, "Download CSV (50,000 rows)") {
		t.Fatalf("no link to the full CSV:\n%s", html)
	}
	if strings.Count(html, "/artifacts/csv1") != 1 || !strings.Contains(html, "/artifacts/xl1") {
		t.Fatalf("the CSV is listed as a file too, or the other file is not:\n%s", html)
	}
	tooBig := renderEvents(t, false, chat.Event{Type: chat.EventCellAdded, CellID: "c"},
		tableLogs(chat.Table{CSVNote: "The full result is over 200 MB as CSV, too big to keep; only the rows shown download."}),
		chat.Event{Type: chat.EventDone, Status: chat.EventStatus(store.RunCompleted)})
	if !strings.Contains(tooBig, "over 200 MB") || !strings.Contains(tooBig, "Download CSV (first 3 rows)") {
		t.Fatalf("too big a CSV:\n%s", tooBig)
	}
}

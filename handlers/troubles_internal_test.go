package handlers

import (
	"html"
	"strings"
	"testing"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/store"
)

// The answer names a generated file that is empty or not what its name
// says, on its chip and in an alert that says what to do.
func TestAnswerNamesAFlawedFile(t *testing.T) {
	page := html.UnescapeString(renderEvents(t, false,
		chat.Event{Type: chat.EventArtifact, Artifact: &chat.ArtifactRef{ID: "a1", Name: "chart.png", Kind: store.ArtifactFile,
			ContentType: "application/octet-stream", Size: 9, Flaw: chat.FileNotType}},
		chat.Event{Type: chat.EventArtifact, Artifact: &chat.ArtifactRef{ID: "a2", Name: "totals.csv", Kind: store.ArtifactFile,
			ContentType: "text/csv", Flaw: chat.FileEmpty}},
		chat.Event{Type: chat.EventArtifact, Artifact: &chat.ArtifactRef{ID: "a3", Name: "ok.csv", Kind: store.ArtifactFile,
			ContentType: "text/csv", Size: 12}},
		chat.Event{Type: chat.EventDone, Status: chat.EventStatus(store.RunCompleted)}))
	for _, want := range []string{
		"chart.png</strong> is not a valid PNG (its bytes do not start as a PNG's do).",
		"Ask again, or ask for a simpler chart.",
		"totals.csv</strong> is empty (0 bytes).",
		">not a valid PNG</span>", ">empty</span>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the answer does not say %q:\n%s", want, page)
		}
	}
	if strings.Count(page, `data-testid="file-flaw"`) != 2 {
		t.Errorf("a sound file is called flawed, or a flawed one is not named:\n%s", page)
	}
}

// An answer that made no file where one was asked for ends by saying so,
// and offers the question rephrased, which a click puts in the composer.
func TestAnswerSaysNoFileWasMade(t *testing.T) {
	rephrased := "export it to CSV. Write it to a file in /mnt/data named result.csv and link that file in your answer."
	page := html.UnescapeString(renderEvents(t, false,
		chat.Event{Type: chat.EventText, Text: "The total is 42."},
		chat.Event{Type: chat.EventNoFile, Text: rephrased},
		chat.Event{Type: chat.EventDone, Status: chat.EventStatus(store.RunCompleted)}))
	line := strings.Index(page, "You asked for a file, but none was made.")
	if line < 0 || line < strings.Index(page, "The total is 42.") {
		t.Fatalf("no line after the answer's text:\n%s", page)
	}
	if !strings.Contains(page, `data-example="`+rephrased+`"`) {
		t.Fatalf("the rephrasing is not offered as a suggestion:\n%s", page)
	}
}

// A step that failed to import a missing module says so under its error,
// with the alternative the app found installed.
func TestStepNotesAMissingModule(t *testing.T) {
	failed := []chat.Event{
		{Type: chat.EventCellAdded, CellID: "c"},
		{Type: chat.EventCodeDone, CellID: "c", Text: "import polars"},
		{Type: chat.EventLogs, CellID: "c", Text: "Traceback (most recent call last):\n  File \"<cell>\", line 1\nModuleNotFoundError: No module named 'polars'\n"},
		{Type: chat.EventCellDone, CellID: "c", Status: "completed"},
	}
	note := chat.Event{Type: chat.EventModuleNote, CellID: "c", Module: &chat.ModuleNote{Module: "polars", Listed: true,
		Alternative: "pandas", Use: "pandas.DataFrame"}}
	page := html.UnescapeString(renderEvents(t, false, append(failed, note)...))
	for _, want := range []string{"<code>polars</code> is not installed in the sandbox",
		"nearest installed alternative is <code>pandas</code>: use <code>pandas.DataFrame</code>"} {
		if !strings.Contains(page, want) {
			t.Errorf("the step does not say %q:\n%s", want, page)
		}
	}
	renamed := chat.Event{Type: chat.EventModuleNote, CellID: "c", Module: &chat.ModuleNote{Module: "pillow", ImportAs: "PIL", Package: "Pillow"}}
	if page := html.UnescapeString(renderEvents(t, false, append(failed, renamed)...)); !strings.Contains(page, "write <code>import PIL</code>") {
		t.Errorf("an installed package under another name is not said:\n%s", page)
	}
}

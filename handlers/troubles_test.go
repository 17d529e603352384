package handlers_test

import (
	"context"
	"html"
	"net/http"
	"strings"
	"testing"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/handlers"
	"github.com/analyst-workbench/workbench/store"
	"github.com/analyst-workbench/workbench/views"
)

// The gallery's list of files names one that is not what its name says.
func TestGalleryNamesAFlawedFile(t *testing.T) {
	a := newApp(t)
	ana := a.signedIn("ana", store.RoleAnalyst)
	convID := ana.create()
	u := mustUser(t, a, "ana")
	ok := a.addArtifact(t, u.ID, convID, "ok.csv", "text/csv", store.ArtifactFile, "a\n1\n")
	// chat stores the flaw it found (chat.CheckGenerated) with the file
	if _, err := a.db.AddArtifact(context.Background(), store.Artifact{ConversationID: convID, RunID: ok.RunID, Name: "chart.png",
		ContentType: "application/octet-stream", Size: 9, SHA256: ok.SHA256, Kind: store.ArtifactFile, Flaw: string(chat.FileNotType)}); err != nil {
		t.Fatal(err)
	}
	r := ana.get("/conversations/" + convID + "/gallery")
	expect(t, r, http.StatusOK)
	page := html.UnescapeString(r.body)
	if !strings.Contains(page, "is not a valid PNG (its bytes do not start as a PNG's do). It is kept as it is") ||
		strings.Count(page, `data-testid="file-flaw"`) != 1 {
		t.Fatalf("the gallery does not name the flawed file, or names the sound one:\n%s", page)
	}
}

// /admin lists the local engine's Python packages, and says on Foundry
// that the hosted set is Microsoft's.
func TestAdminListsPythonPackages(t *testing.T) {
	local := newAppWith(t, func(c *handlers.Config) {
		c.Chat = chat.New(chat.Config{DB: c.DB, Packages: func() chat.Packages {
			return chat.Packages{Listed: true, Python: "3.11.2",
				Distributions: []chat.Distribution{{Name: "pandas", Version: "1.5.3", Modules: []string{"pandas"}},
					{Name: "Pillow", Version: "9.4.0", Modules: []string{"PIL"}}}}
		}})
	})
	r := local.signedIn("root", store.RoleAdmin).get("/admin")
	expect(t, r, http.StatusOK, `data-testid="packages-card"`, "2 packages installed for Python 3.11.2",
		`data-package="Pillow"`, "9.4.0", "<code>PIL</code>")

	hosted := newAppWith(t, func(c *handlers.Config) { c.Engine = views.Engine{} })
	r = hosted.signedIn("root", store.RoleAdmin).get("/admin")
	expect(t, r, http.StatusOK, "package set is fixed by Microsoft", "learn.microsoft.com/azure/foundry/agents/how-to/tools/code-interpreter")
	if strings.Contains(r.body, "packages installed") {
		t.Fatal("a package list is shown for the hosted Code Interpreter")
	}
}

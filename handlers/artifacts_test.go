package handlers_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/draw"
	stdpng "image/png"
	"net/http"
	"strings"
	"testing"

	"github.com/analyst-workbench/workbench/store"
)

// addArtifact records a generated file in a new turn of convID.
func (a *app) addArtifact(t testing.TB, userID, convID, name, contentType, kind, content string) *store.Artifact {
	t.Helper()
	ctx := context.Background()
	_, run, err := a.db.StartTurn(ctx, userID, convID, "make it", "")
	if err != nil {
		t.Fatal(err)
	}
	a.db.FinishRun(ctx, run.ID, store.RunEnd{Status: store.RunCompleted})
	sha, size, err := a.blobs.Put(context.Background(), strings.NewReader(content), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	art, err := a.db.AddArtifact(ctx, store.Artifact{ConversationID: convID, RunID: run.ID, Name: name,
		ContentType: contentType, Size: size, SHA256: sha, Kind: kind})
	if err != nil {
		t.Fatal(err)
	}
	return art
}

func TestArtifactDownloads(t *testing.T) {
	a := newApp(t)
	ana := a.signedIn("ana", store.RoleAnalyst)
	bob := a.signedIn("bob", store.RoleAnalyst)
	root := a.signedIn("root", store.RoleAdmin)
	convID := ana.create()
	u := mustUser(t, a, "ana")
	png := "\x89PNG\r\n\x1a\n" + strings.Repeat("\x00", 100)
	chart := a.addArtifact(t, u.ID, convID, "résumé chart.png", "image/png", store.ArtifactImage, png)
	page := a.addArtifact(t, u.ID, convID, "report.html", "text/html", store.ArtifactFile, "<script>alert(1)</script>")

	t.Run("the owner downloads with a safe, Unicode-preserving name", func(t *testing.T) {
		r := ana.get("/artifacts/" + chart.ID)
		expect(t, r, http.StatusOK)
		if r.body != png || r.header.Get("Content-Type") != "image/png" || r.header.Get("X-Content-Type-Options") != "nosniff" {
			t.Fatalf("body %d bytes, headers %v", len(r.body), r.header)
		}
		cd := r.header.Get("Content-Disposition")
		if !strings.HasPrefix(cd, "attachment;") || !strings.Contains(cd, `filename="r_sum_ chart.png"`) ||
			!strings.Contains(cd, "filename*=UTF-8''r%C3%A9sum%C3%A9%20chart.png") {
			t.Fatalf("Content-Disposition = %q", cd)
		}
	})
	t.Run("images may be shown inline; HTML never", func(t *testing.T) {
		if cd := ana.get("/artifacts/" + chart.ID + "?inline=1").header.Get("Content-Disposition"); !strings.HasPrefix(cd, "inline") {
			t.Fatalf("inline chart: %q", cd)
		}
		r := ana.get("/artifacts/" + page.ID + "?inline=1")
		if cd := r.header.Get("Content-Disposition"); !strings.HasPrefix(cd, "attachment") {
			t.Fatalf("inline HTML: %q", cd)
		}
		if csp := r.header.Get("Content-Security-Policy"); !strings.Contains(csp, "sandbox") {
			t.Fatalf("CSP = %q", csp)
		}
	})
	t.Run("ranges for large files", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodGet, a.srv.URL+"/artifacts/"+chart.ID, nil)
		req.Header.Set("Range", "bytes=0-7")
		r := ana.do(req)
		if r.status != http.StatusPartialContent || r.body != png[:8] {
			t.Fatalf("range: %d %q", r.status, r.body)
		}
	})
	t.Run("another analyst gets 404, an admin gets the file", func(t *testing.T) {
		expect(t, bob.get("/artifacts/"+chart.ID), http.StatusNotFound, "Not found")
		expect(t, root.get("/artifacts/"+chart.ID), http.StatusOK)
	})
	t.Run("a purged file says so", func(t *testing.T) {
		a.blobs.Remove(context.Background(), chart.SHA256)
		expect(t, ana.get("/artifacts/"+chart.ID), http.StatusNotFound, "This file has been deleted.")
	})
	t.Run("all charts as a zip", func(t *testing.T) {
		second := a.addArtifact(t, u.ID, convID, "résumé chart.png", "image/png", store.ArtifactImage, png+"2")
		r := ana.get("/conversations/" + convID + "/charts.zip")
		zr, err := zip.NewReader(strings.NewReader(r.body), int64(len(r.body)))
		if err != nil {
			t.Fatalf("zip: %v", err)
		}
		var names []string
		for _, f := range zr.File {
			names = append(names, f.Name)
		}
		// The first chart's blob was purged above: only the second is left.
		if len(names) != 1 || names[0] != "résumé chart.png" || second == nil {
			t.Fatalf("zip holds %q", names)
		}
		expect(t, bob.get("/conversations/"+convID+"/charts.zip"), http.StatusNotFound)
	})
	t.Run("the gallery lists charts and files", func(t *testing.T) {
		r := ana.get("/conversations/" + convID + "/gallery")
		expect(t, r, http.StatusOK, `id="chart-`+chart.ID+`"`, "report.html", "résumé chart.png")
		expect(t, bob.get("/conversations/"+convID+"/gallery"), http.StatusNotFound)
	})
	t.Run("a chart's spec is not listed beside it; a spec alone is", func(t *testing.T) {
		ctx := context.Background()
		twin, err := a.db.AddArtifact(ctx, store.Artifact{ConversationID: convID, RunID: chart.RunID, Name: "résumé chart.vl.json",
			ContentType: "application/json", Size: 2, SHA256: chart.SHA256, Kind: store.ArtifactFile})
		if err != nil {
			t.Fatal(err)
		}
		alone := a.addArtifact(t, u.ID, convID, "sketch.vl.json", "application/json", store.ArtifactFile, "{}")
		r := ana.get("/conversations/" + convID + "/gallery")
		expect(t, r, http.StatusOK, "sketch.vl.json", `/artifacts/`+alone.ID)
		if strings.Contains(r.body, twin.ID) || strings.Contains(r.body, "résumé chart.vl.json") {
			t.Fatalf("the gallery lists the chart's spec as a file")
		}
	})
}

func TestAdminOverview(t *testing.T) {
	a := newApp(t)
	root := a.signedIn("root", store.RoleAdmin)
	ana := a.signedIn("ana", store.RoleAnalyst)
	convID := ana.create()
	ana.upload("/conversations/"+convID+"/files", true, part{"file", "sales.csv", salesCSV})

	r := root.get("/admin")
	expect(t, r, http.StatusOK, "Administration", "uploaded files", "sales.csv", `data-conversation-id="`+convID+`"`)
	ana2 := mustUser(t, a, "ana")
	filtered := root.get("/admin?user=" + mustUser(t, a, "root").ID)
	if strings.Contains(filtered.body, `data-conversation-id="`+convID+`"`) {
		t.Fatal("the user filter kept another user's conversation")
	}
	expect(t, root.get("/admin?user="+ana2.ID+"&q=sales"), http.StatusOK, "sales.csv")
	expect(t, ana.get("/admin"), http.StatusForbidden, "administrators only")
}

func TestThumbnailsAndNotebookExport(t *testing.T) {
	a := newApp(t)
	ana := a.signedIn("ana", store.RoleAnalyst)
	bob := a.signedIn("bob", store.RoleAnalyst)
	convID := ana.create()
	u := mustUser(t, a, "ana")
	var png bytes.Buffer
	img := image.NewRGBA(image.Rect(0, 0, 800, 400))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.RGBA{79, 70, 229, 255}), image.Point{}, draw.Src)
	stdpng.Encode(&png, img)
	chart := a.addArtifact(t, u.ID, convID, "chart.png", "image/png", store.ArtifactImage, png.String())
	broken := a.addArtifact(t, u.ID, convID, "broken.png", "image/png", store.ArtifactImage, png.String()[:40])

	t.Run("a chart gets a small PNG preview", func(t *testing.T) {
		r := ana.get("/artifacts/" + chart.ID + "/thumb")
		if r.status != http.StatusOK || r.header.Get("Content-Type") != "image/png" {
			t.Fatalf("thumb: %d %s", r.status, r.header.Get("Content-Type"))
		}
		cfg, err := stdpng.DecodeConfig(strings.NewReader(r.body))
		if err != nil || cfg.Width != 320 || cfg.Height != 160 {
			t.Fatalf("thumb is %dx%d (%v)", cfg.Width, cfg.Height, err)
		}
	})
	t.Run("a truncated image gets the placeholder", func(t *testing.T) {
		r := ana.get("/artifacts/" + broken.ID + "/thumb")
		if r.status != http.StatusFound || !strings.Contains(r.location, "no-preview") {
			t.Fatalf("broken thumb: %d → %q", r.status, r.location)
		}
	})
	t.Run("another user gets 404", func(t *testing.T) {
		expect(t, bob.get("/artifacts/"+chart.ID+"/thumb"), http.StatusNotFound)
		expect(t, bob.get("/conversations/"+convID+"/export.ipynb"), http.StatusNotFound)
	})
	t.Run("the conversation as a notebook", func(t *testing.T) {
		r := ana.get("/conversations/" + convID + "/export.ipynb")
		if r.status != http.StatusOK || !strings.Contains(r.header.Get("Content-Disposition"), ".ipynb") {
			t.Fatalf("export: %d %q", r.status, r.header.Get("Content-Disposition"))
		}
		var nb struct {
			NBFormat int `json:"nbformat"`
			Cells    []struct {
				CellType string   `json:"cell_type"`
				Source   []string `json:"source"`
			} `json:"cells"`
		}
		if err := json.Unmarshal([]byte(r.body), &nb); err != nil || nb.NBFormat != 4 {
			t.Fatalf("not a notebook: %v", err)
		}
		if !strings.Contains(r.body, "make it") {
			t.Fatal("the question is missing from the notebook")
		}
	})
}

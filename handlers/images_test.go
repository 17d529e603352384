package handlers_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/store"
)

// TestInlineImagesServedByURL: a cell's inline image (a data: URL from the
// local engine) reaches the page as a link to its content, which serves
// the image for good to the owner only, so that a streamed update never
// carries an image's bytes again. An SVG is never served inline.
func TestInlineImagesServedByURL(t *testing.T) {
	a := newApp(t)
	ana := a.signedIn("ana", store.RoleAnalyst)
	bob := a.signedIn("bob", store.RoleAnalyst)
	convID := ana.create()
	u := mustUser(t, a, "ana")
	ctx := context.Background()
	_, run, err := a.db.StartTurn(ctx, u.ID, convID, "draw it", "")
	if err != nil {
		t.Fatal(err)
	}
	png := "\x89PNG\r\n\x1a\nnot really a chart"
	pngURL := "data:image/png;base64," + base64.StdEncoding.EncodeToString([]byte(png))
	svgURL := "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString([]byte(`<svg onload="alert(1)"/>`))
	events := []chat.Event{
		{Type: chat.EventCellAdded, CellID: "c"},
		{Type: chat.EventCodeDone, CellID: "c", Text: "plt.show()"},
		{Type: chat.EventImage, CellID: "c", Image: pngURL},
		{Type: chat.EventImage, CellID: "c", Image: svgURL},
	}
	a.recordEvents(t, run.ID, events...)
	if err := a.db.FinishRun(ctx, run.ID, store.RunEnd{Status: store.RunCompleted}); err != nil {
		t.Fatal(err)
	}

	page := ana.get("/conversations/" + convID)
	src := "/conversations/" + convID + "/runs/" + run.ID + "/images/" + chat.ImageKey(pngURL)
	expect(t, page, http.StatusOK, `src="`+src+`"`)
	if strings.Contains(page.body, "data:image") {
		t.Fatal("the page carries an image's bytes")
	}
	r := ana.get(src)
	expect(t, r, http.StatusOK)
	if r.body != png || r.header.Get("Content-Type") != "image/png" || !strings.Contains(r.header.Get("Cache-Control"), "immutable") {
		t.Fatalf("served %q as %q, %q", r.body, r.header.Get("Content-Type"), r.header.Get("Cache-Control"))
	}
	expect(t, bob.get(src), http.StatusNotFound)
	expect(t, ana.get("/conversations/"+convID+"/runs/"+run.ID+"/images/"+chat.ImageKey(svgURL)), http.StatusNotFound)
	expect(t, ana.get("/conversations/"+convID+"/runs/"+run.ID+"/images/0123456789abcdef01234567"), http.StatusNotFound)
}

// recordEvents stores events as a run's log, in the stored form chat writes
// (version 2), as if the run had streamed them.
func (a *app) recordEvents(t testing.TB, runID string, events ...chat.Event) {
	t.Helper()
	for i, e := range events {
		if e.At.IsZero() {
			e.At = time.Now().UTC()
		}
		data, _ := json.Marshal(struct {
			V int `json:"v"`
			chat.Event
		}{2, e})
		if err := a.db.AppendRunEvent(context.Background(), runID, store.RunEvent{Seq: int64(i + 1), Type: string(e.Type), Data: string(data)}); err != nil {
			t.Fatal(err)
		}
	}
}

package handlers_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/handlers"
	"github.com/analyst-workbench/workbench/store"
)

// shareLink finds a read-only link in a page or fragment.
var shareLink = regexp.MustCompile(`/s/([A-Za-z0-9_-]{22})\b`)

// answered records a finished turn whose answer says text and made a
// chart, as the chat package would have.
func (a *app) answered(t testing.TB, userID, convID, question, text string) *store.Artifact {
	t.Helper()
	ctx := context.Background()
	_, run, err := a.db.StartTurn(ctx, userID, convID, question, "")
	if err != nil {
		t.Fatal(err)
	}
	png := "\x89PNG\r\n\x1a\n" + strings.Repeat("\x01", 64)
	sha, size, err := a.blobs.Put(context.Background(), strings.NewReader(png), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	chart, err := a.db.AddArtifact(ctx, store.Artifact{ConversationID: convID, RunID: run.ID, Name: "revenue.png",
		ContentType: "image/png", Size: size, SHA256: sha, Kind: store.ArtifactImage})
	if err != nil {
		t.Fatal(err)
	}
	a.recordEvents(t, run.ID,
		chat.Event{Type: chat.EventText, Text: text},
		chat.Event{Type: chat.EventArtifact, Artifact: &chat.ArtifactRef{ID: chart.ID, Name: chart.Name, Kind: chart.Kind,
			ContentType: chart.ContentType, Size: chart.Size}},
		chat.Event{Type: chat.EventDone, Status: chat.EventStatus(store.RunCompleted)})
	if err := a.db.FinishRun(ctx, run.ID, store.RunEnd{Status: store.RunCompleted}); err != nil {
		t.Fatal(err)
	}
	return chart
}

// share creates a link with htmx, as the Share menu does, and returns its token.
func (b *browser) share(convID string, form url.Values) string {
	b.app.t.Helper()
	form.Set("_csrf", b.csrf)
	r := b.postRaw("/conversations/"+convID+"/shares", form, "HX-Request", "true")
	expect(b.app.t, r, http.StatusOK, `class="share-link share-new"`)
	m := shareLink.FindStringSubmatch(r.body)
	if m == nil {
		b.app.t.Fatalf("no link in %s", excerpt(r.body))
	}
	return m[1]
}

func TestShareReadOnlyLink(t *testing.T) {
	a := newApp(t)
	ana := a.signedIn("ana", store.RoleAnalyst)
	bob := a.signedIn("bob", store.RoleAnalyst)
	anon := a.browser()
	anaID := mustUser(t, a, "ana").ID
	convID := ana.create()
	chart := a.answered(t, anaID, convID, "Plot revenue by month", "Revenue **peaked** in March.")
	ana.upload("/conversations/"+convID+"/files", true, part{"file", "sales.csv", salesCSV})
	ups, _ := a.db.Files(context.Background(), anaID, convID)
	other := ana.create()
	otherChart := a.answered(t, anaID, other, "Another question", "Elsewhere.")

	token := ana.share(convID, url.Values{})
	link := "/s/" + token

	t.Run("another user opens it read-only", func(t *testing.T) {
		r := bob.get(link)
		expect(t, r, http.StatusOK, "Plot revenue by month", "Revenue <strong>peaked</strong> in March.",
			`src="`+link+`/artifacts/`+chart.ID+`?inline=1"`, `href="`+link+`/artifacts/`+chart.ID+`"`, "Shared by ana", "Read-only")
		for _, owner := range []string{`id="composer"`, "<form", `"/artifacts/`, "Open in gallery", `id="sidebar"`, "sales.csv", bob.csrf} {
			if strings.Contains(r.body, owner) {
				t.Errorf("the shared page holds %q", owner)
			}
		}
		if cc := r.header.Get("Cache-Control"); cc != "private, max-age=60" {
			t.Errorf("Cache-Control = %q", cc)
		}
		if sc := r.header.Get("Set-Cookie"); sc != "" {
			t.Errorf("a shared page sets a cookie: %q", sc)
		}
	})
	t.Run("its chart downloads through the link, and only the shared conversation's", func(t *testing.T) {
		r := bob.get(link + "/artifacts/" + chart.ID + "?inline=1")
		expect(t, r, http.StatusOK)
		if !strings.HasPrefix(r.body, "\x89PNG") || !strings.HasPrefix(r.header.Get("Content-Disposition"), "inline") {
			t.Fatalf("chart: %d bytes, %q", len(r.body), r.header.Get("Content-Disposition"))
		}
		expect(t, bob.get(link+"/artifacts/"+otherChart.ID), http.StatusNotFound)
		expect(t, bob.get("/artifacts/"+chart.ID), http.StatusNotFound)
		expect(t, bob.get("/conversations/"+convID), http.StatusNotFound)
	})
	t.Run("uploaded files stay out unless the owner included them", func(t *testing.T) {
		expect(t, bob.get(link+"/files/"+ups[0].ID), http.StatusNotFound)
		with := "/s/" + ana.share(convID, url.Values{"include_uploads": {"1"}})
		expect(t, bob.get(with), http.StatusOK, "sales.csv", `href="`+with+`/files/`+ups[0].ID+`"`)
		r := bob.get(with + "/files/" + ups[0].ID)
		expect(t, r, http.StatusOK)
		if r.body != salesCSV || !strings.HasPrefix(r.header.Get("Content-Disposition"), "attachment") {
			t.Fatalf("upload: %q, %q", r.body, r.header.Get("Content-Disposition"))
		}
		expect(t, bob.get(with+"/files/nosuchfile"), http.StatusNotFound)
	})
	t.Run("without signing in: the sign-in page, which comes back", func(t *testing.T) {
		r := anon.get(link)
		if r.status != http.StatusSeeOther || r.location != "/login?next="+url.QueryEscape(link) {
			t.Fatalf("anonymous: %d → %q", r.status, r.location)
		}
		expect(t, anon.get(r.location), http.StatusOK, "A conversation was shared with the people who can sign in here.")
		if r := anon.get(link + "/artifacts/" + chart.ID); r.status != http.StatusSeeOther {
			t.Fatalf("anonymous chart: %d", r.status)
		}
	})
	t.Run("a link for anyone opens without signing in, and may be cached", func(t *testing.T) {
		open := "/s/" + ana.share(convID, url.Values{"anyone": {"1"}, "expires_days": {"7"}})
		r := anon.get(open)
		expect(t, r, http.StatusOK, "Revenue <strong>peaked</strong> in March.")
		if strings.Contains(r.body, "Shared by ana") {
			t.Error("a public page names its owner")
		}
		if cc := r.header.Get("Cache-Control"); cc != "public, max-age=60" || r.header.Get("Set-Cookie") != "" {
			t.Errorf("Cache-Control = %q, Set-Cookie = %q", cc, r.header.Get("Set-Cookie"))
		}
		expect(t, anon.get(open+"/artifacts/"+chart.ID), http.StatusOK)
	})
	t.Run("the owner's page lists the links with their views", func(t *testing.T) {
		ana.get(link) // the owner's own views are not counted
		r := ana.get("/conversations/" + convID)
		expect(t, r, http.StatusOK, `data-testid="share-button"`, "Signed-in users · expires", "opened once", "Anyone with the link")
		if n := len(shareLink.FindAllString(r.body, -1)); n < 3 {
			t.Fatalf("%d links on the page, want 3", n)
		}
	})
	t.Run("only the owner creates and revokes links", func(t *testing.T) {
		expect(t, bob.post("/conversations/"+convID+"/shares", nil), http.StatusNotFound)
		s, _ := a.db.ShareByToken(context.Background(), token)
		expect(t, bob.post("/conversations/"+convID+"/shares/"+s.ID+"/revoke", nil), http.StatusNotFound)
		expect(t, bob.post("/admin/shares/"+s.ID+"/revoke", nil), http.StatusForbidden)
		expect(t, bob.get(link), http.StatusOK)
	})
	t.Run("bad expiry is refused with a message", func(t *testing.T) {
		for _, days := range []string{"0", "366", "soon"} {
			expect(t, ana.post("/conversations/"+convID+"/shares", url.Values{"expires_days": {days}}),
				http.StatusUnprocessableEntity, "1 to 365 days")
		}
	})
	t.Run("a script gets the link itself; a form goes back to the open list", func(t *testing.T) {
		r := ana.post("/conversations/"+convID+"/shares", nil)
		if r.status != http.StatusCreated || !shareLink.MatchString(r.location) || !strings.HasPrefix(r.body, a.srv.URL+"/s/") {
			t.Fatalf("script: %d %q %q", r.status, r.location, r.body)
		}
		r = ana.postRaw("/conversations/"+convID+"/shares", url.Values{"_csrf": {ana.csrf}}, "Sec-Fetch-Mode", "navigate")
		if r.status != http.StatusSeeOther || r.location != "/conversations/"+convID+"?shares=1" {
			t.Fatalf("form: %d → %q", r.status, r.location)
		}
		expect(t, ana.get(r.location), http.StatusOK, `id="share-menu" open`)
	})
	t.Run("revoked: the link and its files are gone", func(t *testing.T) {
		s, _ := a.db.ShareByToken(context.Background(), token)
		r := ana.postRaw("/conversations/"+convID+"/shares/"+s.ID+"/revoke", url.Values{"_csrf": {ana.csrf}}, "HX-Request", "true")
		expect(t, r, http.StatusOK, `id="share-list"`)
		if strings.Contains(r.body, token) {
			t.Fatal("the revoked link is still listed")
		}
		r = bob.get(link)
		expect(t, r, http.StatusNotFound, "no longer valid")
		if cc := r.header.Get("Cache-Control"); cc != "no-store" {
			t.Errorf("404 Cache-Control = %q", cc)
		}
		expect(t, bob.get(link+"/artifacts/"+chart.ID), http.StatusNotFound)
		expect(t, bob.get("/s/AAAAAAAAAAAAAAAAAAAAAA"), http.StatusNotFound, "no longer valid")
		// Someone signed out, perhaps with no account, is not sent to "your conversations".
		gone := anon.get(link)
		expect(t, gone, http.StatusNotFound, "no longer valid", "Have an account here?")
		if strings.Contains(gone.body, "Go to your conversations") {
			t.Error("a visitor who is not signed in is offered their conversations")
		}
	})
	t.Run("expired: gone", func(t *testing.T) {
		live := "/s/" + ana.share(convID, url.Values{"expires_days": {"1"}})
		expect(t, bob.get(live), http.StatusOK)
		a.db.Now = func() time.Time { return time.Now().Add(25 * time.Hour) }
		defer func() { a.db.Now = time.Now }()
		expect(t, bob.get(live), http.StatusNotFound, "no longer valid")
	})
}

func TestAdminRevokesShares(t *testing.T) {
	a := newApp(t)
	root := a.signedIn("root", store.RoleAdmin)
	ana := a.signedIn("ana", store.RoleAnalyst)
	convID := ana.create()
	ana.post("/conversations/"+convID+"/rename", url.Values{"title": {"Churn study"}})
	link := "/s/" + ana.share(convID, url.Values{"anyone": {"1"}})
	expect(t, root.get(link), http.StatusOK)

	r := root.get("/admin")
	expect(t, r, http.StatusOK, "Shared links", "Churn study", "Anyone with the link")
	s, _ := a.db.ShareByToken(context.Background(), link[3:])
	if r := root.post("/admin/shares/"+s.ID+"/revoke", nil); r.status != http.StatusSeeOther || r.location != "/admin#shares" {
		t.Fatalf("revoke: %d → %q", r.status, r.location)
	}
	expect(t, a.browser().get(link), http.StatusNotFound, "no longer valid")
	expect(t, root.get("/admin"), http.StatusOK, "Link revoked")
}

func TestDeletingAConversationEndsItsLinks(t *testing.T) {
	a := newApp(t)
	ana := a.signedIn("ana", store.RoleAnalyst)
	convID := ana.create()
	link := "/s/" + ana.share(convID, url.Values{"anyone": {"1"}})
	expect(t, a.browser().get(link), http.StatusOK)
	if r := ana.post("/conversations/"+convID+"/delete", nil); r.status != http.StatusSeeOther {
		t.Fatalf("delete: %d", r.status)
	}
	expect(t, a.browser().get(link), http.StatusNotFound, "no longer valid")
}

func TestPurgingAConversationEndsItsLinks(t *testing.T) {
	a := newApp(t)
	root := a.signedIn("root", store.RoleAdmin)
	ana := a.signedIn("ana", store.RoleAnalyst)
	convID := ana.create()
	link := "/s/" + ana.share(convID, url.Values{"anyone": {"1"}})
	if r := root.post("/admin/purge", url.Values{"conversation_id": {convID}, "dry_run": {"0"}}); r.status != http.StatusSeeOther {
		t.Fatalf("purge: %d %s", r.status, excerpt(r.body))
	}
	if err := a.purge.Drain(context.Background()); err != nil {
		t.Fatal(err)
	}
	expect(t, a.browser().get(link), http.StatusNotFound, "no longer valid")
	expect(t, root.get("/admin"), http.StatusOK, "Shared links", "No live links.")
}

func TestRequestLogHidesShareTokens(t *testing.T) {
	var log lockedBuffer
	a := newAppWith(t, func(c *handlers.Config) { c.Logger = slog.New(slog.NewTextHandler(&log, nil)) })
	ana := a.signedIn("ana", store.RoleAnalyst)
	token := ana.share(ana.create(), url.Values{})
	ana.get("/s/" + token)
	ana.get("/s/" + token + "/artifacts/nothing")
	if got := log.String(); strings.Contains(got, token) || !strings.Contains(got, "path=/s/…/artifacts/nothing") {
		t.Fatalf("request log:\n%s", got)
	}
}

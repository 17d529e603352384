package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/store"
)

var conversationPath = regexp.MustCompile(`^/conversations/([a-z2-7]+)$`)

// create starts a conversation through the UI and returns its id.
func (b *browser) create() string {
	b.app.t.Helper()
	r := b.post("/conversations", nil)
	m := conversationPath.FindStringSubmatch(r.location)
	if r.status != http.StatusSeeOther || m == nil {
		b.app.t.Fatalf("create: %d → %q", r.status, r.location)
	}
	return m[1]
}

func TestConversationLifecycle(t *testing.T) {
	a := newApp(t)
	ana := a.signedIn("ana", store.RoleAnalyst)
	id := ana.create()
	expect(t, ana.get("/conversations/"+id), http.StatusOK, "New conversation", `data-conversation-id="`+id+`"`)

	t.Run("rename with htmx returns the title and the sidebar entry", func(t *testing.T) {
		form := url.Values{"title": {"  Q3   revenue  "}, "_csrf": {ana.csrf}}
		r := ana.postRaw("/conversations/"+id+"/rename", form, "HX-Request", "true")
		expect(t, r, http.StatusOK, `<h1 class="conversation-title">Q3 revenue</h1>`, `hx-swap-oob="outerHTML"`)
		if strings.Contains(r.body, "<html") {
			t.Fatal("htmx rename answered a whole page")
		}
	})
	t.Run("rename without JavaScript redirects back", func(t *testing.T) {
		expect(t, ana.get("/conversations/"+id+"?rename=1"), http.StatusOK, `name="title"`)
		r := ana.post("/conversations/"+id+"/rename", url.Values{"title": {"Churn"}})
		if r.status != http.StatusSeeOther || r.location != "/conversations/"+id {
			t.Fatalf("rename: %d → %q", r.status, r.location)
		}
	})
	t.Run("markup in titles is stored as typed and rendered escaped", func(t *testing.T) {
		title := `<script>alert("x")</script> & 'quotes'`
		ana.post("/conversations/"+id+"/rename", url.Values{"title": {title}})
		r := ana.get("/conversations/" + id)
		expect(t, r, http.StatusOK, "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; &#39;quotes&#39;")
		if strings.Contains(r.body, "<script>alert") {
			t.Fatal("title rendered as markup")
		}
		c, _ := a.db.Conversation(context.Background(), mustUser(t, a, "ana").ID, id)
		if c.Title != title {
			t.Fatalf("stored title %q", c.Title)
		}
	})
	t.Run("empty and overlong titles are refused with a message", func(t *testing.T) {
		expect(t, ana.post("/conversations/"+id+"/rename", url.Values{"title": {"   "}}), http.StatusUnprocessableEntity, "Enter a title.")
		expect(t, ana.post("/conversations/"+id+"/rename", url.Values{"title": {strings.Repeat("é", 201)}}),
			http.StatusUnprocessableEntity, "under 200 characters")
	})
	t.Run("delete", func(t *testing.T) {
		if r := ana.post("/conversations/"+id+"/delete", nil); r.status != http.StatusSeeOther || r.location != "/" {
			t.Fatalf("delete: %d → %q", r.status, r.location)
		}
		expect(t, ana.get("/conversations/"+id), http.StatusNotFound, "Not found")
	})
}

func TestAnotherUsersConversationIsNotFound(t *testing.T) {
	a := newApp(t)
	ana := a.signedIn("ana", store.RoleAnalyst)
	bob := a.signedIn("bob", store.RoleAnalyst)
	id := ana.create()

	missing := bob.get("/conversations/zzzzzzzzzzzzzzzz")
	theirs := bob.get("/conversations/" + id)
	expect(t, theirs, http.StatusNotFound, "Not found")
	if stripVolatile(theirs.body) != stripVolatile(missing.body) {
		t.Fatal("another user's conversation answers differently from a missing one")
	}
	expect(t, bob.post("/conversations/"+id+"/rename", url.Values{"title": {"mine"}}), http.StatusNotFound)
	expect(t, bob.post("/conversations/"+id+"/delete", nil), http.StatusNotFound)
	expect(t, bob.get("/conversations/"+id+"/title", "HX-Request", "true"), http.StatusNotFound)
	expect(t, ana.get("/conversations/"+id), http.StatusOK) // still there
}

// stripVolatile removes what differs between two renders of the same page.
func stripVolatile(s string) string {
	return regexp.MustCompile(`content="[^"]*"|&#34;X-CSRF-Token&#34;:&#34;[^&]*&#34;`).ReplaceAllString(s, "")
}

func TestSidebarSearchAndPaging(t *testing.T) {
	a := newApp(t)
	ana := a.signedIn("ana", store.RoleAnalyst)
	u := mustUser(t, a, "ana")
	ctx := context.Background()
	// One millisecond apart, so "newest first" has one right answer.
	clock := time.Now().Add(-time.Hour)
	a.db.Now = func() time.Time { clock = clock.Add(time.Millisecond); return clock }
	for i := range 60 {
		if _, err := a.db.CreateConversation(ctx, u.ID, fmt.Sprintf("Report %02d", i)); err != nil {
			t.Fatal(err)
		}
	}
	a.db.CreateConversation(ctx, u.ID, "100% Sales_growth")

	home := ana.get("/")
	expect(t, home, http.StatusOK, "100% Sales_growth", "Report 59", "Show more")
	if strings.Contains(home.body, "Report 00") {
		t.Fatal("first page shows the oldest conversation")
	}
	more := regexp.MustCompile(`hx-get="(/conversations\?after=[^"]+)"`).FindStringSubmatch(home.body)
	if more == nil {
		t.Fatal("no Show more link")
	}
	next := ana.get(strings.ReplaceAll(more[1], "&amp;", "&"), "HX-Request", "true")
	expect(t, next, http.StatusOK, "Report 00")
	if strings.Contains(next.body, "Report 59") || strings.Contains(next.body, "Show more") {
		t.Fatal("second page repeats the first or offers a third")
	}

	r := ana.get("/conversations?q=sales_", "HX-Request", "true")
	expect(t, r, http.StatusOK, "100% Sales_growth")
	if strings.Contains(r.body, "Report") {
		t.Fatal("search returned non-matching titles")
	}
	expect(t, ana.get("/conversations?q=nothing-like-this", "HX-Request", "true"), http.StatusOK, "Nothing found for")
	expect(t, ana.get("/?q=report+07"), http.StatusOK, "Report 07") // without JavaScript
}

// TestSearchFindsAnswersAndColumns finds a word that only an answer holds
// and one that only a column name holds, marks it, links to where it is,
// and never lists another user's conversation holding the same words.
func TestSearchFindsAnswersAndColumns(t *testing.T) {
	a := newApp(t)
	ana := a.signedIn("ana", store.RoleAnalyst)
	bob := a.signedIn("bob", store.RoleAnalyst)
	ctx := context.Background()
	seed := func(user, title string) string {
		u := mustUser(t, a, user)
		c, _ := a.db.CreateConversation(ctx, u.ID, title)
		_, run, err := a.db.StartTurn(ctx, u.ID, c.ID, "What moved?", "")
		if err != nil {
			t.Fatal(err)
		}
		if err := a.db.FinishRun(ctx, run.ID, store.RunEnd{Status: store.RunCompleted, Answer: "Palladium <b>rose</b> most."}); err != nil {
			t.Fatal(err)
		}
		profile := `{"Columns":[{"Name":"settlement_px"}]}`
		if _, err := a.db.AddFile(ctx, u.ID, store.File{ConversationID: c.ID, Name: "prices.csv", ContentType: "text/csv", Size: 1, SHA256: user, Profile: profile}); err != nil {
			t.Fatal(err)
		}
		return c.ID
	}
	anaConv, bobConv := seed("ana", "Metals"), seed("bob", "Bob's metals")

	r := ana.get("/conversations?q=palladium", "HX-Request", "true")
	expect(t, r, http.StatusOK, "/conversations/"+anaConv+"#run-", "<mark>Palladium</mark>", "Question or answer", "&lt;b&gt;rose")
	if strings.Contains(r.body, bobConv) {
		t.Fatal("search listed another user's conversation")
	}
	r = ana.get("/conversations?q=settlement", "HX-Request", "true")
	expect(t, r, http.StatusOK, "/conversations/"+anaConv+"#file-", "<mark>settlement</mark>", "File")
	if strings.Contains(r.body, bobConv) {
		t.Fatal("search listed another user's conversation")
	}
	expect(t, bob.get("/?q=palladium"), http.StatusOK, bobConv)
}

func TestErrorsForHTMXAreFragments(t *testing.T) {
	a := newApp(t)
	ana := a.signedIn("ana", store.RoleAnalyst)
	r := ana.get("/conversations/nope/title", "HX-Request", "true")
	expect(t, r, http.StatusNotFound, `class="toast toast-error"`)
	if strings.Contains(r.body, "<html") {
		t.Fatal("htmx error answered a whole page")
	}
}

func TestHTMXWithoutSessionIsRedirected(t *testing.T) {
	a := newApp(t)
	a.signedIn("root", store.RoleAdmin)
	r := a.browser().get("/conversations", "HX-Request", "true")
	if r.header.Get("HX-Redirect") == "" {
		t.Fatalf("htmx request without a session: %d, no HX-Redirect", r.status)
	}
}

func TestProbesAndAssets(t *testing.T) {
	a := newApp(t)
	b := a.browser()
	expect(t, b.get("/healthz"), http.StatusOK, "ok")
	expect(t, b.get("/readyz"), http.StatusOK, "ready")

	page := b.get("/setup")
	css := regexp.MustCompile(`href="(/static/css/app\.[0-9a-f]{12}\.css)"`).FindStringSubmatch(page.body)
	if css == nil {
		t.Fatal("no hashed stylesheet URL in the page")
	}
	r := b.get(css[1])
	expect(t, r, http.StatusOK, "--accent")
	if cc := r.header.Get("Cache-Control"); !strings.Contains(cc, "immutable") {
		t.Fatalf("Cache-Control = %q", cc)
	}
	expect(t, b.get("/static/css/app.000000000000.css"), http.StatusNotFound)
}

func mustUser(t testing.TB, a *app, name string) *store.User {
	t.Helper()
	u, err := a.db.UserByUsername(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// BenchmarkHomeWith10000Conversations measures the server time of "/" for
// an analyst with 10,000 conversations (the sidebar shows the first page).
func BenchmarkHomeWith10000Conversations(b *testing.B) {
	a := newApp(b)
	br := a.signedIn("ana", store.RoleAnalyst)
	u := mustUser(b, a, "ana")
	ctx := context.Background()
	base := time.Now().Add(-60 * 24 * time.Hour)
	a.db.Now = func() time.Time { base = base.Add(7 * time.Minute); return base }
	for i := range 10000 {
		if _, err := a.db.CreateConversation(ctx, u.ID, fmt.Sprintf("Analysis of dataset %d", i)); err != nil {
			b.Fatal(err)
		}
	}
	req := br.request(http.MethodGet, "/")
	b.ResetTimer()
	for b.Loop() {
		rec := httptest.NewRecorder()
		a.echo.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d", rec.Code)
		}
	}
}

package handlers_test

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/auth"
	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/files"
	"github.com/analyst-workbench/workbench/handlers"
	"github.com/analyst-workbench/workbench/migrations"
	"github.com/analyst-workbench/workbench/purge"
	"github.com/analyst-workbench/workbench/store"
	"github.com/analyst-workbench/workbench/thumbs"
	"github.com/analyst-workbench/workbench/views"
	"github.com/labstack/echo/v4"
	"golang.org/x/crypto/bcrypt"
)

// app is the real handler stack over a real SQLite file.
type app struct {
	t        testing.TB
	srv      *httptest.Server
	db       *store.DB
	accounts *auth.Accounts
	echo     *echo.Echo
	blobs    *files.Blobs
	purge    *purge.Service
	remote   *recordingRemote
}

// recordingRemote stands in for Foundry in handler tests, which start no
// turn and so create nothing there; it records what it is asked to delete.
// The purge package tests the same path against the real emulator.
type recordingRemote struct {
	mu      sync.Mutex
	deleted []string
}

func (r *recordingRemote) record(what string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.deleted = append(r.deleted, what)
	return nil
}

func (r *recordingRemote) DeleteFile(_ context.Context, id string) error {
	return r.record("file " + id)
}
func (r *recordingRemote) DeleteConversation(_ context.Context, id string) error {
	return r.record("conversation " + id)
}
func (r *recordingRemote) DeleteContainerFile(_ context.Context, c, f string) error {
	return r.record("container file " + c + "/" + f)
}
func (r *recordingRemote) DeleteAgentVersion(_ context.Context, n, v string) error {
	return r.record("agent " + n + ":" + v)
}
func (r *recordingRemote) DeleteAgent(_ context.Context, n string) error {
	return r.record("agent " + n)
}
func (r *recordingRemote) DeleteResponse(_ context.Context, id string) error {
	return r.record("response " + id)
}

// newApp is the real handler stack over a real SQLite file, with no
// Foundry client: these tests start no turn; the chat tests do.
func newApp(t testing.TB) *app { return newAppWith(t, func(*handlers.Config) {}) }

// newAppWithUploadLimit is newApp with a smaller largest upload.
func newAppWithUploadLimit(t testing.TB, maxUpload int64) *app {
	return newUploadApp(t, appConfig{maxUpload: maxUpload})
}

// newAppWith is newApp with settings changed by configure before the
// handlers are built: trusted proxies, a metrics token, a logger.
func newAppWith(t testing.TB, configure func(*handlers.Config)) *app {
	t.Helper()
	dir := t.TempDir()
	db, err := store.Open(context.Background(), filepath.Join(dir, "app.db"), migrations.FS, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	secrets, err := handlers.SessionSecrets("", dir)
	if err != nil {
		t.Fatal(err)
	}
	accounts := auth.NewAccounts(db, bcrypt.MinCost)
	blobs, err := files.NewBlobs(filepath.Join(dir, "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	thumbCache, err := thumbs.New(filepath.Join(dir, "thumbs"), 320)
	if err != nil {
		t.Fatal(err)
	}
	remote := &recordingRemote{}
	purger := purge.New(purge.Config{DB: db, Remote: remote, Blobs: blobs,
		MinBackoff: time.Millisecond})
	cfg := handlers.Config{DB: db, Accounts: accounts, Chat: chat.New(chat.Config{DB: db, Files: blobs, MaxUpload: testMaxUpload}),
		Thumbs: thumbCache, Purge: purger, Sessions: handlers.NewSessionStore(secrets), Engine: views.Engine{Local: true}}
	configure(&cfg)
	e := echo.New()
	handlers.New(cfg).Register(e)
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return &app{t: t, srv: srv, db: db, accounts: accounts, echo: e, blobs: blobs, purge: purger, remote: remote}
}

// browser is a client with its own cookie jar that does not follow
// redirects, so tests can assert where they point.
type browser struct {
	app  *app
	c    *http.Client
	csrf string
}

func (a *app) browser() *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{app: a, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}}
}

type response struct {
	status   int
	location string
	body     string
	header   http.Header
}

var csrfMeta = regexp.MustCompile(`<meta name="csrf-token" content="([^"]+)"`)

func (b *browser) do(req *http.Request) response {
	b.app.t.Helper()
	resp, err := b.c.Do(req)
	if err != nil {
		b.app.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if m := csrfMeta.FindSubmatch(body); m != nil {
		b.csrf = string(m[1])
	}
	return response{status: resp.StatusCode, location: resp.Header.Get("Location"), body: string(body), header: resp.Header}
}

func (b *browser) get(path string, headers ...string) response {
	req, _ := http.NewRequest(http.MethodGet, b.app.srv.URL+path, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	return b.do(req)
}

// post submits a form with the page's CSRF token, as the browser would.
func (b *browser) post(path string, form url.Values) response {
	if b.csrf == "" {
		b.get("/login")
	}
	if form == nil {
		form = url.Values{}
	}
	if !form.Has("_csrf") {
		form.Set("_csrf", b.csrf)
	}
	return b.postRaw(path, form)
}

func (b *browser) postRaw(path string, form url.Values, headers ...string) response {
	req, _ := http.NewRequest(http.MethodPost, b.app.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	return b.do(req)
}

const pw = "correct horse battery"

// testMaxUpload is the upload limit of the handler tests, small so that
// "too large" is cheap to test.
const testMaxUpload = 1 << 20

// signedIn returns a browser signed in as a new user of the given role.
func (a *app) signedIn(username, role string) *browser {
	a.t.Helper()
	if _, err := a.accounts.Create(context.Background(), "", username, pw, role); err != nil {
		a.t.Fatal(err)
	}
	b := a.browser()
	if r := b.post("/login", url.Values{"username": {username}, "password": {pw}}); r.status != http.StatusSeeOther {
		a.t.Fatalf("login %s: status %d: %s", username, r.status, r.body)
	}
	b.get("/") // the token renews at sign-in; a browser reads it from the next page
	return b
}

func expect(t testing.TB, r response, status int, contains ...string) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status = %d, want %d; body:\n%s", r.status, status, excerpt(r.body))
	}
	for _, s := range contains {
		if !strings.Contains(r.body, s) {
			t.Fatalf("body lacks %q:\n%s", s, excerpt(r.body))
		}
	}
}

func excerpt(s string) string {
	if len(s) > 3000 {
		return s[:3000] + "…"
	}
	return s
}

// request builds a request carrying the browser's cookies, for benchmarks
// that call the handler directly to time the server alone.
func (b *browser) request(method, path string) *http.Request {
	req := httptest.NewRequest(method, path, nil)
	srvURL, _ := url.Parse(b.app.srv.URL)
	for _, c := range b.c.Jar.Cookies(srvURL) {
		req.AddCookie(c)
	}
	return req
}

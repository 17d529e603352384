package replicas

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

// browser is one browser behind the load balancer: one cookie jar for
// every replica (cookies do not tell ports apart, so the replicas on
// 127.0.0.1 share them as the hosts behind one name would), redirects not
// followed so that the tests see them, and the CSRF token of its session.
type browser struct {
	t    *testing.T
	c    *http.Client
	csrf string
}

func newBrowser(t *testing.T) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, c: &http.Client{Jar: jar, Timeout: time.Minute,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// copySession is a second browser holding the same cookies, as a copy of
// the cookie taken before a sign-out would.
func (b *browser) copySession(base string) *browser {
	o := newBrowser(b.t)
	u, _ := url.Parse(base)
	o.c.Jar.SetCookies(u, b.c.Jar.Cookies(u))
	o.csrf = b.csrf
	return o
}

// page is an answer: its status, Location and body.
type page struct {
	status   int
	location string
	body     string
}

func (b *browser) do(req *http.Request) page {
	b.t.Helper()
	resp, err := b.c.Do(req)
	if err != nil {
		b.t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		b.t.Fatalf("%s %s: read: %v", req.Method, req.URL, err)
	}
	return page{status: resp.StatusCode, location: resp.Header.Get("Location"), body: string(body)}
}

func (b *browser) get(base, path string) page {
	b.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+path, nil)
	return b.do(req)
}

// post sends a form with the session's CSRF token.
func (b *browser) post(base, path string, form url.Values) page {
	b.t.Helper()
	if form == nil {
		form = url.Values{}
	}
	form.Set("_csrf", b.csrf)
	req, _ := http.NewRequest(http.MethodPost, base+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return b.do(req)
}

var csrfMeta = regexp.MustCompile(`name="csrf-token" content="([^"]+)"`)

// readToken takes the CSRF token from a page, as the page's scripts do.
func (b *browser) readToken(base, path string) {
	b.t.Helper()
	p := b.get(base, path)
	m := csrfMeta.FindStringSubmatch(p.body)
	if m == nil {
		b.t.Fatalf("GET %s%s: %d, no CSRF token: %.300s", base, path, p.status, p.body)
	}
	b.csrf = m[1]
}

// setUp creates the first administrator through /setup, which signs them in.
func (b *browser) setUp(base, user, password string) {
	b.t.Helper()
	b.readToken(base, "/setup")
	p := b.post(base, "/setup", url.Values{"username": {user}, "password": {password}, "password_confirm": {password}})
	if p.status != http.StatusSeeOther {
		b.t.Fatalf("POST /setup: %d, want 303: %.300s", p.status, p.body)
	}
	b.readToken(base, "/")
}

// signIn posts the sign-in form and returns the status: 303 when signed
// in, 401 for a wrong password, 429 when throttled.
func (b *browser) signIn(base, user, password string) int {
	b.t.Helper()
	b.readToken(base, "/login")
	p := b.post(base, "/login", url.Values{"username": {user}, "password": {password}})
	if p.status == http.StatusSeeOther {
		b.readToken(base, "/") // a new session, a new token
	}
	return p.status
}

func (b *browser) signOut(base string) {
	b.t.Helper()
	if p := b.post(base, "/logout", nil); p.status != http.StatusSeeOther {
		b.t.Fatalf("POST /logout: %d: %.300s", p.status, p.body)
	}
}

// newConversation creates a conversation and returns its id.
func (b *browser) newConversation(base string) string {
	b.t.Helper()
	p := b.post(base, "/conversations", nil)
	id, ok := strings.CutPrefix(p.location, "/conversations/")
	if p.status != http.StatusSeeOther || !ok {
		b.t.Fatalf("POST /conversations: %d, Location %q: %.300s", p.status, p.location, p.body)
	}
	return id
}

var fileCard = regexp.MustCompile(`class="file-card" id="file-([^"]+)"`)

// upload uploads one file as the upload script does and returns its id.
func (b *browser) upload(base, conv, name string, content []byte) string {
	b.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	w, _ := mw.CreateFormFile("file", name)
	w.Write(content)
	mw.Close()
	req, _ := http.NewRequest(http.MethodPost, base+"/conversations/"+conv+"/files", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("X-CSRF-Token", b.csrf)
	req.Header.Set("X-Upload", "1")
	p := b.do(req)
	m := fileCard.FindStringSubmatch(p.body)
	if p.status != http.StatusOK || m == nil {
		b.t.Fatalf("upload: %d, no file card: %.300s", p.status, p.body)
	}
	return m[1]
}

// sharePath makes a link for anyone, uploads included, and returns its
// path (/s/<token>), which opens on any replica.
func (b *browser) sharePath(base, conv string) string {
	b.t.Helper()
	p := b.post(base, "/conversations/"+conv+"/shares", url.Values{"anyone": {"1"}, "include_uploads": {"1"}})
	u, err := url.Parse(strings.TrimSpace(p.body))
	if p.status != http.StatusCreated || err != nil || !strings.HasPrefix(u.Path, "/s/") {
		b.t.Fatalf("share: %d: %.300s", p.status, p.body)
	}
	return u.Path
}

var runID = regexp.MustCompile(`data-run-id="([^"]+)"`)

// startTurn asks a question in the conversation on the replica at base,
// as the composer does, and returns the run's id.
func (b *browser) startTurn(base, conv, question string) string {
	b.t.Helper()
	p := b.post(base, "/conversations/"+conv+"/messages", url.Values{"content": {question}})
	m := runID.FindStringSubmatch(p.body)
	if p.status != http.StatusOK || m == nil {
		b.t.Fatalf("ask: %d, no data-run-id: %.300s", p.status, p.body)
	}
	return m[1]
}

// cancelTurn presses Stop, on the replica at base.
func (b *browser) cancelTurn(base, conv, run string) page {
	b.t.Helper()
	return b.post(base, "/conversations/"+conv+"/runs/"+run+"/cancel", nil)
}

// sseEvent is one server-sent event as the reader got it.
type sseEvent struct {
	name string
	id   int64
	data string
	at   time.Time // when its last line arrived
}

// follow opens a run's event stream on the replica at base, as the page's
// SSE extension does, and sends each event on the channel with its arrival
// time, until the stream ends or ctx does; the channel is then closed.
func (b *browser) follow(ctx context.Context, base, conv, run string) <-chan sseEvent {
	b.t.Helper()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/conversations/"+conv+"/runs/"+run+"/events", nil)
	req.Header.Set("Accept", "text/event-stream")
	// A stream outlives the client's ordinary timeout.
	client := &http.Client{Jar: b.c.Jar}
	resp, err := client.Do(req)
	if err != nil {
		b.t.Fatalf("follow: %v", err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		b.t.Fatalf("follow: %d", resp.StatusCode)
	}
	out := make(chan sseEvent, 1024)
	go func() {
		defer close(out)
		defer resp.Body.Close()
		readEvents(resp.Body, out)
	}()
	return out
}

// readEvents parses the event-stream format: fields up to a blank line.
func readEvents(r io.Reader, out chan<- sseEvent) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	var e sseEvent
	var data []string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if e.name != "" {
				e.data, e.at = strings.Join(data, "\n"), time.Now()
				out <- e
			}
			e, data = sseEvent{}, nil
		case strings.HasPrefix(line, "event: "):
			e.name = line[len("event: "):]
		case strings.HasPrefix(line, "id: "):
			e.id = parseInt(line[len("id: "):])
		case strings.HasPrefix(line, "data: "):
			data = append(data, line[len("data: "):])
		}
	}
}

// collect reads events until the stream ends or within passes.
func collect(events <-chan sseEvent, within time.Duration) []sseEvent {
	var got []sseEvent
	timeout := time.After(within)
	for {
		select {
		case e, ok := <-events:
			if !ok {
				return got
			}
			got = append(got, e)
		case <-timeout:
			return got
		}
	}
}

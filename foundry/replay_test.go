package foundry

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// reply is one canned answer of the replay server.
type reply struct {
	status int
	header map[string]string
	file   string // under testdata/
	body   string
	sse    bool // body is an event stream
	// drop closes the connection after writing the body (or at once
	// without one), as a network failure would.
	drop bool
}

// recorded is one request the replay server saw.
type recorded struct {
	Method string
	Path   string // relative to the project endpoint
	Query  string
	Header http.Header
	Body   []byte
	At     time.Time
}

// replayServer answers "METHOD /path" (path below the project endpoint)
// with canned replies, in order; the last reply of a route repeats.
type replayServer struct {
	*httptest.Server
	t      *testing.T
	mu     sync.Mutex
	routes map[string][]reply
	reqs   []recorded
}

const (
	testProject = "/api/projects/p"
	testToken   = "test-token"
)

func newReplay(t *testing.T, routes map[string][]reply) *replayServer {
	t.Helper()
	rs := &replayServer{t: t, routes: routes}
	rs.Server = httptest.NewServer(http.HandlerFunc(rs.serve))
	t.Cleanup(rs.Close)
	return rs
}

func (rs *replayServer) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	path := strings.TrimPrefix(r.URL.Path, testProject)
	key := r.Method + " " + path
	rs.mu.Lock()
	rs.reqs = append(rs.reqs, recorded{Method: r.Method, Path: path, Query: r.URL.RawQuery, Header: r.Header.Clone(), Body: body, At: time.Now()})
	replies, ok := rs.routes[key]
	var rp reply
	if ok && len(replies) > 0 {
		rp = replies[0]
		if len(replies) > 1 {
			rs.routes[key] = replies[1:]
		}
	}
	rs.mu.Unlock()
	if !ok {
		rs.t.Errorf("replay: unexpected request %s", key)
		http.Error(w, `{"error":{"code":"not_found","message":"no route"}}`, http.StatusNotFound)
		return
	}
	rs.write(w, rp)
}

func (rs *replayServer) write(w http.ResponseWriter, rp reply) {
	data := []byte(rp.body)
	if rp.file != "" {
		data = readTestdata(rs.t, rp.file)
	}
	if rp.drop && len(data) == 0 {
		hangUp(w)
		return
	}
	ctype := "application/json"
	if strings.HasSuffix(rp.file, ".sse") || rp.sse {
		ctype = "text/event-stream"
	}
	w.Header().Set("Content-Type", ctype)
	for k, v := range rp.header {
		w.Header().Set(k, v)
	}
	status := rp.status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	_, _ = w.Write(data)
	if rp.drop {
		w.(http.Flusher).Flush()
		hangUp(w)
	}
}

// hangUp closes the connection under w without finishing the answer.
func hangUp(w http.ResponseWriter) {
	if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
		conn.Close()
	}
}

// requests returns what the server saw so far.
func (rs *replayServer) requests() []recorded {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return append([]recorded(nil), rs.reqs...)
}

// client returns a Client for the server with tiny retry delays.
func (rs *replayServer) client(t *testing.T) *Client {
	t.Helper()
	return newTestClient(t, rs.URL+testProject)
}

func newTestClient(t *testing.T, endpoint string) *Client {
	t.Helper()
	c, err := New(Config{Endpoint: endpoint, Credential: StaticToken(testToken), MaxRetries: 2,
		MaxRetryDelay: 20 * time.Millisecond})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatalf("read testdata: %v", err)
	}
	return b
}

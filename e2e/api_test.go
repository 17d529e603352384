package e2e

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestHTTPSurfaceForScripts drives the routes of DESIGN.md the way an
// acceptance script would, with a plain HTTP client: sign in, create a
// conversation, ask, follow the event stream to its done event.
func TestHTTPSurfaceForScripts(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 60 * time.Second}
	csrf := regexp.MustCompile(`<meta name="csrf-token" content="([^"]+)"`)
	token := func(body string) string {
		m := csrf.FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("no csrf token in:\n%.500s", body)
		}
		return m[1]
	}
	get := func(path string) string {
		resp, err := c.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	post := func(path string, form url.Values) (*http.Response, string) {
		resp, err := c.PostForm(srv.URL+path, form)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}

	tok := token(get("/login"))
	if resp, _ := post("/login", url.Values{"username": {"ops"}, "password": {adminPassword}, "_csrf": {tok}}); resp.Request.URL.Path != "/" {
		t.Fatalf("login ended at %s", resp.Request.URL.Path)
	}
	tok = token(get("/"))
	resp, _ := post("/conversations", url.Values{"_csrf": {tok}})
	convPath := resp.Request.URL.Path
	if !strings.HasPrefix(convPath, "/conversations/") {
		t.Fatalf("create ended at %s", convPath)
	}
	resp, body := post(convPath+"/messages", url.Values{"_csrf": {tok}, "content": {"```python\nprint(6 * 7)\n```"}})
	run := regexp.MustCompile(`data-run-id="([a-z2-7]+)"`).FindStringSubmatch(body)
	if resp.StatusCode != http.StatusOK || run == nil {
		t.Fatalf("message: %d, no data-run-id in:\n%.800s", resp.StatusCode, body)
	}
	events := get(convPath + "/runs/" + run[1] + "/events")
	if !strings.Contains(events, "event: done") || !strings.Contains(events, "42") {
		t.Fatalf("event stream:\n%.2000s", events)
	}
}

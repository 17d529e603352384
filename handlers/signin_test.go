package handlers_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/analyst-workbench/workbench/handlers"
	"github.com/analyst-workbench/workbench/store"
)

// failLogins posts n failed sign-ins, each for another unknown username, so
// that only the per-address limit can refuse them, with the headers that
// header(i) returns, and returns the statuses.
func failLogins(b *browser, n int, header func(i int) []string) []int {
	b.get("/login")
	var statuses []int
	for i := range n {
		form := url.Values{"username": {fmt.Sprintf("guess%d", i)}, "password": {"wrong password!"}, "_csrf": {b.csrf}}
		r := b.postRaw("/login", form, header(i)...)
		if r.status == http.StatusTooManyRequests && r.header.Get("Retry-After") == "" {
			b.app.t.Fatalf("429 without Retry-After")
		}
		statuses = append(statuses, r.status)
	}
	return statuses
}

func statusRun(n401, n429 int) []int {
	return append(slices.Repeat([]int{http.StatusUnauthorized}, n401), slices.Repeat([]int{http.StatusTooManyRequests}, n429)...)
}

// TestSignInThrottleIgnoresForgedXFF is issue 13 item 3: a client that
// writes a new X-Forwarded-For on every attempt is still one address.
func TestSignInThrottleIgnoresForgedXFF(t *testing.T) {
	a := newApp(t)
	a.signedIn("root", store.RoleAdmin)
	got := failLogins(a.browser(), 22, func(i int) []string {
		return []string{"X-Forwarded-For", fmt.Sprintf("198.51.100.%d", i+1), "X-Real-IP", fmt.Sprintf("198.51.100.%d", i+1)}
	})
	if want := statusRun(20, 2); !slices.Equal(got, want) {
		t.Fatalf("statuses %v, want %v", got, want)
	}
}

// TestSignInBehindTrustedProxy checks TRUSTED_PROXIES: behind the proxy,
// each client is counted by the address the proxy saw, not by the proxy's,
// and not by what the client itself wrote to the left of it.
func TestSignInBehindTrustedProxy(t *testing.T) {
	_, loopback, _ := net.ParseCIDR("127.0.0.0/8") // httptest clients connect from 127.0.0.1
	a := newAppWith(t, func(c *handlers.Config) { c.TrustedProxies = []*net.IPNet{loopback} })
	a.signedIn("root", store.RoleAdmin)

	distinct := failLogins(a.browser(), 22, func(i int) []string {
		return []string{"X-Forwarded-For", fmt.Sprintf("198.51.100.%d", i+1)}
	})
	if want := statusRun(22, 0); !slices.Equal(distinct, want) {
		t.Fatalf("22 clients behind the proxy: statuses %v, want %v", distinct, want)
	}
	forged := failLogins(a.browser(), 22, func(i int) []string {
		return []string{"X-Forwarded-For", fmt.Sprintf("203.0.113.%d, 192.0.2.7", i+1)}
	})
	if want := statusRun(20, 2); !slices.Equal(forged, want) {
		t.Fatalf("one client forging the left of the header: statuses %v, want %v", forged, want)
	}
}

// TestLogoutEndsCopiedCookie is issue 13 item 4: after sign-out, a copy of
// the cookie taken before it opens nothing.
func TestLogoutEndsCopiedCookie(t *testing.T) {
	a := newApp(t)
	ana := a.signedIn("ana", store.RoleAnalyst)
	srvURL, _ := url.Parse(a.srv.URL)
	var copied []string
	for _, c := range ana.c.Jar.Cookies(srvURL) {
		copied = append(copied, c.Name+"="+c.Value)
	}
	thief := a.browser()
	if r := thief.get("/", "Cookie", strings.Join(copied, "; ")); r.status != http.StatusOK {
		t.Fatalf("copied cookie before logout: %d", r.status)
	}
	if r := ana.post("/logout", nil); r.status != http.StatusSeeOther {
		t.Fatalf("logout: %d", r.status)
	}
	r := thief.get("/", "Cookie", strings.Join(copied, "; "))
	if r.status != http.StatusSeeOther || !strings.HasPrefix(r.location, "/login") {
		t.Fatalf("copied cookie after logout: %d → %q, want 303 → /login", r.status, r.location)
	}
}

// TestLoginRefusesOffsiteNext is issue 13 item 5: every way a browser can
// read a "path" as another site ends on the home page instead.
func TestLoginRefusesOffsiteNext(t *testing.T) {
	a := newApp(t)
	a.signedIn("root", store.RoleAdmin)
	for _, tc := range []struct{ next, want string }{
		{"/\t/evil.example/x", "/"}, // what /login?next=/%09/evil.example/x posts back
		{"/\n/evil.example", "/"},
		{"/\\evil.example", "/"},
		{"/\\/evil.example", "/"},
		{"//evil.example/x", "/"},
		{"https://evil.example", "/"},
		{"https:evil.example", "/"},
		{"/%2F/evil.example", "/"},
		{"/%5Cevil.example", "/"},
		{" /conversations", "/"},
		{"/conversations/abc?tab=files", "/conversations/abc?tab=files"},
		{"/admin/users", "/admin/users"},
	} {
		b := a.browser()
		r := b.post("/login", url.Values{"username": {"root"}, "password": {pw}, "next": {tc.next}})
		if r.status != http.StatusSeeOther || r.location != tc.want {
			t.Errorf("next=%q: %d → %q, want 303 → %q", tc.next, r.status, r.location, tc.want)
		}
	}
}

// lockedBuffer is a log destination the server writes while the test reads.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestFailedSignInLogsNoTypedName is issue 13 item 13: people type their
// password into the username field, so the log keeps a hash of it.
func TestFailedSignInLogsNoTypedName(t *testing.T) {
	var logs lockedBuffer
	a := newAppWith(t, func(c *handlers.Config) { c.Logger = slog.New(slog.NewTextHandler(&logs, nil)) })
	a.signedIn("root", store.RoleAdmin)
	typed := "MyS3cretPassphrase"
	r := a.browser().post("/login", url.Values{"username": {typed}, "password": {"x"}})
	expect(t, r, http.StatusUnauthorized)
	out := logs.String()
	if !strings.Contains(out, "sign-in refused") || strings.Contains(out, typed) {
		t.Fatalf("log of a failed sign-in:\n%s", out)
	}
}

package handlers_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/analyst-workbench/workbench/handlers"
	"github.com/analyst-workbench/workbench/store"
)

var requestSeries = regexp.MustCompile(`(?m)^workbench_http_requests_total\{method="([^"]*)",route="([^"]*)",status="\d+"\}`)

// TestMetricsSeriesBounded is issue 13 item 10: made-up methods and paths
// add no series; every label is a known method or a route template.
func TestMetricsSeriesBounded(t *testing.T) {
	a := newApp(t)
	for i := range 40 {
		for _, req := range []*http.Request{
			httptest.NewRequest(fmt.Sprintf("BREW%d", i), "/healthz", nil),
			httptest.NewRequest(http.MethodGet, fmt.Sprintf("/made-up/%d", i), nil),
			httptest.NewRequest(http.MethodGet, fmt.Sprintf("/conversations/c%d/nothing/%d", i, i), nil),
			httptest.NewRequest(fmt.Sprintf("X%d", i), fmt.Sprintf("/static/%d.css", i), nil),
		} {
			a.echo.ServeHTTP(httptest.NewRecorder(), req)
		}
	}
	routes := map[string]bool{"unmatched": true}
	for _, r := range a.echo.Routes() {
		routes[r.Path] = true
	}
	body := a.browser().get("/metrics").body
	series := requestSeries.FindAllStringSubmatch(body, -1)
	if len(series) == 0 || len(series) > 12 {
		t.Fatalf("%d request series after 160 made-up requests:\n%s", len(series), body)
	}
	sawOther := false
	for _, s := range series {
		method, route := s[1], s[2]
		sawOther = sawOther || method == "OTHER"
		if method != "OTHER" && method != http.MethodGet {
			t.Errorf("method label %q", method)
		}
		if !routes[route] {
			t.Errorf("route label %q is not a route template", route)
		}
	}
	if !sawOther {
		t.Fatalf("no OTHER method series:\n%s", body)
	}
}

// TestMetricsToken checks METRICS_TOKEN: a scraper elsewhere reads
// /metrics with the bearer token, and nothing else from afar does.
func TestMetricsToken(t *testing.T) {
	const token = "scrape-0123456789abcdef"
	a := newAppWith(t, func(c *handlers.Config) { c.MetricsToken = token })
	for _, tc := range []struct {
		name, auth, xff string
		want            int
	}{
		{"bearer token", "Bearer " + token, "", http.StatusOK},
		{"scheme in any case", "bearer " + token, "", http.StatusOK},
		{"wrong token", "Bearer " + token + "x", "", http.StatusForbidden},
		{"prefix of the token", "Bearer " + token[:8], "", http.StatusForbidden},
		{"token as basic auth", "Basic " + token, "", http.StatusForbidden},
		{"empty bearer", "Bearer ", "", http.StatusForbidden},
		{"nothing", "", "", http.StatusForbidden},
		{"forged loopback", "", "127.0.0.1", http.StatusForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodGet, "/metrics", nil)
			req.RemoteAddr = "203.0.113.9:4444"
			if tc.auth != "" {
				req.Header.Set("Authorization", tc.auth)
			}
			if tc.xff != "" {
				req.Header.Set("X-Forwarded-For", tc.xff)
			}
			rec := httptest.NewRecorder()
			a.echo.ServeHTTP(rec, req)
			if rec.Code != tc.want {
				t.Fatalf("status %d, want %d", rec.Code, tc.want)
			}
		})
	}
}

// TestMetrics_SandboxFigures: /metrics reports the sandbox's figures, all
// from one reading of the pool per scrape.
func TestMetrics_SandboxFigures(t *testing.T) {
	reads := 0
	a := newAppWith(t, func(c *handlers.Config) {
		c.Sandbox = func() handlers.SandboxStats {
			reads++
			return handlers.SandboxStats{Live: 3, Busy: 1, Idle: 2, Evictions: 7}
		}
	})
	r := a.browser().get("/metrics")
	for _, want := range []string{"workbench_sandbox_live 3", "workbench_sandbox_busy 1", "workbench_sandbox_idle 2", "workbench_sandbox_evictions_total 7"} {
		if !strings.Contains(r.body, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	if reads != 1 {
		t.Errorf("one scrape read the pool %d times, want once", reads)
	}
}

// TestMetrics_Leaders: /metrics says which background tasks this server
// leads now (store.Lead): the purge while its worker runs, and not the
// retention sweep, which has not started.
func TestMetrics_Leaders(t *testing.T) {
	a := newApp(t)
	ctx, stop := context.WithCancel(context.Background())
	running := make(chan struct{})
	go a.db.Lead(ctx, store.TaskPurge, func(ctx context.Context) { close(running); <-ctx.Done() })
	<-running
	defer stop()
	r := a.browser().get("/metrics")
	for _, want := range []string{`workbench_leader{task="purge"} 1`, `workbench_leader{task="retention"} 0`} {
		if !strings.Contains(r.body, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}

// TestErrorsLoggedAndCountedWithTheirStatus: a request that fails is
// written down with the status its user got, in the request log and in the
// metrics, not as the 200 the response held before the error page.
func TestErrorsLoggedAndCountedWithTheirStatus(t *testing.T) {
	var logs lockedBuffer
	a := newAppWith(t, func(c *handlers.Config) {
		c.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	})
	b := a.signedIn("ada", "analyst")
	if r := b.get("/conversations/no-such-conversation"); r.status != http.StatusNotFound {
		t.Fatalf("status %d", r.status)
	}
	logged := logs.String()
	if !regexp.MustCompile(`msg=request method=GET path=/conversations/no-such-conversation status=404`).MatchString(logged) {
		t.Fatalf("the request log does not say 404:\n%s", logged)
	}
	body := a.browser().get("/metrics").body
	if !strings.Contains(body, `workbench_http_requests_total{method="GET",route="/conversations/:id",status="404"} 1`) {
		t.Fatalf("the metrics do not count a 404:\n%s", body)
	}
}

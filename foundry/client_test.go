package foundry

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
)

func TestNew(t *testing.T) {
	tests := []struct {
		name     string
		endpoint string
		cred     azcore.TokenCredential
		wantErr  bool
	}{
		{"foundry https", "https://res.services.ai.azure.com/api/projects/p", StaticToken("t"), false},
		{"trailing slash", "https://res.services.ai.azure.com/api/projects/p/", StaticToken("t"), false},
		{"loopback http", "http://127.0.0.1:8081/api/projects/local", StaticToken("t"), false},
		{"localhost http", "http://localhost:8081/api/projects/local", StaticToken("t"), false},
		{"ipv6 loopback http", "http://[::1]:8081/api/projects/local", StaticToken("t"), false},
		{"remote http", "http://res.services.ai.azure.com/api/projects/p", StaticToken("t"), true},
		{"private address http", "http://10.0.0.5/api/projects/p", StaticToken("t"), true},
		{"no host", "/api/projects/p", StaticToken("t"), true},
		{"no credential", "https://res.services.ai.azure.com/api/projects/p", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := New(Config{Endpoint: tt.endpoint, Credential: tt.cred})
			if (err != nil) != tt.wantErr {
				t.Fatalf("New() error = %v, wantErr %v", err, tt.wantErr)
			}
			if err == nil && strings.HasSuffix(c.endpoint, "/") {
				t.Errorf("endpoint %q keeps a trailing slash", c.endpoint)
			}
			if err != nil && !strings.HasPrefix(err.Error(), "foundry: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
		})
	}
}

// countingCred records the scopes asked for and hands out numbered tokens.
type countingCred struct {
	mu     sync.Mutex
	calls  int
	scopes []string
	ttl    time.Duration
	now    func() time.Time // nil = time.Now
}

func (c *countingCred) GetToken(_ context.Context, o policy.TokenRequestOptions) (azcore.AccessToken, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls++
	c.scopes = append(c.scopes, o.Scopes...)
	now := time.Now
	if c.now != nil {
		now = c.now
	}
	return azcore.AccessToken{Token: "tok", ExpiresOn: now().Add(c.ttl)}, nil
}

func TestClient_AuthBothFamilies(t *testing.T) {
	rs := newReplay(t, map[string][]reply{
		"GET /agents/analyst":                {{file: "json/agent.json"}},
		"GET /openai/v1/files/assistant-Fq1": {{file: "json/file.json"}},
	})
	cred := &countingCred{ttl: time.Hour}
	c, err := New(Config{Endpoint: rs.URL + testProject, Credential: cred})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := c.LatestAgentVersion(ctx, "analyst"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.File(ctx, "assistant-Fq1"); err != nil {
		t.Fatal(err)
	}
	for _, r := range rs.requests() {
		if got := r.Header.Get("Authorization"); got != "Bearer tok" {
			t.Errorf("%s %s: Authorization = %q", r.Method, r.Path, got)
		}
	}
	reqs := rs.requests()
	if q := reqs[0].Query; q != "api-version=v1" {
		t.Errorf("agents query = %q, want api-version=v1", q)
	}
	if q := reqs[1].Query; q != "" {
		t.Errorf("openai/v1 query = %q, want none (path-versioned)", q)
	}
	for _, s := range cred.scopes {
		if s != Scope {
			t.Errorf("scope %q, want %q", s, Scope)
		}
	}
}

func TestClient_IgnoresOpenAIEnvironment(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-must-not-leak")
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1/")
	t.Setenv("OPENAI_ORG_ID", "org-x")
	rs := newReplay(t, map[string][]reply{"GET /openai/v1/files/assistant-Fq1": {{file: "json/file.json"}}})
	if _, err := rs.client(t).File(context.Background(), "assistant-Fq1"); err != nil {
		t.Fatal(err)
	}
	r := rs.requests()[0]
	if got := r.Header.Get("Authorization"); got != "Bearer "+testToken {
		t.Errorf("Authorization = %q", got)
	}
	if r.Header.Get("OpenAI-Organization") != "" {
		t.Error("OpenAI-Organization header leaked from the environment")
	}
}

func TestClient_Retry(t *testing.T) {
	busy := reply{status: 429, file: "errors/rate_limit_429.json", header: map[string]string{"retry-after-ms": "1", "x-request-id": "r1"}}
	busyMS := reply{status: 503, body: `{"error":{"code":"server_error","message":"busy"}}`, header: map[string]string{"x-ms-retry-after-ms": "1"}}
	busySec := reply{status: 503, body: `{"error":{"code":"server_error","message":"busy"}}`, header: map[string]string{"retry-after": "0"}}
	down := reply{status: 500, body: `{"error":{"code":"server_error","message":"boom"}}`, header: map[string]string{"apim-request-id": "a9"}}
	tests := []struct {
		name       string
		route      string
		replies    []reply
		call       func(*Client) error
		wantCalls  int
		wantStatus int // 0 = success
	}{
		{"agents 429 then ok", "GET /agents/analyst", []reply{busy, {file: "json/agent.json"}},
			func(c *Client) error { _, err := c.LatestAgentVersion(context.Background(), "analyst"); return err }, 2, 0},
		{"agents 503 retry-after seconds", "GET /agents/analyst", []reply{busySec, {file: "json/agent.json"}},
			func(c *Client) error { _, err := c.LatestAgentVersion(context.Background(), "analyst"); return err }, 2, 0},
		{"agents gives up", "GET /agents/analyst", []reply{down},
			func(c *Client) error { _, err := c.LatestAgentVersion(context.Background(), "analyst"); return err }, 3, 500},
		{"openai 429 then ok", "GET /openai/v1/files/f1", []reply{busy, {file: "json/file.json"}},
			func(c *Client) error { _, err := c.File(context.Background(), "f1"); return err }, 2, 0},
		{"openai 503 retry-after seconds", "GET /openai/v1/files/f1", []reply{busySec, {file: "json/file.json"}},
			func(c *Client) error { _, err := c.File(context.Background(), "f1"); return err }, 2, 0},
		{"openai 503 x-ms-retry-after-ms", "GET /openai/v1/files/f1", []reply{busyMS, {file: "json/file.json"}},
			func(c *Client) error { _, err := c.File(context.Background(), "f1"); return err }, 2, 0},
		{"openai gives up", "GET /openai/v1/files/f1", []reply{down},
			func(c *Client) error { _, err := c.File(context.Background(), "f1"); return err }, 3, 500},
		{"openai 404 not retried", "GET /openai/v1/files/f1", []reply{{status: 404, file: "errors/openai_container_file_404.json"}},
			func(c *Client) error { _, err := c.File(context.Background(), "f1"); return err }, 1, 404},
		{"stream open retried", "POST /openai/v1/responses", []reply{busy, {file: "sse/truncated.sse"}},
			func(c *Client) error {
				s, err := c.StreamResponse(context.Background(), ResponseRequest{Agent: AgentRef{Name: "a"}, Input: "hi"})
				if err == nil {
					s.Close()
				}
				return err
			}, 3, 0}, // with the lookup that checks no response was made
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := newReplay(t, map[string][]reply{tt.route: tt.replies, "GET /openai/v1/responses": {{body: `{"data":[]}`}}})
			err := tt.call(rs.client(t))
			if got := len(rs.requests()); got != tt.wantCalls {
				t.Errorf("requests = %d, want %d", got, tt.wantCalls)
			}
			if tt.wantStatus == 0 {
				if err != nil {
					t.Fatalf("err = %v", err)
				}
				return
			}
			var ae *APIError
			if !errors.As(err, &ae) || ae.StatusCode != tt.wantStatus {
				t.Fatalf("err = %v, want APIError %d", err, tt.wantStatus)
			}
			if ae.StatusCode == 500 && ae.RequestID != "a9" {
				t.Errorf("request id = %q, want a9", ae.RequestID)
			}
			if !strings.HasPrefix(err.Error(), "foundry: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
		})
	}
}

func TestClient_RetryHonoursRetryAfterMs(t *testing.T) {
	for _, route := range []string{"GET /agents/analyst", "GET /openai/v1/agents-probe"} {
		t.Run(route, func(t *testing.T) {
			rs := newReplay(t, map[string][]reply{route: {
				{status: 429, body: `{}`, header: map[string]string{"retry-after-ms": "150"}},
				{file: "json/agent.json"},
			}})
			c, err := New(Config{Endpoint: rs.URL + testProject, Credential: StaticToken("t"), MaxRetryDelay: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			if strings.Contains(route, "agents/analyst") {
				_, err = c.LatestAgentVersion(context.Background(), "analyst")
			} else {
				err = c.oai.Get(context.Background(), "agents-probe", nil, nil)
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := time.Since(start); d < 150*time.Millisecond {
				t.Errorf("retried after %v, want ≥ 150ms (retry-after-ms)", d)
			}
		})
	}
}

func TestClient_FlatErrorBodyBecomesAPIError(t *testing.T) {
	rs := newReplay(t, map[string][]reply{"GET /openai/v1/files/f1": {{status: 401, file: "errors/apim_401_flat.json",
		header: map[string]string{"apim-request-id": "apim-7"}}}})
	_, err := rs.client(t).File(context.Background(), "f1")
	var ae *APIError
	if !errors.As(err, &ae) || ae.StatusCode != 401 || ae.RequestID != "apim-7" || !strings.Contains(ae.Message, "Access denied") {
		t.Fatalf("err = %#v", err)
	}
}

func TestTokenSource(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	cred := &countingCred{ttl: time.Hour, now: clock}
	ts := &tokenSource{cred: cred, scopes: []string{Scope}, now: clock}
	ctx := context.Background()
	steps := []struct {
		advance   time.Duration
		wantCalls int
	}{
		{0, 1},                // first use fetches
		{10 * time.Minute, 1}, // still fresh: cached
		{46 * time.Minute, 2}, // within refreshMargin of expiry: renewed
		{time.Minute, 2},      // the new token is cached again
	}
	for i, s := range steps {
		now = now.Add(s.advance)
		if _, err := ts.token(ctx); err != nil {
			t.Fatal(err)
		}
		if cred.calls != s.wantCalls {
			t.Errorf("step %d: credential calls = %d, want %d", i, cred.calls, s.wantCalls)
		}
	}
	if !slices.Equal(cred.scopes[:1], []string{Scope}) {
		t.Errorf("scopes = %v", cred.scopes)
	}
}

func TestStaticToken(t *testing.T) {
	tok, err := StaticToken("abc").GetToken(context.Background(), policy.TokenRequestOptions{})
	if err != nil || tok.Token != "abc" || time.Until(tok.ExpiresOn) < time.Hour {
		t.Errorf("GetToken = %+v, %v", tok, err)
	}
	if _, err := StaticToken("").GetToken(context.Background(), policy.TokenRequestOptions{}); err == nil {
		t.Error("empty static token accepted")
	}
}

package foundry

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

// sseOf frames events as a server would send them.
func sseOf(events ...string) string {
	var b strings.Builder
	for _, e := range events {
		var head struct{ Type string }
		_ = json.Unmarshal([]byte(e), &head)
		b.WriteString("event: " + head.Type + "\ndata: " + e + "\n\n")
	}
	return b.String()
}

// listOf is a responses listing holding one response with the given key.
func listOf(id, key string) string {
	return `{"object":"list","data":[{"id":"` + id + `","object":"response","status":"in_progress","background":true,` +
		`"metadata":{"request_key":"` + key + `"}}],"has_more":false}`
}

const emptyList = `{"object":"list","data":[],"has_more":false}`

var bgTurn = ResponseRequest{Agent: AgentRef{Name: "a"}, ConversationID: "conv_1", Input: "hi", Background: true, Key: "k1"}

func countPosts(rs *replayServer) int {
	n := 0
	for _, r := range rs.requests() {
		if r.Method == "POST" && r.Path == "/openai/v1/responses" {
			n++
		}
	}
	return n
}

// TestStreamResponse_DroppedConnectionIsNotResent: the connection breaks
// after the server received the creation. The client must not send it a
// second time, since the turn may be running already.
func TestStreamResponse_DroppedConnectionIsNotResent(t *testing.T) {
	rs := newReplay(t, map[string][]reply{
		"POST /openai/v1/responses": {{drop: true}, {sse: true, body: sseOf(`{"type":"response.created","sequence_number":0,"response":{"id":"resp_2"}}`)}},
		"GET /openai/v1/responses":  {{body: emptyList}},
	})
	_, err := rs.client(t).StreamResponse(context.Background(), bgTurn)
	var ae *APIError
	if err == nil || errors.As(err, &ae) {
		t.Fatalf("err = %v, want the connection error", err)
	}
	if n := countPosts(rs); n != 1 {
		t.Errorf("the server saw %d creations, want 1", n)
	}
	if q := rs.requests()[1].Query; !strings.Contains(q, "conversation_id=conv_1") {
		t.Errorf("lookup query %q does not name the conversation", q)
	}
}

// TestStreamResponse_DroppedConnectionFollowsTheCreatedResponse: the turn
// was created although its answer was lost; the client finds it by its key
// and follows its stream instead of creating another.
func TestStreamResponse_DroppedConnectionFollowsTheCreatedResponse(t *testing.T) {
	rs := newReplay(t, map[string][]reply{
		"POST /openai/v1/responses":       {{drop: true}},
		"GET /openai/v1/responses":        {{body: listOf("resp_9", "k1")}},
		"GET /openai/v1/responses/resp_9": {{sse: true, body: sseOf(`{"type":"response.created","sequence_number":0,"response":{"id":"resp_9"}}`, `{"type":"response.completed","sequence_number":1,"response":{"id":"resp_9","status":"completed"}}`)}},
	})
	s, err := rs.client(t).StreamResponse(context.Background(), bgTurn)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for s.Next() {
	}
	if s.Err() != nil || s.ResponseID() != "resp_9" || countPosts(rs) != 1 {
		t.Fatalf("err %v, response %q, %d creations", s.Err(), s.ResponseID(), countPosts(rs))
	}
	if q := rs.requests()[2].Query; strings.Contains(q, "starting_after") {
		t.Errorf("followed from %q, want from the first event", q)
	}
}

// TestStreamResponse_RateLimitRetriedOnce: a 429 with Retry-After, and no
// response was created: the creation is sent once more, after the wait.
func TestStreamResponse_RateLimitRetriedOnce(t *testing.T) {
	rs := newReplay(t, map[string][]reply{
		"POST /openai/v1/responses": {
			{status: 429, file: "errors/rate_limit_429.json", header: map[string]string{"retry-after-ms": "40"}},
			{sse: true, body: sseOf(`{"type":"response.created","sequence_number":0,"response":{"id":"resp_1"}}`)},
		},
		"GET /openai/v1/responses": {{body: emptyList}},
	})
	c, err := New(Config{Endpoint: rs.URL + testProject, Credential: StaticToken(testToken), MaxRetryDelay: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	s, err := c.StreamResponse(context.Background(), bgTurn)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	var methods []string
	for _, r := range rs.requests() {
		methods = append(methods, r.Method+" "+r.Path)
	}
	want := "POST /openai/v1/responses, GET /openai/v1/responses, POST /openai/v1/responses"
	if got := strings.Join(methods, ", "); got != want {
		t.Errorf("requests: %s\nwant:     %s", got, want)
	}
	if d := time.Since(start); d < 40*time.Millisecond {
		t.Errorf("sent again after %v, before the 40 ms the server asked for", d)
	}
	var body map[string]any
	_ = json.Unmarshal(rs.requests()[2].Body, &body)
	if body["background"] != true || body["stream"] != true {
		t.Errorf("creation body lacks background or stream: %s", rs.requests()[2].Body)
	}
}

// TestStreamResponse_BareRateLimit: a 429 without retry-after is sent again
// after RateLimitWait, then after twice that, and the third refusal is
// returned: three tries in all, never at the libraries' 0.5 s pace.
func TestStreamResponse_BareRateLimit(t *testing.T) {
	bare := reply{status: 429, body: `{"error":{"code":"rate_limit_exceeded","message":"Rate limit is exceeded."}}`}
	rs := newReplay(t, map[string][]reply{
		"POST /openai/v1/responses": {bare, bare, bare},
		"GET /openai/v1/responses":  {{body: emptyList}},
	})
	const floor = 30 * time.Millisecond
	c, err := New(Config{Endpoint: rs.URL + testProject, Credential: StaticToken(testToken), RateLimitWait: floor})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.StreamResponse(context.Background(), bgTurn)
	if !IsRateLimited(err) {
		t.Fatalf("err = %v, want the 429", err)
	}
	var posts []time.Time
	for _, r := range rs.requests() {
		if r.Method == "POST" {
			posts = append(posts, r.At)
		}
	}
	if len(posts) != 3 {
		t.Fatalf("%d creations, want 3 tries", len(posts))
	}
	if d := posts[1].Sub(posts[0]); d < floor {
		t.Errorf("second try after %v, want at least %v", d, floor)
	}
	if d := posts[2].Sub(posts[1]); d < 2*floor {
		t.Errorf("third try after %v, want at least %v (growing)", d, 2*floor)
	}
}

// TestCreateRetryDelay_BareRateLimitFloor: with the default settings a bare
// 429 waits 5 s, then 10 s; a 429 that names its wait keeps it.
func TestCreateRetryDelay_BareRateLimitFloor(t *testing.T) {
	c, err := New(Config{Endpoint: "https://x.services.ai.azure.com/api/projects/p", Credential: StaticToken("t")})
	if err != nil {
		t.Fatal(err)
	}
	bare := &APIError{StatusCode: 429}
	for attempt, want := range []time.Duration{5 * time.Second, 10 * time.Second} {
		if got, ok := c.createRetryDelay(bare, attempt); !ok || got != want {
			t.Errorf("attempt %d: wait %v (%v), want %v", attempt, got, ok, want)
		}
	}
	if _, ok := c.createRetryDelay(bare, 2); ok {
		t.Error("a third resend was allowed; at most 3 tries")
	}
	if got, _ := c.createRetryDelay(&APIError{StatusCode: 429, RetryAfter: 40 * time.Millisecond}, 0); got != 40*time.Millisecond {
		t.Errorf("named wait became %v", got)
	}
}

// TestStreamResponse_NotResent covers the refusals that are returned as
// they are: a 409, a 429 once the lookup found a response of another
// request, and any failure when the lookup itself fails.
func TestStreamResponse_NotResent(t *testing.T) {
	tests := []struct {
		name   string
		create reply
		list   reply
		status int
	}{
		{"409", reply{status: 409, body: `{"error":{"code":"conflict","message":"busy"}}`}, reply{body: emptyList}, 409},
		{"lookup fails", reply{status: 503, body: `{"error":{"code":"server_error","message":"x"}}`},
			reply{status: 404, body: `{"error":{"message":"no such route"}}`}, 503},
		{"400", reply{status: 400, body: `{"error":{"message":"bad"}}`}, reply{body: emptyList}, 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := newReplay(t, map[string][]reply{"POST /openai/v1/responses": {tt.create},
				"GET /openai/v1/responses": {tt.list}})
			_, err := rs.client(t).StreamResponse(context.Background(), bgTurn)
			var ae *APIError
			if !errors.As(err, &ae) || ae.StatusCode != tt.status {
				t.Fatalf("err = %v, want %d", err, tt.status)
			}
			if n := countPosts(rs); n != 1 {
				t.Errorf("%d creations, want 1", n)
			}
		})
	}
}

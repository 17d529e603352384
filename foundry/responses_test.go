package foundry

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestClient_StreamResponse(t *testing.T) {
	rs := newReplay(t, map[string][]reply{"POST /openai/v1/responses": {{file: "sse/turn_code_interpreter.sse",
		header: map[string]string{"x-request-id": "req-77"}}}})
	s, err := rs.client(t).StreamResponse(context.Background(), ResponseRequest{
		Agent:            AgentRef{Name: "analyst", Version: "2"},
		ConversationID:   "conv_01",
		Input:            "Plot sales",
		StructuredInputs: map[string]string{"file_1": "assistant-Fq1", "file_2": ""},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	n := 0
	for s.Next() {
		n++
	}
	if err := s.Err(); err != nil || n != 20 || s.ResponseID() != "resp_01" {
		t.Fatalf("events %d, response %q, err %v", n, s.ResponseID(), err)
	}

	var body map[string]any
	if err := json.Unmarshal(rs.requests()[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"input":             `"Plot sales"`,
		"conversation":      `"conv_01"`,
		"stream":            `true`,
		"include":           `["code_interpreter_call.outputs"]`,
		"agent_reference":   `{"name":"analyst","type":"agent_reference","version":"2"}`,
		"structured_inputs": `{"file_1":"assistant-Fq1","file_2":""}`,
	}
	for k, v := range want {
		got, _ := json.Marshal(body[k])
		if string(got) != v {
			t.Errorf("body[%q] = %s, want %s", k, got, v)
		}
	}
	for _, k := range []string{"agent", "model"} {
		if _, ok := body[k]; ok {
			t.Errorf("body has %q: %s", k, rs.requests()[0].Body)
		}
	}
}

func TestClient_StreamResponseRejected(t *testing.T) {
	rs := newReplay(t, map[string][]reply{"POST /openai/v1/responses": {{status: 400, file: "errors/deprecated_agent_400.json",
		header: map[string]string{"apim-request-id": "apim-3"}}}})
	_, err := rs.client(t).StreamResponse(context.Background(), ResponseRequest{Agent: AgentRef{Name: "a"}, Input: "x"})
	var ae *APIError
	if !errors.As(err, &ae) || ae.StatusCode != 400 || ae.Param != "agent" || ae.RequestID != "apim-3" {
		t.Fatalf("err = %v", err)
	}
	if _, err := rs.client(t).StreamResponse(context.Background(), ResponseRequest{Input: "x"}); err == nil {
		t.Error("request without agent accepted")
	}
}

// TestStream_ConnectionCut has the server send two events and then drop
// the connection mid-event: the events still arrive, and Err reports the cut.
func TestStream_ConnectionCut(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte("event: response.created\ndata: {\"type\":\"response.created\",\"sequence_number\":0,\"response\":{\"id\":\"resp_c\"}}\n\n" +
			"data: {\"type\":\"response.output_text.delta\",\"sequence_number\":1,\"item_id\":\"m\",\"delta\":\"Hal\"}\n\n" +
			"data: {\"type\":\"response.output_text.del"))
		w.(http.Flusher).Flush()
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			conn.Close()
		}
	}))
	defer srv.Close()
	s, err := newTestClient(t, srv.URL+testProject).StreamResponse(context.Background(), ResponseRequest{Agent: AgentRef{Name: "a"}, Input: "x"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var got []EventType
	for s.Next() {
		got = append(got, s.Event().Type)
	}
	if len(got) != 2 || got[1] != EventTextDelta {
		t.Errorf("events = %v, want created and the delta", got)
	}
	if s.Err() == nil {
		t.Error("Err() = nil after a cut connection")
	}
}

// TestStream_CloseUnblocks checks that Close from another goroutine ends a
// Next that waits on a silent server, as a cancelled turn needs. Close is
// called only once that Next is known to be blocked reading the body, so
// the test cannot pass by closing before Next starts.
func TestStream_CloseUnblocks(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		fmt.Fprint(w, "event: response.created\ndata: {\"type\":\"response.created\",\"sequence_number\":1,\"response\":{\"id\":\"resp_1\"}}\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	reads := &readWatch{}
	c, err := New(Config{Endpoint: srv.URL + testProject, Credential: StaticToken(testToken), MaxRetries: -1,
		HTTPClient: &http.Client{Transport: reads}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.StreamResponse(context.Background(), ResponseRequest{Agent: AgentRef{Name: "a"}, Input: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if !s.Next() {
		t.Fatalf("no first event: %v", s.Err())
	}
	done := make(chan bool)
	go func() { done <- s.Next() }()
	deadline := time.Now().Add(5 * time.Second)
	for !reads.blocked() { // the second Next waits on the silent server
		if time.Now().After(deadline) {
			t.Fatal("Next never read the body")
		}
		time.Sleep(time.Millisecond) // a poll interval, not an ordering
	}
	s.Close()
	select {
	case more := <-done:
		if more || s.Err() == nil {
			t.Errorf("Next = %v, Err = %v after Close", more, s.Err())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Next still blocked after Close")
	}
}

// readWatch is a transport that tells when a response body has a Read in
// progress: on a silent server, a Next blocked waiting for bytes.
type readWatch struct{ inRead atomic.Int32 }

// RoundTrip carries the request and watches the body's reads.
func (rw *readWatch) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err == nil {
		resp.Body = &watchedBody{ReadCloser: resp.Body, w: rw}
	}
	return resp, err
}

func (rw *readWatch) blocked() bool { return rw.inRead.Load() > 0 }

type watchedBody struct {
	io.ReadCloser
	w *readWatch
}

// Read counts itself in progress while it waits.
func (b *watchedBody) Read(p []byte) (int, error) {
	b.w.inRead.Add(1)
	defer b.w.inRead.Add(-1)
	return b.ReadCloser.Read(p)
}

func TestClient_CreateResponse(t *testing.T) {
	rs := newReplay(t, map[string][]reply{"POST /openai/v1/responses": {{file: "json/response.json"}}})
	r, err := rs.client(t).CreateResponse(context.Background(), ResponseRequest{Agent: AgentRef{Name: "analyst"}, Input: "x",
		StructuredInputs: map[string]string{"file_1": "f"}})
	if err != nil || r.ID != "resp_01" || len(r.Output) != 2 {
		t.Fatalf("CreateResponse = %+v, %v", r, err)
	}
	var body map[string]json.RawMessage
	if err := json.Unmarshal(rs.requests()[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	if _, ok := body["stream"]; ok {
		t.Errorf("non-streaming request sets stream: %s", rs.requests()[0].Body)
	}
	if string(body["agent_reference"]) != `{"name":"analyst","type":"agent_reference"}` || string(body["structured_inputs"]) != `{"file_1":"f"}` {
		t.Errorf("body = %s", rs.requests()[0].Body)
	}
}

func TestClient_ResponseAndCancel(t *testing.T) {
	rs := newReplay(t, map[string][]reply{
		"GET /openai/v1/responses/resp_01":         {{file: "json/response.json"}},
		"POST /openai/v1/responses/resp_01/cancel": {{file: "json/response_cancelled.json"}},
		"DELETE /openai/v1/responses/resp_01":      {{body: `{"id":"resp_01","object":"response","deleted":true}`}},
	})
	c := rs.client(t)
	ctx := context.Background()
	r, err := c.Response(ctx, "resp_01")
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != "completed" || r.ConversationID != "conv_01" || len(r.Output) != 2 || r.Output[0].ContainerID != "cntr_01" ||
		r.Output[1].Text != "1" || r.Usage.TotalTokens != 12 || r.Err != nil {
		t.Errorf("response = %+v", r)
	}
	if q := rs.requests()[0].Query; q != "include%5B%5D=code_interpreter_call.outputs" {
		t.Errorf("get query = %q", q)
	}
	if _, err := c.CancelResponse(ctx, "resp_01"); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteResponse(ctx, "resp_01"); err != nil {
		t.Fatal(err)
	}
}

func TestClient_ResumeResponse(t *testing.T) {
	rs := newReplay(t, map[string][]reply{"GET /openai/v1/responses/resp_06": {{file: "sse/incomplete.sse"}}})
	s, err := rs.client(t).ResumeResponse(context.Background(), "resp_06", 1)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var got []EventType
	for s.Next() {
		got = append(got, s.Event().Type)
		if id := s.Event().ResponseID; id != "resp_06" {
			t.Errorf("%s: response id %q, want the resumed one", s.Event().Type, id)
		}
	}
	// The replayed fixture begins with response.created; a resumed stream
	// must not announce the response a second time.
	if want := []EventType{EventTextDelta, EventUsage, EventCompleted}; !slices.Equal(got, want) {
		t.Errorf("events = %v, want %v", got, want)
	}
	q := rs.requests()[0].Query
	for _, part := range []string{"stream=true", "starting_after=1", "include%5B%5D=code_interpreter_call.outputs"} {
		if !strings.Contains(q, part) {
			t.Errorf("query %q lacks %q", q, part)
		}
	}
}

package foundry

import (
	"context"
	"errors"
	"strings"
	"testing"
)

var (
	evCreated = `{"type":"response.created","sequence_number":0,"response":{"id":"resp_r","status":"in_progress"}}`
	evDelta1  = `{"type":"response.output_text.delta","sequence_number":1,"item_id":"m","output_index":0,"delta":"Hello, "}`
	evDelta2  = `{"type":"response.output_text.delta","sequence_number":2,"item_id":"m","output_index":0,"delta":"world."}`
	evDone    = `{"type":"response.completed","sequence_number":3,"response":{"id":"resp_r","status":"completed"}}`
	// storedDone is the finished response, as GET /responses/resp_r shows it.
	storedDone = `{"id":"resp_r","object":"response","status":"completed","background":true,"output":[{"type":"message","id":"m",` +
		`"role":"assistant","status":"completed","content":[{"type":"output_text","text":"Hello, world.","annotations":[]}]}]}`
)

func readAll(s *Stream) (text string, types []EventType) {
	for s.Next() {
		e := s.Event()
		types = append(types, e.Type)
		if e.Type == EventTextDelta {
			text += e.Text
		}
	}
	return text, types
}

// TestStream_ResumesAfterACut: the connection of a background response
// breaks mid-answer; the stream is opened again after the last event read
// and the answer arrives whole, nothing lost or repeated.
func TestStream_ResumesAfterACut(t *testing.T) {
	rs := newReplay(t, map[string][]reply{
		"POST /openai/v1/responses":       {{sse: true, body: sseOf(evCreated, evDelta1), drop: true}},
		"GET /openai/v1/responses/resp_r": {{sse: true, body: sseOf(evDelta2, evDone)}},
	})
	s, err := rs.client(t).StreamResponse(context.Background(), bgTurn)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	text, _ := readAll(s)
	if s.Err() != nil || text != "Hello, world." {
		t.Fatalf("text %q, err %v", text, s.Err())
	}
	if q := rs.requests()[1].Query; !strings.Contains(q, "starting_after=1") || !strings.Contains(q, "stream=true") {
		t.Errorf("resumed with %q, want stream=true&starting_after=1", q)
	}
	if a := rs.requests()[1].Header.Get("Accept"); a != "text/event-stream" {
		t.Errorf("resumed with Accept %q, want text/event-stream (the spec's header for a streamed GET)", a)
	}
}

// TestStream_SettlesFromTheStoredResponse: the events can no longer be
// replayed (the service answers 400), but the response has finished: its
// stored output gives the rest of the text and the ending.
func TestStream_SettlesFromTheStoredResponse(t *testing.T) {
	rs := newReplay(t, map[string][]reply{
		"POST /openai/v1/responses": {{sse: true, body: sseOf(evCreated, evDelta1), drop: true}},
		"GET /openai/v1/responses/resp_r": {
			{status: 400, body: `{"error":{"message":"events no longer available"}}`},
			{body: storedDone},
		},
	})
	s, err := rs.client(t).StreamResponse(context.Background(), bgTurn)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	text, types := readAll(s)
	if s.Err() != nil || text != "Hello, world." || types[len(types)-1] != EventCompleted {
		t.Fatalf("text %q, events %v, err %v", text, types, s.Err())
	}
}

// TestStream_CancelledEndsAsCancelled: a reopened stream that ends at once
// is settled from the stored response, which a cancel ended.
func TestStream_CancelledEndsAsCancelled(t *testing.T) {
	rs := newReplay(t, map[string][]reply{
		"POST /openai/v1/responses": {{sse: true, body: sseOf(evCreated, evDelta1), drop: true}},
		"GET /openai/v1/responses/resp_r": {
			{sse: true, body: ""},
			{body: `{"id":"resp_r","status":"cancelled","background":true,"output":[]}`},
		},
	})
	s, err := rs.client(t).StreamResponse(context.Background(), bgTurn)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	readAll(s)
	var ae *APIError
	if !errors.As(s.Err(), &ae) || ae.Code != "cancelled" {
		t.Fatalf("err = %v, want a cancelled response", s.Err())
	}
}

// TestStream_ForegroundIsNotResumed: only a background response's stream can
// be opened again; a cut foreground one reports the cut.
func TestStream_ForegroundIsNotResumed(t *testing.T) {
	rs := newReplay(t, map[string][]reply{
		"POST /openai/v1/responses": {{sse: true, body: sseOf(evCreated, evDelta1), drop: true}},
	})
	req := bgTurn
	req.Background = false
	s, err := rs.client(t).StreamResponse(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	readAll(s)
	if s.Err() == nil || len(rs.requests()) != 1 {
		t.Fatalf("err %v after %d requests, want the cut and no resume", s.Err(), len(rs.requests()))
	}
}

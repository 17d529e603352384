package foundry

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
)

// ResumeResponse opens the stream of a background response again, from the
// event after sequence number after, or from its first event when after is
// negative (reference §5.2: GET /responses/{id}?stream=true&starting_after=…).
// The new Stream knows the response id but not the items announced before
// the cut, so events of an item begun earlier may lack ContainerID until
// its item_done. It resumes itself after further cuts, as StreamResponse's do.
func (c *Client) ResumeResponse(ctx context.Context, id string, after int64) (*Stream, error) {
	raw, err := c.openResponseStream(ctx, id, after)
	if err != nil {
		return nil, err
	}
	return c.newResponseStream(ctx, raw, id, true), nil
}

func (c *Client) openResponseStream(ctx context.Context, id string, after int64) (*http.Response, error) {
	// The spec names "accept: text/event-stream" for this GET (Foundry GA
	// v1 OpenAPI, getResponse); openai-go would send application/json.
	opts := []option.RequestOption{option.WithQuery("stream", "true"),
		option.WithQuery("include[]", string(responses.ResponseIncludableCodeInterpreterCallOutputs)),
		option.WithHeader("Accept", "text/event-stream")}
	if after >= 0 {
		opts = append(opts, option.WithQuery("starting_after", strconv.FormatInt(after, 10)))
	}
	var raw *http.Response
	err := c.call(ctx, "resume response "+id, func(ctx context.Context) error {
		return c.oai.Get(ctx, "responses/"+url.PathEscape(id), nil, &raw, opts...)
	})
	return raw, err
}

// newResponseStream wraps an opened stream; a background one resumes itself.
func (c *Client) newResponseStream(ctx context.Context, raw *http.Response, id string, background bool) *Stream {
	s := newStream(raw.Body, requestID(raw.Header))
	s.responseID = id
	s.fetch = func(id string) (string, error) { return c.rawResponse(ctx, id) }
	if background {
		s.resume = &resumer{c: c, ctx: ctx}
	}
	return s
}

// maxResumes bounds the reconnections in a row that bring no new event.
const maxResumes = 5

// resumer holds what a Stream needs to pick its response up again.
type resumer struct {
	c   *Client
	ctx context.Context
	// tries counts reconnections since the last event read; fresh is set
	// while a reopened connection has not yielded an event yet.
	tries int
	fresh bool
}

// progress notes that an event was read.
func (r *resumer) progress() { r.tries, r.fresh = 0, false }

// reconnect is called when the connection ended before a terminal event.
// For a background response it opens the stream again after the last
// event read, a few times with backoff, and reports whether reading can go
// on. When the events can no longer be replayed, or a reopened stream ends
// at once, the stored response settles the matter (see settle).
func (s *Stream) reconnect(cut error) bool {
	r := s.resume
	if r == nil || s.responseID == "" || s.isClosed() || r.ctx.Err() != nil {
		return false
	}
	if r.fresh && errors.Is(cut, ErrStreamEnded) {
		// The service had nothing more to send: the response has ended
		// without a terminal event (as a cancelled one may), or is waiting.
		return s.settle()
	}
	for r.tries < maxResumes {
		r.tries++
		if !s.pause(time.Duration(100<<r.tries) * time.Millisecond) {
			return false
		}
		raw, err := r.c.openResponseStream(r.ctx, s.responseID, s.lastSeq)
		if err == nil {
			return s.swap(raw)
		}
		r.c.log.Info("foundry: resuming a stream failed", "response", s.responseID, "err", err)
		if !transient(err) {
			break // the events are gone (or never were replayable)
		}
	}
	return s.settle()
}

// settle ends the stream from the stored response when it has finished:
// its outputs fill in what the cut lost (see textDone and itemDone) and its
// status gives the terminal event. It reports false while the response is
// still running, or when it cannot be read.
func (s *Stream) settle() bool {
	var w wireStoredResponse
	r := s.resume
	raw, err := r.c.rawResponse(r.ctx, s.responseID)
	if err == nil {
		err = json.Unmarshal([]byte(raw), &w)
	}
	if err != nil || !ResponseStatus(w.Status).Terminal() {
		return false
	}
	r.c.log.Info("foundry: stream settled from the stored response", "response", s.responseID, "status", w.Status)
	s.handle(&wireEvent{Type: "response." + w.Status, SequenceNumber: s.lastSeq + 1, Response: &w.wireResponse})
	return true
}

// swap reads from a reopened connection from now on.
func (s *Stream) swap(raw *http.Response) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.isClosed() {
		raw.Body.Close()
		return false
	}
	_ = s.dec.Close()
	s.dec = sseDecoder(raw.Body)
	s.requestID = requestID(raw.Header)
	s.resume.fresh = true
	return true
}

// pause waits d, unless the stream is closed or its context ends first.
func (s *Stream) pause(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-s.closed:
	case <-s.resume.ctx.Done():
	}
	return false
}

func (s *Stream) isClosed() bool {
	select {
	case <-s.closed:
		return true
	default:
		return false
	}
}

// rawResponse returns the JSON of a stored response.
func (c *Client) rawResponse(ctx context.Context, id string) (string, error) {
	var raw string
	err := c.call(ctx, "response "+id, func(ctx context.Context) error {
		r, err := c.responses.Get(ctx, id, responses.ResponseGetParams{Include: includeOutputs})
		if err == nil {
			raw = r.RawJSON()
		}
		return err
	})
	return raw, err
}

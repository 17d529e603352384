package foundry

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/openai/openai-go/v3/packages/ssestream"
)

// ErrStreamEnded is wrapped by Stream.Err when the stream stopped before a
// terminal event (completed, incomplete, failed, error).
var ErrStreamEnded = errors.New("ended before the response finished")

// Stream reads the events of one streamed response, in the sql.Rows idiom:
//
//	for s.Next() { e := s.Event(); … }
//	if err := s.Err(); err != nil { … }
//
// Every event that arrived before a failure is still delivered; Err then
// reports the failure. A Stream is not safe for concurrent use, except Close.
type Stream struct {
	// mu guards dec against Close from another goroutine while a resumed
	// connection replaces it.
	mu        sync.Mutex
	dec       ssestream.Decoder
	requestID string

	queue []Event
	cur   Event
	err   error
	ended bool // a terminal event was seen, or reading stopped

	responseID     string
	conversationID string
	items          map[string]*itemState
	cited          map[Citation]bool

	// resume is set for a background response, whose stream can be opened
	// again after a cut (see reconnect); lastSeq is the sequence number of
	// the last event read, -1 before any.
	resume  *resumer
	lastSeq int64
	// fetch reads a stored response's JSON with its outputs (nil: the
	// stream cannot); empty lists the completed code calls that came
	// without outputs (see refetchOutputs).
	fetch func(id string) (string, error)
	empty []string

	closed    chan struct{}
	closeOnce sync.Once
	closeErr  error
}

type itemState struct {
	typ         ItemType
	containerID string
	codeDone    bool
	text        strings.Builder // the text reported so far for this item; a Builder, as it grows by every delta
	done        bool
}

// newStream reads SSE from body; requestID is the id of the HTTP exchange
// that opened it, copied into stream errors.
func newStream(body io.ReadCloser, requestID string) *Stream {
	return &Stream{dec: sseDecoder(body), requestID: requestID, lastSeq: -1,
		items: map[string]*itemState{}, cited: map[Citation]bool{}, closed: make(chan struct{})}
}

func sseDecoder(body io.ReadCloser) ssestream.Decoder {
	return ssestream.NewDecoder(&http.Response{Body: body, Header: http.Header{"Content-Type": {"text/event-stream"}}})
}

// Next advances to the next event and reports whether there is one.
func (s *Stream) Next() bool {
	for len(s.queue) == 0 {
		if s.ended {
			_ = s.Close()
			return false
		}
		s.read()
	}
	s.cur, s.queue = s.queue[0], s.queue[1:]
	return true
}

// Event returns the event Next advanced to.
func (s *Stream) Event() Event { return s.cur }

// Err returns why the stream failed, or nil after a completed response. A
// failure reported by the service is an *APIError (errors.As); a stream cut
// short wraps ErrStreamEnded or the read error.
func (s *Stream) Err() error { return s.err }

// ResponseID returns the response's id once EventCreated has been read.
func (s *Stream) ResponseID() string { return s.responseID }

// Close releases the connection; it is safe to call more than once and
// from another goroutine, which makes a blocked Next return. It never
// cancels the response: see Client.CancelResponse.
func (s *Stream) Close() error {
	s.closeOnce.Do(func() {
		close(s.closed)
		s.mu.Lock()
		defer s.mu.Unlock()
		s.closeErr = s.dec.Close()
	})
	return s.closeErr
}

// read consumes one SSE event, queueing what it yields, or ends the stream.
func (s *Stream) read() {
	if !s.dec.Next() {
		cut := s.dec.Err()
		if cut == nil {
			cut = ErrStreamEnded
		}
		if s.reconnect(cut) {
			return
		}
		s.ended = true
		s.err = fmt.Errorf("foundry: stream: %w", cut)
		return
	}
	if s.resume != nil {
		s.resume.progress()
	}
	ev := s.dec.Event()
	data := bytes.TrimSpace(ev.Data)
	if len(data) == 0 || bytes.Equal(data, []byte("[DONE]")) {
		return // keep-alives and the sentinel carry nothing
	}
	var w wireEvent
	if err := json.Unmarshal(data, &w); err != nil {
		// A field of an unexpected type ("sequence_number":"5") leaves the
		// rest decoded, and the event is used as it is; only JSON that is
		// not JSON means the stream itself is broken.
		var typeErr *json.UnmarshalTypeError
		if !errors.As(err, &typeErr) {
			s.fail(&APIError{Code: "invalid_event", Message: fmt.Sprintf("undecodable %q event: %v", ev.Type, err)})
			return
		}
	}
	if w.Type == "" {
		w.Type = ev.Type // liberal: some servers only name the event in the SSE "event:" line
	}
	if w.SequenceNumber > s.lastSeq {
		s.lastSeq = w.SequenceNumber
	}
	s.handle(&w)
}

// handle maps one wire event to app events. Foundry's event order is
// UNCONFIRMED (the reference derives it from OpenAI's), so nothing here
// relies on order or on optional events: a missing code.done is made up from
// output_item.done, missing item/annotation events from response.completed,
// and repeated citations are reported once. The "error" event is decoded
// here rather than by openai-go's stream, which turns any event with a
// top-level "error" key into an opaque error and loses the code.
func (s *Stream) handle(w *wireEvent) {
	switch w.Type {
	case "response.created", "response.in_progress":
		s.created(w)
	case "response.queued":
		s.created(w)
		s.emit(w, Event{Type: EventQueued, Position: w.QueuePosition})
	case "response.output_item.added":
		s.itemAdded(w)
	case "response.output_text.delta":
		s.item(w.ItemID).text.WriteString(w.Delta)
		s.emit(w, Event{Type: EventTextDelta, Text: w.Delta})
	case "response.output_text.done":
		s.textDone(w, w.ItemID, w.Text)
	case "response.code_interpreter_call_code.delta":
		s.emit(w, Event{Type: EventCodeDelta, Text: w.Delta})
	case "response.code_interpreter_call_code.done":
		s.item(w.ItemID).codeDone = true
		s.emit(w, Event{Type: EventCodeDone, Text: string(w.Code)})
	case "response.code_interpreter_call_logs.delta": // the local engine's extension
		s.emit(w, Event{Type: EventLogsDelta, Text: w.Delta})
	case "response.code_interpreter_call.partial_image": // the local engine's extension
		if w.URL != "" {
			s.emit(w, Event{Type: EventPartialImage, Text: w.Name, Output: Output{Type: "image", URL: w.URL}})
		}
	case "response.code_interpreter_call.in_progress", "response.code_interpreter_call.interpreting",
		"response.code_interpreter_call.completed":
		s.emit(w, Event{Type: EventCodeStatus, Status: w.Type[len("response.code_interpreter_call."):]})
	case "response.output_text.annotation.added":
		if w.Annotation != nil {
			if c, ok := w.Annotation.citation(); ok {
				s.cite(w, w.ItemID, c)
			}
		}
	case "response.output_item.done":
		s.itemDone(w, w.Item)
	case "response.completed", "response.incomplete":
		s.completed(w)
	case "response.failed", "response.cancelled", "error":
		s.failed(w)
	}
	// Everything else (content parts, reasoning, text done…) adds nothing
	// the deltas and item events have not already said.
}

// emit queues e, filling in what every event carries.
func (s *Stream) emit(w *wireEvent, e Event) {
	e.Sequence = w.SequenceNumber
	e.ResponseID = s.responseID
	e.ConversationID = s.conversationID
	if e.ItemID == "" {
		e.ItemID = w.ItemID
		e.OutputIndex = w.OutputIndex
	}
	if e.ContainerID == "" && e.ItemID != "" {
		if it, ok := s.items[e.ItemID]; ok {
			e.ContainerID = it.containerID
		}
	}
	s.queue = append(s.queue, e)
}

func (s *Stream) item(id string) *itemState {
	it, ok := s.items[id]
	if !ok {
		it = &itemState{}
		s.items[id] = it
	}
	return it
}

func (s *Stream) created(w *wireEvent) {
	if w.Response == nil || s.responseID != "" {
		return
	}
	s.responseID = w.Response.ID
	s.conversationID = conversationID(w.Response.Conversation)
	s.emit(w, Event{Type: EventCreated, Status: w.Response.Status})
}

// textDone reports text that arrived whole, without deltas (a server that
// only sends output_text.done or the finished item), as one delta, so that
// consumers can build the answer from text deltas alone. When some deltas
// came (and then the stream was cut), only the rest is reported.
func (s *Stream) textDone(w *wireEvent, itemID, text string) {
	st := s.item(itemID)
	rest, ok := strings.CutPrefix(text, st.text.String())
	if !ok || rest == "" {
		return
	}
	st.text.Reset()
	st.text.WriteString(text)
	s.emit(w, Event{Type: EventTextDelta, ItemID: itemID, OutputIndex: w.OutputIndex, Text: rest})
}

func (s *Stream) itemAdded(w *wireEvent) {
	it, err := parseItem(w.Item)
	if err != nil {
		return // an item we cannot read is one the app would not show
	}
	st := s.item(it.ID)
	st.typ, st.containerID = it.Type, it.ContainerID
	s.emit(w, Event{Type: EventItemAdded, ItemID: it.ID, OutputIndex: w.OutputIndex, Item: &it})
}

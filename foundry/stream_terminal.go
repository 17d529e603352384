package foundry

import (
	"encoding/json"
	"fmt"
)

// itemDone reports a finished item. For a code call it first yields what
// the item carries and the deltas may not have: the code (if no code.done
// event came), then each output as Logs or Image. For a message it yields
// citations not already announced by annotation events.
func (s *Stream) itemDone(w *wireEvent, raw json.RawMessage) {
	it, err := parseItem(raw)
	if err != nil || it.ID == "" && it.Type == "" {
		return
	}
	st := s.item(it.ID)
	if st.done {
		return
	}
	st.done = true
	if it.ContainerID != "" {
		st.containerID = it.ContainerID
	}
	it.ContainerID = st.containerID
	base := Event{ItemID: it.ID, OutputIndex: w.OutputIndex, ContainerID: it.ContainerID}
	if it.Type == ItemCodeCall {
		if !st.codeDone && it.Code != "" {
			st.codeDone = true
			s.emit(w, with(base, Event{Type: EventCodeDone, Text: it.Code}))
		}
		for _, o := range it.Outputs {
			switch o.Type {
			case "logs":
				s.emit(w, with(base, Event{Type: EventLogs, Text: o.Logs, Output: o}))
			case "image":
				s.emit(w, with(base, Event{Type: EventImage, Output: o}))
			}
		}
		s.noteEmptyOutputs(&it)
	}
	if it.Type == ItemMessage && it.Role != "user" {
		s.textDone(w, it.ID, it.Text)
	}
	for _, c := range it.Citations {
		s.cite(w, it.ID, c)
	}
	s.emit(w, with(base, Event{Type: EventItemDone, Item: &it}))
}

// with returns e with base's item fields.
func with(base, e Event) Event {
	e.ItemID, e.OutputIndex, e.ContainerID = base.ItemID, base.OutputIndex, base.ContainerID
	return e
}

// cite queues a citation once, however many times the service repeats it
// (annotation event, then again in the finished message, then in the
// completed response).
func (s *Stream) cite(w *wireEvent, itemID string, c Citation) {
	key := Citation{ContainerID: c.ContainerID, FileID: c.FileID}
	if s.cited[key] {
		return
	}
	s.cited[key] = true
	s.emit(w, Event{Type: EventFileCitation, ItemID: itemID, OutputIndex: w.OutputIndex,
		ContainerID: c.ContainerID, Citation: c})
}

// completed ends a successful stream. Items of the final response that were
// never reported done (a server that skips output_item.done) are reported
// first, so that no code, output or citation is lost.
func (s *Stream) completed(w *wireEvent) {
	s.ended = true
	r := w.Response
	if r == nil {
		s.refetchOutputs(w)
		s.emit(w, Event{Type: EventCompleted, Status: "completed"})
		return
	}
	if s.responseID == "" {
		s.responseID, s.conversationID = r.ID, conversationID(r.Conversation)
	}
	for i, raw := range r.Output {
		s.itemDone(&wireEvent{SequenceNumber: w.SequenceNumber, OutputIndex: i}, raw)
	}
	s.refetchOutputs(w)
	if r.Usage != nil {
		s.emit(w, Event{Type: EventUsage, Usage: r.Usage.usage()})
	}
	e := Event{Type: EventCompleted, Status: r.Status}
	if e.Status == "" {
		e.Status = "completed"
	}
	if r.IncompleteDetails != nil {
		e.Text = r.IncompleteDetails.Reason
	}
	s.emit(w, e)
}

// failed ends the stream with an error. It accepts the reference's error
// event ({"type":"error","code","message"}), the nested OpenAI form
// ({"type":"error","error":{…}}), and response.failed with response.error.
func (s *Stream) failed(w *wireEvent) {
	ae := &APIError{Code: string(w.Code), Message: w.Message, Param: string(w.Param)}
	if w.Error != nil {
		ae = &APIError{Code: string(w.Error.Code), Message: w.Error.Message, Param: string(w.Error.Param), Type: w.Error.Type}
	}
	if r := w.Response; r != nil {
		if s.responseID == "" {
			s.responseID = r.ID
		}
		if r.Error != nil {
			ae = &APIError{Code: string(r.Error.Code), Message: r.Error.Message, Param: string(r.Error.Param), Type: r.Error.Type}
		}
	}
	cancelled := w.Type == "response.cancelled" || w.Response != nil && ResponseStatus(w.Response.Status) == StatusCancelled
	if ae.Code == "" && ae.Message == "" && cancelled {
		ae.Code, ae.Message = "cancelled", "The response was cancelled."
	}
	if ae.Code == "" && ae.Message == "" {
		ae.Code = w.Type
	}
	s.fail(ae)
	s.queue[len(s.queue)-1].Sequence = w.SequenceNumber
}

// fail queues EventFailed and makes ae the stream's error.
func (s *Stream) fail(ae *APIError) {
	ae.RequestID = s.requestID
	s.ended = true
	s.err = fmt.Errorf("foundry: stream: %w", ae)
	s.queue = append(s.queue, Event{Type: EventFailed, ResponseID: s.responseID,
		ConversationID: s.conversationID, Err: ae})
}

package foundry

import "encoding/json"

// EventType names an app-level stream event.
type EventType string

// The event types a Stream yields. One code interpreter turn typically
// reads: Created, ItemAdded (code call), CodeDelta…, CodeDone, CodeStatus…,
// Logs/Image…, ItemDone, ItemAdded (message), TextDelta…, FileCitation…,
// ItemDone, Usage, Completed. A failure ends with Failed instead.
const (
	// EventCreated carries ResponseID and ConversationID, once, first.
	EventCreated EventType = "created"
	// EventQueued says the response waits to be worked on; Position is its
	// place in line when the service says (the local engine does, waiting for
	// a free sandbox: an extension), else 0. It may come again later.
	EventQueued EventType = "queued"
	// EventItemAdded announces an output item (Item set: ID, Type, ContainerID).
	EventItemAdded EventType = "item_added"
	// EventTextDelta carries a piece of the answer text in Text.
	EventTextDelta EventType = "text_delta"
	// EventCodeDelta carries a piece of the code being written in Text.
	EventCodeDelta EventType = "code_delta"
	// EventCodeDone carries the full code of a call in Text.
	EventCodeDone EventType = "code_done"
	// EventCodeStatus reports a call's progress in Status:
	// "in_progress", "interpreting", "completed".
	EventCodeStatus EventType = "code_status"
	// EventLogs carries the printed output of a call in Text.
	EventLogs EventType = "logs"
	// EventLogsDelta carries, in Text, what a running call printed since
	// the last one. Only the local engine sends it (an extension); the
	// call's EventLogs still carries the whole output when it completes.
	EventLogsDelta EventType = "logs_delta"
	// EventImage carries an image output of a call in Output.
	EventImage EventType = "image"
	// EventPartialImage carries, in Output.URL, a figure a running call
	// showed or saved, and in Text the file it saved it as ("" for a shown
	// one). Only the local engine sends it (an extension); the call's
	// EventImage outputs and files stand for it once it completes.
	EventPartialImage EventType = "partial_image"
	// EventOutputsMissing says that a completed code call (ItemID) came
	// without outputs, in the stream and again in the stored response read
	// with include: whatever it printed or drew cannot be had. It comes
	// just before EventCompleted.
	EventOutputsMissing EventType = "outputs_missing"
	// EventFileCitation carries a cited container file in Citation.
	EventFileCitation EventType = "file_citation"
	// EventItemDone carries a finished output item in Item.
	EventItemDone EventType = "item_done"
	// EventUsage carries token counts in Usage, just before EventCompleted.
	EventUsage EventType = "usage"
	// EventCompleted ends a successful stream; Status is "completed", or
	// "incomplete" with the reason in Text (the answer may be cut short).
	EventCompleted EventType = "completed"
	// EventFailed ends a failed stream; Err says why and Stream.Err returns it.
	EventFailed EventType = "failed"
)

// Event is one app-level event of a response stream. Which fields are set
// depends on Type (see the EventType constants).
type Event struct {
	// Type says which of the other fields are set.
	Type EventType `json:"type,omitzero"`
	// Sequence is the service's sequence_number of the source event.
	Sequence       int64  `json:"sequence,omitzero"`
	ResponseID     string `json:"response_id,omitzero"`
	ConversationID string `json:"conversation_id,omitzero"`
	// ItemID is the output item the event belongs to: the code interpreter
	// call id ("ci_…") or the message id ("msg_…").
	ItemID      string `json:"item_id,omitzero"`
	OutputIndex int    `json:"output_index,omitzero"`
	// ContainerID is the code interpreter container of the item, when known.
	ContainerID string    `json:"container_id,omitzero"`
	Text        string    `json:"text,omitzero"`
	Status      string    `json:"status,omitzero"`
	Position    int       `json:"position,omitzero"`
	Output      Output    `json:"output,omitzero"`
	Citation    Citation  `json:"citation,omitzero"`
	Item        *Item     `json:"item,omitzero"`
	Usage       Usage     `json:"usage,omitzero"`
	Err         *APIError `json:"error,omitzero"`
}

// Usage counts the tokens of one response.
type Usage struct {
	InputTokens     int64 `json:"input_tokens,omitzero"`
	OutputTokens    int64 `json:"output_tokens,omitzero"`
	TotalTokens     int64 `json:"total_tokens,omitzero"`
	CachedTokens    int64 `json:"cached_tokens,omitzero"`
	ReasoningTokens int64 `json:"reasoning_tokens,omitzero"`
	// Extension is what the local engine says of the counts, as it sent
	// them (its "x_workbench" member; see Item.Extension).
	Extension json.RawMessage `json:"extension,omitzero"`
}

// wireEvent is every streamed event type in one loose struct; fields absent
// from a given type stay zero.
type wireEvent struct {
	Type           string          `json:"type"`
	SequenceNumber int64           `json:"sequence_number"`
	ItemID         string          `json:"item_id"`
	OutputIndex    int             `json:"output_index"`
	Delta          string          `json:"delta"`
	Text           string          `json:"text"`
	Code           looseString     `json:"code"` // the code, or an error code on "error"
	Message        string          `json:"message"`
	Param          looseString     `json:"param"`
	Item           json.RawMessage `json:"item"`
	Annotation     *wireAnnotation `json:"annotation"`
	Response       *wireResponse   `json:"response"`
	Error          *wireErrorBody  `json:"error"`
	// QueuePosition is the local engine's extension of response.queued.
	QueuePosition int `json:"queue_position"`
	// URL and Name are the image and file name of the local engine's
	// response.code_interpreter_call.partial_image.
	URL  string `json:"url"`
	Name string `json:"name"`
}

type wireResponse struct {
	ID                string                   `json:"id"`
	Status            string                   `json:"status"`
	Error             *wireErrorBody           `json:"error"`
	IncompleteDetails *struct{ Reason string } `json:"incomplete_details"`
	Usage             *wireUsage               `json:"usage"`
	Output            []json.RawMessage        `json:"output"`
	Conversation      json.RawMessage          `json:"conversation"`
}

type wireUsage struct {
	InputTokens        int64 `json:"input_tokens"`
	OutputTokens       int64 `json:"output_tokens"`
	TotalTokens        int64 `json:"total_tokens"`
	InputTokensDetails struct {
		CachedTokens int64 `json:"cached_tokens"`
	} `json:"input_tokens_details"`
	OutputTokensDetails struct {
		ReasoningTokens int64 `json:"reasoning_tokens"`
	} `json:"output_tokens_details"`
	Extension json.RawMessage `json:"x_workbench"`
}

func (u *wireUsage) usage() Usage {
	return Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens, TotalTokens: u.TotalTokens,
		CachedTokens: u.InputTokensDetails.CachedTokens, ReasoningTokens: u.OutputTokensDetails.ReasoningTokens,
		Extension: u.Extension}
}

// conversationID accepts "conv_…", {"id":"conv_…"} and null (reference §5).
func conversationID(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var o struct{ ID string }
	_ = json.Unmarshal(raw, &o)
	return o.ID
}

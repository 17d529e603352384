package chat

import (
	"encoding/json"
	"time"

	"github.com/analyst-workbench/workbench/foundry"
)

// App-level event types beyond the Foundry ones (foundry.EventType).
const (
	// EventNotice carries a message that stays with the answer, in Text:
	// "Your session expired; a new one starts with your files".
	EventNotice = "notice"
	// EventProgress carries what the turn is doing now, in Text:
	// "Uploading sales.csv…". It is shown while the turn runs, not after.
	EventProgress = "progress"
	// EventRestored says, in Text, that the session had been set aside to
	// free memory and was restored, with what came back and what did not.
	EventRestored = "restored"
	// EventError carries what went wrong and what to do, in Text.
	EventError = "error"
	// EventDone ends every run's stream; Status is the run's final status.
	EventDone = "done"
)

// Event is one event of a run, numbered from 1 in the order it happened.
// Foundry stream events keep their own type and fields; the app adds
// notice, error and done.
type Event struct {
	Seq  int64  `json:"-"`
	Type string `json:"-"`
	// At is when the event happened; cell durations are computed from it,
	// so a replay shows the same durations as the live stream did.
	At time.Time `json:"at"`
	// Foundry is set for events that came from the Foundry stream.
	Foundry *foundry.Event `json:"foundry,omitzero"`
	// Text is the notice or error text.
	Text string `json:"text,omitzero"`
	// Status is the run's final status on done.
	Status string `json:"status,omitzero"`
	// Artifact is the file an artifact event announces.
	Artifact *ArtifactRef `json:"artifact,omitzero"`
	// Missing is the file a copy_failed event reports.
	Missing *MissingFile `json:"missing,omitzero"`
}

func (e Event) marshal() string {
	b, _ := json.Marshal(e)
	return string(b)
}

func unmarshalEvent(seq int64, typ, data string) (Event, error) {
	e := Event{Seq: seq, Type: typ}
	err := json.Unmarshal([]byte(data), &e)
	e.Seq, e.Type = seq, typ
	return e, err
}

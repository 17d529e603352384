package chat

import (
	"encoding/json"
	"time"

	"github.com/analyst-workbench/workbench/cellext"
	"github.com/analyst-workbench/workbench/store"
)

// EventType names an event of a run.
type EventType string

// The steps of an answer, translated from the Foundry stream (see
// translate); what each carries is said next to it.
const (
	// EventText carries a piece of the answer text in Text.
	EventText EventType = "text_delta"
	// EventCellAdded announces a code cell, CellID.
	EventCellAdded EventType = "cell_added"
	// EventCodeDelta carries a piece of a cell's code in Text.
	EventCodeDelta EventType = "code_delta"
	// EventCodeDone carries a cell's whole code in Text.
	EventCodeDone EventType = "code_done"
	// EventCodeStatus says in Status how a cell's run goes: codeWriting,
	// codeRunning or codeFinished.
	EventCodeStatus EventType = "code_status"
	// EventLogs carries what a cell printed, in Text.
	EventLogs EventType = "logs"
	// EventLogsDelta carries what a running cell printed since the last
	// one, in Text (the local engine streams it; Foundry sends only the
	// whole output, as EventLogs, which replaces what streamed).
	EventLogsDelta EventType = "logs_delta"
	// EventImage carries an image a cell drew, as a URL in Image.
	EventImage EventType = "image"
	// EventPartialImage carries, as a URL in Image, a figure a running
	// cell showed or saved, and in Text the file it saved it as ("" for a
	// shown one). The local engine streams it; the cell's final images and
	// kept charts replace it (see Cell.LiveImages).
	EventPartialImage EventType = "partial_image"
	// EventOutputMissing says that the service returned no output for the
	// cell CellID, neither in the stream nor when asked again once the
	// response completed (see foundry.EventOutputsMissing).
	EventOutputMissing EventType = "output_missing"
	// EventCellDone ends a cell: Status is completed or failed, Text its code.
	EventCellDone EventType = "cell_done"
	// EventCitation carries a file the answer cites, in Citation.
	EventCitation EventType = "file_citation"
	// EventUsage carries the turn's token counts, in Usage.
	EventUsage EventType = "usage"
)

// EventStatus is the status an event carries: how a cell's run goes (an
// EventCodeStatus), how a cell ended (an EventCellDone: a CellStatus), or
// how the run ended (an EventDone: a store.RunStatus). It is stored as the
// string it holds, so rows stored before it was typed read as they did.
type EventStatus string

// How a cell's run goes, as an EventCodeStatus says: chat's words for the
// service's call statuses (translate maps them at the edge). They are
// stored, so they keep the strings first recorded, which were Foundry's.
const (
	codeWriting  EventStatus = "in_progress"  // the code is being written
	codeRunning  EventStatus = "interpreting" // the code runs
	codeFinished EventStatus = "completed"    // the code has run; its outcome comes with the cell
)

// cellEnded is the status of an EventCellDone for a cell that ended so.
func cellEnded(s CellStatus) EventStatus { return EventStatus(s) }

// runEnded is the status of an EventDone for a run that ended so.
func runEnded(s store.RunStatus) EventStatus { return EventStatus(s) }

// The app's own events.
const (
	// EventNotice carries a message that stays with the answer, in Text:
	// "The previous session had ended; a new one was started with your files."
	EventNotice EventType = "notice"
	// EventProgress carries what the turn is doing now, in Text:
	// "Uploading sales.csv…". It is shown while the turn runs, not after.
	EventProgress EventType = "progress"
	// EventRestored says, in Text, that the session had been set aside to
	// free memory and was restored, with what came back and what did not.
	EventRestored EventType = "restored"
	// EventError carries what went wrong and what to do, in Text.
	EventError EventType = "error"
	// EventDone ends every run's stream; Status is the run's final status.
	EventDone EventType = "done"
	// EventArtifact announces a file copied out of the session; Artifact is set.
	EventArtifact EventType = "artifact"
	// EventCopyFailed says a file of the session could not be copied out;
	// Missing is set, and the page offers to try again while the session lives.
	EventCopyFailed EventType = "copy_failed"
	// EventRestart says the turn starts over in a new session: the text and
	// cells shown so far belonged to an attempt that the expired session
	// refused, and are dropped.
	EventRestart EventType = "restart"
	// EventUnreadable stands for a stored event this version cannot read; it
	// shows as an unreadable step rather than failing the page.
	EventUnreadable EventType = "unreadable"
	// EventNoFile says that the question asked for a file (AskedForFile)
	// and the finished turn made none; Text is the question rephrased to
	// ask for it outright (FileRequest.Rephrased).
	EventNoFile EventType = "no_file"
	// EventModuleNote says, in Module, what the app knows of the module
	// that the cell CellID failed to import (see ModuleNote).
	EventModuleNote EventType = "module_note"
)

// Event is one event of a run, numbered from 1 in the order it happened.
// Its stored form is the app's own and versioned (eventVersion): it does not
// depend on the Foundry client's types, which may change with the service.
type Event struct {
	Seq  int64     `json:"-"`
	Type EventType `json:"-"`
	// At is when the event happened; cell durations are computed from it,
	// so a replay shows the same durations as the live stream did.
	At time.Time `json:"at"`
	// Text is the text, code, logs, notice or error the type says.
	Text string `json:"text,omitzero"`
	// Status is how a cell goes or ended, or how the run ended on done.
	Status EventStatus `json:"status,omitzero"`
	// CellID is the code cell the event belongs to.
	CellID string `json:"cell_id,omitzero"`
	// ContainerID is the Code Interpreter session of the cell, when known.
	ContainerID string `json:"container_id,omitzero"`
	// Image is an image's URL (a data: URL from the local engine).
	Image string `json:"image,omitzero"`
	// Citation is the file a citation event names.
	Citation *Citation `json:"citation,omitzero"`
	// Usage is the token count of a usage event.
	Usage *Usage `json:"usage,omitzero"`
	// Artifact is the file an artifact event announces.
	Artifact *ArtifactRef `json:"artifact,omitzero"`
	// Missing is the file a copy_failed event reports.
	Missing *MissingFile `json:"missing,omitzero"`
	// Module is the note of a module_note event.
	Module *ModuleNote `json:"module,omitzero"`
	// Table is the result table a logs event carries beside its text (see
	// Cell.Table).
	Table *Table `json:"table,omitzero"`
	// Loader marks the cell of a cell_added or cell_done event as the
	// built-in analyst's file loader (see Cell.Loader).
	Loader bool `json:"loader,omitzero"`
	// Analyst marks the cell of a cell_added or cell_done event as written
	// by the built-in analyst (see Cell.Analyst), and Hidden the lines of
	// its code that report to the engine (see Cell.Hidden).
	Analyst bool            `json:"analyst,omitzero"`
	Hidden  []cellext.Lines `json:"hidden,omitzero"`
	// Loaded is what the loader cell of a logs event loaded (see
	// Cell.Loaded).
	Loaded []cellext.Load `json:"loaded,omitzero"`
	// Read counts how far the Foundry stream had been read when the event
	// was emitted: the sequence number of the service's event that caused
	// it, plus one; zero for an event no stream caused. A replica adopting
	// the run reads the response on after it (see runner.followOn).
	Read int64 `json:"read,omitzero"`
}

// Citation is a file the agent's code wrote and the answer cites.
type Citation struct {
	ContainerID string `json:"container_id"`
	FileID      string `json:"file_id"`
	Filename    string `json:"filename,omitzero"`
}

// Usage counts the tokens of a turn.
type Usage struct {
	InputTokens  int64 `json:"input_tokens"`
	OutputTokens int64 `json:"output_tokens"`
}

// eventVersion is the version of the stored form written now. Version 1
// (no "v") embedded the Foundry client's event (see event_v1.go); versions
// 1 and 2 carried the local engine's reports in the logs (event_v2.go);
// up to version 3 no cell said who wrote it (see withAuthorGuessed); up to
// version 4 the engine's report lines and a loader's shapes were read from
// the code and the logs (event_v4.go).
const eventVersion = 5

// storedEvent is Event as stored: its fields and the version.
type storedEvent struct {
	V int `json:"v"`
	Event
}

func (e Event) marshal() string {
	b, _ := json.Marshal(storedEvent{V: eventVersion, Event: e})
	return string(b)
}

// decodeEvent reads a stored event. It never fails: a row it cannot read
// (broken, or written by a newer version) becomes an EventUnreadable, so
// that one bad row costs one step of one answer, not the page.
func decodeEvent(seq int64, typ, data string) Event {
	var head struct {
		V int `json:"v"`
	}
	if json.Unmarshal([]byte(data), &head) != nil {
		return unreadable(seq)
	}
	var e Event
	var ok bool
	switch head.V {
	case 0:
		e, ok = decodeV1(EventType(typ), []byte(data))
		e = fromPrinted(withAuthorGuessed(fromInBand(e)))
	case 2:
		ok = json.Unmarshal([]byte(data), &e) == nil
		e.Type = EventType(typ)
		e = fromPrinted(withAuthorGuessed(fromInBand(e)))
	case 3:
		ok = json.Unmarshal([]byte(data), &e) == nil
		e.Type = EventType(typ)
		e = fromPrinted(withAuthorGuessed(e))
	case 4:
		ok = json.Unmarshal([]byte(data), &e) == nil
		e.Type = EventType(typ)
		e = fromPrinted(e)
	case eventVersion:
		ok = json.Unmarshal([]byte(data), &e) == nil
		e.Type = EventType(typ)
	}
	if !ok {
		return unreadable(seq)
	}
	e.Seq = seq
	return e
}

func unreadable(seq int64) Event { return Event{Seq: seq, Type: EventUnreadable} }

// withAuthorGuessed reads a cell event stored before cells said who wrote
// them (version 3 and older) as the page read it then: any cell's _emit
// lines were the analyst's, and hidden.
func withAuthorGuessed(e Event) Event {
	if e.Type == EventCellAdded || e.Type == EventCellDone {
		e.Analyst = true
	}
	return e
}

package chat

import (
	"fmt"
	"strings"
	"time"

	"github.com/analyst-workbench/workbench/cellext"
	"github.com/analyst-workbench/workbench/store"
)

// Answer is the state of an assistant answer, folded from a run's events.
// The page renders it the same way whether the run is live or finished, so a
// reload shows exactly what streamed.
type Answer struct {
	// Seq is the number of the last event applied.
	Seq int64
	// Text is the answer so far (markdown).
	Text string
	// Cells are the code interpreter calls, in order.
	Cells []*Cell
	// Citations are the files the answer cites.
	Citations []Citation
	// Artifacts are the files copied out of the session, in order.
	Artifacts []ArtifactRef
	// Missing are the files that could not be copied out (yet).
	Missing []MissingFile
	// Notices are messages shown above the answer.
	Notices []string
	// Progress is what the turn last said it was doing, for the live status
	// line; the first Foundry event ends it.
	Progress string
	// Error is set when the run failed or was cut short.
	Error string
	// Status is "running" until done, then the run's final status.
	Status       store.RunStatus
	InputTokens  int64
	OutputTokens int64
	// ContainerID is the Code Interpreter session of the last call.
	ContainerID string
	// Restored is set when the answer found its session restored after the
	// local engine had set it aside to free memory.
	Restored bool
	// FileNotMade is set when the question asked for a file and the turn
	// made none.
	FileNotMade *FileNotMade

	imageKeys map[string]string // see ImageKey
}

// FileNotMade says that a question asked for a file and its answer made
// none ("no file is generated": the agent answered in text alone).
type FileNotMade struct {
	// Rephrased is the question put so that the agent writes the file,
	// offered to ask again.
	Rephrased string
}

// CellStatus is where a code cell is.
type CellStatus string

// A cell is written, then run, then completed or failed, or stopped when
// the user stopped the turn while it ran; a stored step this version cannot
// read shows as an unreadable cell.
const (
	CellWriting    CellStatus = "writing"
	CellRunning    CellStatus = "running"
	CellCompleted  CellStatus = "completed"
	CellFailed     CellStatus = "failed"
	CellStopped    CellStatus = "stopped"
	CellUnreadable CellStatus = "unreadable"
)

// unreadableLogs is what an unreadable step says.
const unreadableLogs = "This step was recorded in a format this version of the workbench cannot read."

// Cell is one code interpreter call.
type Cell struct {
	ID   string
	Code string
	// Logs is the cell's output: what streamed while it ran, until the
	// whole output arrives and replaces it.
	Logs string
	// streaming is set while Logs holds streamed output only; complete
	// once the whole output came, after which late pieces are ignored.
	streaming, complete bool
	Status              CellStatus
	ContainerID         string
	Images              []string // image URLs (data: URLs from the local engine)
	// LiveImages are the figures the cell showed or saved while it ran (the
	// local engine streams them, as data: URLs). Its final images replace
	// them, and so do its kept charts (see handlers); a stopped cell, which
	// has neither, keeps them.
	LiveImages []string
	// OutputMissing is set when the service returned no output for the
	// cell even when asked again: Output then says so.
	OutputMissing bool
	// Table is the cell's result as a table, standing for its text form in
	// Logs (the local engine sends it beside the output: cellext.Logs).
	Table *Table
	// Loader is set on the built-in analyst's cell that loads the turn's
	// files, which the page folds into one line and a notebook keeps once.
	Loader bool
	// Analyst is set when the built-in analyst wrote the code; Hidden are
	// the lines of it that report to the engine, which ShownCode leaves out
	// (the engine says which: cellext.Call).
	Analyst bool
	Hidden  []cellext.Lines
	// Loaded is what a loader cell loaded (the engine says it beside the
	// output: cellext.Logs).
	Loaded []cellext.Load
	// Module is set when the cell failed to import a module that is not
	// installed: what the app knows of it and of what to use instead.
	Module    *ModuleNote
	StartedAt time.Time
	Duration  time.Duration

	out   []OutputPart // SplitOutput(outOf, Table), see Output
	outOf string
}

// maxLiveImages bounds the live figures a cell keeps, as the local
// engine's kernel bounds the figures of a cell.
const maxLiveImages = 10

// Done reports whether the answer is final.
func (a *Answer) Done() bool { return a.Status != "" && a.Status != store.RunRunning }

// Settle takes what run's record says of how it ended, which the events
// may not (a run interrupted by a restart has no done event), and reports
// whether the run is still going.
func (a *Answer) Settle(run *store.Run) (live bool) {
	if !run.Done() {
		return true
	}
	a.Status, a.Error = run.Status, run.Error
	a.InputTokens, a.OutputTokens = run.InputTokens, run.OutputTokens
	return false
}

// NewAnswer returns the empty state of a running answer.
func NewAnswer() *Answer { return &Answer{Status: store.RunRunning} }

// Apply folds one event into the answer.
func (a *Answer) Apply(e Event) {
	a.Seq = e.Seq
	switch e.Type {
	case EventNotice:
		a.Notices = append(a.Notices, e.Text)
	case EventRestored:
		a.Notices = append(a.Notices, e.Text)
		a.Restored = true
	case EventProgress:
		a.Progress = e.Text
	case EventError:
		a.Error = e.Text
	case EventArtifact:
		if e.Artifact != nil {
			a.Artifacts = append(a.Artifacts, *e.Artifact)
			a.dropMissing(e.Artifact.Name)
		}
	case EventCopyFailed:
		if e.Missing != nil {
			a.dropMissing(e.Missing.Name)
			a.Missing = append(a.Missing, *e.Missing)
		}
	case EventRestart:
		a.Text, a.Cells, a.Citations = "", nil, nil
	case EventNoFile:
		a.FileNotMade = &FileNotMade{Rephrased: e.Text}
	case EventModuleNote:
		if e.Module != nil {
			a.cell(e.CellID, e.At).Module = e.Module
		}
	case EventUnreadable:
		a.Cells = append(a.Cells, &Cell{ID: fmt.Sprintf("unreadable-%d", e.Seq), Status: CellUnreadable, Logs: unreadableLogs})
	case EventDone:
		a.Status = store.RunStatus(e.Status)
		a.endCells(e.At)
	default:
		a.applyStep(e)
	}
}

// applyStep folds a step of the answer itself; types it does not know
// (events of older versions no answer used) change nothing.
func (a *Answer) applyStep(e Event) {
	at := e.At
	if e.ContainerID != "" {
		a.ContainerID = e.ContainerID
	}
	switch e.Type {
	case EventText:
		a.Text += e.Text
	case EventCellAdded:
		c := a.cell(e.CellID, at)
		c.Loader, c.Analyst, c.Hidden = e.Loader, e.Analyst, e.Hidden
	case EventCodeDelta:
		a.cell(e.CellID, at).Code += e.Text
	case EventCodeDone:
		c := a.cell(e.CellID, at)
		c.Code, c.Status = e.Text, CellRunning
	case EventCodeStatus:
		c := a.cell(e.CellID, at)
		switch e.Status {
		case codeRunning:
			c.Status = CellRunning
		case codeWriting:
			if c.Code != "" {
				c.Status = CellRunning
			}
		case codeFinished:
			a.finishCell(c, CellCompleted, at)
		}
	case EventLogs:
		c := a.cell(e.CellID, at)
		if c.streaming {
			c.Logs, c.streaming = "", false
		}
		joined := joinOutput(c.Logs, e.Text)
		if e.Table != nil {
			c.Table = e.Table.Shifted(len(joined) - len(e.Text))
		}
		c.Loaded = append(c.Loaded, e.Loaded...)
		c.Logs, c.complete = joined, true
		c.settle()
	case EventLogsDelta:
		if c := a.cell(e.CellID, at); !c.complete {
			c.Logs, c.streaming = c.Logs+e.Text, true
		}
	case EventImage:
		if e.Image != "" {
			c := a.cell(e.CellID, at)
			c.Images, c.LiveImages = append(c.Images, e.Image), nil
		}
	case EventPartialImage:
		if c := a.cell(e.CellID, at); e.Image != "" && len(c.Images) == 0 && len(c.LiveImages) < maxLiveImages {
			c.LiveImages = append(c.LiveImages, e.Image)
		}
	case EventOutputMissing:
		a.cell(e.CellID, at).OutputMissing = true
	case EventCellDone:
		c := a.cell(e.CellID, at)
		if e.Text != "" {
			c.Code = e.Text
		}
		c.Loader, c.Analyst = c.Loader || e.Loader, c.Analyst || e.Analyst
		if e.Hidden != nil {
			c.Hidden = e.Hidden
		}
		a.finishCell(c, CellStatus(e.Status), at)
	case EventCitation:
		if e.Citation != nil {
			a.Citations = append(a.Citations, *e.Citation)
		}
	case EventUsage:
		if e.Usage != nil {
			a.InputTokens, a.OutputTokens = e.Usage.InputTokens, e.Usage.OutputTokens
		}
	default:
		return
	}
	a.Progress = "" // the agent has begun
}

// endCells ends the cells a finished run left open. When the user stopped
// the run, the cell that was running is stopped, not failed, and keeps what
// it printed; so is the last cell if the stop made it fail.
func (a *Answer) endCells(at time.Time) {
	stopped := a.Status == store.RunCancelled
	for i, c := range a.Cells {
		open := c.Status == CellWriting || c.Status == CellRunning
		switch {
		case stopped && (open || c.Status == CellFailed && i == len(a.Cells)-1):
			c.Status = CellStopped
			if c.Duration == 0 && !c.StartedAt.IsZero() && !at.IsZero() {
				c.Duration = at.Sub(c.StartedAt)
			}
		case open:
			c.Status = CellFailed
		}
	}
}

func (a *Answer) finishCell(c *Cell, status CellStatus, at time.Time) {
	if c.Status == CellCompleted || c.Status == CellFailed {
		return
	}
	if status != CellFailed {
		status = CellCompleted
	}
	c.Status = status
	if !c.StartedAt.IsZero() {
		c.Duration = at.Sub(c.StartedAt)
	}
	c.settle()
}

// settle decides a completed cell's outcome from its output: the service
// reports a call whose code raised as completed (the exception is only in
// its logs), so a cell whose output ends in a Python traceback failed. The
// page, the report and the notebook all read this one decision.
func (c *Cell) settle() {
	if c.Status == CellCompleted && c.ErrorLine() != "" {
		c.Status = CellFailed
	}
}

// ErrorLine is the last line of the Python traceback in the cell's output
// ("KeyError: 'x'"), or "" when there is none.
func (c *Cell) ErrorLine() string {
	i := strings.LastIndex(c.Logs, "Traceback (most recent call last):")
	if i < 0 {
		return ""
	}
	lines := strings.Split(strings.TrimRight(c.Logs[i:], "\n "), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// cell returns the cell with id, creating it (in the writing state) if new.
func (a *Answer) cell(id string, at time.Time) *Cell {
	for _, c := range a.Cells {
		if c.ID == id {
			return c
		}
	}
	c := &Cell{ID: id, Status: CellWriting, ContainerID: a.ContainerID, StartedAt: at}
	a.Cells = append(a.Cells, c)
	return c
}

func joinOutput(a, b string) string {
	if a == "" || strings.HasSuffix(a, "\n") {
		return a + b
	}
	return a + "\n" + b
}

// dropMissing forgets a missing file once it is copied (or fails again).
func (a *Answer) dropMissing(name string) {
	kept := a.Missing[:0]
	for _, m := range a.Missing {
		if m.Name != name {
			kept = append(kept, m)
		}
	}
	a.Missing = kept
}

package chat

import (
	"strings"
	"time"

	"github.com/analyst-workbench/workbench/foundry"
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
	Citations []foundry.Citation
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
	Status       string
	InputTokens  int64
	OutputTokens int64
	// ContainerID is the Code Interpreter session of the last call.
	ContainerID string
	// Restored is set when the answer found its session restored after the
	// local engine had set it aside to free memory.
	Restored bool
}

// Cell is one code interpreter call.
type Cell struct {
	ID          string
	Code        string
	Logs        string
	Status      string // "writing", "running", "completed", "failed"
	ContainerID string
	Images      []string // image URLs (data: URLs from the local engine)
	StartedAt   time.Time
	Duration    time.Duration
}

// Done reports whether the answer is final.
func (a *Answer) Done() bool { return a.Status != "" && a.Status != "running" }

// NewAnswer returns the empty state of a running answer.
func NewAnswer() *Answer { return &Answer{Status: "running"} }

// Apply folds one event into the answer.
func (a *Answer) Apply(e Event) {
	at := e.At
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
	case EventDone:
		a.Status = e.Status
		for _, c := range a.Cells {
			if c.Status == "writing" || c.Status == "running" {
				c.Status = "failed"
			}
		}
	default:
		if e.Foundry != nil {
			a.Progress = ""
			a.applyFoundry(e.Foundry, at)
		}
	}
}

func (a *Answer) applyFoundry(f *foundry.Event, at time.Time) {
	if f.ContainerID != "" {
		a.ContainerID = f.ContainerID
	}
	switch f.Type {
	case foundry.EventTextDelta:
		a.Text += f.Text
	case foundry.EventItemAdded:
		if f.Item != nil && f.Item.Type == "code_interpreter_call" {
			a.cell(f.ItemID, at)
		}
	case foundry.EventCodeDelta:
		a.cell(f.ItemID, at).Code += f.Text
	case foundry.EventCodeDone:
		c := a.cell(f.ItemID, at)
		c.Code, c.Status = f.Text, "running"
	case foundry.EventCodeStatus:
		c := a.cell(f.ItemID, at)
		if f.Status == "interpreting" || f.Status == "in_progress" && c.Code != "" {
			c.Status = "running"
		}
		if f.Status == "completed" {
			a.finishCell(c, "completed", at)
		}
	case foundry.EventLogs:
		c := a.cell(f.ItemID, at)
		c.Logs = joinOutput(c.Logs, f.Text)
	case foundry.EventImage:
		c := a.cell(f.ItemID, at)
		if f.Output.URL != "" {
			c.Images = append(c.Images, f.Output.URL)
		}
	case foundry.EventItemDone:
		a.itemDone(f, at)
	case foundry.EventFileCitation:
		a.Citations = append(a.Citations, f.Citation)
	case foundry.EventUsage:
		a.InputTokens, a.OutputTokens = f.Usage.InputTokens, f.Usage.OutputTokens
	}
}

// itemDone completes a code cell from the finished item, which carries the
// full code and outputs even when the smaller events were missed.
func (a *Answer) itemDone(f *foundry.Event, at time.Time) {
	if f.Item == nil || f.Item.Type != "code_interpreter_call" {
		return
	}
	c := a.cell(f.Item.ID, at)
	if f.Item.Code != "" {
		c.Code = f.Item.Code
	}
	if c.Logs == "" && len(c.Images) == 0 {
		for _, o := range f.Item.Outputs {
			switch o.Type {
			case "logs":
				c.Logs = joinOutput(c.Logs, o.Logs)
			case "image":
				c.Images = append(c.Images, o.URL)
			}
		}
	}
	status := "completed"
	if f.Item.Status == "failed" || f.Item.Status == "incomplete" {
		status = "failed"
	}
	a.finishCell(c, status, at)
}

func (a *Answer) finishCell(c *Cell, status string, at time.Time) {
	if c.Status == "completed" || c.Status == "failed" {
		return
	}
	c.Status = status
	if !c.StartedAt.IsZero() {
		c.Duration = at.Sub(c.StartedAt)
	}
}

// cell returns the cell with id, creating it (in the writing state) if new.
func (a *Answer) cell(id string, at time.Time) *Cell {
	for _, c := range a.Cells {
		if c.ID == id {
			return c
		}
	}
	c := &Cell{ID: id, Status: "writing", ContainerID: a.ContainerID, StartedAt: at}
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

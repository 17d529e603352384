package analyst

import (
	"context"
	"encoding/json"
)

// The planner contract, declared here once: the emulator drives a Planner through these types
// (it names them as aliases), and this package's planners implement it.

// Turn is what a planner knows about the turn in progress.
type Turn struct {
	// Question is the text of the user's latest message.
	Question string
	// Instructions are the agent's instructions, if any; the model planner sends them along.
	Instructions string
	// History holds the earlier messages of the conversation, oldest first.
	History []Message
	// Files names the files in /mnt/data when the turn started.
	Files []string
	// Cells holds the cells already run in this turn, in order.
	Cells []Cell
}

// Message is one earlier message of the conversation.
type Message struct {
	Role string // "user" or "assistant"
	Text string
}

// Cell is a cell the turn ran: the code and what it produced.
type Cell struct {
	Code   string
	Stdout string
	// Value is the text of the cell's last expression, if any.
	Value string
	// Error is set when the cell raised.
	Error *CellError
	// Files names the files the cell wrote, relative to /mnt/data.
	Files []string
	// Reports are what the cell's code told the engine with wb_report(kind, body), in order:
	// the analyst's own code reports its results so, out of band, and never by printing them.
	Reports []Report
}

// Report is one wb_report(kind, body) call of a cell: its kind and its body as JSON.
type Report struct {
	Kind string
	Body json.RawMessage
}

// CellError is the exception a cell raised.
type CellError struct {
	Name, Value string
}

// Step is a planner's decision: run Code, or, when Code is empty, reply with Text and end the turn.
type Step struct {
	Code string
	Text string
	// Loads says the cell loads the turn's files rather than analyses them: the app folds it.
	Loads bool
	// Own says the analyst wrote Code itself (its _emit statements report to the engine), as
	// opposed to running a fenced block the user sent or code a model wrote.
	Own bool
}

// Planner decides a turn one step at a time: Next is called until it returns a Step without
// code, each time with the cells run so far.
type Planner interface {
	Next(ctx context.Context, t *Turn) (Step, error)
}

// PlannerFunc adapts a function to Planner.
type PlannerFunc func(ctx context.Context, t *Turn) (Step, error)

// Next calls f.
func (f PlannerFunc) Next(ctx context.Context, t *Turn) (Step, error) { return f(ctx, t) }

package emulator

import (
	"context"
	"fmt"
	"strings"

	"github.com/analyst-workbench/workbench/emulator/analyst"
)

// The planner contract is declared once, in the analyst package (which plays the model's part
// and cannot import the emulator); the emulator drives any Planner through these names.
type (
	// Planner decides what one turn does: which cells to run, one at a time, and then the
	// reply. The emulator calls Next until it returns a Step without code; each call sees the
	// results of the cells run so far, so a model-driven planner can look at an error and try
	// again.
	Planner = analyst.Planner
	// PlannerFunc adapts a function to Planner.
	PlannerFunc = analyst.PlannerFunc
	// Turn is what a Planner knows about the turn in progress.
	Turn = analyst.Turn
	// Message is one earlier message of a conversation.
	Message = analyst.Message
	// Cell is a cell the turn ran, with what it printed, its value and its error.
	Cell = analyst.Cell
	// Step is a Planner's decision: run Code, or, when Code is empty, reply with Text. The
	// emulator cites every file the turn wrote; Text may link them itself as
	// [name](sandbox:/mnt/data/name) to choose where.
	Step = analyst.Step
	// Report is one wb_report(kind, body) a cell's code made: how the built-in analyst's code
	// tells it results, out of band.
	Report = analyst.Report
)

// FencedPlanner is the Planner used until a smarter one is plugged in: every fenced python
// block of the question runs exactly as written, in order, and the reply reports their output.
type FencedPlanner struct{}

// Next returns the next unrun fenced block, then a reply written from the
// results, as the built-in analyst does for fenced blocks.
func (FencedPlanner) Next(_ context.Context, t *Turn) (Step, error) {
	blocks := FencedBlocks(t.Question)
	if len(blocks) == 0 {
		return Step{Text: noCodeReply(t.Files)}, nil
	}
	return analyst.FencedStep(blocks, t.Cells), nil
}

// FencedBlocks returns the code of every fenced python block in text, in
// order. The analyst package owns the expression, so that the emulator and
// both of its planners agree on what runs as written.
func FencedBlocks(text string) []string { return analyst.FencedBlocks(text) }

func noCodeReply(files []string) string {
	var b strings.Builder
	b.WriteString("This is the local engine. It runs Python only: put your code in a fenced ")
	b.WriteString("```python block and it runs exactly as written, with the files in /mnt/data. ")
	b.WriteString("It does not write code from a question in plain words.")
	if len(files) > 0 {
		fmt.Fprintf(&b, "\n\nFiles in /mnt/data: %s.", strings.Join(files, ", "))
	}
	return b.String()
}

package emulator

import (
	"context"

	"github.com/analyst-workbench/workbench/emulator/analyst"
)

// AnalystPlanner plugs a planner of the analyst package (the built-in rules, or a model
// behind an OpenAI-compatible endpoint) into the emulator, with the turn's text sink passed
// on so that a model's words stream as it writes them.
func AnalystPlanner(p analyst.Planner) Planner {
	return PlannerFunc(func(ctx context.Context, t *Turn) (Step, error) {
		if sink := textSink(ctx); sink != nil {
			ctx = analyst.WithTextStream(ctx, sink)
		}
		return p.Next(ctx, t)
	})
}

// resultCell flattens what a cell produced into the planner's Cell.
func resultCell(code string, r *ExecResult) Cell {
	cell := Cell{Code: code}
	if r != nil {
		cell.Stdout, cell.Value, cell.Reports = r.Stdout, r.Value, r.Reports
		if r.Error != nil {
			cell.Error = &analyst.CellError{Name: r.Error.Name, Value: r.Error.Value}
		}
	}
	return cell
}

package emulator

import (
	"context"

	"github.com/analyst-workbench/workbench/emulator/analyst"
)

// AnalystPlanner plugs a planner of the analyst package (the built-in rules,
// or a model behind an OpenAI-compatible endpoint) into the emulator. The
// analyst package cannot import this one, so it mirrors the Turn and Step
// types and this adapter converts between them.
func AnalystPlanner(p analyst.Planner) Planner {
	return PlannerFunc(func(ctx context.Context, t *Turn) (Step, error) {
		if sink := textSink(ctx); sink != nil {
			ctx = analyst.WithTextStream(ctx, sink) // a model's words stream as it writes them
		}
		s, err := p.Next(ctx, analystTurn(t))
		return Step{Code: s.Code, Text: s.Text}, err
	})
}

func analystTurn(t *Turn) *analyst.Turn {
	out := &analyst.Turn{Question: t.Question, Instructions: t.Instructions, Files: t.Files}
	for _, m := range t.History {
		out.History = append(out.History, analyst.Message{Role: m.Role, Text: m.Text})
	}
	for _, c := range t.Cells {
		cell := analyst.Cell{Code: c.Code, Files: c.Files}
		if r := c.Result; r != nil {
			cell.Stdout, cell.Value = r.Stdout, r.Value
			if r.Error != nil {
				cell.Error = &analyst.CellError{Name: r.Error.Name, Value: r.Error.Value}
			}
		}
		out.Cells = append(out.Cells, cell)
	}
	return out
}

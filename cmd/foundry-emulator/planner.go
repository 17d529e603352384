package main

import (
	"fmt"

	"github.com/analyst-workbench/workbench/emulator"
	"github.com/analyst-workbench/workbench/emulator/analyst"
)

// plannerKind names who writes a turn's code; see the -planner flag.
type plannerKind string

// The planners -planner accepts.
const (
	plannerAnalyst plannerKind = "analyst" // the built-in rules: plain questions get real answers
	plannerFenced  plannerKind = "fenced"  // only fenced python blocks run, as written
	plannerModel   plannerKind = "model"   // an OpenAI-compatible chat endpoint writes the code
)

// modelConfig is where -planner model finds its endpoint.
type modelConfig struct {
	url, model, apiKey string
}

// newPlanner builds the planner cfg names. The analyst is the default because the official
// SDK samples ask in plain words; with only fenced blocks running they would get no answer.
func newPlanner(kind plannerKind, m modelConfig) (emulator.Planner, error) {
	switch kind {
	case plannerAnalyst, "":
		return emulator.AnalystPlanner(&analyst.Rules{}), nil
	case plannerFenced:
		return emulator.FencedPlanner{}, nil
	case plannerModel:
		p, err := analyst.NewModel(analyst.ModelConfig{URL: m.url, Model: m.model, APIKey: m.apiKey})
		if err != nil {
			return nil, fmt.Errorf("-planner model needs -analyst-model-url and -analyst-model: %w", err)
		}
		return emulator.AnalystPlanner(p), nil
	}
	return nil, fmt.Errorf("-planner %q: want analyst, fenced or model", kind)
}

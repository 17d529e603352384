package main

import (
	"context"
	"log/slog"

	"github.com/analyst-workbench/workbench/handlers"
	"github.com/analyst-workbench/workbench/views"
)

// engine is the running engine: what the pages show of it, its readiness
// checks, and how to stop it.
type engine struct {
	view  views.Engine
	ready map[string]handlers.ReadinessCheck
	close func() error
}

// Close stops the engine.
func (e *engine) Close() error {
	if e.close == nil {
		return nil
	}
	return e.close()
}

// startEngine starts the local engine, or connects to Foundry when an
// endpoint is configured.
func startEngine(ctx context.Context, cfg config, log *slog.Logger) (*engine, error) {
	if !cfg.localEngine() {
		return &engine{view: views.Engine{Detail: cfg.FoundryEndpoint}}, nil
	}
	return &engine{view: views.Engine{Local: true}}, nil
}

package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"sync"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/emulator"
	"github.com/analyst-workbench/workbench/emulator/analyst"
	"github.com/analyst-workbench/workbench/files"
	"github.com/analyst-workbench/workbench/foundry"
	"github.com/analyst-workbench/workbench/handlers"
	"github.com/analyst-workbench/workbench/sandbox"
	"github.com/analyst-workbench/workbench/views"
)

// engine is the running engine: the Foundry client, what the pages show of
// it, its readiness checks, and how to stop it.
type engine struct {
	client *foundry.Client
	model  string
	view   views.Engine
	ready  map[string]handlers.ReadinessCheck
	// sandbox reads the local engine's sandbox figures; nil on Foundry.
	sandbox func() handlers.SandboxStats
	// packages reads what the local engine's Python can import, once, when
	// first asked; nil on Foundry, whose Code Interpreter has a set of
	// Microsoft's.
	packages func() chat.Packages
	close    func() error
}

// Close stops the engine.
func (e *engine) Close() error {
	if e.close == nil {
		return nil
	}
	return e.close()
}

// startEngine connects to Foundry when an endpoint is configured, and
// otherwise starts the local engine.
func startEngine(ctx context.Context, cfg config, log *slog.Logger) (*engine, error) {
	if cfg.localEngine() {
		return startLocalEngine(ctx, cfg, log)
	}
	cred, err := foundryCredential(cfg)
	if err != nil {
		return nil, err
	}
	client, err := foundry.New(foundryConfig(cfg.FoundryEndpoint, cred, log))
	if err != nil {
		return nil, err
	}
	return &engine{client: client, model: cfg.FoundryModel, view: views.Engine{Detail: cfg.FoundryEndpoint},
		ready: map[string]handlers.ReadinessCheck{}}, nil
}

// foundryConfig is how the app talks to either engine: uploads go out with
// the media type of the product's table of kinds, as the Code Interpreter
// article lists them, the same on every host.
func foundryConfig(endpoint string, cred azcore.TokenCredential, log *slog.Logger) foundry.Config {
	return foundry.Config{Endpoint: endpoint, Credential: cred, Logger: log, ContentType: files.FoundryContentType}
}

// foundryCredential is the static FOUNDRY_TOKEN when one is set (a
// standalone foundry-emulator), otherwise Azure's credential chain.
func foundryCredential(cfg config) (azcore.TokenCredential, error) {
	if cfg.FoundryToken != "" {
		return foundry.StaticToken(cfg.FoundryToken), nil
	}
	cred, err := foundry.DefaultCredential()
	if err != nil {
		return nil, fmt.Errorf("foundry credentials: %w", err)
	}
	return cred, nil
}

// startLocalEngine starts the sandbox pool and the Foundry emulator on a
// random loopback port with a random token, and points the ordinary Foundry
// client at it, so local turns cross the same client, JSON and SSE as
// production.
func startLocalEngine(ctx context.Context, cfg config, log *slog.Logger) (*engine, error) {
	if cfg.SandboxIsolation == sandbox.IsolationNone {
		log.Warn("SANDBOX_ISOLATION=none: code will run WITHOUT isolation, with this server's rights. Use it only on a development machine.")
	}
	pool, err := sandbox.NewPool(ctx, sandbox.Config{Isolation: cfg.SandboxIsolation, MemoryBudget: cfg.SandboxMemoryBudget, Warm: cfg.SandboxWarm,
		StateDir: filepath.Join(cfg.DataDir, "engine", "sandbox-state"), Logger: log.With("component", "sandbox")})
	if err != nil {
		return nil, fmt.Errorf("local engine: %w", err)
	}
	planner, err := localPlanner(cfg)
	if err != nil {
		pool.Close()
		return nil, err
	}
	token := randomToken()
	emu, err := emulator.New(emulator.Config{Token: token, DataDir: filepath.Join(cfg.DataDir, "engine"),
		Kernels: emulator.SandboxKernels{Pool: pool}, Planner: planner, Logger: log.With("component", "emulator")})
	if err != nil {
		pool.Close()
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		emu.Close()
		pool.Close()
		return nil, fmt.Errorf("local engine: %w", err)
	}
	srv := &http.Server{Handler: emu, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	endpoint := "http://" + ln.Addr().String() + "/api/projects/local"
	client, err := foundry.New(foundryConfig(endpoint, foundry.StaticToken(token), log))
	if err != nil {
		srv.Close()
		emu.Close()
		pool.Close()
		return nil, err
	}
	log.Info("local engine started", "endpoint", endpoint, "isolation", cfg.SandboxIsolation)
	e := &engine{client: client, model: "local-analyst", view: views.Engine{Local: true, Detail: isolationDetail(cfg.SandboxIsolation)}}
	e.ready = map[string]handlers.ReadinessCheck{"sandbox": func(context.Context) error { return pool.Ready() }}
	e.sandbox = func() handlers.SandboxStats { return sandboxStats(pool.Stats()) }
	e.packages = sync.OnceValue(func() chat.Packages { return localPackages(context.Background(), pool, log) })
	e.close = func() error {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return errors.Join(srv.Shutdown(sctx), emu.Close(), pool.Close())
	}
	return e, nil
}

// localPlanner is what writes the code in the local engine: the built-in
// rules, or the model at ANALYST_MODEL_URL (which falls back to the rules
// when it fails). Both run fenced python blocks exactly as written.
func localPlanner(cfg config) (emulator.Planner, error) {
	if cfg.AnalystModelURL == "" {
		return emulator.AnalystPlanner(&analyst.Rules{}), nil
	}
	m, err := analyst.NewModel(analyst.ModelConfig{URL: cfg.AnalystModelURL, Model: cfg.AnalystModel, APIKey: cfg.AnalystAPIKey})
	if err != nil {
		return nil, err
	}
	return emulator.AnalystPlanner(m), nil
}

func isolationDetail(isolation string) string {
	if isolation == sandbox.IsolationNone {
		return "WARNING: isolation is off (SANDBOX_ISOLATION=none)."
	}
	return "Isolated with bubblewrap: no network, no host files."
}

func randomToken() string {
	b := make([]byte, 24)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// localPackages reads what the sandbox's Python can
// import: the list /admin shows, against which a cell that fails to import
// a module is told of it. A failure leaves the list unknown, as on Foundry.
func localPackages(ctx context.Context, pool *sandbox.Pool, log *slog.Logger) chat.Packages {
	inst, err := pool.Installed(ctx)
	if err != nil {
		log.Warn("list the sandbox's Python packages", "err", err)
		return chat.Packages{}
	}
	p := chat.Packages{Listed: true, Python: inst.Python, Modules: inst.Modules}
	for _, d := range inst.Packages {
		p.Distributions = append(p.Distributions, chat.Distribution{Name: d.Name, Version: d.Version, Modules: d.Modules})
	}
	return p
}

// sandboxStats hands the pool's figures to the handlers, which do not
// import the sandbox.
func sandboxStats(st sandbox.Stats) handlers.SandboxStats {
	return handlers.SandboxStats{Budget: st.Budget, Used: st.Used, KernelSize: st.KernelSize, Template: st.Template, Capacity: st.Capacity,
		Live: st.Live, Busy: st.Busy, Idle: st.Idle, Evicted: st.Evicted, Queued: st.Queued, Ready: st.Ready,
		WarmGoal: st.WarmGoal, Evictions: st.Evictions, Restores: st.Restores, QueuedTotal: st.QueuedTotal, Refused: st.Refused}
}

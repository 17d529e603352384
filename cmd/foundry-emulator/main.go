// Command foundry-emulator serves an offline Microsoft Foundry Agent Service (prompt agents with
// the Code Interpreter tool) on this machine, for the official SDKs, openai clients and curl.
//
//	foundry-emulator -addr 127.0.0.1:8081 -token T -data-dir DIR [-tls] [-planner analyst|fenced|model]
//
// Plain questions are answered by the built-in analyst unless -planner says otherwise.
// The project endpoint is http(s)://ADDR/api/projects/NAME, for any NAME.
package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/analyst-workbench/workbench/emulator"
	"github.com/analyst-workbench/workbench/sandbox"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr, nil); err != nil {
		fmt.Fprintln(os.Stderr, "foundry-emulator:", err)
		os.Exit(1)
	}
}

// config is what the flags say.
type config struct {
	addr, token, dataDir string
	tls                  bool
	idle, lifetime       time.Duration
	faults               []string
	isolation            string
	rejectAgent          bool
	lenient              bool
	logJSON, verbose     bool
	planner              plannerKind
	model                modelConfig
	// deployments and withoutCI are emulator.Config's Deployments and
	// WithoutCodeInterpreter, comma-separated on the command line.
	deployments, withoutCI string
}

// names splits a comma-separated list, dropping empty names.
func names(list string) []string {
	var out []string
	for _, n := range strings.Split(list, ",") {
		if n = strings.TrimSpace(n); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// faultList collects repeated -fault flags.
type faultList []string

// String shows the faults, for flag's help.
func (f *faultList) String() string { return strings.Join(*f, ",") }

// Set checks and appends one -fault value.
func (f *faultList) Set(v string) error {
	if _, _, err := emulator.ParseFault(v); err != nil {
		return err
	}
	*f = append(*f, v)
	return nil
}

func parseConfig(args []string, getenv func(string) string, stderr io.Writer) (config, error) {
	var cfg config
	var faults faultList
	fs := flag.NewFlagSet("foundry-emulator", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.addr, "addr", "127.0.0.1:8081", "listen address (port 0 picks a free one)")
	fs.StringVar(&cfg.token, "token", getenv("FOUNDRY_EMULATOR_TOKEN"), "bearer token clients must send; empty accepts any (env FOUNDRY_EMULATOR_TOKEN)")
	fs.StringVar(&cfg.dataDir, "data-dir", "./emulator-data", "directory for the database and uploaded files")
	fs.BoolVar(&cfg.tls, "tls", false, "serve https with a certificate generated at start (Azure SDKs send tokens over https only)")
	fs.DurationVar(&cfg.idle, "idle-timeout", 30*time.Minute, "a container expires after this long unused")
	fs.DurationVar(&cfg.lifetime, "lifetime", time.Hour, "a container expires this long after its creation")
	fs.Var(&faults, "fault", "inject a fault into every request: 429, bare-429, 500, content-500, cut-stream, slow-tokens, empty-stream-outputs, expired-expected-container; NAME:N for the next N only (repeatable)")
	fs.StringVar(&cfg.isolation, "isolation", sandbox.IsolationBwrap, "sandbox isolation: bwrap, or none (unsafe, development only)")
	fs.BoolVar(&cfg.rejectAgent, "reject-deprecated-agent", false, "answer 400 to the preview 'agent' field on /openai/v1, as the hosted service does")
	fs.BoolVar(&cfg.lenient, "lenient", false, "keep the older, forgiving behaviour where the hosted service is strict (fresh container after expiry, cancel anything, replay any stream)")
	fs.BoolVar(&cfg.logJSON, "log-json", false, "log as JSON")
	fs.StringVar((*string)(&cfg.planner), "planner", string(plannerAnalyst), "who writes the code: analyst (built-in rules), fenced (fenced python blocks only), model (an OpenAI-compatible endpoint)")
	fs.StringVar(&cfg.model.url, "analyst-model-url", getenv("ANALYST_MODEL_URL"), "-planner model: OpenAI-compatible base URL (env ANALYST_MODEL_URL)")
	fs.StringVar(&cfg.model.model, "analyst-model", getenv("ANALYST_MODEL"), "-planner model: model name (env ANALYST_MODEL)")
	fs.StringVar(&cfg.model.apiKey, "analyst-api-key", getenv("ANALYST_API_KEY"), "-planner model: API key (env ANALYST_API_KEY)")
	fs.StringVar(&cfg.deployments, "deployments", "", "comma-separated model deployments served; an agent naming another is refused with a 400 (empty serves any)")
	fs.StringVar(&cfg.withoutCI, "without-code-interpreter", "", "comma-separated deployments that cannot run the code_interpreter tool; an agent giving them the tool is refused with a 400")
	fs.BoolVar(&cfg.verbose, "v", false, "log every request")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	cfg.faults = faults
	if cfg.dataDir == "" {
		return cfg, errors.New("-data-dir is required")
	}
	if _, err := newPlanner(cfg.planner, cfg.model); err != nil {
		return cfg, err
	}
	return cfg, nil
}

// run serves until ctx ends, then shuts down gracefully. The banner goes to stdout, logs to
// stderr; ready, if not nil, receives the base URL once the listener is up (tests use it).
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer, ready chan<- string) error {
	cfg, err := parseConfig(args, getenv, stderr)
	if err != nil {
		return err
	}
	opts := &slog.HandlerOptions{Level: slog.LevelInfo}
	if cfg.verbose {
		opts.Level = slog.LevelDebug
	}
	handler := slog.Handler(slog.NewTextHandler(stderr, opts))
	if cfg.logJSON {
		handler = slog.NewJSONHandler(stderr, opts)
	}
	log := slog.New(handler)
	if err := os.MkdirAll(cfg.dataDir, 0o700); err != nil {
		return err
	}
	planner, err := newPlanner(cfg.planner, cfg.model)
	if err != nil {
		return err
	}
	em, err := emulator.New(emulator.Config{Token: cfg.token, DataDir: cfg.dataDir, Planner: planner,
		IdleTimeout: cfg.idle, Lifetime: cfg.lifetime, Faults: emulator.Faults{Always: cfg.faults},
		RejectDeprecatedAgent: cfg.rejectAgent, Lenient: cfg.lenient, Logger: log,
		Deployments: names(cfg.deployments), WithoutCodeInterpreter: names(cfg.withoutCI),
		Sandbox: sandbox.Config{Isolation: cfg.isolation, Logger: log}})
	if err != nil {
		return err
	}
	defer em.Close()
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: em, ReadHeaderTimeout: 10 * time.Second,
		// Streams end when the root context does, so Shutdown need not wait for them.
		BaseContext: func(net.Listener) context.Context { return ctx }}
	scheme := "http"
	if cfg.tls {
		scheme = "https"
		cert, err := selfSigned(cfg.dataDir, ln.Addr(), stdout)
		if err != nil {
			ln.Close()
			return err
		}
		srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
		ln = tls.NewListener(ln, srv.TLSConfig)
	}
	base := scheme + "://" + ln.Addr().String()
	announce(stdout, base, cfg)
	if ready != nil {
		ready <- base
	}
	return serve(ctx, srv, ln, log)
}

func announce(w io.Writer, base string, cfg config) {
	fmt.Fprintf(w, "foundry-emulator: serving %s/api/projects/{any project name}\n", base)
	fmt.Fprintf(w, "  project endpoint: %s/api/projects/local\n", base)
	fmt.Fprintf(w, "  openai base url:  %s/api/projects/local/openai/v1/\n", base)
	if cfg.token == "" {
		fmt.Fprintln(w, "  auth: any non-empty bearer token is accepted (no -token given)")
	}
	if cfg.lenient {
		fmt.Fprintln(w, "  lenient: expired containers are replaced, any response can be cancelled or replayed")
	}
	if len(cfg.faults) > 0 {
		fmt.Fprintf(w, "  injected faults: %s\n", strings.Join(cfg.faults, ", "))
	}
}

// serve runs srv until ctx ends, then gives requests in flight ten seconds to finish.
func serve(ctx context.Context, srv *http.Server, ln net.Listener, log *slog.Logger) error {
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

package emulator

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/analyst-workbench/workbench/sandbox"
)

// Config configures a Server. Only DataDir is required.
type Config struct {
	// Token is the bearer token clients must send (Authorization: Bearer, or api-key as Azure
	// OpenAI clients do). Empty accepts any non-empty token, which lets SDKs with a fake
	// credential in.
	Token string
	// DataDir holds the database and the uploaded files; it is created if missing.
	DataDir string
	// Kernels runs the code. Nil starts a sandbox pool configured by Sandbox, closed by
	// Server.Close.
	Kernels Kernels
	// Sandbox configures the pool started when Kernels is nil; its IdleTimeout and Lifetime
	// default to the emulator's.
	Sandbox sandbox.Config
	// Planner writes the code of a turn. Nil runs the fenced python blocks of the question.
	Planner Planner
	// IdleTimeout and Lifetime bound a container: 30 minutes idle and 1 hour in all by default,
	// as the hosted Code Interpreter sessions.
	IdleTimeout, Lifetime time.Duration
	// MaxFileSize caps an upload; 512 MB by default, the hosted limit.
	MaxFileSize int64
	// Faults injects failures into every request, on top of the X-Emulator-Fault header.
	Faults Faults
	// Lenient keeps the forgiving behaviour of earlier versions where the
	// hosted service is strict (see hosted.go): a conversation whose
	// container expired gets a fresh one instead of a 400, any running
	// response can be cancelled and any stream replayed, a conversation may
	// run two responses at once, and a cancelled response ends with
	// response.failed. Off by default: the emulator answers as the hosted
	// service does.
	Lenient bool
	// Deployments names the model deployments the emulator serves: an agent version whose model
	// is none of them is refused with a 400, as a project without that deployment refuses it.
	// Empty serves any model, so that SDK samples run whatever deployment they name.
	Deployments []string
	// WithoutCodeInterpreter names deployments that are served but cannot run the
	// code_interpreter tool (a model, or a region, without it): an agent version that gives them
	// the tool is refused with a 400. Together with Deployments, it rehearses the Code
	// Interpreter article's "Code Interpreter doesn't run" offline.
	WithoutCodeInterpreter []string
	// RejectDeprecatedAgent answers a response request that uses the preview "agent" field on
	// /openai/v1 with the hosted service's 400 instead of accepting it with a log line.
	RejectDeprecatedAgent bool
	// Logger receives the emulator's logs; nil uses slog.Default.
	Logger *slog.Logger
}

// Server is the emulator: an http.Handler serving every route under /api/projects/{project}.
type Server struct {
	cfg        Config
	log        *slog.Logger
	st         *store
	filesDir   string
	mux        *http.ServeMux
	kernels    Kernels
	closePool  func() error
	planner    Planner
	containers *containerSet
	runs       *runSet
	faults     *faultSet
	now        func() time.Time

	// ctx bounds the turns, which outlive the requests that start them.
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// New opens the data directory, starts the kernels if none were given, and returns the Server.
func New(cfg Config) (*Server, error) {
	if err := cfg.defaults(); err != nil {
		return nil, err
	}
	filesDir := filepath.Join(cfg.DataDir, "files")
	if err := os.MkdirAll(filesDir, 0o700); err != nil {
		return nil, fmt.Errorf("emulator: create data dir: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	st, err := openStore(ctx, cfg.DataDir)
	if err != nil {
		cancel()
		return nil, err
	}
	faults, err := newFaultSet(cfg.Faults)
	if err != nil {
		cancel()
		st.close()
		return nil, err
	}
	s := &Server{cfg: cfg, log: cfg.Logger, st: st, filesDir: filesDir, kernels: cfg.Kernels,
		planner: cfg.Planner, runs: newRunSet(), faults: faults, now: time.Now, ctx: ctx, cancel: cancel}
	if s.kernels == nil {
		if s.kernels, s.closePool, err = startSandbox(ctx, cfg); err != nil {
			cancel()
			st.close()
			return nil, err
		}
	}
	s.containers = newContainerSet(s)
	s.mux = s.routes()
	s.wg.Go(s.containers.sweepLoop)
	return s, nil
}

func (cfg *Config) defaults() error {
	if cfg.DataDir == "" {
		return errors.New("emulator: DataDir is required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Planner == nil {
		cfg.Planner = FencedPlanner{}
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = 30 * time.Minute
	}
	if cfg.Lifetime <= 0 {
		cfg.Lifetime = time.Hour
	}
	if cfg.MaxFileSize <= 0 {
		cfg.MaxFileSize = 512 << 20
	}
	return nil
}

// Close stops the running turns, ends every container and closes the database.
func (s *Server) Close() error {
	s.containers.stopSweep()
	s.cancel()
	s.wg.Wait() // the turns end: the cancelled context interrupts their cells
	s.containers.closeAll()
	var errs []error
	if s.closePool != nil {
		errs = append(errs, s.closePool())
	}
	errs = append(errs, s.st.close())
	return errors.Join(errs...)
}

// ServeHTTP authenticates, applies request-wide faults and dispatches to the route table.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.log.Enabled(r.Context(), slog.LevelDebug) {
		s.logRequests(w, r, s.serve)
		return
	}
	s.serve(w, r)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/healthz":
		writeText(w, http.StatusOK, "ok")
		return
	case "/readyz":
		if err := s.Ready(); err != nil {
			writeText(w, http.StatusServiceUnavailable, "not ready: "+err.Error())
			return
		}
		writeText(w, http.StatusOK, "ok")
		return
	}
	// Clients log these ids; Azure OpenAI routes name theirs apim-request-id, Foundry's x-request-id.
	id := newUUID()
	w.Header().Set("apim-request-id", id)
	w.Header().Set("x-request-id", id)
	if !s.authorized(r) {
		s.writeError(w, r, &apiError{status: http.StatusUnauthorized, code: "Unauthorized",
			message: "Access denied due to missing or invalid bearer token.",
			header:  http.Header{"Www-Authenticate": {"Bearer"}}})
		return
	}
	if err := s.faults.requestFault(r); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// Ready reports whether the emulator can run code: nil, or why not (the sandbox's self-test
// failed, say). Everything else works either way.
func (s *Server) Ready() error {
	if r, ok := s.kernels.(readier); ok {
		return r.Ready()
	}
	return nil
}

func writeText(w http.ResponseWriter, status int, text string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(text + "\n"))
}

// authorized checks the bearer token (or api-key) in constant time.
func (s *Server) authorized(r *http.Request) bool {
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		token = r.Header.Get("api-key")
	}
	token = strings.TrimSpace(token)
	if token == "" {
		return false
	}
	return s.cfg.Token == "" || subtle.ConstantTimeCompare([]byte(token), []byte(s.cfg.Token)) == 1
}

// handlerFunc is a route handler that returns its error for writeError to render.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

// wrap adapts h for the OpenAI-compatible /openai/v1 routes, which carry no api-version.
func (s *Server) wrap(h handlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			s.writeError(w, r, err)
		}
	})
}

// versioned adapts h for routes that require ?api-version= (the agents routes and the preview
// /openai/… surface). Any value is accepted: the hosted service's list of versions changes
// often and an emulator gains nothing by refusing one (UNCONFIRMED which values it rejects).
func (s *Server) versioned(h handlerFunc) http.Handler {
	return s.wrap(func(w http.ResponseWriter, r *http.Request) error {
		if r.URL.Query().Get("api-version") == "" {
			return &apiError{status: http.StatusBadRequest, code: "MissingApiVersionParameter", param: "api-version",
				message: "The api-version query parameter (?api-version=) is required for all requests."}
		}
		return h(w, r)
	})
}

// notFound answers every path and method the route table does not know.
func (s *Server) notFound(w http.ResponseWriter, r *http.Request) error {
	return &apiError{status: http.StatusNotFound, code: "NotFound",
		message: fmt.Sprintf("Resource not found: %s %s", r.Method, r.URL.Path)}
}

// Package chat runs one turn of analysis: it drives the Foundry agent,
// turns its stream into app events, persists them, and publishes them to
// the browsers that follow the turn.
package chat

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/analyst-workbench/workbench/files"
	"github.com/analyst-workbench/workbench/foundry"
	"github.com/analyst-workbench/workbench/store"
)

// Limits on a user's message.
const MaxMessageChars = 32000

// Session lifetimes of Foundry's Code Interpreter: a session ends after an
// hour, or after 30 minutes without use.
const (
	SessionLifetime = time.Hour
	SessionIdle     = 30 * time.Minute
)

// DefaultInstructions are the agent's instructions unless configured.
const DefaultInstructions = `You are a careful data analyst working in Python with pandas and matplotlib.
The user's files are in /mnt/data. Inspect the columns and types of a file before you use it.
Save every chart as a PNG file in /mnt/data with a descriptive name and mention it, so that it is cited and downloadable.
Write result files (CSV, XLSX) to /mnt/data too and mention them.
Show each result once: end a cell with a table as its value, or print it, not both.
Answer first, in a sentence or two with the numbers that answer the question; do not repeat as a Markdown table what your code already showed, point to it instead.
State numbers only from results you computed, never from memory or guesses.
When a column is ambiguous, say which one you used and why.`

// Config holds what the chat service needs.
type Config struct {
	DB     *store.DB
	Client *foundry.Client
	// Files stores uploaded bytes by their SHA-256.
	Files *files.Blobs
	// MaxUpload caps one uploaded file; 0 means files.MaxSize (512 MB).
	MaxUpload int64
	// UserQuota caps the bytes of the files one user keeps, across their
	// conversations; 0 means no quota.
	UserQuota int64
	// Profiler describes uploaded tables, a bounded number at a time; nil
	// means a pool with the files package's defaults.
	Profiler *files.Profiler
	// Agent is the agent every turn runs as.
	Agent foundry.AgentSpec
	// Tag is the metadata of every Foundry conversation and agent version
	// the service creates, so that reconciliation knows them as the app's;
	// nil tags them {"app": "workbench"}.
	Tag map[string]string
	// StopWait bounds how long a stopped turn waits for the service to say
	// its response has ended; 0 means two minutes.
	StopWait time.Duration
	// Logger receives one line per run; nil discards.
	Logger *slog.Logger
}

// Service starts, follows and stops turns.
type Service struct {
	db     *store.DB
	client *foundry.Client
	store  *files.Blobs
	// maxUpload caps one uploaded file; quota all of a user's.
	maxUpload int64
	quota     int64
	profiler  *files.Profiler
	agent     foundry.AgentSpec
	tag       map[string]string
	stopWait  time.Duration
	log       *slog.Logger
	hub       *Hub

	// ctx ends at shutdown; runs derive from it, not from the request
	// that started them, so a closed tab never kills an analysis.
	ctx    context.Context
	cancel context.CancelCauseFunc
	wg     sync.WaitGroup

	// queueMu orders a question queued behind a stopping run against that
	// run's end, which starts it (see queue.go); it guards stopping and
	// waiting. It is taken before mu, never while mu is held.
	queueMu  sync.Mutex
	stopping map[string]bool    // run id → its stop was asked, until it ends
	waiting  map[string]*runner // queued run id → the runner that starts it

	mu      sync.Mutex
	version string                             // agent version in use
	running map[string]context.CancelCauseFunc // run id → cancel
	closed  bool                               // Shutdown began: no run starts any more
}

// New returns a Service. Call EnsureAgent before the first turn.
func New(cfg Config) *Service {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if cfg.Agent.Instructions == "" {
		cfg.Agent.Instructions = DefaultInstructions
	}
	if cfg.Agent.FileSlots == 0 {
		cfg.Agent.FileSlots = 10
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	if cfg.MaxUpload == 0 {
		cfg.MaxUpload = files.MaxSize
	}
	if cfg.Tag == nil {
		cfg.Tag = map[string]string{"app": "workbench"}
	}
	if cfg.Agent.Metadata == nil {
		cfg.Agent.Metadata = cfg.Tag
	}
	if cfg.StopWait <= 0 {
		cfg.StopWait = 2 * time.Minute
	}
	if cfg.Profiler == nil {
		cfg.Profiler = files.NewProfiler(files.ProfilerConfig{})
	}
	return &Service{db: cfg.DB, client: cfg.Client, store: cfg.Files, maxUpload: cfg.MaxUpload, quota: cfg.UserQuota,
		profiler: cfg.Profiler, agent: cfg.Agent, tag: cfg.Tag, stopWait: cfg.StopWait, log: log,
		hub: NewHub(), ctx: ctx, cancel: cancel, running: map[string]context.CancelCauseFunc{},
		stopping: map[string]bool{}, waiting: map[string]*runner{}}
}

// EnsureAgent makes sure the agent exists in Foundry with the configured
// definition, and records the version in use.
func (s *Service) EnsureAgent(ctx context.Context) error {
	v, err := s.client.EnsureAgent(ctx, s.agent)
	if err != nil {
		return fmt.Errorf("chat: ensure agent %s: %w", s.agent.Name, err)
	}
	if err := s.db.RecordAgentVersion(ctx, v.Name, v.Version); err != nil {
		return err
	}
	s.mu.Lock()
	s.version = v.Version
	s.mu.Unlock()
	s.log.Info("agent ready", "agent", v.Name, "version", v.Version)
	return nil
}

// Ready reports whether turns can start: the agent is ensured.
func (s *Service) Ready(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.version == "" {
		return errors.New("the agent is not set up yet")
	}
	return nil
}

// errShutdown is the cause given to runs stopped by a server shutdown.
var errShutdown = errors.New("chat: server shutting down")

// ErrShuttingDown refuses a question asked while the server shuts down.
var ErrShuttingDown error = &UserError{"The server is restarting and cannot take questions for a moment. Ask again in a minute."}

// errCancelled is the cause given to runs the user stopped.
var errCancelled = errors.New("chat: cancelled by the user")

// Shutdown stops every run in flight, marks it interrupted, and waits for
// the runs to record that, up to ctx's deadline.
func (s *Service) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.closed = true // under the lock that launch holds to start a run, so none starts after
	s.mu.Unlock()
	s.cancel(errShutdown)
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// UserError is a refusal whose text is meant for the user.
type UserError struct{ Msg string }

func (e *UserError) Error() string { return e.Msg }

// UserMessage returns the text for the user.
func (e *UserError) UserMessage() string { return e.Msg }

// ValidateMessage trims a message and checks that it can be sent.
func ValidateMessage(content string) (string, error) {
	content = strings.TrimSpace(content)
	switch {
	case content == "":
		return "", &UserError{"Type a question before sending."}
	case !utf8.ValidString(content):
		return "", &UserError{"The message contains invalid characters."}
	case utf8.RuneCountInString(content) > MaxMessageChars:
		return "", &UserError{fmt.Sprintf("The message is too long: keep it under %d characters, or upload the text as a file.", MaxMessageChars)}
	}
	return content, nil
}

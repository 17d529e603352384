package contract_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/emulator"
	"github.com/analyst-workbench/workbench/foundry"
	"github.com/analyst-workbench/workbench/sandbox"
)

// One sandbox pool serves every emulator of this test binary: starting a
// pool costs about a second of CPU on a small machine.
var (
	poolOnce sync.Once
	pool     *sandbox.Pool
	poolErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if pool != nil {
		pool.Close()
	}
	os.Exit(code)
}

func sharedKernels(t *testing.T) emulator.Kernels {
	t.Helper()
	poolOnce.Do(func() {
		cfg := sandbox.Config{Warm: 1, Logger: slog.New(slog.DiscardHandler)}
		pool, poolErr = sandbox.NewPool(context.Background(), cfg)
		if errors.Is(poolErr, sandbox.ErrIsolationUnavailable) {
			// A machine without user namespaces still checks the protocol.
			if pool != nil {
				pool.Close()
			}
			cfg.Isolation = sandbox.IsolationNone
			pool, poolErr = sandbox.NewPool(context.Background(), cfg)
		}
	})
	if poolErr != nil {
		t.Fatalf("sandbox: %v", poolErr)
	}
	return emulator.SandboxKernels{Pool: pool}
}

// newEmulatorClient serves a fresh emulator over loopback HTTP, as the app
// wires the local engine, and returns a client of it. The emulator is as
// strict as the hosted service (it is not Lenient).
func newEmulatorClient(t *testing.T, faults emulator.Faults, change ...func(*emulator.Config)) *foundry.Client {
	t.Helper()
	if testing.Short() {
		t.Skip("starts the emulator's Python sandbox")
	}
	cfg := emulator.Config{Token: "t", DataDir: t.TempDir(), Kernels: sharedKernels(t),
		Faults: faults, Logger: slog.New(slog.DiscardHandler)}
	for _, f := range change {
		f(&cfg)
	}
	srv, err := emulator.New(cfg)
	if err != nil {
		t.Fatalf("emulator: %v", err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	c, err := foundry.New(foundry.Config{Endpoint: hs.URL + "/api/projects/contract", Credential: foundry.StaticToken("t"),
		MaxRetryDelay: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestContract_Emulator runs the scenario against the local engine.
func TestContract_Emulator(t *testing.T) {
	c := newEmulatorClient(t, emulator.Faults{})
	runScenario(t, c, scenario{Agent: "workbench-contract", Model: "local"})
}

// TestContract_EmulatorFaults runs it again while the engine answers 429s
// (with retry-after-ms) and a 500 on the chart download, as the hosted
// service does: the client's retries must hide both.
func TestContract_EmulatorFaults(t *testing.T) {
	c := newEmulatorClient(t, emulator.Faults{Always: []string{emulator.Fault429 + ":2", emulator.FaultContent500 + ":1"},
		RetryAfter: 5 * time.Millisecond})
	runScenario(t, c, scenario{Agent: "workbench-contract", Model: "local"})
}

// TestContract_EmulatorResume: the server drops the connection of a
// background stream mid-answer; the stream resumes itself from the last
// sequence number seen, and nothing is lost or repeated.
func TestContract_EmulatorResume(t *testing.T) {
	c := newEmulatorClient(t, emulator.Faults{Always: []string{emulator.FaultCutStream + ":1"}})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	v, err := c.EnsureAgent(ctx, foundry.AgentSpec{Name: "resume", Model: "local", Instructions: contractInstructions})
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.StreamResponse(ctx, foundry.ResponseRequest{Agent: foundry.AgentRef{Name: v.Name}, Background: true,
		Input: "```python\nprint('resumed ok')\n```"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var text, final strings.Builder
	if _, completed := collect(s, &text, &final); !completed || s.Err() != nil {
		t.Fatalf("cut stream: completed %v, err %v", completed, s.Err())
	}
	if text.String() != final.String() || !strings.Contains(final.String(), "resumed ok") {
		t.Errorf("deltas before and after the cut = %q, want them to add up to %q", text.String(), final.String())
	}
}

// TestContract_EmulatorCutAndResume drops the stream on the client's side and
// resumes it with starting_after, as against a real project.
func TestContract_EmulatorCutAndResume(t *testing.T) {
	runCutAndResume(t, newEmulatorClient(t, emulator.Faults{}), scenario{Agent: "resume-explicit", Model: "local"})
}

func TestContract_EmulatorStopThenTurn(t *testing.T) {
	runStopThenTurn(t, newEmulatorClient(t, emulator.Faults{}), scenario{Agent: "stop", Model: "local"})
}

func TestContract_EmulatorLateFile(t *testing.T) {
	runLateFile(t, newEmulatorClient(t, emulator.Faults{}), scenario{Agent: "late", Model: "local"})
}

// TestContract_EmulatorExpiredTurn lets the container expire after 2 idle
// seconds instead of 30 minutes.
func TestContract_EmulatorExpiredTurn(t *testing.T) {
	c := newEmulatorClient(t, emulator.Faults{}, func(cfg *emulator.Config) { cfg.IdleTimeout = 2 * time.Second })
	runExpiredTurn(t, c, scenario{Agent: "expiry", Model: "local"}, func() { time.Sleep(2500 * time.Millisecond) })
}

// collect appends a stream's code and text deltas to deltas, and the code
// and text of its finished items to items; it returns the last sequence
// number seen and whether the response completed.
func collect(s *foundry.Stream, deltas, items *strings.Builder) (last int64, completed bool) {
	for s.Next() {
		e := s.Event()
		switch e.Type {
		case foundry.EventTextDelta, foundry.EventCodeDelta:
			deltas.WriteString(e.Text)
		case foundry.EventItemDone:
			items.WriteString(e.Item.Code + e.Item.Text)
		case foundry.EventCompleted:
			completed = true
		}
		last = e.Sequence
	}
	return last, completed
}

package foundry_test

import (
	"errors"
	"log/slog"
	"net/http/httptest"
	"testing"

	"github.com/analyst-workbench/workbench/emulator"
	"github.com/analyst-workbench/workbench/foundry"
	"github.com/analyst-workbench/workbench/sandbox"
)

// TestContract_Emulator runs the scenario against the in-process local
// engine over real loopback HTTP, exactly as the app wires it.
func TestContract_Emulator(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the emulator's Python sandbox")
	}
	cfg := emulator.Config{Token: "t", DataDir: t.TempDir(), Logger: slog.New(slog.DiscardHandler)}
	srv, err := emulator.New(cfg)
	if errors.Is(err, sandbox.ErrIsolationUnavailable) {
		// A machine without user namespaces still checks the protocol.
		t.Logf("sandbox isolation unavailable, running unsandboxed: %v", err)
		cfg.Sandbox = sandbox.Config{Isolation: sandbox.IsolationNone}
		srv, err = emulator.New(cfg)
	}
	if err != nil {
		t.Fatalf("emulator: %v", err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	c, err := foundry.New(foundry.Config{Endpoint: hs.URL + "/api/projects/contract", Credential: foundry.StaticToken("t")})
	if err != nil {
		t.Fatal(err)
	}
	runScenario(t, c, scenario{Agent: "workbench-contract", Model: "local"})
}

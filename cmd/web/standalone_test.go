package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/emulator"
)

// noKernels lets an emulator serve everything but code, which this test
// does not run.
type noKernels struct{}

func (noKernels) Session(context.Context, string) (emulator.Kernel, error) {
	return nil, errors.New("no kernels in this test")
}

// TestRunAgainstAStandaloneEmulator points the app at an emulator of its
// own with FOUNDRY_TOKEN, as several replicas may share one: the app gets
// ready (its agent set up through the static token), and tags the agent
// version it creates as its own.
func TestRunAgainstAStandaloneEmulator(t *testing.T) {
	emu, err := emulator.New(emulator.Config{Token: "shared-token", DataDir: t.TempDir(), Kernels: noKernels{}})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(emu)
	defer func() { hs.Close(); emu.Close() }()

	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-addr", addr, "-data-dir", t.TempDir(), "-foundry-endpoint", hs.URL + "/api/projects/shared",
			"-foundry-model", "local", "-foundry-token", "shared-token"}, func(string) string { return "" }, io.Discard)
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
	}()

	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("not ready in 30 s: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	req, _ := http.NewRequest("GET", hs.URL+"/api/projects/shared/agents/workbench-analyst?api-version=v1", nil)
	req.Header.Set("Authorization", "Bearer shared-token")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var agent struct {
		Versions struct {
			Latest struct{ Metadata map[string]string }
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&agent); err != nil || agent.Versions.Latest.Metadata["app"] != "workbench" ||
		agent.Versions.Latest.Metadata["workbench_install"] == "" {
		t.Errorf("agent version metadata %v (%v), want the app's tag", agent.Versions.Latest.Metadata, err)
	}
}

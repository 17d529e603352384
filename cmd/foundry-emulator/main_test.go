package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestParseConfig(t *testing.T) {
	env := func(k string) string { return map[string]string{"FOUNDRY_EMULATOR_TOKEN": "from-env"}[k] }
	tests := []struct {
		name    string
		args    []string
		want    func(config) bool
		wantErr string
	}{
		{name: "defaults", args: nil, want: func(c config) bool {
			return c.addr == "127.0.0.1:8081" && c.token == "from-env" && !c.tls && c.idle == 30*time.Minute && c.lifetime == time.Hour &&
				c.planner == plannerAnalyst
		}},
		{name: "fenced planner", args: []string{"-planner", "fenced"}, want: func(c config) bool { return c.planner == plannerFenced }},
		{name: "model planner", args: []string{"-planner", "model", "-analyst-model-url", "http://127.0.0.1:1/v1", "-analyst-model", "m"},
			want: func(c config) bool { return c.planner == plannerModel && c.model.model == "m" }},
		{name: "model planner without a URL", args: []string{"-planner", "model"}, wantErr: "-analyst-model-url"},
		{name: "unknown planner", args: []string{"-planner", "oracle"}, wantErr: "want analyst, fenced or model"},
		{name: "all flags", args: []string{"-addr", ":9", "-token", "T", "-data-dir", "/d", "-tls", "-idle-timeout", "1m",
			"-fault", "429:2", "-fault", "cut-stream", "-isolation", "none"}, want: func(c config) bool {
			return c.addr == ":9" && c.token == "T" && c.dataDir == "/d" && c.tls && c.idle == time.Minute &&
				strings.Join(c.faults, ",") == "429:2,cut-stream" && c.isolation == "none"
		}},
		{name: "deployments", args: []string{"-deployments", "gpt-4.1, local,", "-without-code-interpreter", "o1-mini"},
			want: func(c config) bool {
				return strings.Join(names(c.deployments), "|") == "gpt-4.1|local" && strings.Join(names(c.withoutCI), "|") == "o1-mini"
			}},
		{name: "unknown fault", args: []string{"-fault", "teapot"}, wantErr: `unknown fault "teapot"`},
		{name: "stray argument", args: []string{"serve"}, wantErr: "unexpected arguments"},
		{name: "empty data dir", args: []string{"-data-dir", ""}, wantErr: "-data-dir is required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := parseConfig(tt.args, env, io.Discard)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || !tt.want(cfg) {
				t.Errorf("got %+v, %v", cfg, err)
			}
		})
	}
}

// syncBuffer is a bytes.Buffer safe for the server goroutine and the test.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestServeTLS starts the command with -tls on a free port, trusts the CA it wrote, calls it
// with and without the token, and shuts it down through its context.
func TestServeTLS(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	var out syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-addr", "127.0.0.1:0", "-token", "T", "-data-dir", dir, "-tls"}, os.Getenv, &out, io.Discard, ready)
	}()
	var base string
	select {
	case base = <-ready:
	case err := <-done:
		t.Fatalf("run: %v", err)
	case <-time.After(60 * time.Second):
		t.Fatal("not ready in 60s")
	}
	caPEM, err := os.ReadFile(filepath.Join(dir, caFile))
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(caPEM)
	sum := sha256.Sum256(block.Bytes)
	if want := fmt.Sprintf("%02X:%02X", sum[0], sum[1]); !strings.Contains(out.String(), "CA SHA-256 "+want) {
		t.Errorf("fingerprint not printed; output:\n%s", out.String())
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(caPEM)
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	for _, tc := range []struct {
		token string
		want  int
	}{{"T", 200}, {"wrong", 401}} {
		req, _ := http.NewRequest("GET", base+"/api/projects/p/openai/v1/files", nil)
		req.Header.Set("Authorization", "Bearer "+tc.token)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("https with the written CA: %v", err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("token %q: got %d, want %d", tc.token, resp.StatusCode, tc.want)
		}
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("shutdown: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no shutdown in 20s")
	}
}

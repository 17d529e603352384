// Package e2e drives Debian's chromium with chromedp against the real
// server binary, started on a random port with a temporary DATA_DIR.
package e2e

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// webBin is the server binary built once for all tests.
var webBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "e2e-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	webBin = filepath.Join(dir, "web")
	build := exec.Command("go", "build", "-o", webBin, "../cmd/web")
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: build server:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// server is one running instance of the app.
type server struct {
	URL     string
	DataDir string
	log     *syncBuffer
}

// startServer runs the app with a fresh DATA_DIR; extra is added to its
// environment. The server is stopped with SIGTERM when the test ends, and
// its log is printed if the test failed.
func startServer(t *testing.T, extra ...string) *server {
	t.Helper()
	s := &server{DataDir: t.TempDir(), log: &syncBuffer{}}
	cmd := exec.Command(webBin)
	// The server picks its own port and says which: a port chosen here and
	// freed for it could be taken by another process meanwhile (seen in CI
	// as "bind: address already in use").
	cmd.Env = append(os.Environ(), "ADDR=127.0.0.1:0", "DATA_DIR="+s.DataDir)
	cmd.Env = append(cmd.Env, extra...)
	cmd.Stdout, cmd.Stderr = s.log, s.log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			cmd.Process.Kill()
			t.Error("server did not stop within 15 s of SIGTERM")
		}
		if t.Failed() {
			t.Logf("server log:\n%s", s.log.String())
		}
	})
	deadline := time.Now().Add(60 * time.Second)
	for s.URL == "" {
		if m := listeningAt.FindStringSubmatch(s.log.String()); m != nil {
			s.URL = "http://" + m[1]
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("server did not say where it listens; log:\n%s", s.log.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	for {
		resp, err := http.Get(s.URL + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("server did not come up; log:\n%s", s.log.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// listeningAt finds the address in the server's "listening" log line, in
// text or JSON.
var listeningAt = regexp.MustCompile(`msg"?[=:]"?listening"?[ ,]"?addr"?[=:]"?([0-9.]+:[0-9]+)`)

// newBrowser starts a headless chromium with its own profile. On failure
// the page is saved to e2e/screenshots/<test>.png.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	return newBrowserFor(t, 90*time.Second)
}

// newBrowserFor is newBrowser for a test that may take up to timeout.
func newBrowserFor(t *testing.T, timeout time.Duration) context.Context {
	t.Helper()
	path := "/usr/bin/chromium"
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("chromium is not installed at %s: run `make deps`", path)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900),
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-component-update", true),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, timeout)
	t.Cleanup(func() {
		if t.Failed() {
			saveScreenshot(t, ctx)
		}
		cancelTimeout()
		cancelCtx()
		cancelAlloc()
	})
	return ctx
}

func saveScreenshot(t *testing.T, ctx context.Context) {
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	buf, err := chromedp.Run(sctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Logf("screenshot: %v", err)
		return
	}
	os.MkdirAll("screenshots", 0o755)
	name := filepath.Join("screenshots", strings.NewReplacer("/", "_", " ", "_").Replace(t.Name())+".png")
	if err := os.WriteFile(name, buf, 0o644); err == nil {
		t.Logf("screenshot saved to e2e/%s", name)
	}
}

// disableJavaScript turns scripts off in the tab, to prove the page works
// as plain HTML forms.
func disableJavaScript() chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, t, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
		return chromedp.Void{}, err
	}
}

// syncBuffer collects the server's log from two pipes at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

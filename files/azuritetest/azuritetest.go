// Package azuritetest starts a throwaway Azurite, the Azure Storage
// emulator, for tests of the Azure blob store: its blob service only, on
// loopback, on a port of its choosing, with a temporary directory as its
// workspace, stopped when the test ends.
//
// Azurite is installed by `make deps` (scripts/azurite.sh) into the
// repository's .tools/; AZURITE_BLOB may name another azurite-blob. A test
// that needs it fails, saying to run `make deps`, when it is not there,
// unless the test runs with -short, where it is skipped.
package azuritetest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Account and Key are Azurite's well-known development account; every
// Azurite accepts them, so they are no secret.
const (
	Account = "devstoreaccount1"
	Key     = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
)

// startTimeout bounds Azurite's start: Node loading it takes a second or
// two, longer on a loaded machine.
const startTimeout = 90 * time.Second

// Server is a running Azurite blob service.
type Server struct {
	// URL is the account's blob endpoint,
	// http://127.0.0.1:<port>/devstoreaccount1.
	URL string
	// ConnectionString reaches it with the development account's key.
	ConnectionString string
}

// Start starts Azurite for t and waits until it answers; it is stopped at
// the end of the test.
func Start(t testing.TB) *Server {
	t.Helper()
	bin, err := Find()
	if err != nil {
		if testing.Short() {
			t.Skip(err)
		}
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "--blobHost", "127.0.0.1", "--blobPort", "0", "--location", t.TempDir(),
		"--skipApiVersionCheck", "--disableTelemetry", "--silent")
	// Stopped as it would be by hand, so that it ends cleanly; killed if
	// it takes too long.
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 10 * time.Second
	out := &output{}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = out
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("azuritetest: start %s: %v", bin, err)
	}
	t.Cleanup(func() {
		cancel()
		cmd.Wait()
	})
	url, err := waitListening(stdout, out)
	if err == nil {
		err = waitAnswering(url + "/" + Account + "?comp=list")
	}
	if err != nil {
		t.Fatalf("azuritetest: %v\n%s", err, out.String())
	}
	endpoint := url + "/" + Account
	return &Server{URL: endpoint, ConnectionString: "DefaultEndpointsProtocol=http;AccountName=" + Account +
		";AccountKey=" + Key + ";BlobEndpoint=" + endpoint + ";"}
}

// Find returns the azurite-blob to run: AZURITE_BLOB, or .tools/bin in the
// repository that holds the working directory.
func Find() (string, error) {
	if bin := os.Getenv("AZURITE_BLOB"); bin != "" {
		if _, err := os.Stat(bin); err != nil {
			return "", fmt.Errorf("AZURITE_BLOB: %w", err)
		}
		return bin, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			bin := filepath.Join(dir, ".tools", "bin", "azurite-blob")
			if _, err := os.Stat(bin); err != nil {
				return "", fmt.Errorf("Azurite is not installed (no %s): run `make deps`, which installs it", bin)
			}
			return bin, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("Azurite: no go.mod above the working directory, and AZURITE_BLOB is not set")
		}
		dir = parent
	}
}

// listening is the line Azurite prints once its port is open.
var listening = regexp.MustCompile(`listens on (http://127\.0\.0\.1:\d+)`)

// waitListening reads Azurite's output until it says where it listens;
// the rest of the output goes on into out, for a failure's message.
func waitListening(stdout io.Reader, out *output) (string, error) {
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			out.Write(append(sc.Bytes(), '\n'))
			if m := listening.FindSubmatch(sc.Bytes()); m != nil {
				select {
				case found <- string(m[1]):
				default:
				}
			}
		}
		close(found)
	}()
	select {
	case url, ok := <-found:
		if !ok {
			return "", errors.New("Azurite exited before it listened")
		}
		return url, nil
	case <-time.After(startTimeout):
		return "", fmt.Errorf("Azurite did not listen within %v", startTimeout)
	}
}

// waitAnswering asks until Azurite answers an HTTP request, whatever the
// status: then its blob service is up.
func waitAnswering(url string) error {
	deadline := time.Now().Add(startTimeout)
	for {
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("Azurite did not answer within %v: %v", startTimeout, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// output collects Azurite's output for a failure's message.
type output struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.Write(p)
}

func (o *output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.String()
}

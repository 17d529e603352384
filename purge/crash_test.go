package purge_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/files"
	"github.com/analyst-workbench/workbench/purge"
	"github.com/analyst-workbench/workbench/store"
)

// The crash test runs this test binary again as a helper process (with
// crashEnv set) that starts or resumes a purge and announces on stdout when
// it is stuck mid-way; the parent then kills it with SIGKILL.
const (
	crashEnv = "PURGE_CRASH_HELPER"
	crashDir = "PURGE_CRASH_DIR"
)

// TestCrashHelper is the helper process; it does nothing in a normal run.
func TestCrashHelper(t *testing.T) {
	mode := os.Getenv(crashEnv)
	if mode == "" {
		t.Skip("helper process of TestExecute_SurvivesKill")
	}
	dir := os.Getenv(crashDir)
	db := openDB(t, filepath.Join(dir, "app.db"))
	blobs, err := files.NewBlobs(filepath.Join(dir, "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	remote := newFakeRemote()
	remote.onDelete = crashLogger(t, dir, mode)
	svc := purge.New(purge.Config{DB: db, Remote: remote, Blobs: blobs, MinBackoff: time.Millisecond})
	purge.SetBatch(svc, 2)
	ctx := context.Background()
	switch mode {
	case "local":
		// Stuck after the first local transaction: two conversations gone,
		// the rest still queued.
		purge.SetAfterBatch(svc, func() { fmt.Println("stuck"); select {} })
		user, _ := os.ReadFile(filepath.Join(dir, "user"))
		_, err = svc.Execute(ctx, "admin1", purge.Selection{UserID: string(user)})
	case "remote":
		err = svc.Drain(ctx)
	}
	t.Fatalf("helper returned: %v", err)
}

// crashLogger records each remote deletion durably before it counts, so the
// parent can tell what the killed process did. In remote mode the fourth
// deletion and all after it hang, with three deletions done.
func crashLogger(t *testing.T, dir, mode string) func(string) {
	f, err := os.OpenFile(filepath.Join(dir, "remote.log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	n := 0
	return func(key string) {
		mu.Lock()
		n++
		if mode == "remote" && n > 3 {
			if n == 4 {
				fmt.Println("stuck")
			}
			mu.Unlock()
			select {}
		}
		defer mu.Unlock()
		fmt.Fprintln(f, key)
		f.Sync()
	}
}

// runUntilStuck starts the helper in mode, waits for "stuck" and kills it
// with SIGKILL.
func runUntilStuck(t *testing.T, dir, mode string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashEnv+"="+mode, crashDir+"="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stuck := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.TrimSpace(sc.Text()) == "stuck" {
				stuck <- true
				return
			}
		}
		stuck <- false
	}()
	select {
	case ok := <-stuck:
		if !ok {
			cmd.Wait()
			t.Fatalf("%s helper ended without getting stuck", mode)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("%s helper never got stuck", mode)
	}
	cmd.Process.Kill() // SIGKILL: no deferred function, no rollback, no flush runs
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ProcessState.Sys() == nil || exit.ExitCode() != -1 {
		t.Fatalf("%s helper: %v, want killed by a signal", mode, err)
	}
}

func TestExecute_SurvivesKill(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	ana, bob := e.user(t, "ana"), e.user(t, "bob")
	var purged []seeded
	for i := range 5 {
		purged = append(purged, e.seed(t, ana, fmt.Sprint("a", i), fmt.Sprint("data ", i), fmt.Sprint("chart ", i)))
	}
	kept := e.seed(t, bob, "b", "bob data", "chart 0") // shares a chart with Ana's first conversation
	must(t, os.WriteFile(filepath.Join(e.dir, "user"), []byte(ana), 0o600))

	// First killed in the middle of the local deletions, then in the
	// middle of the remote ones, each time by a process of its own.
	runUntilStuck(t, e.dir, "local")
	if s, _ := e.db.PurgeSummary(ctx, store.PurgeSelection{UserID: ana}); s.Conversations != 3 {
		t.Fatalf("after the first kill %d of Ana's conversations remain, want 3 (one batch of 2 done)", s.Conversations)
	}
	runUntilStuck(t, e.dir, "remote")
	log, _ := os.ReadFile(filepath.Join(e.dir, "remote.log"))
	if n := strings.Count(string(log), "\n"); n != 3 {
		t.Fatalf("killed helper deleted %d remote objects, want 3:\n%s", n, log)
	}

	// A fresh process resumes the outbox and finishes the purge.
	e.drain(t)
	if s, _ := e.db.PurgeSummary(ctx, store.PurgeSelection{UserID: ana}); s.Conversations != 0 {
		t.Errorf("%d of Ana's conversations remain", s.Conversations)
	}
	done := map[string]bool{}
	for _, k := range strings.Fields(string(log)) {
		done[k] = true
	}
	for _, k := range e.remote.counts(true) {
		done[k[:strings.LastIndex(k, "=")]] = true
	}
	for _, s := range purged {
		for _, k := range s.remoteKeys() {
			if !done[k] {
				t.Errorf("%s never deleted", k)
			}
		}
		if e.blobExists(s.file.SHA256) {
			t.Errorf("blob of %s left", s.file.Name)
		}
	}
	if !e.blobExists(kept.artifact.SHA256) || !e.blobExists(kept.file.SHA256) {
		t.Error("Bob's blobs removed")
	}
	if _, err := e.db.Conversation(ctx, bob, kept.conv.ID); err != nil {
		t.Errorf("Bob's conversation: %v", err)
	}
	if got := e.audit(t); len(got) != 2 || got[1] != "admin1 purge completed" {
		t.Errorf("audit = %v", got)
	}
}

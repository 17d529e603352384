package sandbox

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// hostSecret is put in the test process's environment before any sandbox
// starts; no sandbox may ever see it.
const hostSecret = "wb-host-secret-7f3a9c"

// closeAfterTests are pools shared between tests, closed by TestMain.
var closeAfterTests []*Pool

var shared struct {
	once sync.Once
	pool *Pool
	err  error
}

func TestMain(m *testing.M) {
	os.Setenv("WORKBENCH_TEST_SECRET", hostSecret)
	code := m.Run()
	if shared.pool != nil {
		closeAfterTests = append(closeAfterTests, shared.pool)
	}
	for _, p := range closeAfterTests {
		if err := p.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "close pool:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// testLogger sends the pool's logs to stderr only when they matter.
func testLogger() *slog.Logger {
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// sharedConfig keeps limits small so attacks hit them quickly.
func sharedConfig() Config {
	return Config{
		Warm:        2,
		CellTimeout: 20 * time.Second, InterruptGrace: 2 * time.Second,
		MemoryBytes: 1 << 30, DataBytes: 64 << 20, TmpBytes: 32 << 20, Processes: 64,
		Logger: testLogger(),
	}
}

// sharedPool is one pool for most tests and benchmarks, started on first use.
func sharedPool(tb testing.TB) *Pool {
	tb.Helper()
	shared.once.Do(func() {
		shared.pool, shared.err = NewPool(context.Background(), sharedConfig())
	})
	if shared.err != nil {
		tb.Fatalf("NewPool: %v", shared.err)
	}
	return shared.pool
}

// lazyPool is a pool shared by the tests that ask for it, started on first
// use with its config and closed by TestMain.
type lazyPool struct {
	once sync.Once
	pool *Pool
	err  error
}

// get starts the pool on the first call and returns it.
func (l *lazyPool) get(tb testing.TB, cfg func() Config) *Pool {
	tb.Helper()
	l.once.Do(func() {
		l.pool, l.err = NewPool(context.Background(), cfg())
		if l.err == nil {
			closeAfterTests = append(closeAfterTests, l.pool)
		}
	})
	if l.err != nil {
		tb.Fatalf("NewPool: %v", l.err)
	}
	return l.pool
}

// newTestPool makes a private pool, closed when the test ends.
func newTestPool(tb testing.TB, cfg Config) *Pool {
	tb.Helper()
	if cfg.Logger == nil {
		cfg.Logger = testLogger()
	}
	p, err := NewPool(context.Background(), cfg)
	if err != nil {
		tb.Fatalf("NewPool: %v", err)
	}
	tb.Cleanup(func() {
		if err := p.Close(); err != nil {
			tb.Errorf("Close: %v", err)
		}
	})
	return p
}

// openSession claims a session from p, closed when the test ends.
func openSession(tb testing.TB, p *Pool) *Session {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	s, err := p.Session(ctx)
	if err != nil {
		tb.Fatalf("Session: %v", err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// run executes code and fails the test on an infrastructure error.
func run(tb testing.TB, s *Session, code string) *Result {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	r, err := s.Exec(ctx, code)
	if err != nil {
		tb.Fatalf("Exec(%q): %v", firstLine(code), err)
	}
	return r
}

// runOK is run for code that must not raise.
func runOK(tb testing.TB, s *Session, code string) *Result {
	tb.Helper()
	r := run(tb, s, code)
	if r.Error != nil {
		tb.Fatalf("Exec(%q) raised %v\n%s", firstLine(code), r.Error, r.Error.String())
	}
	return r
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// bystander is a session of the shared pool that lives through every
// attack: if an attack in another session hurt it, the next check fails.
var bystander struct {
	once sync.Once
	s    *Session
	err  error
}

// assertServes proves that other sessions of the pool still work after an
// attack: the shared pool's long-lived bystander session, or for another
// pool a fresh session.
func assertServes(t *testing.T, p *Pool) {
	t.Helper()
	if p != shared.pool {
		assertNewSession(t, p)
		return
	}
	bystander.once.Do(func() { bystander.s, bystander.err = p.Session(context.Background()) })
	if bystander.err != nil {
		t.Fatalf("bystander session: %v", bystander.err)
	}
	r := runOK(t, bystander.s, "seen = globals().get('seen', 0) + 1\nprint(6 * 7)")
	if got := strings.TrimSpace(r.Stdout); got != "42" {
		t.Fatalf("bystander session no longer serves: stdout %q", got)
	}
}

// assertNewSession proves the pool still hands out working sessions.
func assertNewSession(t *testing.T, p *Pool) {
	t.Helper()
	s := openSession(t, p)
	r := runOK(t, s, "print(6 * 7)")
	if got := strings.TrimSpace(r.Stdout); got != "42" {
		t.Fatalf("pool no longer serves: stdout %q", got)
	}
	s.Close()
}

// assertAlive checks that a session survived and kept its state.
func assertAlive(t *testing.T, s *Session, expr, want string) {
	t.Helper()
	r := runOK(t, s, expr)
	if r.Value == nil || r.Value.Text != want {
		t.Fatalf("after the attack %s = %+v, want %s", expr, r.Value, want)
	}
}

// waitDone waits for a session to end and returns why.
func waitDone(t *testing.T, s *Session, within time.Duration) error {
	t.Helper()
	select {
	case <-s.Done():
		return s.Err()
	case <-time.After(within):
		t.Fatalf("session still open after %s", within)
		return nil
	}
}

// waitFor polls cond until it holds, and fails the test when it has not
// within a minute: tests wait for the state they need, never for a length
// of time that stands in for it.
func waitFor(tb testing.TB, what string, cond func() bool) {
	tb.Helper()
	waitWithin(tb, time.Minute, what, cond)
}

// waitWithin is waitFor with a deadline of its own, for waits on worker
// starts, which take seconds each on a loaded machine.
func waitWithin(tb testing.TB, limit time.Duration, what string, cond func() bool) {
	tb.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			tb.Fatalf("still waiting for %s after %s", what, limit)
		}
		time.Sleep(5 * time.Millisecond) // a poll interval, not an ordering
	}
}

// evictNow marks s for an eviction, as the pool's victim does, and evicts it.
func evictNow(tb testing.TB, p *Pool, s *Session) {
	tb.Helper()
	if !s.markEvicting() {
		st, _ := s.phase()
		tb.Fatalf("session %s cannot be picked for an eviction", st)
	}
	p.evict(s)
}

func isReset(err error) bool { return errors.Is(err, ErrSessionReset) }

package sandbox

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// timerConfig has timeouts short enough to watch them fire.
func timerConfig() Config {
	return Config{
		Warm:        1,
		IdleTimeout: time.Second, Lifetime: 4 * time.Second,
		CellTimeout: 1500 * time.Millisecond, InterruptGrace: time.Second,
		Logger: testLogger(),
	}
}

var timers lazyPool

func timerPool(t *testing.T) *Pool { return timers.get(t, timerConfig) }

func TestLifecycle_IdleExpiry(t *testing.T) {
	s := openSession(t, timerPool(t))
	runOK(t, s, "x = 1")
	start := time.Now()
	if err := waitDone(t, s, 5*time.Second); !errors.Is(err, ErrIdleTimeout) {
		t.Fatalf("Err = %v, want ErrIdleTimeout", err)
	}
	if d := time.Since(start); d < 800*time.Millisecond {
		t.Fatalf("expired after %s, idle timeout is 1s", d)
	}
	if _, err := s.Exec(context.Background(), "x"); !errors.Is(err, ErrIdleTimeout) {
		t.Fatalf("Exec after expiry = %v", err)
	}
}

func TestLifecycle_Lifetime(t *testing.T) {
	s := openSession(t, timerPool(t))
	start := time.Now()
	for {
		_, err := s.Exec(context.Background(), "import time; time.sleep(0.3)")
		if err != nil {
			if !errors.Is(err, ErrLifetime) || !errors.Is(s.Err(), ErrLifetime) {
				t.Fatalf("Exec = %v, Err = %v, want ErrLifetime", err, s.Err())
			}
			break
		}
		if time.Since(start) > 10*time.Second {
			t.Fatal("busy session outlived its 4s lifetime")
		}
	}
	if d := time.Since(start); d < 3500*time.Millisecond {
		t.Fatalf("ended after %s, before its lifetime", d)
	}
}

func TestLifecycle_CellTimeoutInterrupts(t *testing.T) {
	s := openSession(t, timerPool(t))
	runOK(t, s, "x = 'kept'")
	r := run(t, s, "while True:\n    pass")
	if !r.TimedOut || r.Error == nil || r.Error.Name != "KeyboardInterrupt" || !strings.Contains(r.Error.Value, "timed out") {
		t.Fatalf("result %+v, error %+v", r, r.Error)
	}
	assertAlive(t, s, "x", "'kept'")
	// The trailing value's repr is user code too.
	r = run(t, s, "class Slow:\n    def __repr__(self):\n        while True:\n            pass\nSlow()")
	if !r.TimedOut || r.Error == nil || r.Error.Name != "KeyboardInterrupt" {
		t.Fatalf("slow repr: result %+v, error %+v", r, r.Error)
	}
	assertAlive(t, s, "x", "'kept'")
}

func TestLifecycle_CellTimeoutKills(t *testing.T) {
	p := timerPool(t)
	s := openSession(t, p)
	_, err := s.Exec(context.Background(), "while True:\n    try:\n        while True:\n            pass\n    except KeyboardInterrupt:\n        pass")
	if !isReset(err) {
		t.Fatalf("Exec = %v, want ErrSessionReset", err)
	}
	if got := waitDone(t, s, time.Second); !isReset(got) {
		t.Fatalf("Err = %v", got)
	}
	assertServes(t, p)
}

func TestLifecycle_ClosedSession(t *testing.T) {
	s := openSession(t, sharedPool(t))
	s.Close()
	if _, err := s.Exec(context.Background(), "1"); !errors.Is(err, ErrClosed) {
		t.Fatalf("Exec after Close = %v", err)
	}
	if !errors.Is(s.Err(), ErrClosed) {
		t.Fatalf("Err = %v", s.Err())
	}
}

func TestSelfTest(t *testing.T) {
	p := sharedPool(t)
	if err := p.SelfTest(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := p.Ready(); err != nil {
		t.Fatal(err)
	}
}

func TestSelfTest_RefusesWithoutIsolation(t *testing.T) {
	p, err := NewPool(context.Background(), Config{Warm: 1, Bwrap: "/nonexistent/bwrap", Logger: testLogger()})
	if !errors.Is(err, ErrIsolationUnavailable) || p == nil {
		t.Fatalf("NewPool = %v, %v; want a refusing pool and ErrIsolationUnavailable", p, err)
	}
	defer p.Close()
	if err := p.Ready(); !errors.Is(err, ErrIsolationUnavailable) {
		t.Fatalf("Ready = %v", err)
	}
	if _, err := p.Session(context.Background()); !errors.Is(err, ErrIsolationUnavailable) {
		t.Fatalf("Session = %v", err)
	}
}

// syncBuffer collects log output from several goroutines.
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

func TestIsolationNone(t *testing.T) {
	var logs syncBuffer
	cfg := Config{Isolation: IsolationNone, Warm: 1, Logger: slog.New(slog.NewTextHandler(&logs, nil))}
	p := newTestPool(t, cfg)
	for i := 0; i < 2; i++ {
		s := openSession(t, p)
		if err := s.PutFile(context.Background(), "a.txt", strings.NewReader("hi")); err != nil {
			t.Fatal(err)
		}
		r := runOK(t, s, "open('a.txt').read()")
		if r.Value.Text != "'hi'" {
			t.Fatalf("value %+v", r.Value)
		}
		s.Close()
	}
	if n := strings.Count(logs.String(), "ISOLATION IS OFF for this session"); n != 2 {
		t.Fatalf("%d per-session warnings, want 2; logs:\n%s", n, logs.String())
	}
}

// TestWatchdog forces the no-cgroup backend: the watchdog must stop a
// memory bomb spread over processes.
func TestWatchdog(t *testing.T) {
	cfg := sharedConfig()
	cfg.Warm, cfg.Cgroups = 1, CgroupsNone
	p := newTestPool(t, cfg)
	if got := p.Stats().Limits; !strings.Contains(got, "watchdog") {
		t.Fatalf("limits %q", got)
	}
	s := openSession(t, p)
	code := "import os, time, numpy as np\nfor i in range(3):\n    if os.fork() == 0:\n        a = np.ones(480 << 17)\n        time.sleep(30)\n        os._exit(0)\ntime.sleep(30)"
	_, err := s.Exec(context.Background(), code)
	if !isReset(err) || !strings.Contains(err.Error(), "out of memory") {
		t.Fatalf("Exec = %v, want a reset for out of memory", err)
	}
	assertServes(t, p)
}

package sandbox

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

// The user's cell runs in the worker's interpreter, so it can rewrite the
// worker. findKernel is the first step of every such attack: from the
// cell's frame it finds the worker's Kernel K (and through it the protocol
// pipe), the table OPS that serve() dispatches requests with, and the
// worker's module globals W (sys.modules["__main__"] is the user's).
const findKernel = `import os, struct, sys, types
def _frame(name):
    f = sys._getframe()
    while f.f_code.co_name != name:
        f = f.f_back
    return f
K = _frame("run_cell").f_locals["self"]
OPS = _frame("serve").f_locals["ops"]
W = type(K).exec.__globals__
PNG = b"\x89PNG\r\n\x1a\n"
`

// hostAlloc returns the bytes this process allocated while f ran.
func hostAlloc(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// wantLimit checks that err is a LimitError for limit, that it ended the
// session with the same error, and that the message says what to do.
func wantLimit(t *testing.T, s *Session, err error, limit Limit) {
	t.Helper()
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != limit || !isReset(err) {
		t.Fatalf("err = %v; want a LimitError for %q wrapping ErrSessionReset", err, limit)
	}
	if !strings.Contains(err.Error(), "To go on, run it again in a new session (the next question starts one) and") {
		t.Fatalf("message says nothing the user can do: %s", err)
	}
	var ended *LimitError
	if got := waitDone(t, s, 5*time.Second); !errors.As(got, &ended) || ended.Limit != limit {
		t.Fatalf("session ended with %v, want the refusal", got)
	}
}

// resultBytes is what a Result would put into a run's events.
func resultBytes(r *Result) int {
	n := len(r.Stdout) + len(r.Stderr)
	if r.Value != nil {
		n += len(r.Value.Text) + len(r.Value.HTML)
	}
	if r.Error != nil {
		n += len(r.Error.Name) + len(r.Error.Value) + len(strings.Join(r.Error.Traceback, ""))
	}
	for _, f := range r.Figures {
		n += len(f.PNG)
	}
	return n
}

// resultBound is the most resultBytes may be under cfg: five text fields
// at the output cap, the figures, and the cut markers.
func resultBound(cfg Config) int {
	return 5*cfg.MaxOutputBytes + cfg.MaxFigures*cfg.MaxFigureBytes + 1024
}

func TestAttack_WorkerMonkeyPatch(t *testing.T) {
	cfg := sharedConfig().withDefaults()
	cases := []struct {
		name  string
		patch string // run after findKernel; the cell then returns normally
		limit Limit
	}{
		{"thirteen figures", `def flush(self):
    self.figures, self.dropped = [PNG + b"0" * 100] * 13, 0
type(K).flush_figures = flush`, LimitFigures},
		{"figure of 8 MiB", `def flush(self):
    self.figures, self.dropped = [PNG + b"0" * (8 << 20)], 0
type(K).flush_figures = flush`, LimitFigureBytes},
		{"56 MiB of output in one frame", `W["Capture"].text = lambda self: "x" * (28 << 20)`, LimitReplyBytes},
		{"twenty thousand files", `W["scan_files"] = lambda: {"f%d" % i: (1, i) for i in range(20000)}`, LimitFiles},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := sharedPool(t)
			s := openSession(t, p)
			var err error
			alloc := hostAlloc(func() { _, err = s.Exec(context.Background(), findKernel+tc.patch) })
			wantLimit(t, s, err, tc.limit)
			if alloc > 16<<20 {
				t.Errorf("the host allocated %d MiB reading the refused reply", alloc>>20)
			}
			if _, err := s.Exec(context.Background(), "1"); !isReset(err) {
				t.Fatalf("Exec after the refusal = %v, want the reset", err)
			}
			assertServes(t, p)
		})
	}
	t.Run("value and error over the caps are cut", func(t *testing.T) {
		s := openSession(t, sharedPool(t))
		r := runOK(t, s, findKernel+`type(K).render = lambda self, value, cap: {"text": "t" * (3 << 20), "html": "<b>" * (1 << 20)}
1`)
		if !r.Truncated || len(r.Value.Text) > cfg.MaxOutputBytes || r.Value.HTML != "" || !strings.Contains(r.Stderr, valueCutMarker) {
			t.Fatalf("value not cut: text %d bytes, html %d bytes, truncated %v", len(r.Value.Text), len(r.Value.HTML), r.Truncated)
		}
		if n := resultBytes(r); n > resultBound(cfg) {
			t.Fatalf("result of %d bytes, bound %d", n, resultBound(cfg))
		}
		if r := runOK(t, s, "print(6 * 7)"); r.Stdout != "42\n" {
			t.Fatalf("session no longer serves: %q", r.Stdout)
		}
	})
}

// TestAttack_HonestCapsHold: an honest worker's worst replies (a huge
// exception, too many figures) are cut, never refused.
func TestAttack_HonestCapsHold(t *testing.T) {
	cfg := sharedConfig().withDefaults()
	s := openSession(t, sharedPool(t))
	r := run(t, s, `class E(Exception):
    pass
E.__name__ = "E" * 100000
raise E("\x00" * (3 << 20))`)
	if r.Error == nil || len(r.Error.Value) > cfg.MaxOutputBytes || len(r.Error.Name) > errorNameBytes {
		t.Fatalf("error not cut: %d bytes", len(r.Error.Value))
	}
	r = runOK(t, s, "import matplotlib.pyplot as plt\nfor i in range(12):\n    plt.figure(figsize=(1, 1))\nprint('\\x01' * (2 << 20))")
	if len(r.Figures) != cfg.MaxFigures || !r.Truncated || !strings.Contains(r.Stderr, "2 figure(s) dropped") {
		t.Fatalf("%d figures, truncated %v, stderr %q", len(r.Figures), r.Truncated, r.Stderr)
	}
	if n := resultBytes(r); n > resultBound(cfg) {
		t.Fatalf("result of %d bytes, bound %d", n, resultBound(cfg))
	}
	assertAlive(t, s, "6 * 7", "42")
}

// TestAttack_LyingLengthPrefix writes frame headers straight into the
// worker's protocol pipe: the host must refuse them before allocating.
func TestAttack_LyingLengthPrefix(t *testing.T) {
	for _, size := range []uint32{1<<32 - 1, 60 << 20} {
		t.Run(fmt.Sprintf("%d bytes", size), func(t *testing.T) {
			p := sharedPool(t)
			s := openSession(t, p)
			code := findKernel + fmt.Sprintf("os.write(K.conn.wfd, b'J' + struct.pack('>I', %d))", size)
			var err error
			alloc := hostAlloc(func() { _, err = s.Exec(context.Background(), code) })
			wantLimit(t, s, err, LimitReplyBytes)
			if alloc > 16<<20 {
				t.Errorf("the host allocated %d MiB for a frame it refused", alloc>>20)
			}
			assertServes(t, p)
		})
	}
}

// TestAttack_GetFileLies: a worker whose get announces more than /mnt/data
// can hold, or sends more than it announced.
func TestAttack_GetFileLies(t *testing.T) {
	cases := []struct {
		name, get string
		limit     Limit // "" for a protocol error
	}{
		{"announces a terabyte", `self.conn.send_json({"ok": True, "size": 1 << 40})
    self.conn.send(b"B", b"x" * 10)
    self.conn.send(b"B", b"")`, LimitFileBytes},
		{"sends more than announced", `self.conn.send_json({"ok": True, "size": 10})
    for i in range(3):
        self.conn.send(b"B", b"x" * (1 << 20))
    self.conn.send(b"B", b"")`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := sharedPool(t)
			s := openSession(t, p)
			runOK(t, s, findKernel+"def get(self, req):\n    "+tc.get+"\nOPS['get'] = types.MethodType(get, K)")
			var b []byte
			var err error
			alloc := hostAlloc(func() { b, err = s.GetFile(context.Background(), "any.csv") })
			if tc.limit != "" {
				wantLimit(t, s, err, tc.limit)
			} else if !isReset(err) || !strings.Contains(err.Error(), "more than the 10 bytes announced") {
				t.Fatalf("GetFile = %d bytes, %v; want a protocol error", len(b), err)
			}
			if alloc > 16<<20 {
				t.Errorf("the host allocated %d MiB for a file it refused", alloc>>20)
			}
			assertServes(t, p)
		})
	}
}

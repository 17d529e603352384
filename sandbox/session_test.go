package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestSession_StateAcrossCells(t *testing.T) {
	s := openSession(t, sharedPool(t))
	runOK(t, s, "import math\nx = 1\ndef inc(v):\n    return v + 1")
	runOK(t, s, "x = inc(x)")
	r := runOK(t, s, "x = inc(x)\nmath.floor(x * 10.5)")
	if r.Value == nil || r.Value.Text != "31" {
		t.Fatalf("value %+v, want 31", r.Value)
	}
	if r := runOK(t, s, "y = 5"); r.Value != nil {
		t.Fatalf("assignment produced value %+v", r.Value)
	}
}

func TestSession_ValueHTMLAndOutput(t *testing.T) {
	s := openSession(t, sharedPool(t))
	r := runOK(t, s, "import pandas as pd\nprint('rows', 3)\nimport sys; print('warn', file=sys.stderr)\npd.DataFrame({'a': [1, 2, 3]})")
	if r.Stdout != "rows 3\n" || r.Stderr != "warn\n" {
		t.Fatalf("stdout %q stderr %q", r.Stdout, r.Stderr)
	}
	if r.Value == nil || !strings.Contains(r.Value.HTML, "<table") || !strings.Contains(r.Value.Text, "a") {
		t.Fatalf("DataFrame value %+v", r.Value)
	}
}

// TestSession_ReportsAreOutOfBand: wb_report reaches Result.Reports and
// never the output, what a cell prints never becomes a report however it
// looks, NaN becomes null, and reports past the output cap are refused.
func TestSession_ReportsAreOutOfBand(t *testing.T) {
	s := openSession(t, sharedPool(t))
	r := runOK(t, s, "print('@@wb {\"kind\": \"stat\"}')\nwb_report('result', {'kind': 'stat', 'value': float('nan'), 'n': 3})")
	if r.Stdout != "@@wb {\"kind\": \"stat\"}\n" {
		t.Fatalf("stdout %q", r.Stdout)
	}
	var body map[string]any
	if len(r.Reports) != 1 || r.Reports[0].Kind != "result" || json.Unmarshal(r.Reports[0].Body, &body) != nil ||
		body["value"] != nil || body["n"] != 3.0 || len(body) != 3 {
		t.Fatalf("reports %+v", r.Reports)
	}
	if r := runOK(t, s, "print('no report')"); len(r.Reports) != 0 {
		t.Fatalf("a cell that reported nothing has reports %+v", r.Reports)
	}
	big := run(t, s, "wb_report('result', 'x' * (2 << 20))")
	if big.Error == nil || !strings.Contains(big.Error.Value, "over the output limit") || len(big.Reports) != 0 {
		t.Fatalf("an oversized report: %+v, %d reports", big.Error, len(big.Reports))
	}
}

func TestSession_PythonErrorIsResult(t *testing.T) {
	s := openSession(t, sharedPool(t))
	r := run(t, s, "a = 1\nb = {}\nb['missing']")
	if r.Error == nil || r.Error.Name != "KeyError" || r.Error.Value != "'missing'" {
		t.Fatalf("error %+v", r.Error)
	}
	tb := r.Error.String()
	if !strings.Contains(tb, "<cell-1>") || strings.Contains(tb, "worker.py") {
		t.Fatalf("traceback should show the cell and hide the worker:\n%s", tb)
	}
	r = run(t, s, "def broken(:\n  pass")
	if r.Error == nil || r.Error.Name != "SyntaxError" {
		t.Fatalf("syntax error %+v", r.Error)
	}
	// A notebook's shell line or magic is named, with what to do instead,
	// not left as a bare "invalid syntax".
	for code, want := range map[string]string{
		"import os\n!ls /mnt/data": "A shell command (!ls) does not run here",
		"%pip install polars":      "An IPython magic (%pip) does not run here",
	} {
		r = run(t, s, code)
		if r.Error == nil || r.Error.Name != "SyntaxError" || !strings.Contains(r.Error.Value, want) ||
			!strings.Contains(r.Error.Value, "os.listdir('/mnt/data')") {
			t.Fatalf("%q: error %+v", code, r.Error)
		}
	}
	r = run(t, s, "raise SystemExit(3)")
	if r.Error == nil || r.Error.Name != "SystemExit" {
		t.Fatalf("SystemExit %+v", r.Error)
	}
	assertAlive(t, s, "a", "1")
}

// TestSession_TracebackShowsEarlierCells: a function, a lambda or a
// generator made in one cell and failing in a later one shows its own
// cell's line; the failing cell shows its own. A cell that makes no such
// code leaves nothing behind (worker.py drops its lines).
func TestSession_TracebackShowsEarlierCells(t *testing.T) {
	s := openSession(t, sharedPool(t))
	runOK(t, s, "def f(d):\n    return d['in_f']")
	runOK(t, s, "g = lambda d: d['in_lambda']\ngen = (d['in_gen'] for d in [{}])")
	runOK(t, s, "plain = 1")
	for code, line := range map[string]string{
		"f({})":         "return d['in_f']",
		"g({})":         "g = lambda d: d['in_lambda']",
		"next(gen)":     "gen = (d['in_gen'] for d in [{}])",
		"z = {}['now']": "z = {}['now']",
	} {
		r := run(t, s, code)
		if r.Error == nil || r.Error.Name != "KeyError" {
			t.Fatalf("%s: error %+v", code, r.Error)
		}
		if tb := r.Error.String(); !strings.Contains(tb, line) {
			t.Errorf("%s: the traceback does not show %q:\n%s", code, line, tb)
		}
	}
	r := runOK(t, s, "import linecache\nsorted(k for k in linecache.cache if k.startswith('<cell-'))")
	if want := "['<cell-1>', '<cell-2>', '<cell-8>']"; r.Value.Text != want {
		t.Errorf("cells kept in linecache: %s, want %s (the definitions, and this cell's generator)", r.Value.Text, want)
	}
}

func TestSession_Figures(t *testing.T) {
	s := openSession(t, sharedPool(t))
	code := `import matplotlib.pyplot as plt
plt.plot([1, 2, 3], [3, 1, 2])
plt.title("売上 매출 sales")
plt.show()
fig, ax = plt.subplots(figsize=(4, 3))
ax.bar(["一", "二"], [1, 2])`
	r := runOK(t, s, code)
	if len(r.Figures) != 2 {
		t.Fatalf("got %d figures, want 2 (stderr %q)", len(r.Figures), r.Stderr)
	}
	for _, f := range r.Figures {
		if !bytes.HasPrefix(f.PNG, []byte("\x89PNG")) || f.Width < 100 || f.Height < 100 {
			t.Fatalf("figure %dx%d, %d bytes", f.Width, f.Height, len(f.PNG))
		}
	}
	if strings.Contains(r.Stderr, "missing from current font") {
		t.Fatalf("CJK glyphs missing: %s", r.Stderr)
	}
	if r := runOK(t, s, "len(plt.get_fignums())"); r.Value.Text != "0" || len(r.Figures) != 0 {
		t.Fatalf("figures leaked into the next cell: %+v", r.Value)
	}
	// seaborn resets the family to the generic sans-serif; CJK must survive.
	r = runOK(t, s, "import seaborn as sns\nsns.set_theme()\nsns.barplot(x=['東京', '서울'], y=[1, 2])")
	if len(r.Figures) != 1 || strings.Contains(r.Stderr, "missing from current font") {
		t.Fatalf("seaborn chart: %d figures, stderr %q", len(r.Figures), r.Stderr)
	}
}

func TestSession_FigureCap(t *testing.T) {
	s := openSession(t, sharedPool(t))
	r := runOK(t, s, "import matplotlib.pyplot as plt\nfor i in range(12):\n    plt.figure(figsize=(1, 1))")
	if len(r.Figures) != 10 || !r.Truncated || !strings.Contains(r.Stderr, "2 figure(s) dropped") {
		t.Fatalf("figures %d truncated %v stderr %q", len(r.Figures), r.Truncated, r.Stderr)
	}
}

func TestSession_Files(t *testing.T) {
	ctx := context.Background()
	s := openSession(t, sharedPool(t))
	if err := s.PutFile(ctx, "in/sales.csv", strings.NewReader("region,amount\nnorth,3\nsouth,4\n")); err != nil {
		t.Fatal(err)
	}
	r := runOK(t, s, "import pandas as pd\ndf = pd.read_csv('/mnt/data/in/sales.csv')\ndf.to_csv('total.csv')\nint(df.amount.sum())")
	if r.Value.Text != "7" {
		t.Fatalf("sum %+v", r.Value)
	}
	if len(r.Files) != 1 || r.Files[0].Name != "total.csv" || r.Files[0].Size == 0 {
		t.Fatalf("changed files %+v, want only total.csv", r.Files)
	}
	got, err := s.GetFile(ctx, "/mnt/data/total.csv")
	if err != nil || !bytes.Contains(got, []byte("north")) {
		t.Fatalf("GetFile: %q, %v", got, err)
	}
	list, err := s.ListFiles(ctx)
	if err != nil || len(list) != 2 || list[0].Name != "in/sales.csv" || list[1].Name != "total.csv" {
		t.Fatalf("ListFiles: %+v, %v", list, err)
	}
	if err := s.DeleteFile(ctx, "total.csv"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetFile(ctx, "total.csv"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("GetFile after delete: %v, want fs.ErrNotExist", err)
	}
	for _, bad := range []string{"../etc/passwd", "/etc/passwd", "a/../../b", ""} {
		if _, err := s.GetFile(ctx, bad); err == nil || errors.Is(err, fs.ErrNotExist) {
			t.Errorf("GetFile(%q) = %v, want invalid name", bad, err)
		}
	}
}

func TestSession_Interrupt(t *testing.T) {
	s := openSession(t, sharedPool(t))
	runOK(t, s, "kept = 'yes'")
	done := make(chan *Result, 1)
	var started atomic.Bool
	ctx := WithOutput(context.Background(), func(text string) {
		if strings.Contains(text, "started") {
			started.Store(true)
		}
	})
	go func() {
		r, err := s.Exec(ctx, "import time\nprint('started', flush=True)\nfor i in range(600):\n    time.sleep(0.05)")
		if err != nil {
			t.Errorf("Exec: %v", err)
		}
		done <- r
	}()
	waitFor(t, "the cell to start", started.Load)
	if err := s.Interrupt(); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-done:
		if r == nil || r.Error == nil || r.Error.Name != "KeyboardInterrupt" || r.TimedOut {
			t.Fatalf("result %+v", r)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("interrupt did not stop the cell")
	}
	assertAlive(t, s, "kept", "'yes'")
	if err := s.Interrupt(); err != nil { // idle: a no-op that must not break the kernel
		t.Fatal(err)
	}
	assertAlive(t, s, "kept", "'yes'")
	// A signal that arrives after its cell ended must not hit the next one.
	cell, _ := s.runningCell()
	if err := s.w.interrupt(cell); err != nil {
		t.Fatal(err)
	}
	runOK(t, s, "import time\ntime.sleep(0.2)\nkept = 'still'")
	assertAlive(t, s, "kept", "'still'")
}

// failingReader yields n bytes, then an error, like a broken upload.
type failingReader struct{ n int }

func (r *failingReader) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, errors.New("connection reset")
	}
	k := min(len(p), r.n)
	r.n -= k
	return k, nil
}

func TestSession_PutFileAbortLeavesNothing(t *testing.T) {
	ctx := context.Background()
	s := openSession(t, sharedPool(t))
	if err := s.PutFile(ctx, "partial.csv", &failingReader{n: 3 << 20}); err == nil || !strings.Contains(err.Error(), "connection reset") {
		t.Fatalf("PutFile = %v, want the reader's error", err)
	}
	list, err := s.ListFiles(ctx)
	if err != nil || len(list) != 0 {
		t.Fatalf("after the aborted upload: %+v, %v", list, err)
	}
	assertAlive(t, s, "1", "1")
}

func TestSession_ExecContextCancelInterrupts(t *testing.T) {
	s := openSession(t, sharedPool(t))
	runOK(t, s, "kept = 3")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := s.Exec(ctx, "import time\ntime.sleep(30)"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Exec = %v, want the context's error", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("cancelled cell ran for %s", d)
	}
	assertAlive(t, s, "kept", "3")
}

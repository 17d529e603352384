package sandbox

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// A cell's output reaches the host while it runs: the first line arrives
// before the cell ends (the test stops the cell when it sees the line; a
// cell whose output came only at the end would run into its timeout).
func TestSession_StreamsOutputWhileRunning(t *testing.T) {
	s := openSession(t, sharedPool(t))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var mu sync.Mutex
	var got strings.Builder
	ctx = WithOutput(ctx, func(text string) {
		mu.Lock()
		defer mu.Unlock()
		got.WriteString(text)
		if strings.Contains(got.String(), "first line") {
			cancel()
		}
	})
	_, err := s.Exec(ctx, "import time\nprint('first line', flush=True)\nfor _ in range(600):\n    time.sleep(0.1)\nprint('never')")
	if err == nil {
		t.Fatal("the cell ran to its end: its first line never streamed")
	}
	mu.Lock()
	defer mu.Unlock()
	if got.String() != "first line\n" {
		t.Fatalf("streamed %q", got.String())
	}
	if r := runOK(t, s, "print('after')"); r.Stdout != "after\n" {
		t.Fatalf("next cell: %q", r.Stdout)
	}
}

// Streaming keeps the output cap: a cell that prints three times the cap
// and then waits streams exactly the cap (the test stops it then; a cell
// whose stream ignored the cap, or never reached it, would run into its
// timeout instead).
func TestSession_StreamKeepsOutputCap(t *testing.T) {
	s := openSession(t, sharedPool(t))
	max := s.cfg.MaxOutputBytes
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var streamed int
	ctx = WithOutput(ctx, func(text string) {
		if streamed += len(text); streamed >= max {
			cancel()
		}
	})
	_, err := s.Exec(ctx, "import time\nfor i in range(30000):\n    print('x' * 99)\nwhile True:\n    time.sleep(0.05)")
	if err == nil || streamed != max {
		t.Fatalf("streamed %d bytes, cap %d (exec error %v)", streamed, max, err)
	}
}

// Without WithOutput nothing streams and the reply is as before.
func TestSession_NoStreamByDefault(t *testing.T) {
	s := openSession(t, sharedPool(t))
	if r := runOK(t, s, "print('a')\nprint('b')"); r.Stdout != "a\nb\n" {
		t.Fatalf("stdout %q", r.Stdout)
	}
}

// A figure the cell saves, or shows, reaches the host while the cell runs:
// the test stops the cell once all came (a cell whose figures came only
// with its reply would run into its timeout). The saved one comes as the
// file's bytes under its name.
func TestSession_StreamsFiguresWhileRunning(t *testing.T) {
	s := openSession(t, sharedPool(t))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	type live struct {
		name string
		fig  Figure
	}
	var mu sync.Mutex
	var got []live
	var printed strings.Builder
	ctx = WithFigures(ctx, func(f Figure, name string) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, live{name, f})
	})
	ctx = WithOutput(ctx, func(text string) {
		mu.Lock()
		defer mu.Unlock()
		printed.WriteString(text)
		if strings.Contains(printed.String(), "shown") {
			cancel() // text and figures share one line: every figure of show() came before
		}
	})
	_, err := s.Exec(ctx, "import time\nimport matplotlib.pyplot as plt\n"+
		"print('before', flush=True)\nplt.plot([1, 3, 2])\nplt.savefig('live.png')\n"+
		"plt.figure(); plt.bar(['a'], [1]); plt.show()\nprint('shown', flush=True)\n"+
		"for _ in range(600):\n    time.sleep(0.1)")
	if err == nil {
		t.Fatal("the cell ran to its end: its figures never streamed")
	}
	mu.Lock()
	defer mu.Unlock()
	// show() flushes every open figure, as matplotlib-inline does, but
	// sends again no figure a savefig sent and nothing changed since.
	if len(got) != 2 || got[0].name != "live.png" || got[1].name != "" {
		var names []string
		for _, g := range got {
			names = append(names, fmt.Sprintf("%q (%d bytes)", g.name, len(g.fig.PNG)))
		}
		t.Fatalf("live figures %v (exec: %v)", names, err)
	}
	for _, g := range got {
		if g.fig.Width < 100 || g.fig.Height < 100 {
			t.Fatalf("figure %q is %dx%d, not a PNG", g.name, g.fig.Width, g.fig.Height)
		}
	}
	if printed.String() != "before\nshown\n" {
		t.Fatalf("printed %q", printed.String())
	}
	saved, err := s.GetFile(context.Background(), "live.png")
	if err != nil || string(saved) != string(got[0].fig.PNG) {
		t.Fatalf("the live figure is not the saved file (%d bytes, err %v)", len(saved), err)
	}
}

// Live figures keep the figure cap, and a cell that asks for none (no
// WithFigures) gets none; either way the reply still has its figures.
func TestSession_LiveFiguresKeepTheCap(t *testing.T) {
	s := openSession(t, sharedPool(t))
	code := "import matplotlib.pyplot as plt\nfor i in range(15):\n    plt.figure(); plt.plot([i, 1]); plt.savefig('f%d.png' % i)\nplt.close('all')\nplt.plot([1, 2])"
	var n int
	ctx := WithOutput(context.Background(), func(string) {})
	ctx = WithFigures(ctx, func(Figure, string) { n++ })
	r, err := s.Exec(ctx, code)
	if err != nil || r.Error != nil {
		t.Fatalf("exec: %v %v", err, r.Error)
	}
	if n != s.cfg.MaxFigures || len(r.Figures) != 1 {
		t.Fatalf("%d live figures (cap %d), %d in the reply", n, s.cfg.MaxFigures, len(r.Figures))
	}
	r, err = s.Exec(WithOutput(context.Background(), func(string) {}), code)
	if err != nil || len(r.Figures) != 1 {
		t.Fatalf("without WithFigures: %v, %d figures", err, len(r.Figures))
	}
}

// A stopped cell loses none of its output: what it printed in the last
// moments before the interrupt streams too, so the streamed text ends with
// the last number the kernel printed (it keeps it in a variable).
func TestSession_StopStreamsEveryLine(t *testing.T) {
	s := openSession(t, sharedPool(t))
	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	var got strings.Builder
	ctx = WithOutput(ctx, func(text string) {
		mu.Lock()
		defer mu.Unlock()
		got.WriteString(text)
	})
	time.AfterFunc(time.Second, cancel)
	_, err := s.Exec(ctx, "import time\nfor i in range(100000):\n    print(i, flush=True); last = i\n    time.sleep(0.02)")
	if err == nil {
		t.Fatal("the cell was not stopped")
	}
	last := strings.TrimSpace(runOK(t, s, "print(last)").Stdout)
	mu.Lock()
	defer mu.Unlock()
	lines := strings.Split(strings.TrimSpace(got.String()), "\n")
	if lines[len(lines)-1] != last || len(lines) < 10 {
		t.Fatalf("streamed %d lines ending %q; the kernel printed up to %s", len(lines), lines[len(lines)-1], last)
	}
}

// A figure changed after its savefig is sent again by show(): what shows
// is what the figure has become.
func TestSession_LiveFigureChangedAfterSaveIsShownAgain(t *testing.T) {
	s := openSession(t, sharedPool(t))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var mu sync.Mutex
	var names []string
	var printed strings.Builder
	ctx = WithFigures(ctx, func(f Figure, name string) {
		mu.Lock()
		defer mu.Unlock()
		names = append(names, name)
	})
	ctx = WithOutput(ctx, func(text string) {
		mu.Lock()
		defer mu.Unlock()
		printed.WriteString(text)
		if strings.Contains(printed.String(), "shown") {
			cancel()
		}
	})
	s.Exec(ctx, "import time\nimport matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\nplt.savefig('a.png')\n"+
		"plt.title('changed'); plt.show()\nprint('shown', flush=True)\ntime.sleep(60)")
	mu.Lock()
	defer mu.Unlock()
	if len(names) != 2 || names[0] != "a.png" || names[1] != "" {
		t.Fatalf("live figures %q, want the saved one, then the changed one", names)
	}
}

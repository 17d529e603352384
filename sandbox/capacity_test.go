package sandbox

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// unit is what every kernel measures in the capacity tests, so that the
// budget holds an exact number of kernels whatever the machine.
const unit = 100 << 20

// budgetPool makes a pool whose budget holds kernels (warm ones included)
// of exactly one unit each.
func budgetPool(t *testing.T, kernels float64, edit ...func(*Config)) *Pool {
	t.Helper()
	cfg := sharedConfig()
	cfg.Warm = 1
	cfg.RefillParallel = 1
	cfg.MemoryBudget = int64(kernels * unit)
	cfg.memoryOf = func(int) int64 { return unit }
	cfg.templateMemoryOf = func(int) int64 { return 0 } // the budget holds whole kernels, nothing else
	for _, e := range edit {
		e(&cfg)
	}
	return newTestPool(t, cfg)
}

// ownedSession opens a session for owner and runs a cell in it, so that the
// sessions' last use is in the order they were opened.
func ownedSession(t *testing.T, p *Pool, owner string) *Session {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	s, err := p.SessionFor(ctx, owner)
	if err != nil {
		t.Fatalf("SessionFor(%s): %v", owner, err)
	}
	t.Cleanup(func() { s.Close() })
	runOK(t, s, "x = 1")
	last := s.LastActive()
	waitFor(t, "a later last-use time", func() bool { return time.Now().After(last) }) // sessions' last uses are distinct
	return s
}

func evicted(s *Session) bool {
	st, _ := s.phase()
	return st == stateEvicted
}

// TestEviction_LeastRecentlyUsedIdleGoes fills a budget of three kernels
// and asks for a fourth: the least recently used idle kernel is evicted,
// not refused, and the others stay live.
func TestEviction_LeastRecentlyUsedIdleGoes(t *testing.T) {
	p := budgetPool(t, 3.5)
	a, b, c := ownedSession(t, p, "ana"), ownedSession(t, p, "ben"), ownedSession(t, p, "cy")
	runOK(t, a, "x = 2") // a is now the most recently used; b the least
	d := ownedSession(t, p, "dee")
	if !evicted(b) || evicted(a) || evicted(c) || evicted(d) {
		t.Fatalf("evicted a=%v b=%v c=%v d=%v, want only b; %+v", evicted(a), evicted(b), evicted(c), evicted(d), p.Stats())
	}
	if st := p.Stats(); st.Evictions != 1 || st.Evicted != 1 || st.Live != 3 || st.Used > st.Budget {
		t.Fatalf("stats %+v", st)
	}
}

// TestEviction_OwnerOverShareLosesOwnFirst: with three kernels and two
// owners, the owner holding two loses their own oldest idle kernel, even
// though the other owner's is older.
func TestEviction_OwnerOverShareLosesOwnFirst(t *testing.T) {
	p := budgetPool(t, 3.5)
	ben := ownedSession(t, p, "ben")
	ana1, ana2 := ownedSession(t, p, "ana"), ownedSession(t, p, "ana")
	ownedSession(t, p, "ben")
	if !evicted(ana1) || evicted(ben) || evicted(ana2) {
		t.Fatalf("evicted ben=%v ana1=%v ana2=%v, want ana1 (ana held more than her share)", evicted(ben), evicted(ana1), evicted(ana2))
	}
}

// TestQueue_BusyKernelsAreNeverEvicted: when every kernel is running code,
// new sessions wait in line, in order, are told their place, and get a
// kernel as soon as one goes idle; the running cells finish untouched.
func TestQueue_BusyKernelsAreNeverEvicted(t *testing.T) {
	p := budgetPool(t, 2.5)
	a, b := ownedSession(t, p, "ana"), ownedSession(t, p, "ben")
	var cells sync.WaitGroup
	results := make([]*Result, 2)
	for i, s := range []*Session{a, b} {
		cells.Add(1)
		go func() {
			defer cells.Done()
			results[i], _ = s.Exec(context.Background(), "import time\ntime.sleep(2)\nprint('slept')")
		}()
	}
	waitFor(t, "both cells to run", func() bool { return p.Stats().Busy == 2 })
	type claim struct {
		s      *Session
		err    error
		places []int
		at     time.Time
	}
	claims := make([]*claim, 2)
	var wg sync.WaitGroup
	for i := range claims {
		c := &claim{}
		claims[i] = c
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx := WithWaitTrace(context.Background(), func(pos int) { c.places = append(c.places, pos) })
			c.s, c.err = p.SessionFor(ctx, "cy")
			c.at = time.Now()
		}()
		waitFor(t, "the claim to be in line", func() bool { return p.Stats().Queued == i+1 }) // the first claim is first
	}
	wg.Wait()
	cells.Wait()
	for i, r := range results {
		if r == nil || strings.TrimSpace(r.Stdout) != "slept" {
			t.Fatalf("busy cell %d was disturbed: %+v", i, r)
		}
	}
	for i, c := range claims {
		if c.err != nil {
			t.Fatalf("claim %d: %v", i, c.err)
		}
		defer c.s.Close()
	}
	// The second claim was told it was 2nd; when its turn came an idle
	// kernel could be evicted at once, so it was not told again.
	if !slices.Equal(claims[0].places, []int{1}) || !slices.Equal(claims[1].places, []int{2}) {
		t.Fatalf("places told: first %v, second %v; want [1] and [2]", claims[0].places, claims[1].places)
	}
	if claims[1].at.Before(claims[0].at) {
		t.Fatal("the second claim in line was served first")
	}
	if st := p.Stats(); st.QueuedTotal != 2 || st.Evictions != 2 {
		t.Fatalf("stats %+v: want 2 queued and 2 evictions", st)
	}
}

// TestQueue_Limits: a full line and a long wait are refused with errors
// that say so; nothing else is.
func TestQueue_Limits(t *testing.T) {
	p := budgetPool(t, 1.5, func(c *Config) { c.MaxQueue, c.QueueTimeout = 1, time.Second })
	a := ownedSession(t, p, "ana")
	done := make(chan struct{})
	go func() {
		defer close(done)
		a.Exec(context.Background(), "import time\ntime.sleep(3)")
	}()
	waitFor(t, "the cell to run", func() bool { return p.Stats().Busy == 1 })
	waited := make(chan error, 1)
	go func() {
		_, err := p.SessionFor(context.Background(), "ben")
		waited <- err
	}()
	waitFor(t, "ben to be in line", func() bool { return p.Stats().Queued == 1 })
	if _, err := p.SessionFor(context.Background(), "cy"); !errors.Is(err, ErrQueueFull) {
		t.Fatalf("claim on a full line: %v, want ErrQueueFull", err)
	}
	if err := <-waited; !errors.Is(err, ErrQueueTimeout) {
		t.Fatalf("claim after the wait limit: %v, want ErrQueueTimeout", err)
	}
	<-done
	if st := p.Stats(); st.Refused != 1 || st.Queued != 0 {
		t.Fatalf("stats %+v", st)
	}
}

// restoreSetup is a session's worth of state: a DataFrame, a dict, a
// fitted model of a class the user defined, a function, a module alias,
// files, an alias of the frame, and two things that cannot be kept.
const restoreSetup = `
import numpy as np, pandas as pd, os
df = pd.DataFrame({"a": np.arange(100_000), "b": np.arange(100_000) * 0.5, "c": ["x", "y"] * 50_000})
df["d"] = pd.to_datetime("2024-01-01") + pd.to_timedelta(df["a"], unit="h")
same = df
totals = {"sum": int(df["a"].sum()), "tags": ["q1", "q2"]}

class Line:
    def fit(self, x, y):
        self.coef = np.polyfit(x, y, 1)
        return self
    def predict(self, x):
        return np.polyval(self.coef, x)

model = Line().fit(df["a"], df["b"])
def double(v):
    return 2 * v
gen = (i for i in range(3))
square = lambda v: v * v
df.head(1000).to_csv("head.csv", index=False)
os.makedirs("out", exist_ok=True)
open("out/notes.txt", "w").write("kept")
`

// restoreCheck prints what must have survived, one fact a line.
const restoreCheck = `
print(df.shape, int(df["a"].sum()), str(df["d"].iloc[-1]), df["c"].iloc[1])
print(same is df, totals)
print(round(float(model.predict(10)), 3), double(21), np.pi > 3)
print(len(pd.read_csv("head.csv")), open("out/notes.txt").read())
df.loc[0, "a"] = -1
print(int(df["a"].min()))
`

// TestRestore_SessionComesBackAsItWas evicts a session and uses it again:
// variables, objects of the user's classes, functions, modules and files
// are back, with their times; what could not be kept is named once.
func TestRestore_SessionComesBackAsItWas(t *testing.T) {
	p := budgetPool(t, 8)
	s := ownedSession(t, p, "ana")
	runOK(t, s, restoreSetup)
	before, err := s.ListFiles(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	evictNow(t, p, s)
	if !evicted(s) {
		t.Fatal("the session was not evicted")
	}
	r := runOK(t, s, restoreCheck)
	want := "(100000, 4) 4999950000 2035-05-29 15:00:00 y\nTrue {'sum': 4999950000, 'tags': ['q1', 'q2']}\n5.0 42 True\n1000 kept\n-1\n"
	if r.Stdout != want {
		t.Fatalf("after restore:\n%s\nwant:\n%s", r.Stdout, want)
	}
	if r.Restored == nil {
		t.Fatal("the first cell after a restore has no RestoreReport")
	}
	lost := map[string]string{}
	for _, l := range r.Restored.Lost {
		lost[l.Name] = l.Reason
	}
	if len(lost) != 2 || !strings.Contains(lost["gen"], "generator") || !strings.Contains(lost["square"], "lambda") {
		t.Fatalf("lost %v, want gen (a generator) and square (a lambda)", lost)
	}
	if r.Restored.Files != 2 || len(r.Files) != 0 {
		t.Fatalf("files restored %d, reported changed %v: want 2 and none", r.Restored.Files, r.Files)
	}
	after, _ := s.ListFiles(context.Background())
	if len(after) != len(before) || !after[0].ModTime.Equal(before[0].ModTime) {
		t.Fatalf("files before %v, after %v", before, after)
	}
	if again := runOK(t, s, "1"); again.Restored != nil {
		t.Fatal("the restore was reported twice")
	}
	if st := p.Stats(); st.Restores != 1 || st.Evicted != 0 {
		t.Fatalf("stats %+v", st)
	}
}

// TestRestore_EndedWhileEvicted: an evicted session that times out is gone
// for good, its saved state removed.
func TestRestore_EndedWhileEvicted(t *testing.T) {
	p := budgetPool(t, 8, func(c *Config) { c.IdleTimeout = 2 * time.Second })
	s := ownedSession(t, p, "ana")
	evictNow(t, p, s)
	s.mu.Lock()
	dir := s.saved.dir
	s.mu.Unlock()
	if err := waitDone(t, s, 5*time.Second); !errors.Is(err, ErrIdleTimeout) {
		t.Fatalf("Err = %v", err)
	}
	if _, err := s.Exec(context.Background(), "1"); !errors.Is(err, ErrIdleTimeout) {
		t.Fatalf("Exec on the ended session: %v", err)
	}
	waitFor(t, "the saved state to go", func() bool {
		_, err := os.Stat(dir)
		return errors.Is(err, fs.ErrNotExist)
	})
}

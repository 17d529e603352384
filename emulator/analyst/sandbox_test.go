package analyst

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/sandbox"
)

// update rewrites testdata/profiles from what the loader prints in the sandbox:
// go test ./emulator/analyst -run TestCorpus_Sandbox -update.
var update = flag.Bool("update", false, "rewrite testdata/profiles/*.json from the live loader")

var pool struct {
	once sync.Once
	p    *sandbox.Pool
	err  error
}

// sharedPool starts one sandbox pool for the test binary, or skips when isolation cannot be
// set up on this machine (the plan-only tests still run).
func sharedPool(t testing.TB) *sandbox.Pool {
	t.Helper()
	if testing.Short() {
		t.Skip("runs Python in the sandbox; skipped with -short")
	}
	pool.once.Do(func() {
		pool.p, pool.err = sandbox.NewPool(context.Background(), sandbox.Config{
			// Cells here take seconds; the long limit is for a busy machine
			// (the 2,000,000-row loader took over 90 s beside another suite).
			Warm: 1, CellTimeout: 5 * time.Minute, RefillParallel: 1,
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		})
	})
	if pool.err != nil {
		t.Skipf("sandbox unavailable: %v", pool.err)
	}
	return pool.p
}

func TestMain(m *testing.M) {
	code := m.Run()
	if pool.p != nil {
		pool.p.Close()
	}
	os.Exit(code)
}

// kernel runs cells in one sandbox session holding one file set.
type kernel struct {
	t    *testing.T
	sess *sandbox.Session
	ran  map[string]Cell // each distinct cell runs once
	figs map[string]int  // figures the kernel captured inline, per cell
}

func newKernel(t *testing.T, files []string) *kernel {
	t.Helper()
	return newKernelFrom(t, "testdata", files)
}

// newKernelFrom starts a sandbox session holding the files of a test data folder.
func newKernelFrom(t *testing.T, dir string, files []string) *kernel {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	sess, err := sharedPool(t).Session(ctx)
	if err != nil {
		t.Fatalf("session: %v", err)
	}
	t.Cleanup(func() { sess.Close() })
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := sess.PutFile(ctx, f, bytes.NewReader(b)); err != nil {
			t.Fatalf("put %s: %v", f, err)
		}
	}
	return &kernel{t: t, sess: sess, ran: map[string]Cell{}, figs: map[string]int{}}
}

// exec runs code, or returns the cell it already ran.
func (k *kernel) exec(code string) Cell {
	if c, ok := k.ran[code]; ok {
		return c
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r, err := k.sess.Exec(ctx, code)
	if err != nil {
		k.t.Fatalf("exec: %v", err)
	}
	c := toCell(code, r)
	k.ran[code], k.figs[code] = c, len(r.Figures)
	return c
}

// toCell converts a sandbox result the way the emulator's adapter does.
func toCell(code string, r *sandbox.Result) Cell {
	c := Cell{Code: code, Stdout: r.Stdout}
	if r.Value != nil {
		c.Value = r.Value.Text
	}
	if r.Error != nil {
		c.Error = &CellError{Name: r.Error.Name, Value: r.Error.Value}
	}
	for _, f := range r.Files {
		c.Files = append(c.Files, f.Name)
	}
	for _, rep := range r.Reports {
		c.Reports = append(c.Reports, Report{Kind: rep.Kind, Body: rep.Body})
	}
	return c
}

// hasResult reports whether the cell reported a result of the kind.
func hasResult(c Cell, kind string) bool {
	for _, m := range parseMarkers([]Cell{c}) {
		if m.str("kind") == kind {
			return true
		}
	}
	return false
}

// profileJSON is the profile a loading cell reported, as JSON.
func profileJSON(t testing.TB, load Cell) []byte {
	t.Helper()
	for _, r := range load.Reports {
		if r.Kind == profileReport {
			return append(append([]byte{}, r.Body...), '\n')
		}
	}
	t.Fatalf("the loading cell reported no profile:\n%s", load.Stdout)
	return nil
}

// loaded is a loading cell that reported the profile JSON p.
func loaded(code string, p []byte) Cell {
	return Cell{Code: code, Reports: []Report{{Kind: profileReport, Body: p}}}
}

// TestCorpus_Sandbox runs every phrasing's code in the real sandbox, one session per file set:
// the loader must print the golden profile, the cells must run without error, and the answer
// must carry the expected numbers and artifacts.
func TestCorpus_Sandbox(t *testing.T) {
	sets := map[string][]corpusCase{}
	var order []string
	for _, c := range allCases() {
		if sets[c.set] == nil {
			order = append(order, c.set)
		}
		sets[c.set] = append(sets[c.set], c)
	}
	var mu sync.Mutex
	passed, total := 0, 0
	for _, set := range order {
		cases := sets[set]
		t.Run(set, func(t *testing.T) {
			t.Parallel()
			ok := runSet(t, set, cases)
			mu.Lock()
			passed, total = passed+ok, total+len(cases)
			mu.Unlock()
		})
	}
	t.Cleanup(func() { t.Logf("corpus: %d of %d phrasings passed in the sandbox", passed, total) })
}

// runSet checks the cases of one file set and returns how many passed.
func runSet(t *testing.T, set string, cases []corpusCase) int {
	files := strings.Split(set, "+")
	k := newKernel(t, files)
	load := k.exec(profileCode(files, ""))
	live, err := parseProfile(load)
	if err != nil {
		t.Fatalf("profile: %v\n%s", err, load.Stdout)
	}
	if *update {
		if err := os.WriteFile(filepath.Join("testdata", "profiles", set+".json"), profileJSON(t, load), 0o644); err != nil {
			t.Fatal(err)
		}
	} else if golden := loadProfile(t, set); !reflect.DeepEqual(live, golden) {
		got, _ := json.Marshal(live)
		t.Fatalf("the loader's profile differs from testdata/profiles/%s.json; got\n%s", set, got)
	}
	ok := 0
	for _, c := range cases {
		if runCase(t, k, live, c) {
			ok++
		}
	}
	return ok
}

func runCase(t *testing.T, k *kernel, p *Profile, c corpusCase) bool {
	t.Helper()
	pl := makePlan(c.q, history(c.prior), p)
	var cells []Cell
	for _, code := range pl.Cells {
		cells = append(cells, k.exec(code))
	}
	answer := pl.Reply
	if answer == "" {
		answer = writeAnswer(&pl, cells)
	}
	if os.Getenv("ANALYST_DUMP") != "" {
		fmt.Printf("=== %s | %s\n%s\n\n", c.set, c.q, answer)
	}
	good := true
	for _, cell := range cells {
		if cell.Error != nil {
			t.Errorf("%q raised %s: %s\n%s", c.q, cell.Error.Name, cell.Error.Value, cell.Code)
			good = false
		}
	}
	for _, w := range c.want {
		if !strings.Contains(answer, w) {
			t.Errorf("%q: answer lacks %q:\n%s", c.q, w, answer)
			good = false
		}
	}
	// The golden rule of charts: no case may draw a blank one (the loader refuses to save it
	// and says "No chart:"), and every chart saved was also shown.
	if strings.Contains(answer, "No chart:") || wroteFile(cells, ".png") && k.figs[cells[len(cells)-1].Code] == 0 {
		t.Errorf("%q: a blank chart, or a chart saved but not shown:\n%s", c.q, answer)
		good = false
	}
	if c.intent == intentChart && (!wroteFile(cells, ".png") || k.figs[cells[len(cells)-1].Code] == 0) {
		t.Errorf("%q: no chart file written or no figure shown inline", c.q)
		good = false
	}
	return good
}

func wroteFile(cells []Cell, ext string) bool {
	for _, c := range cells {
		for _, f := range c.Files {
			if strings.HasSuffix(f, ext) {
				return true
			}
		}
	}
	return false
}

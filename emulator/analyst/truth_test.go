package analyst

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The truth corpus: analysts' questions over the files of testdata/truth (gen.py), each with
// the answer an analyst would accept, computed in the test by plain pandas and scipy — never
// by the analyst's own code. Every question is asked through the real planner loop (Rules.Next)
// and runs in the real sandbox. A case is right when the reply holds the expected value or
// verdict, or, for a question the rules are meant to decline, when it declines; an answer to a
// question meant to be declined is the worst outcome, "wrong with confidence".
//
// Cases register themselves by class from files of their own (truth_*_cases_test.go), so that
// each class grows without touching the others.

// truthCase is one question of the truth corpus.
type truthCase struct {
	class string   // the kind of question: see truthClasses
	files string   // data files under testdata/truth, joined by "+"
	q     string   // the question, as an analyst types it
	prior []string // earlier questions of the conversation, oldest first
	// ref is Python computing the expected answer from df, the first file as plain pandas
	// reads it (read replaces that reading when set). Its last line is the value: a number,
	// a string or a list of them; each must appear in the reply. Earlier lines are statements.
	// pd, np and scipy.stats as st are imported; p holds the first file's path.
	ref  string
	read string   // a Python expression for df instead of pd.read_csv(p)
	want []string // words the reply must hold (a verdict, a method's name), case-insensitive
	// avoid lists words the reply must not hold ("not normal" where the data are normal).
	avoid []string
	// last is Python computing the reply's exact last line, the answer format filled
	// ("f'@mean_fare[{df.Fare.mean():.2f}]'"), run as ref is.
	last string
	// decline marks a question the rules cannot answer as asked: the reply must say so, or
	// ask back, and run nothing but the loading cell.
	decline bool
}

// truthClasses orders the classes in the report.
var truthClasses = []string{"tests", "derived", "outliers", "conditions", "entity", "models",
	"constraints", "loader", "followup", "basic", "nearby"}

// truthCorpus gathers every class's cases; each cases file appends its own in an init.
var truthCorpus []truthCase

// truthOutcome is what became of one case.
type truthOutcome int

const (
	truthRight    truthOutcome = iota // the expected value or verdict, or declined as meant
	truthDeclined                     // declined or asked back although it is meant to be answered
	truthWrong                        // an answer without the expected value, or any answer where a decline was meant
)

func TestTruthCorpus_Sandbox(t *testing.T) {
	byFiles := map[string][]truthCase{}
	var order []string
	for _, c := range truthCorpus {
		if byFiles[c.files] == nil {
			order = append(order, c.files)
		}
		byFiles[c.files] = append(byFiles[c.files], c)
	}
	tally := newTruthTally()
	for _, files := range order {
		cases := byFiles[files]
		t.Run(files, func(t *testing.T) {
			t.Parallel()
			k := newTruthKernel(t, strings.Split(files, "+"))
			if *update {
				k.saveTruthProfile(files)
			}
			for _, c := range cases {
				tally.add(c.class, runTruthCase(t, k, c))
			}
		})
	}
	t.Cleanup(func() { t.Log("truth corpus, right / declined / wrong by class:\n" + tally.String()) })
}

// runTruthCase asks one question and judges the reply.
func runTruthCase(t *testing.T, k *kernel, c truthCase) truthOutcome {
	t.Helper()
	reply, analysed, err := k.ask(c.q, c.prior, strings.Split(c.files, "+"))
	if err != "" {
		t.Errorf("%s %q: a cell failed: %s", c.class, c.q, err)
		return truthWrong
	}
	if os.Getenv("ANALYST_DUMP") != "" {
		fmt.Printf("=== %s | %s | %s\n%s\n\n", c.class, c.files, c.q, reply)
	}
	if c.decline {
		if analysed {
			t.Errorf("%s %q: meant to be declined, but answered:\n%s", c.class, c.q, reply)
			return truthWrong
		}
		return truthRight
	}
	if !analysed {
		t.Errorf("%s %q: declined or asked back:\n%s", c.class, c.q, reply)
		return truthDeclined
	}
	if why := judgeReply(k, c, reply); why != "" {
		t.Errorf("%s %q: %s; the reply:\n%s", c.class, c.q, why, reply)
		return truthWrong
	}
	return truthRight
}

// judgeReply returns why a reply is not the expected answer, or "".
func judgeReply(k *kernel, c truthCase, reply string) string {
	low := strings.ToLower(reply)
	for _, w := range c.want {
		if !strings.Contains(low, strings.ToLower(w)) {
			return fmt.Sprintf("lacks %q", w)
		}
	}
	for _, w := range c.avoid {
		if strings.Contains(low, strings.ToLower(w)) {
			return fmt.Sprintf("holds %q", w)
		}
	}
	if c.last != "" {
		line, err := k.truth(truthCase{files: c.files, read: c.read, ref: c.last})
		if err != nil {
			return "the reference line failed: " + err.Error()
		}
		lines := strings.Split(strings.TrimSpace(reply), "\n")
		if got := strings.TrimSpace(lines[len(lines)-1]); got != fmt.Sprint(line[0]) {
			return fmt.Sprintf("ends with %q, want %q", got, line[0])
		}
	}
	if c.ref == "" {
		return ""
	}
	want, err := k.truth(c)
	if err != nil {
		return "the reference failed: " + err.Error()
	}
	for _, v := range want {
		if !replyHolds(reply, v) {
			return fmt.Sprintf("lacks the expected %v", v)
		}
	}
	return ""
}

// saveTruthProfile writes what the loader prints for the files to testdata/truth/profiles, for
// the plan-only tests (TestTruthDeclines_Plan) that run without a sandbox.
func (k *kernel) saveTruthProfile(files string) {
	load := k.exec(profileCode(strings.Split(files, "+"), ""))
	if err := os.WriteFile(filepath.Join("testdata", "truth", "profiles", files+".json"), profileJSON(k.t, load), 0o644); err != nil {
		k.t.Fatal(err)
	}
}

// TestTruthDeclines_Plan checks, without a sandbox, that every question meant to be declined
// is declined by the plan: a fast guard for the parse. The profiles are what the loader printed
// when last saved (go test ./emulator/analyst -run TestTruthCorpus_Sandbox -update).
func TestTruthDeclines_Plan(t *testing.T) {
	t.Parallel()
	for _, c := range truthCorpus {
		if !c.decline {
			continue
		}
		b, err := os.ReadFile(filepath.Join("testdata", "truth", "profiles", c.files+".json"))
		if err != nil {
			t.Fatalf("%s: %v (save the profiles with -update)", c.files, err)
		}
		var p Profile
		if err := json.Unmarshal(b, &p); err != nil {
			t.Fatal(err)
		}
		if pl := makePlan(c.q, history(c.prior), &p); pl.Reply == "" {
			t.Errorf("%s %q: meant to be declined, planned code:\n%s", c.files, c.q, clip(strings.Join(pl.Cells, "\n"), 300))
		}
	}
}

// newTruthKernel starts a sandbox session holding files of testdata/truth.
func newTruthKernel(t *testing.T, files []string) *kernel {
	t.Helper()
	return newKernelFrom(t, filepath.Join("testdata", "truth"), files)
}

// ask runs a question through the planner loop as the emulator does and returns the reply,
// whether any cell beyond the loading cell ran, and the first error a cell raised.
func (k *kernel) ask(q string, prior []string, files []string) (reply string, analysed bool, failed string) {
	turn := &Turn{Question: q, History: history(prior), Files: files}
	var r Rules
	for range 12 {
		step, err := r.Next(context.Background(), turn)
		if err != nil {
			return "", false, err.Error()
		}
		if step.Code == "" {
			return step.Text, analysed, failed
		}
		cell := k.exec(step.Code)
		if !strings.HasPrefix(step.Code, profileHeader) {
			analysed = true
		}
		if cell.Error != nil && failed == "" {
			failed = cell.Error.Name + ": " + cell.Error.Value
		}
		turn.Cells = append(turn.Cells, cell)
	}
	return "", analysed, "the planner ran 12 cells without replying"
}

// truth runs the case's reference in the kernel, in a scope of its own, and returns its values.
func (k *kernel) truth(c truthCase) ([]any, error) {
	read := c.read
	if read == "" {
		read = "pd.read_csv(p)"
	}
	lines := strings.Split(strings.TrimSpace(c.ref), "\n")
	var b strings.Builder
	b.WriteString("def _truth():\n    import json, pandas as pd, numpy as np, scipy.stats as st\n")
	fmt.Fprintf(&b, "    p = %s\n    df = %s\n", py("/mnt/data/"+strings.Split(c.files, "+")[0]), read)
	for _, l := range lines[:len(lines)-1] {
		b.WriteString("    " + l + "\n")
	}
	b.WriteString("    v = " + lines[len(lines)-1] + "\n")
	b.WriteString("    v = v.tolist() if hasattr(v, 'tolist') else v\n")
	b.WriteString("    return json.dumps(v if isinstance(v, list) else [v], default=str)\n")
	b.WriteString("print('TRUTH=' + _truth())\n")
	cell := k.exec(b.String())
	if cell.Error != nil {
		return nil, fmt.Errorf("%s: %s", cell.Error.Name, cell.Error.Value)
	}
	_, out, ok := strings.Cut(cell.Stdout, "TRUTH=")
	if !ok {
		return nil, fmt.Errorf("no value printed: %q", cell.Stdout)
	}
	var vs []any
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &vs); err != nil {
		return nil, err
	}
	return vs, nil
}

// replyNumber finds numbers as replies write them: 1,234.5, -0.12, 3.2e-05, 45%.
var replyNumber = regexp.MustCompile(`-?\d[\d,]*(?:\.\d+)?(?:[eE][-+]?\d+)?%?`)

// replyHolds reports whether the reply states v: a string as text, a number as some number
// of the reply rounded as shown (a share may be shown as a percentage).
func replyHolds(reply string, v any) bool {
	switch v := v.(type) {
	case string:
		return strings.Contains(strings.ToLower(reply), strings.ToLower(v))
	case bool:
		return true // a verdict is judged by want and avoid
	case float64:
		for _, s := range replyNumber.FindAllString(reply, -1) {
			if shownAs(s, v) {
				return true
			}
		}
	}
	return false
}

// shownAs reports whether s, as a reply shows a number, is v rounded to the digits shown.
func shownAs(s string, v float64) bool {
	percent := strings.HasSuffix(s, "%")
	s = strings.ReplaceAll(strings.TrimSuffix(s, "%"), ",", "")
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return false
	}
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant = s[:i]
		exp, _ = strconv.Atoi(s[i+1:])
	}
	decimals := 0
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		decimals = len(mant) - i - 1
	}
	tol := 0.5*math.Pow(10, float64(exp-decimals))*1.0001 + 1e-12
	if math.Abs(x-v) <= tol || percent && math.Abs(x-100*v) <= tol {
		return true
	}
	// Large numbers may be shown in thousands or millions ("1.2M"): not accepted; a rounded
	// integer shown whole is covered above.
	return false
}

// truthTally counts outcomes by class, safely from parallel subtests.
type truthTally struct {
	mu sync.Mutex
	n  map[string]*[3]int
}

func newTruthTally() *truthTally { return &truthTally{n: map[string]*[3]int{}} }

func (t *truthTally) add(class string, o truthOutcome) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.n[class] == nil {
		t.n[class] = &[3]int{}
	}
	t.n[class][o]++
}

// String is the report: one line a class, then the totals.
func (t *truthTally) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var b strings.Builder
	var total [3]int
	classes := append([]string{}, truthClasses...)
	for c := range t.n {
		if !slices.Contains(classes, c) {
			classes = append(classes, c)
		}
	}
	for _, c := range classes {
		n := t.n[c]
		if n == nil {
			continue
		}
		fmt.Fprintf(&b, "%-12s %4d right %4d declined %4d wrong\n", c, n[0], n[1], n[2])
		for i := range total {
			total[i] += n[i]
		}
	}
	fmt.Fprintf(&b, "%-12s %4d right %4d declined %4d wrong", "all", total[0], total[1], total[2])
	return b.String()
}

func TestShownAs(t *testing.T) {
	t.Parallel()
	cases := []struct {
		s    string
		v    float64
		want bool
	}{
		{"32.20", 32.204, true}, {"32.2", 32.26, false}, {"1,234", 1234.4, true}, {"1,234", 1235, false},
		{"38.3%", 0.383, true}, {"3.2e-05", 0.0000321, true}, {"3.2e-05", 0.000033, false}, {"-0.12", -0.121, true},
	}
	for _, c := range cases {
		if got := shownAs(c.s, c.v); got != c.want {
			t.Errorf("shownAs(%q, %v) = %v, want %v", c.s, c.v, got, c.want)
		}
	}
}

package analyst

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// corpusCase is one phrasing of the corpus: a question asked of a file set, perhaps after earlier
// questions of the same conversation, with what the plan and the executed answer must show.
type corpusCase struct {
	set    string   // file set: names joined by "+", a profile in testdata/profiles
	q      string   // the question
	prior  []string // earlier questions of the conversation, oldest first
	intent intent   // the intent the rules must choose
	cols   []string // columns the plan must use (as measure, key, filter or date)
	want   []string // substrings of the answer once the code ran: numbers, file names
	ask    bool     // the rules must ask back instead of running code
}

// files lists the data files of a file set.
func (c corpusCase) files() []string { return strings.Split(c.set, "+") }

// allCases is the whole corpus: the first file sets' phrasings, then the newer shapes'.
func allCases() []corpusCase { return append(append([]corpusCase{}, corpus...), corpusShapes...) }

var profiles struct {
	once sync.Once
	m    map[string]*Profile
	err  error
}

// loadProfile returns the golden profile of a file set, as the loading cell prints it; the
// sandbox test checks that the live loader still prints exactly this.
func loadProfile(t testing.TB, set string) *Profile {
	t.Helper()
	profiles.once.Do(func() {
		profiles.m = map[string]*Profile{}
		paths, _ := filepath.Glob("testdata/profiles/*.json")
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				profiles.err = err
				return
			}
			var prof Profile
			if err := json.Unmarshal(b, &prof); err != nil {
				profiles.err = err
				return
			}
			profiles.m[strings.TrimSuffix(filepath.Base(p), ".json")] = &prof
		}
	})
	if profiles.err != nil {
		t.Fatal(profiles.err)
	}
	p := profiles.m[set]
	if p == nil {
		t.Fatalf("no profile for file set %q", set)
	}
	return p
}

// history turns earlier questions into the conversation's messages.
func history(prior []string) []Message {
	var h []Message
	for _, q := range prior {
		h = append(h, Message{Role: "user", Text: q}, Message{Role: "assistant", Text: "Done."})
	}
	return h
}

// usedColumns lists every column a query touches.
func usedColumns(q Query) []string {
	cols := append(append([]string{}, q.Measures...), q.By...)
	for _, f := range q.Filters {
		cols = append(cols, f.Col)
	}
	if q.DateCol != "" {
		cols = append(cols, q.DateCol)
	}
	return append(cols, q.JoinOn)
}

// checkPlan asserts the intent and columns of one case; it reports instead of failing fast so
// that one run shows every miss.
func checkPlan(t *testing.T, c corpusCase, pl plan) {
	t.Helper()
	if pl.Query.Intent != c.intent {
		t.Errorf("%q: intent %q, want %q (reply %q)", c.q, pl.Query.Intent, c.intent, pl.Reply)
	}
	used := usedColumns(pl.Query)
	for _, col := range c.cols {
		if !slices.Contains(used, col) && !slices.Contains(pl.Query.Ambiguous, col) {
			t.Errorf("%q: columns %q do not include %q", c.q, used, col)
		}
	}
	runnable := !c.ask && c.intent != intentAmbig && c.intent != intentHelp && c.intent != intentBeyond
	if runnable && len(pl.Cells) == 0 {
		t.Errorf("%q: no code; reply %q", c.q, pl.Reply)
	}
	if !runnable && pl.Reply == "" {
		t.Errorf("%q: expected a reply without code", c.q)
	}
}

func TestCorpus_Plan(t *testing.T) {
	sets := map[string]bool{}
	cases := allCases()
	for _, c := range cases {
		sets[c.set] = true
		pl := makePlan(c.q, history(c.prior), loadProfile(t, c.set))
		checkPlan(t, c, pl)
		for _, code := range pl.Cells {
			if !strings.Contains(code, "frames") {
				t.Errorf("%q: code does not read a loaded frame:\n%s", c.q, code)
			}
		}
	}
	chains := 0
	for _, c := range cases {
		if len(c.prior) > 0 {
			chains++
		}
	}
	if len(cases) < 350 || chains < 60 || len(sets) < 8 {
		t.Errorf("corpus has %d phrasings (%d in conversations) over %d file sets, want at least 350 (60) over 8", len(cases), chains, len(sets))
	}
}

// TestCorpus_Deterministic: the same question on the same data gives the same code.
func TestCorpus_Deterministic(t *testing.T) {
	for _, c := range corpus[:40] {
		p := loadProfile(t, c.set)
		a := makePlan(c.q, history(c.prior), p)
		b := makePlan(c.q, history(c.prior), p)
		if !slices.Equal(a.Cells, b.Cells) || a.Reply != b.Reply {
			t.Errorf("%q: two plans differ", c.q)
		}
	}
}

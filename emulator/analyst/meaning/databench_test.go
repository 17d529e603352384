package meaning

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/analyst-workbench/workbench/emulator/analyst/internal/devtables"
	"github.com/analyst-workbench/workbench/emulator/analyst/schema"
)

// meaningScores count how DataBench's questions, written by others, are read: how many get a
// meaning, and of those how many use exactly the gold columns and ask for the gold answer's
// form (boolean → a verdict, list → a list, number or category → one value).
type meaningScores struct {
	questions, read, columns, forms int
}

// TestDataBenchMeanings reads DataBench's 1,308 train and dev questions against their tables
// (full for 001–003, else the columns questions use, without values) and holds the figures.
func TestDataBenchMeanings(t *testing.T) {
	qs, tables := devtables.Load(t)
	indexes := map[string]*schema.Index{}
	var sc meaningScores
	gaps, words := map[string]int{}, map[string]int{}
	var misread []string
	for _, q := range qs {
		ix := indexes[q.Dataset]
		if ix == nil {
			ix = schema.NewIndex(tables[q.Dataset])
			indexes[q.Dataset] = ix
		}
		sc.questions++
		s, r := ix.Read(q.Question)
		m, err := Read(s, r, ix)
		if err != nil {
			var g *Gap
			if os.Getenv("MEANING_GAPS") != "" {
				fmt.Printf("GAP %s | %s | %v\n", q.Dataset, q.Question, err)
			}
			if errors.As(err, &g) {
				gaps[g.Why]++
				if g.Why == "I did not understand" {
					words[strings.ToLower(g.Phrase)]++
				}
			}
			continue
		}
		sc.read++
		if os.Getenv("MEANING_SHOW") != "" && strings.Contains(q.Question, os.Getenv("MEANING_SHOW")) {
			fmt.Printf("%s\n  %+v\n  order %+v\n", q.Question, *m, m.Order)
		}
		cols := m.columns()
		sameCols := sameSet(cols, q.ColumnsUsed)
		sameForm := m.Form == goldForm(q.Type)
		if sameCols {
			sc.columns++
		}
		if sameForm {
			sc.forms++
		}
		if !sameCols || !sameForm {
			misread = append(misread, fmt.Sprintf("%s | %s | gold %v %s | got %v %s", q.Dataset, q.Question, q.ColumnsUsed, q.Type, cols, m.Form))
		}
	}
	pct := func(a, b int) float64 { return 100 * float64(a) / float64(max(b, 1)) }
	t.Logf("DataBench, %d questions: %d read (%.0f%%); of those, %.0f%% use exactly the gold columns and %.0f%% ask for the gold form",
		sc.questions, sc.read, pct(sc.read, sc.questions), pct(sc.columns, sc.read), pct(sc.forms, sc.read))
	if testing.Verbose() {
		var whys []string
		for w := range gaps {
			whys = append(whys, w)
		}
		sort.Slice(whys, func(i, j int) bool { return gaps[whys[i]] > gaps[whys[j]] })
		for _, w := range whys {
			t.Logf("%5d not read: %s", gaps[w], w)
		}
		var ws []string
		for w := range words {
			ws = append(ws, w)
		}
		sort.Slice(ws, func(i, j int) bool {
			return words[ws[i]] > words[ws[j]] || words[ws[i]] == words[ws[j]] && ws[i] < ws[j]
		})
		for _, w := range ws[:min(len(ws), 60)] {
			t.Logf("%5d not understood: %s", words[w], w)
		}
		for _, line := range misread {
			t.Log(line)
		}
	}
	if sc.read < 660 || pct(sc.columns, sc.read) < 93 || pct(sc.forms, sc.read) < 97 {
		t.Errorf("reading fell below its measured level: %d read, %.0f%% gold columns, %.0f%% gold forms",
			sc.read, pct(sc.columns, sc.read), pct(sc.forms, sc.read))
	}
}

// columns returns every column the meaning uses.
func (m *Meaning) columns() []string {
	var out []string
	add := func(c string) {
		if c != "" && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	for _, c := range m.Filters {
		add(c.Column)
		add(c.Than)
	}
	add(m.Group)
	if m.Order != nil {
		add(m.Order.Column)
	}
	add(m.Target)
	if m.Target == "" {
		add(m.Identifier)
	}
	if m.Check != nil {
		add(m.Check.Column)
	}
	return out
}

func goldForm(typ string) Form {
	switch {
	case typ == "boolean":
		return Verdict
	case strings.HasPrefix(typ, "list"):
		return List
	}
	return Value
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

package analyst

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The tests of issue 26's "answers repeat themselves": one result, shown once, the answer
// first. The step above a reply shows its result as a table (the cell's value, or a printed
// frame the app reads back), so the reply quotes the numbers that answer and points to it.

// mdDelimiter finds the delimiter row of a Markdown table.
var mdDelimiter = regexp.MustCompile(`(?m)^\|( ?:?-+:? ?\|)+$`)

// TestReplyDoesNotRepeatTheTable_Sandbox asks questions whose result is a table of rows and
// checks that the reply holds no Markdown table of them and leads with its answer.
func TestReplyDoesNotRepeatTheTable_Sandbox(t *testing.T) {
	cases := []struct {
		files, q string
		lead     string // what the first paragraph must hold
	}{
		{"stocks.csv", "show all rows where AAPL is above 100", "522 of 522 rows"},
		{"stocks.csv", "top 5 days by Volume", "150,000,000"},
		{"stocks.csv", "first 24 rows", "First 24 rows"},
		{"stocks.csv", "average AAPL by month", "The highest month was 2020-12"},
		{"passengers.csv", "average fare by class", "94.13"},
		{"degrees.csv", "which field grew the most", "**Agriculture** grew the most"},
		{"passengers.csv", "outliers in Fare", "outliers"},
	}
	kernels := map[string]*kernel{}
	for _, c := range cases {
		k := kernels[c.files]
		if k == nil {
			k = newTruthKernel(t, []string{c.files})
			kernels[c.files] = k
		}
		reply, _, failed := k.ask(c.q, nil, []string{c.files})
		if failed != "" {
			t.Fatalf("%q: a cell failed: %s", c.q, failed)
		}
		if mdDelimiter.MatchString(reply) {
			t.Errorf("%q: the reply repeats the step's table as Markdown:\n%s", c.q, reply)
		}
		if first, _, _ := strings.Cut(reply, "\n\n"); !strings.Contains(first, c.lead) {
			t.Errorf("%q: the first paragraph does not answer (want %q):\n%s", c.q, c.lead, reply)
		}
	}
}

// TestCellsShowTheirResultOnce plans the truth corpus's questions and checks that no cell both
// prints a frame and returns one as its value, and that a table of computed numbers per group
// or period is the cell's value (an interactive table), not 24 printed lines.
func TestCellsShowTheirResultOnce(t *testing.T) {
	t.Parallel()
	for _, c := range truthCorpus {
		if _, err := os.Stat(profilePath(c.files)); err != nil {
			continue // a file set whose profile is not saved (one file cannot be read)
		}
		for _, code := range plannedCells(t, c.files, c.q, c.prior) {
			if printsFrame(code) && returnsValue(code) {
				t.Errorf("%s %q: the cell prints a frame and returns one:\n%s", c.files, c.q, code)
			}
		}
	}
	for _, c := range []struct{ files, q string }{
		{"stocks.csv", "average AAPL by month"},
		{"passengers.csv", "average fare by class"},
	} {
		cells := plannedCells(t, c.files, c.q, nil)
		if len(cells) == 0 {
			t.Fatalf("%q: nothing planned", c.q)
		}
		if code := cells[len(cells)-1]; printsFrame(code) || !returnsValue(code) {
			t.Errorf("%q: the result should be the cell's value, not printed:\n%s", c.q, code)
		}
	}
}

// plannedCells plans a question over the saved profile of a truth file set.
func plannedCells(t *testing.T, files, q string, prior []string) []string {
	t.Helper()
	b, err := os.ReadFile(profilePath(files))
	if err != nil {
		t.Fatal(err)
	}
	var p Profile
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	return makePlan(q, history(prior), &p).Cells
}

// profilePath is where the loader's profile of a truth file set is saved.
func profilePath(files string) string {
	return filepath.Join("testdata", "truth", "profiles", files+".json")
}

// printsFrame reports whether code prints a frame's text form.
func printsFrame(code string) bool { return strings.Contains(code, ".to_string(") }

// returnsValue reports whether code ends with a bare expression, the value a notebook shows.
func returnsValue(code string) bool {
	lines := strings.Split(strings.TrimSpace(code), "\n")
	last := lines[len(lines)-1]
	return !strings.HasPrefix(last, " ") && !strings.Contains(last, "=") && !strings.HasPrefix(last, "print(") &&
		!strings.HasPrefix(last, "_emit(") && (strings.HasPrefix(last, "result") || strings.HasPrefix(last, "df"))
}

// TestGrowthReplyIsShort checks that a ranking of many series answers in its first sentence
// and keeps every paragraph to a few sentences: 17 fields make no 17-sentence paragraph.
func TestGrowthReplyIsShort(t *testing.T) {
	t.Parallel()
	var items []any
	for i := range 17 {
		items = append(items, map[string]any{"name": "Field " + string(rune('A'+i)), "first_date": 1970.0, "first": 50.0,
			"last_date": 2011.0, "last": 150.0 - float64(i)*5, "pct": 200.0 - float64(i)*10, "cagr": 2.5 - float64(i)*0.1})
	}
	reply := sentence(marker{"kind": "growth", "col": "every column", "items": items, "ranked": true})
	first, _, _ := strings.Cut(reply, ". ")
	if !strings.Contains(first, "**Field A** grew the most") || !strings.Contains(first, "+200.0%") {
		t.Errorf("the first sentence does not answer: %q", first)
	}
	for _, para := range strings.Split(reply, "\n\n") {
		if n := countSentences(para); n > 4 {
			t.Errorf("a paragraph of %d sentences:\n%s", n, para)
		}
	}
	if strings.Contains(reply, "Field H") {
		t.Errorf("the reply lists the middle of the ranking, which the table holds:\n%s", reply)
	}
}

// countSentences counts the sentences of a paragraph: full stops before a space or at its end
// (a decimal point is followed by a digit).
func countSentences(para string) int {
	para = strings.TrimSpace(para)
	return strings.Count(para, ". ") + strings.Count(para, ".\n") + boolInt(strings.HasSuffix(para, "."))
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestAnswerComesBeforeNotes checks that the reply leads with the answer, and that the notes on
// how a word was read and which rows were used follow it.
func TestAnswerComesBeforeNotes(t *testing.T) {
	t.Parallel()
	pl := plan{Query: Query{Notes: []string{"I read *class* as `Pclass`."}}}
	pl.Query.refine.Round = -1 // nothing asked
	cells := []Cell{{Reports: []Report{
		{Kind: resultReport, Body: []byte(`{"kind": "rows", "n": 216, "of": 600, "where": "Sex is female"}`)},
		{Kind: resultReport, Body: []byte(`{"kind": "stat", "col": "Fare", "agg": "mean", "value": 44.5, "n": 216}`)}}}}
	reply := writeAnswer(&pl, cells)
	if !strings.HasPrefix(reply, "The average of `Fare` is **44.50**") {
		t.Errorf("the reply does not start with its answer:\n%s", reply)
	}
	if !strings.Contains(reply, "I read *class* as `Pclass`.") || !strings.Contains(reply, "Using the 216 of 600 rows") {
		t.Errorf("the notes are lost:\n%s", reply)
	}
}

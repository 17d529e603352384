package analyst

import (
	"encoding/csv"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The development corpus (testdata/devcorpus, see its SOURCE) holds questions other people wrote
// about tables, with their answers: DataBench's train and dev questions and a sample of
// WikiTableQuestions' training questions. This file loads DataBench without a sandbox, for the
// harness in devcorpus_test.go and for measures that need no Python at all (schema linking:
// which columns a question names).

// devcorpusDir is the corpus's folder, relative to the package.
var devcorpusDir = filepath.Join("testdata", "devcorpus")

// dbQuestion is one DataBench question with what is known of its table.
type dbQuestion struct {
	Dataset  string // the table's name in DataBench, "001_Forbes"
	N        int    // the question's place among its dataset's questions, from 1
	Question string
	Answer   string // as the file writes it: True, 19.0, Automotive, ['United States', 'China']
	Type     string // boolean, number, category, list[category] or list[number]
	// ColumnsUsed are the columns DataBench's authors say the answer needs, parsed leniently
	// (the file's lists are hand-written, some not valid Python) and stripped of stray quotes.
	ColumnsUsed []string
	// Columns is the table's column list. Where the full table is at hand it is the table's
	// header; otherwise no table exists here to read it from, and it is the union of ColumnsUsed
	// over every question of the dataset, in order of first use — a lower bound of the real
	// list, so a schema-linking measure over it is easier than over the real table.
	Columns []string
	// Table is the full table's path when it is at hand (testdata/devcorpus/databench/tables),
	// else "": such a question can be parsed and linked but not asked.
	Table string
}

// dbSplits are DataBench's question files, in the order they are read.
var dbSplits = []string{"qa_train.csv", "qa_dev.csv"}

// loadDataBench reads every DataBench question of the corpus (1,308: train and dev), each with
// its table's columns. It needs no sandbox.
func loadDataBench(t testing.TB) []dbQuestion {
	t.Helper()
	var qs []dbQuestion
	for _, split := range dbSplits {
		f, err := os.Open(filepath.Join(devcorpusDir, "databench", split))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", split, err)
		}
		col := map[string]int{}
		for i, h := range rows[0] {
			col[h] = i
		}
		for _, name := range []string{"question", "answer", "type", "columns_used", "dataset"} {
			if _, ok := col[name]; !ok {
				t.Fatalf("%s: no column %q", split, name)
			}
		}
		for _, r := range rows[1:] {
			qs = append(qs, dbQuestion{
				Dataset: r[col["dataset"]], Question: r[col["question"]], Answer: r[col["answer"]],
				Type: r[col["type"]], ColumnsUsed: columnsUsed(r[col["columns_used"]]),
			})
		}
	}
	n := map[string]int{}
	used := map[string][]string{}
	for i := range qs {
		q := &qs[i]
		n[q.Dataset]++
		q.N = n[q.Dataset]
		for _, c := range q.ColumnsUsed {
			if !slices.Contains(used[q.Dataset], c) {
				used[q.Dataset] = append(used[q.Dataset], c)
			}
		}
	}
	header := map[string][]string{}
	for ds := range n {
		p := filepath.Join(devcorpusDir, "databench", "tables", ds+".csv")
		if h, err := csvHeader(p); err == nil {
			header[ds] = h
		} else if !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("%s: %v", p, err)
		}
	}
	for i := range qs {
		q := &qs[i]
		if h, ok := header[q.Dataset]; ok {
			q.Columns, q.Table = h, filepath.Join(devcorpusDir, "databench", "tables", q.Dataset+".csv")
		} else {
			q.Columns = used[q.Dataset]
		}
	}
	return qs
}

// csvHeader reads the first record of a CSV file.
func csvHeader(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h, err := csv.NewReader(f).Read()
	if err == io.EOF {
		return nil, errors.New("empty file")
	}
	return h, err
}

// columnsUsed parses a columns_used cell. Most are Python lists of quoted names, but some are
// written by hand: [Age, Survived], [What's your height? in cm 📏], ['What's your sexual
// orientation?'] (an apostrophe inside single quotes), [What's your nationality?"]" (stray
// quotes). Names are kept whole, stray quotes and brackets around them dropped.
func columnsUsed(s string) []string {
	var out []string
	for _, it := range pyListItems(s) {
		c := strings.Trim(it.text, " '\"")
		if !it.quoted {
			c = strings.TrimRight(strings.TrimLeft(c, "["), "]\"'")
		}
		if c != "" {
			out = append(out, c)
		}
	}
	return out
}

// pyItem is one item of a list as the corpus writes it.
type pyItem struct {
	text   string
	quoted bool // written in quotes: a string, never nan or a number
}

// pyListItems splits a list written the Python way, "['a', 'b, c', nan, 3]", into its items.
// A quoted item ends at its quote followed by a comma or the end, so an apostrophe inside
// ('What's') does not end it; an unquoted item ends at the next comma, or, when no item of
// the list is quoted, at the next ", " (hand-written lists of names with brackets inside:
// [image_links<gx:list[url]>]). Text that is not a list is one item.
func pyListItems(s string) []pyItem {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "[") {
		if s == "" {
			return nil
		}
		return []pyItem{{text: s}}
	}
	body := s[1:]
	if i := strings.LastIndexByte(body, ']'); i >= 0 {
		body = body[:i]
	}
	first := strings.TrimSpace(body)
	quoted := first != "" && (first[0] == '\'' || first[0] == '"') ||
		strings.Contains(body, ", '") || strings.Contains(body, `, "`)
	if !quoted {
		var out []pyItem
		for _, it := range strings.Split(body, ", ") {
			if it = strings.TrimSpace(it); it != "" {
				out = append(out, pyItem{text: it})
			}
		}
		return out
	}
	var out []pyItem
	for {
		body = strings.TrimLeft(body, " ,")
		if body == "" {
			return out
		}
		if q := body[0]; q == '\'' || q == '"' {
			end := -1
			for i := 1; i < len(body); i++ {
				if body[i] == q {
					if rest := strings.TrimLeft(body[i+1:], " "); rest == "" || rest[0] == ',' {
						end = i
						break
					}
				}
			}
			if end < 0 {
				return append(out, pyItem{text: body[1:], quoted: true})
			}
			out = append(out, pyItem{text: body[1:end], quoted: true})
			body = body[end+1:]
			continue
		}
		end := strings.IndexByte(body, ',')
		if end < 0 {
			end = len(body)
		}
		out = append(out, pyItem{text: strings.TrimSpace(body[:end])})
		body = body[end:]
	}
}

// TestDevCorpus_LoadDataBench checks the corpus as loaded: every question, its type known, and
// for the tables at hand, every column DataBench says a question uses is one of the table's.
func TestDevCorpus_LoadDataBench(t *testing.T) {
	t.Parallel()
	qs := loadDataBench(t)
	if len(qs) != 1308 {
		t.Errorf("%d DataBench questions, want 1,308 (988 train, 320 dev)", len(qs))
	}
	types := []string{"boolean", "number", "category", "list[category]", "list[number]"}
	datasets := map[string]bool{}
	atHand := 0
	for _, q := range qs {
		datasets[q.Dataset] = true
		if !slices.Contains(types, q.Type) {
			t.Errorf("%s/%d: type %q", q.Dataset, q.N, q.Type)
		}
		if len(q.Columns) == 0 {
			t.Errorf("%s: no columns", q.Dataset)
		}
		if q.Table == "" {
			continue
		}
		atHand++
		for _, c := range q.ColumnsUsed {
			if !slices.Contains(q.Columns, c) {
				t.Errorf("%s/%d %q: uses %q, not a column of the table", q.Dataset, q.N, q.Question, c)
			}
		}
	}
	if len(datasets) != 65 {
		t.Errorf("%d datasets, want 65 (001–065)", len(datasets))
	}
	t.Logf("%d DataBench questions over %d tables, %d of them about a table at hand", len(qs), len(datasets), atHand)
}

func TestPyListItems(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		want []string
	}{
		{`['finalWorth', 'selfMade']`, []string{"finalWorth", "selfMade"}},
		{`[Age, Survived]`, []string{"Age", "Survived"}},
		{`['What's your sexual orientation?']`, []string{"What's your sexual orientation?"}},
		{`[nan, 'Los Angeles', 'media, automotive']`, []string{"nan", "Los Angeles", "media, automotive"}},
		{`[image_links<gx:list[url]>]`, []string{"image_links<gx:list[url]>"}},
		{`[3, 10, 14]`, []string{"3", "10", "14"}},
		{`['[Computer Science]', '[Business]']`, []string{"[Computer Science]", "[Business]"}},
		{`Automotive`, []string{"Automotive"}},
		{`[]`, nil},
	}
	for _, c := range cases {
		var got []string
		for _, it := range pyListItems(c.in) {
			got = append(got, it.text)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("pyListItems(%s) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := columnsUsed(`[What's your nationality?"]"`); !slices.Equal(got, []string{"What's your nationality?"}) {
		t.Errorf("columnsUsed: %q", got)
	}
}

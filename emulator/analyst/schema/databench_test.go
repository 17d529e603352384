package schema

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/analyst-workbench/workbench/emulator/analyst/internal/devcorpus"
)

// corpusTables builds a Table per DataBench dataset. The corpus ships the full tables of
// 001–003 only: their headers and values are used. For every other dataset the columns are the
// union of columns_used over all its questions, typed by the corpus's column_types, without
// values — so those figures measure linking among the columns questions actually use.
func corpusTables(t *testing.T, qs []devcorpus.Question) map[string]*Table {
	tables := map[string]*Table{}
	for _, q := range qs {
		tb := tables[q.Dataset]
		if tb == nil {
			tb = fullTable(t, q.Dataset)
			// The dataset's name stands for the file name: "051_Pokemon".
			tb.File = strings.TrimLeft(q.Dataset, "0123456789_") + ".csv"
			tables[q.Dataset] = tb
		}
		for k, c := range q.ColumnsUsed {
			if !slices.ContainsFunc(tb.Columns, func(col Column) bool { return col.Name == c }) && k < len(q.ColumnTypes) {
				tb.Columns = append(tb.Columns, Column{Name: c, Type: corpusType(q.ColumnTypes[k])})
			}
		}
	}
	return tables
}

// fullTable reads a shipped table, or returns an empty one to be filled from the questions.
func fullTable(t *testing.T, dataset string) *Table {
	rows, err := devcorpus.Table(dataset)
	if err != nil || len(rows) < 2 {
		return &Table{}
	}
	tb := &Table{}
	for k, name := range rows[0] {
		var values []string
		for _, r := range rows[1:] {
			if k < len(r) && !slices.Contains(values, r[k]) {
				values = append(values, r[k])
			}
		}
		tb.Columns = append(tb.Columns, inferColumn(name, values))
	}
	return tb
}

// inferColumn types a shipped column from its values: True/False is boolean, numbers are
// numbers, few distinct values are categories.
func inferColumn(name string, values []string) Column {
	numeric, boolean := true, true
	for _, v := range values {
		if _, err := strconv.ParseFloat(v, 64); err != nil && v != "" {
			numeric = false
		}
		if v != "True" && v != "False" {
			boolean = false
		}
	}
	switch {
	case boolean:
		return Column{Name: name, Type: Boolean, Values: values}
	case numeric:
		return Column{Name: name, Type: Number}
	case len(values) <= 200:
		return Column{Name: name, Type: Category, Values: values}
	}
	return Column{Name: name, Type: Text}
}

func corpusType(s string) ColumnType {
	switch {
	case strings.HasPrefix(s, "number"):
		return Number
	case s == "category":
		return Category
	case s == "boolean":
		return Boolean
	case strings.HasPrefix(s, "date"):
		return Date
	case strings.HasPrefix(s, "list"):
		return List
	}
	return Text
}

// linkingScores are the micro-averaged precision and recall of linked columns against gold.
type linkingScores struct {
	questions, predicted, gold, correct int
	exact                               int // questions whose linked set equals the gold set
}

func (s linkingScores) precision() float64 { return float64(s.correct) / float64(max(s.predicted, 1)) }
func (s linkingScores) recall() float64    { return float64(s.correct) / float64(max(s.gold, 1)) }

// evaluate links every question against its dataset's table at a score threshold.
func evaluate(qs []devcorpus.Question, tables map[string]*Table, threshold float64) (linkingScores, map[string][]string) {
	indexes := map[string]*Index{}
	var sc linkingScores
	misses := map[string][]string{}
	for _, q := range qs {
		ix := indexes[q.Dataset]
		if ix == nil {
			ix = NewIndex(tables[q.Dataset])
			indexes[q.Dataset] = ix
		}
		_, r := ix.Read(q.Question)
		pred := r.Columns(threshold)
		sc.questions++
		sc.predicted += len(pred)
		sc.gold += len(q.ColumnsUsed)
		hits := 0
		for _, c := range pred {
			if slices.Contains(q.ColumnsUsed, c) {
				hits++
			}
		}
		sc.correct += hits
		if hits == len(pred) && hits == len(q.ColumnsUsed) {
			sc.exact++
		} else {
			misses[q.Dataset] = append(misses[q.Dataset], q.Question+" | gold "+strings.Join(q.ColumnsUsed, ",")+" | got "+strings.Join(pred, ","))
		}
	}
	return sc, misses
}

// TestDataBenchLinking measures schema linking on DataBench's 1,308 train and dev questions
// against their gold columns_used.
func TestDataBenchLinking(t *testing.T) {
	qs, err := devcorpus.DataBench()
	if errors.Is(err, devcorpus.ErrMissing) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	tables := corpusTables(t, qs)
	sc, misses := evaluate(qs, tables, UseScore)
	t.Logf("DataBench linking, %d questions: precision %.3f, recall %.3f, exact column set %.3f",
		sc.questions, sc.precision(), sc.recall(), float64(sc.exact)/float64(sc.questions))
	if testing.Verbose() {
		for _, split := range []string{"train", "dev"} {
			part := slices.DeleteFunc(slices.Clone(qs), func(q devcorpus.Question) bool { return q.Split != split })
			sc, _ := evaluate(part, tables, UseScore)
			t.Logf("%s only (%d questions): precision %.3f, recall %.3f", split, sc.questions, sc.precision(), sc.recall())
		}
		for _, reasons := range [][]Reason{{Exact, Normalised}, {Exact, Normalised, Lemma}, {Exact, Normalised, Lemma, Abbreviation, Partial}} {
			sc := evaluateReasons(qs, tables, reasons)
			t.Logf("links by %v only: precision %.3f, recall %.3f", reasons, sc.precision(), sc.recall())
		}
		for _, th := range []float64{0.5, 0.6, 0.65, 0.7, 0.8} {
			sc, _ := evaluate(qs, tables, th)
			t.Logf("at score %.2f: precision %.3f, recall %.3f", th, sc.precision(), sc.recall())
		}
		for ds, m := range misses {
			for _, line := range m[:min(len(m), 3)] {
				t.Logf("%s: %s", ds, line)
			}
		}
	}
	if sc.precision() < 0.84 || sc.recall() < 0.80 {
		t.Errorf("linking fell below its measured level: precision %.3f, recall %.3f", sc.precision(), sc.recall())
	}
}

// evaluateReasons counts only the column links made for the given reasons: what the name rules
// alone achieve, before WordNet's relations, values and the row entity add theirs.
func evaluateReasons(qs []devcorpus.Question, tables map[string]*Table, reasons []Reason) linkingScores {
	indexes := map[string]*Index{}
	var sc linkingScores
	for _, q := range qs {
		ix := indexes[q.Dataset]
		if ix == nil {
			ix = NewIndex(tables[q.Dataset])
			indexes[q.Dataset] = ix
		}
		_, r := ix.Read(q.Question)
		var pred []string
		for _, l := range r.Links {
			b := l.Best()
			if b.Kind != RowsLink && b.Score >= UseScore && slices.Contains(reasons, b.Reason) && !slices.Contains(pred, b.Column) {
				pred = append(pred, b.Column)
			}
		}
		sc.questions++
		sc.predicted += len(pred)
		sc.gold += len(q.ColumnsUsed)
		for _, c := range pred {
			if slices.Contains(q.ColumnsUsed, c) {
				sc.correct++
			}
		}
	}
	return sc
}

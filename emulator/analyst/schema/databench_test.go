package schema_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/analyst-workbench/workbench/emulator/analyst/internal/devcorpus"
	"github.com/analyst-workbench/workbench/emulator/analyst/internal/devtables"
	"github.com/analyst-workbench/workbench/emulator/analyst/schema"
)

// linkingScores are the micro-averaged precision and recall of linked columns against gold.
type linkingScores struct {
	questions, predicted, gold, correct int
	exact                               int // questions whose linked set equals the gold set
}

func (s linkingScores) precision() float64 { return float64(s.correct) / float64(max(s.predicted, 1)) }
func (s linkingScores) recall() float64    { return float64(s.correct) / float64(max(s.gold, 1)) }

// evaluate links every question against its dataset's table at a score threshold.
func evaluate(qs []devcorpus.Question, tables map[string]*schema.Table, threshold float64) (linkingScores, map[string][]string) {
	indexes := map[string]*schema.Index{}
	var sc linkingScores
	misses := map[string][]string{}
	for _, q := range qs {
		ix := indexes[q.Dataset]
		if ix == nil {
			ix = schema.NewIndex(tables[q.Dataset])
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
	qs, tables := devtables.Load(t)
	sc, misses := evaluate(qs, tables, schema.UseScore)
	t.Logf("DataBench linking, %d questions: precision %.3f, recall %.3f, exact column set %.3f",
		sc.questions, sc.precision(), sc.recall(), float64(sc.exact)/float64(sc.questions))
	if testing.Verbose() {
		for _, split := range []string{"train", "dev"} {
			part := slices.DeleteFunc(slices.Clone(qs), func(q devcorpus.Question) bool { return q.Split != split })
			sc, _ := evaluate(part, tables, schema.UseScore)
			t.Logf("%s only (%d questions): precision %.3f, recall %.3f", split, sc.questions, sc.precision(), sc.recall())
		}
		for _, reasons := range [][]schema.Reason{{schema.Exact, schema.Normalised}, {schema.Exact, schema.Normalised, schema.Lemma}, {schema.Exact, schema.Normalised, schema.Lemma, schema.Abbreviation, schema.Partial}} {
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
	if sc.precision() < 0.86 || sc.recall() < 0.82 {
		t.Errorf("linking fell below its measured level: precision %.3f, recall %.3f", sc.precision(), sc.recall())
	}
}

// evaluateReasons counts only the column links made for the given reasons: what the name rules
// alone achieve, before WordNet's relations, values and the row entity add theirs.
func evaluateReasons(qs []devcorpus.Question, tables map[string]*schema.Table, reasons []schema.Reason) linkingScores {
	indexes := map[string]*schema.Index{}
	var sc linkingScores
	for _, q := range qs {
		ix := indexes[q.Dataset]
		if ix == nil {
			ix = schema.NewIndex(tables[q.Dataset])
			indexes[q.Dataset] = ix
		}
		_, r := ix.Read(q.Question)
		var pred []string
		for _, l := range r.Links {
			b := l.Best()
			if b.Kind != schema.RowsLink && b.Score >= schema.UseScore && slices.Contains(reasons, b.Reason) && !slices.Contains(pred, b.Column) {
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

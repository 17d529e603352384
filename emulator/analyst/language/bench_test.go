package language

import (
	"slices"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/emulator/analyst/internal/devcorpus"
)

// benchSentences takes 200 questions spread over the corpus: every sixth DataBench question
// and the rest from WikiTableQuestions' training file.
func benchSentences(tb testing.TB) []string {
	qs, err := devcorpus.DataBench()
	if err != nil {
		tb.Skip(err)
	}
	var out []string
	for i := 0; i < len(qs) && len(out) < 150; i += 6 {
		out = append(out, qs[i].Question)
	}
	if wtq, err := devcorpus.WTQ(); err == nil {
		for i := 0; i < len(wtq) && len(out) < 200; i += 97 {
			out = append(out, wtq[i])
		}
	}
	return out
}

// BenchmarkRead reads 200 corpus questions per iteration, the lexicon and tagger loaded, and
// reports the median time of one question.
func BenchmarkRead(b *testing.B) {
	sentences := benchSentences(b)
	Read("warm up the lexicon and the tagger", nil)
	var times []time.Duration
	for b.Loop() {
		for _, q := range sentences {
			start := time.Now()
			Read(q, nil)
			times = append(times, time.Since(start))
		}
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "ns/median-sentence")
	b.ReportMetric(float64(times[len(times)*9/10].Nanoseconds()), "ns/p90-sentence")
}

// TestReadCorpus reads every DataBench development question and checks that each gets at
// least one part and that every chunk's indexes are in range: a guard against panics and
// broken spans on text nobody wrote for these rules.
func TestReadCorpus(t *testing.T) {
	qs, err := devcorpus.DataBench()
	if err != nil {
		t.Skip(err)
	}
	wtq, _ := devcorpus.WTQ()
	texts := make([]string, 0, len(qs)+len(wtq))
	forms := map[string]map[FormKind]int{}
	for _, q := range qs {
		texts = append(texts, q.Question)
		if forms[q.Type] == nil {
			forms[q.Type] = map[FormKind]int{}
		}
		forms[q.Type][Read(q.Question, nil).Form().Kind]++
	}
	// How the forms fall per DataBench answer type: boolean questions should read yes/no (or
	// statements to verify), the others not.
	for typ, byForm := range forms {
		t.Logf("%-15s %v", typ, byForm)
	}
	if yes, all := forms["boolean"][YesNo], sumCounts(forms["boolean"]); float64(yes)/float64(all) < 0.85 {
		t.Errorf("only %d of %d boolean questions read as yes/no", yes, all)
	}
	texts = append(texts, wtq...)
	for _, q := range texts {
		s := Read(q, nil)
		if len(s.Parts) == 0 {
			t.Fatalf("%q: no parts", q)
		}
		for _, np := range s.Phrases {
			if np.Head < np.Start || np.Head >= np.End || np.End > len(s.Tokens) {
				t.Fatalf("%q: phrase %+v out of range", q, np)
			}
		}
		for _, r := range s.Relatives {
			if r.Antecedent < 0 || r.Antecedent >= len(s.Phrases) || r.Verb >= len(s.Verbs) {
				t.Fatalf("%q: relative %+v out of range", q, r)
			}
		}
	}
}

func sumCounts(m map[FormKind]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

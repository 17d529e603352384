package schema

import (
	"cmp"
	"slices"

	"github.com/analyst-workbench/workbench/emulator/analyst/language"
)

// IsTimeWord reports a noun WordNet files under units or periods of time: day, month, year,
// weekday, weekend, April, Monday, winter.
func (ix *Index) IsTimeWord(lemma string) bool {
	return ix.lx.IsAWithin(lemma, "time unit", 2) || ix.lx.IsAWithin(lemma, "time period", 2)
}

// timeColumns are the columns a time word may point to: the date columns, and columns named
// with a time word themselves (month_name, weekday_name, period_day, yr is not one).
func (ix *Index) timeColumns() []string {
	ix.timeOnce.Do(func() {
		for _, ic := range ix.columns {
			named := slices.ContainsFunc(ic.words, func(w columnWord) bool {
				return !operationWords[w.lemma] && ix.IsTimeWord(w.lemma) // "min" of temp_min is no minute
			})
			if ic.col.Type == Date || named {
				ix.timeCols = append(ix.timeCols, ic.col.Name)
			}
		}
	})
	return ix.timeCols
}

// linkTimes offers the time columns for a time word that names no column by itself: "which
// month", "on a weekend", "in April".
func (ix *Index) linkTimes(s *language.Sentence, r *Result) {
	cols := ix.timeColumns()
	if len(cols) == 0 {
		return
	}
	for i, t := range s.Tokens {
		if t.Kind != language.Word || !t.IsNoun() || !ix.IsTimeWord(t.Lemma) {
			continue
		}
		if at := linkAt(r, i); at >= 0 && r.Links[at].Best().Score >= UseScore {
			continue
		}
		// One time column is the answer; among several the question must say which (the
		// candidates stay, below UseScore, for asking back).
		score := 0.6
		if len(cols) > 1 {
			score = 0.5
		}
		var cands []Candidate
		for _, c := range cols {
			cands = append(cands, Candidate{Kind: ColumnLink, Column: c, Score: score, Reason: Unit})
		}
		if at := linkAt(r, i); at >= 0 {
			r.Links[at].Candidates = mergeTimeCandidates(cands, r.Links[at].Candidates)
			continue
		}
		r.Links = append(r.Links, Link{Span: language.Span{Start: i, End: i + 1}, Tokens: []int{i}, Text: t.Text, Candidates: cands})
	}
}

// mergeTimeCandidates joins the time columns offered for a word with what its own letters
// matched: a column both partly named by the word and a time column ("durations" → duration_ms)
// has two kinds of evidence and leads; the others keep their time score. Strongest first.
func mergeTimeCandidates(times, named []Candidate) []Candidate {
	out := slices.Clone(times)
	for _, c := range named {
		k := slices.IndexFunc(out, func(t Candidate) bool { return t.Kind == ColumnLink && c.Kind == ColumnLink && t.Column == c.Column })
		if k < 0 {
			out = append(out, c)
			continue
		}
		c.Score = min(1, max(c.Score, out[k].Score)+timeNameBonus)
		out[k] = c
	}
	slices.SortStableFunc(out, func(a, b Candidate) int { return cmp.Compare(b.Score, a.Score) })
	return out
}

// timeNameBonus is what a time column gains when the word also matches its name.
const timeNameBonus = 0.1

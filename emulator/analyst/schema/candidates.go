package schema

import (
	"slices"
	"strings"

	"github.com/analyst-workbench/workbench/emulator/analyst/language"
)

// tokenWords is a question token prepared for matching: its words (a hyphenated token gives
// one per part: "self-made" → self, made) and whether a "non-" prefix negated it.
type tokenWords struct {
	words   []qword
	negated bool
}

// questionWords prepares every token once.
func (ix *Index) questionWords(s *language.Sentence) []tokenWords {
	out := make([]tokenWords, len(s.Tokens))
	for i, t := range s.Tokens {
		if !isContent(t) {
			continue
		}
		parts := []string{t.Lower}
		if t.Kind == language.Word && strings.Contains(t.Lower, "-") {
			parts = strings.FieldsFunc(t.Lower, func(r rune) bool { return r == '-' })
		}
		if len(parts) > 1 && parts[0] == "non" {
			out[i].negated, parts = true, parts[1:]
		}
		for _, p := range parts {
			lemma := t.Lemma
			if len(parts) > 1 || t.Kind != language.Word {
				lemma = ix.lx.Lemma(p, "NN")
			}
			forms := formsOf(p, lemma, ix.lx)
			q := qword{word: word{low: fold(p), lemma: lemma, forms: forms}}
			if len(parts) == 1 && t.Kind == language.Word {
				q.pos = tagPOS(t)
			}
			for _, f := range forms {
				q.derivations = append(q.derivations, ix.lx.Derivations(f)...)
			}
			out[i].words = append(out[i].words, q)
		}
	}
	return out
}

// tagPOS is the part of speech whose senses a token's synonyms must come from: an adjective's
// from adjectives ("the last passenger" is no synonym of "survive"); a noun or a verb may take
// either, as English turns one into the other ("the number of …" counts, as "count" does).
func tagPOS(t language.Token) language.PartOfSpeech {
	if t.IsAdjective() {
		return language.Adjective
	}
	return 0
}

// candidates scores one span against every column and categorical value.
func (ix *Index) candidates(s *language.Sentence, u unit, words []tokenWords) []Candidate {
	sp := u.Span
	var qs []qword
	negated := negatedAt(s, sp.Start)
	for _, i := range u.tokens {
		qs = append(qs, words[i].words...)
		negated = negated || words[i].negated
	}
	text := s.Words(sp)
	norm := normalise(strings.TrimPrefix(strings.ToLower(text), "non-"))
	var out []Candidate
	for k := range ix.columns {
		ic := &ix.columns[k]
		score, why := ix.nameScore(s, sp, text, norm, qs, ic)
		if score < MinScore {
			score, why = ix.scaledName(s, u, words, ic)
		}
		if t := s.Tokens[sp.Start]; (why == Derivation || why == Lemma) && ic.col.Type == Date && u.Span.Len() == 1 && t.IsNoun() && (ix.lx.POS(t.Lower).Has(language.Noun) || ix.lx.POS(t.Lemma).Has(language.Noun)) {
			score = MinScore // "buildings", "the building" are things; Built holds when they were built
		}
		if score >= MinScore {
			out = append(out, columnCandidate(ic, score, why, negated))
		}
		if v, score, why := ix.valueScore(s, sp, norm, qs, ic); score >= MinScore {
			out = append(out, Candidate{Kind: ValueLink, Column: ic.col.Name, Value: v, Score: score, Reason: why})
		}
	}
	if ix.isMoney(s, sp) {
		for _, ic := range ix.columns {
			if ic.money {
				out = append(out, Candidate{Kind: ColumnLink, Column: ic.col.Name, Score: 0.5, Reason: Unit})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Candidate) int {
		if a.Score == b.Score {
			return 0
		}
		return cmpDesc(a.Score, b.Score)
	})
	return out
}

// scaleClasses are the WordNet nouns that file the words naming a column's values as points
// on a scale: score, rating, level, grade, index.
var scaleClasses = []string{"evaluation", "grade", "indicator"}

// scaledName scores a span whose last word says only that a column's values are points on a
// scale, by the words before it: "the Generosity score" is Generosity, "the Social support
// score" Social support. The words before must name the whole column.
func (ix *Index) scaledName(s *language.Sentence, u unit, words []tokenWords, ic *indexedColumn) (float64, Reason) {
	n := len(u.tokens)
	if n < 2 {
		return 0, ""
	}
	last := s.Tokens[u.tokens[n-1]]
	if !last.IsNoun() || !slices.ContainsFunc(scaleClasses, func(c string) bool { return ix.lx.IsAWithin(last.Lemma, c, 2) }) {
		return 0, ""
	}
	if u.tokens[n-1]-u.tokens[0] != n-1 {
		return 0, "" // words apart, as in "type of complaint": no compound
	}
	var qs []qword
	for _, i := range u.tokens[:n-1] {
		qs = append(qs, words[i].words...)
	}
	rest := language.Span{Start: u.tokens[0], End: u.tokens[n-1]}
	text := s.Words(rest)
	score, why := ix.nameScore(s, rest, text, normalise(strings.ToLower(text)), qs, ic)
	if why == Partial || score < 0.9 {
		return 0, ""
	}
	return 0.95 * score, why
}

// nameScore scores a span against a column's name.
func (ix *Index) nameScore(s *language.Sentence, sp language.Span, text, norm string, qs []qword, ic *indexedColumn) (float64, Reason) {
	if sp.Len() == 1 && s.Tokens[sp.Start].Kind == language.Name && s.Tokens[sp.Start].Entry == ic.col.Name {
		return 1, Exact
	}
	if strings.EqualFold(text, ic.col.Name) {
		return 1, Exact
	}
	if norm == ic.norm || norm != "" && singularNorm(norm) == singularNorm(ic.norm) {
		return 0.97, Normalised
	}
	if onlyOperationWords(qs) {
		return 0, "" // "average", "maximum", "highest" alone name an operation, not a column
	}
	return ix.matchSpan(qs, ic)
}

// operationWords are the words of aggregation and degree, which questions use to say what to
// compute ("the average", "the highest", "the number of"). They are grammar of analysis: alone
// they name a column only by its exact name; next to other words they may be part of one
// ("minimum temperature" → tmin, "Number of Projects").
var operationWords = map[string]bool{
	"average": true, "mean": true, "median": true, "total": true, "sum": true, "count": true,
	"number": true, "maximum": true, "minimum": true, "max": true, "min": true, "high": true,
	"low": true, "large": true, "small": true, "big": true, "great": true, "good": true,
	"bad": true, "many": true, "much": true, "little": true, "top": true, "bottom": true,
	"amount": true, "value": true, "frequent": true, "common": true, "overall": true,
}

func onlyOperationWords(qs []qword) bool {
	for _, q := range qs {
		if !operationWords[q.lemma] && !operationWords[q.low] {
			return false
		}
	}
	return len(qs) > 0
}

// singularNorm drops a final plural "s" from a normalised name, so that "siblings spouses" and
// "sibling spouse" compare equal enough at the end.
func singularNorm(s string) string {
	if strings.HasSuffix(s, "s") && !strings.HasSuffix(s, "ss") {
		return s[:len(s)-1]
	}
	return s
}

// columnCandidate turns a name match into a candidate; a boolean column named by a modifier
// or a noun is a condition on its value ("self-made", "survivors").
func columnCandidate(ic *indexedColumn, score float64, why Reason, negated bool) Candidate {
	if ic.col.Type != Boolean {
		return Candidate{Kind: ColumnLink, Column: ic.col.Name, Score: score, Reason: why}
	}
	v := "True"
	if negated {
		v = "False"
	}
	return Candidate{Kind: ValueLink, Column: ic.col.Name, Value: v, Score: score, Reason: why}
}

// negatedAt reports a negation right before token i: "not self-made", "no survivors".
func negatedAt(s *language.Sentence, i int) bool {
	for k := i - 1; k >= 0 && k >= i-2; k-- {
		t := s.Tokens[k]
		if t.Is("not", "n't", "no", "non") {
			return true
		}
		if t.POS != "RB" && t.POS != "VBZ" && t.POS != "VBP" && t.POS != "VBD" {
			break
		}
	}
	return false
}

// valueScore finds the categorical value a span names: the same words up to case and
// separators, or the same lemma ("males" → male). Quoted text must be the value itself. A
// name that is part of one value only names that value (see partOfValue).
func (ix *Index) valueScore(s *language.Sentence, sp language.Span, norm string, qs []qword, ic *indexedColumn) (string, float64, Reason) {
	if ic.col.Type != Category && ic.col.Type != List {
		return "", 0, ""
	}
	quoted := sp.Len() == 1 && s.Tokens[sp.Start].Kind == language.Quoted
	for k, v := range ic.values {
		switch {
		case v == norm && quoted:
			return ic.col.Values[k], 0.95, Value
		case v == norm:
			return ic.col.Values[k], 0.9, Value
		case len(qs) == 1 && !strings.Contains(v, " ") && slices.Contains(qs[0].forms, v):
			return ic.col.Values[k], 0.85, Value
		case len(qs) == 1 && !strings.Contains(v, " ") && ix.lx.AdverbOf(qs[0].low, v):
			return ic.col.Values[k], 0.8, Derivation // "work remotely": Remote
		}
	}
	if k := ix.partOfValue(s, sp, norm, ic); k >= 0 {
		return ic.col.Values[k], 0.6, Value
	}
	return "", 0, ""
}

// partOfValue returns the one value of the column whose words include the span's, or -1: the
// surname "papulova" for "Mariya Papulova", "the kremlin cup" for "Kremlin Cup, Moscow,
// Russia", "japan" for "Japan (JPN)". A single word must be a name, one WordNet does not know
// or knows as a place, since a common word inside a value ("team", "game") is the word, not
// the value. Several values holding it name none, and so does an edition: "swecon" is a
// series of which "Swecon 2004" is one.
func (ix *Index) partOfValue(s *language.Sentence, sp language.Span, norm string, ic *indexedColumn) int {
	if norm == "" || strings.Contains(norm, " ") != (sp.Len() > 1) {
		return -1
	}
	for i := sp.Start; i < sp.End; i++ {
		if t := s.Tokens[i]; t.Kind != language.Word && t.Kind != language.Name || operationWords[t.Lemma] {
			return -1
		}
	}
	if t := s.Tokens[sp.Start]; sp.Len() == 1 && (len(norm) < 3 || ix.lx.POS(t.Lemma) != 0 && !ix.lx.IsAWithin(t.Lemma, "location", 2)) {
		return -1
	}
	found := -1
	for k, v := range ic.values {
		if v == norm || !strings.Contains(" "+v+" ", " "+norm+" ") || editionOf(v, norm) {
			continue
		}
		if found >= 0 {
			return -1
		}
		found = k
	}
	return found
}

// editionOf reports a value that is the words plus numbers only: "Swecon 2004" of "swecon".
func editionOf(value, words string) bool {
	rest := strings.Fields(strings.Replace(" "+value+" ", " "+words+" ", " ", 1))
	return len(rest) > 0 && !slices.ContainsFunc(rest, func(w string) bool { return strings.Trim(w, "0123456789") != "" })
}

// isMoney reports an amount of money: "$500", "500 dollars", "euros".
func (ix *Index) isMoney(s *language.Sentence, sp language.Span) bool {
	if sp.Len() != 1 {
		return false
	}
	t := s.Tokens[sp.Start]
	if t.Kind == language.Number {
		return strings.ContainsAny(t.Text[:1], "$€£")
	}
	return t.Kind == language.Word && ix.lx.IsAWithin(t.Lemma, "monetary unit", 1)
}

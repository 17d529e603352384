package schema

import (
	"cmp"
	"slices"
	"strings"

	"github.com/analyst-workbench/workbench/emulator/analyst/language"
)

// Kind is what a candidate points to.
type Kind uint8

// The kinds of candidate.
const (
	ColumnLink Kind = iota // a column: "fare" → Fare
	ValueLink              // a value of a column: "female" → Sex = female, "survivors" → Survived = True
	RowsLink               // the rows themselves: "passengers", "employees"
)

// Candidate is one reading of a phrase.
type Candidate struct {
	Kind Kind
	// Column is the column of a ColumnLink or ValueLink; for a RowsLink that a question asks to
	// name ("which passengers", "who"), the column that identifies the rows, if the table has one.
	Column string
	Value  string // the value, for ValueLink: as written in the table, or "True"/"False"
	Score  float64
	Reason Reason
}

// Link is a phrase of the question with its candidates, best first.
type Link struct {
	Span language.Span // tokens of the phrase
	// Tokens are the content tokens the link reads, within Span: all of them for a run of
	// words, the heads only for "type of complaint" or "siblings or spouses".
	Tokens     []int
	Text       string // the phrase as typed
	Candidates []Candidate
	// Ambiguous is set when the best two candidates are close in score and point to different
	// columns: the analyst should ask which one was meant.
	Ambiguous bool
}

// Best returns the first candidate.
func (l Link) Best() Candidate { return l.Candidates[0] }

// Result is the linking of one question.
type Result struct {
	Links []Link
}

// Columns returns the distinct columns of the links whose best candidate scores at least min:
// the columns the question uses. A row entity asked for ("which Pokémon", "who") brings the
// column that identifies rows, since the answer names them by it.
//
// Evidence adds up: a column that several phrases point to ("level", "studies", "achieved" of
// "What is the maximum level of studies you have achieved?") scores 1 − ∏(1 − s) over them.
func (r *Result) Columns(min float64) []string {
	var order []string
	miss := map[string]float64{}
	for _, l := range r.Links {
		b := l.Best()
		if b.Column == "" {
			continue
		}
		if _, ok := miss[b.Column]; !ok {
			order = append(order, b.Column)
			miss[b.Column] = 1
		}
		miss[b.Column] *= 1 - b.Score
	}
	var out []string
	for _, c := range order {
		if 1-miss[c] >= min {
			out = append(out, c)
		}
	}
	return out
}

// MinScore is the lowest score a candidate keeps; weaker ones are noise.
const MinScore = 0.45

// UseScore is the score from which a link is taken as meant: on DataBench it balances
// precision and recall best (see TestDataBenchLinking).
const UseScore = 0.55

// AmbiguityMargin is how close the best two candidates must be to ask back.
const AmbiguityMargin = 0.05

// Read reads a question with the table's names as vocabulary and links it.
func (ix *Index) Read(question string) (*language.Sentence, *Result) {
	s := language.Read(question, ix.vocabulary())
	return s, ix.Link(s)
}

func (ix *Index) vocabulary() *language.Vocabulary {
	ix.vocabOnce.Do(func() { ix.vocab = ix.table.Vocabulary() })
	return ix.vocab
}

// Link links a sentence's phrases to the table: every span of content words inside a noun
// phrase and every content word outside one is scored against every column and value; the best
// spans are kept without overlap, strongest first; then the heads left unlinked are tried as
// the row entity.
func (ix *Index) Link(s *language.Sentence) *Result {
	words := ix.questionWords(s)
	var scored []Link
	for _, u := range ix.units(s) {
		if cands := ix.candidates(s, u, words); len(cands) > 0 {
			scored = append(scored, Link{Span: u.Span, Tokens: u.tokens, Text: cmp.Or(u.text, s.Words(u.Span)), Candidates: cands})
		}
	}
	slices.SortStableFunc(scored, func(a, b Link) int {
		if ka, kb := selectionKey(s, a), selectionKey(s, b); ka != kb {
			return cmpDesc(ka, kb)
		}
		return b.Span.Len() - a.Span.Len()
	})
	r := &Result{}
	taken := make([]bool, len(s.Tokens))
	for _, l := range scored {
		if anyTaken(taken, l.Tokens) {
			continue
		}
		for _, i := range l.Tokens {
			taken[i] = true
		}
		r.Links = append(r.Links, l)
	}
	ix.linkRows(s, r)
	ix.linkTimes(s, r)
	slices.SortFunc(r.Links, func(a, b Link) int { return a.Span.Start - b.Span.Start })
	for k := range r.Links {
		r.Links[k].Ambiguous = ambiguous(r.Links[k].Candidates)
	}
	return r
}

// selectionKey orders spans for the greedy choice: by score, with a longer phrase that names a
// column favoured over a single word of it ("special attack" → sp_attack over "attack" →
// attack): each further content word counts a fifth more.
func selectionKey(s *language.Sentence, l Link) float64 {
	return l.Best().Score * (1 + 0.2*float64(len(l.Tokens)-1))
}

func cmpDesc(a, b float64) int {
	if a > b {
		return -1
	}
	return 1
}

func anyTaken(taken []bool, tokens []int) bool {
	for _, i := range tokens {
		if taken[i] {
			return true
		}
	}
	return false
}

func ambiguous(c []Candidate) bool {
	return len(c) >= 2 && c[0].Kind != RowsLink && c[1].Kind != RowsLink &&
		c[0].Score-c[1].Score < AmbiguityMargin && c[0].Column != c[1].Column
}

// maxSpan is the longest run of words scored as one phrase.
const maxSpan = 4

// unit is a phrase to score: its covering span and the content tokens read.
type unit struct {
	language.Span
	tokens []int
	text   string // the words shown for a unit whose span holds others: "kilometers … travel"
}

// units returns the phrases to score: every run of up to maxSpan content words inside a noun
// phrase; a phrase's head with its "of" object ("type of complaint") and coordinated heads
// ("siblings or spouses"), for names that join what English keeps apart; and each content word
// outside noun phrases except the verb of an imperative, which says what to do rather than
// what to use.
func (ix *Index) units(s *language.Sentence) []unit {
	inPhrase := make([]bool, len(s.Tokens))
	var out []unit
	for _, np := range s.Phrases {
		run := -1
		for i := np.Start; i <= np.End; i++ {
			if i < np.End {
				inPhrase[i] = true
			}
			if i < np.End && isContent(s.Tokens[i]) {
				if run < 0 {
					run = i
				}
				continue
			}
			if run >= 0 {
				out = append(out, subSpans(run, i)...)
				run = -1
			}
		}
	}
	out = append(out, ix.joinedUnits(s)...)
	asking := map[int]bool{}
	for _, p := range s.Parts {
		if p.Form.Kind == language.Imperative {
			asking[p.Form.Word] = true
		}
	}
	for i, t := range s.Tokens {
		if !inPhrase[i] && !asking[i] && (isContent(t) || t.Kind == language.Number && t.Text != "" && strings.ContainsAny(t.Text[:1], "$€£")) {
			out = append(out, unit{Span: language.Span{Start: i, End: i + 1}, tokens: []int{i}})
		}
	}
	return append(out, trailingUnits(s, inPhrase)...)
}

// trailingUnits joins a phrase's head with the content word right after the phrase, for a
// column whose name puts an adjective after its noun: "the average disbursement gross" →
// DisbursementGross, where English ends the noun phrase before "gross".
func trailingUnits(s *language.Sentence, inPhrase []bool) []unit {
	var out []unit
	for _, np := range s.Phrases {
		i := np.End
		if i < len(s.Tokens) && !inPhrase[i] && s.Tokens[i].IsAdjective() && isContent(s.Tokens[i]) && s.Tokens[np.Head].IsNoun() {
			out = append(out, unit{Span: language.Span{Start: np.Head, End: i + 1}, tokens: []int{np.Head, i}})
		}
	}
	return out
}

// joinedUnits joins the head compounds of a phrase and its "of" object, and of coordinated
// phrases.
func (ix *Index) joinedUnits(s *language.Sentence) []unit {
	var out []unit
	join := func(a, b int) {
		ta, tb := headCompound(s, a), headCompound(s, b)
		if len(ta)+len(tb) <= maxSpan {
			sp := language.Span{Start: min(ta[0], tb[0]), End: max(ta[len(ta)-1], tb[len(tb)-1]) + 1}
			out = append(out, unit{Span: sp, tokens: append(slices.Clone(ta), tb...)})
		}
	}
	for k, np := range s.Phrases {
		for _, a := range np.Attachments {
			if s.Tokens[a.Prep].Is("for") {
				join(k, a.Object) // "review scores for location" → review_scores_location
			}
			if !s.Tokens[a.Prep].Is("of") {
				continue
			}
			join(k, a.Object)
			if v := s.Phrases[a.Object].End; v < len(s.Tokens) && s.Tokens[v].POS == "VBN" && isContent(s.Tokens[v]) {
				// "the level of studies achieved" → "What is the maximum level of studies you have achieved?"
				ta, tb := headCompound(s, k), headCompound(s, a.Object)
				if len(ta)+len(tb) < maxSpan {
					out = append(out, unit{Span: language.Span{Start: ta[0], End: v + 1}, tokens: slices.Concat(ta, tb, []int{v})})
				}
			}
		}
	}
	for _, c := range s.Coordinations {
		for i := 0; i+1 < len(c.Items); i++ {
			join(c.Items[i], c.Items[i+1])
		}
	}
	if u, ok := ix.countedWithVerb(s); ok {
		out = append(out, u)
	}
	return out
}

// countedWithVerb joins what "how many" counts with the verb that ends its clause, for a
// column named by both: "how many kilometers did number 4110 travel" → Kilometres Travelled,
// "how many points did she score" → Points scored. The verb is the tagged main verb after the
// phrase, or, after "did", "do" or "does", the clause's last word when English has it as a verb
// (the tagger reads "travel" there as a noun).
func (ix *Index) countedWithVerb(s *language.Sentence) (unit, bool) {
	f := s.Form()
	if f.Kind != language.HowMany || f.Focus < 0 {
		return unit{}, false
	}
	end := s.Phrases[f.Focus].End
	verb := -1
	for _, vg := range s.Verbs {
		if v := s.Tokens[vg.Main]; vg.Main >= end && isContent(v) && v.Lemma != "be" && v.Lemma != "have" && v.Lemma != "do" {
			verb = vg.Main
			break
		}
	}
	if verb < 0 && end < len(s.Tokens) && s.Tokens[end].Lemma == "do" {
		last := len(s.Tokens) - 1
		for last > end && s.Tokens[last].Kind == language.Punct {
			last--
		}
		if t := s.Tokens[last]; last > end+1 && t.Kind == language.Word && ix.lx.POS(t.Lemma).Has(language.Verb) {
			verb = last
		}
	}
	if verb < 0 {
		return unit{}, false
	}
	head := headCompound(s, f.Focus)
	text := s.Words(language.Span{Start: head[0], End: head[len(head)-1] + 1}) + " … " + s.Tokens[verb].Text
	return unit{language.Span{Start: head[0], End: verb + 1}, append(slices.Clone(head), verb), text}, true
}

// headCompound returns a phrase's head with the nouns right before it: "aircraft damage" of
// "the most common aircraft damage".
func headCompound(s *language.Sentence, k int) []int {
	np := s.Phrases[k]
	start := np.Head
	for start > np.Start && s.Tokens[start-1].IsNoun() && isContent(s.Tokens[start-1]) {
		start--
	}
	out := make([]int, 0, np.Head-start+1)
	for i := start; i <= np.Head; i++ {
		out = append(out, i)
	}
	return out
}

func subSpans(start, end int) []unit {
	var out []unit
	for a := start; a < end; a++ {
		for b := a + 1; b <= end && b-a <= maxSpan; b++ {
			toks := make([]int, 0, b-a)
			for i := a; i < b; i++ {
				toks = append(toks, i)
			}
			out = append(out, unit{Span: language.Span{Start: a, End: b}, tokens: toks})
		}
	}
	return out
}

package meaning

import (
	"fmt"
	"strings"

	"github.com/analyst-workbench/workbench/emulator/analyst/language"
	"github.com/analyst-workbench/workbench/emulator/analyst/schema"
)

// Gap is a phrase of the question that Read could not place: it restricts the rows or changes
// what is computed, and nothing in the table or the rules stands for it.
type Gap struct {
	Phrase string // the words as typed
	Why    string // what the reader was looking for
}

// Error says which phrase was not understood.
func (g *Gap) Error() string { return fmt.Sprintf("%s: “%s”", g.Why, g.Phrase) }

// reader holds one question while the rules compose its meaning.
type reader struct {
	s    *language.Sentence
	r    *schema.Result
	ix   *schema.Index
	link []int  // token → index into r.Links of the link taken as meant, or -1
	used []bool // tokens some rule accounted for
	m    Meaning
	// distinctOf is the column whose different values rank the groups, when the groups are
	// counted in another column's values ("the region with the most countries").
	distinctOf string
	// subject is the token span of the focus phrase with everything attached to it: what a
	// yes/no question asks about; what follows it is the predicate.
	subject language.Span
	// byOrder is set when the order came from "by <column>": "the top 5 products by revenue".
	byOrder bool
	// valueForms are the words of the category values and their lemmas, made when first needed.
	valueForms map[string]bool
	// orderSpan is the span of the phrase a superlative ranks by ("the highest average fare"),
	// and aggAt the token of the aggregate word, or -1: an aggregate inside the ranked phrase
	// ranks groups by it ("which class has the highest average fare").
	orderSpan language.Span
	aggAt     int
	// countCheck is a comparison on the number of rows: "are there more than 2000 customers".
	countCheck *Condition
	// also is the check of "is the X with the highest A also the one with the highest B": the
	// selected row's B is the extreme of B (Op top or bottom).
	also *Condition
	// versus is a comparison of a row with another named one ("larger than Palau"), read by
	// pairOrder once the names are filters; pairAsked is set when the question asks which of
	// two named rows is higher on a scale ("is A or B taller"), whose answer is the row.
	versus    *language.Comparison
	pairAsked bool
}

// Read composes the meaning of a linked question. It returns a *Gap when a content phrase stays
// unplaced or the question has a shape the rules do not compose (several steps, two orders).
func Read(s *language.Sentence, r *schema.Result, ix *schema.Index) (*Meaning, error) {
	if len(s.Parts) != 1 {
		return nil, &Gap{Phrase: s.Text, Why: "a question of several steps"}
	}
	rd := newReader(s, r, ix)
	rd.indexLinks()
	rd.subject = rd.subjectSpan()
	for _, rule := range []func() error{rd.order, rd.filters, rd.sameAs, rd.pairOrder, rd.aggregate, rd.neighbour, rd.target, rd.neighbourDiffers, rd.groupOrder, rd.eachValue, rd.verdict, rd.account} {
		if err := rule(); err != nil {
			return nil, err
		}
	}
	rd.m.Form = rd.form()
	if err := rd.placeAsked(); err != nil {
		return nil, err
	}
	if m := &rd.m; m.Agg >= Sum && m.Target == "" {
		// "the top 3 months with the highest average …" read with no months: an average of nothing
		return nil, &Gap{Phrase: s.Text, Why: "a summary of no column"}
	}
	if m := &rd.m; m.Agg == NoAgg && m.Order == nil && len(m.Filters) == 0 && m.Check == nil && !m.Exists && !m.Unique && !m.Alike && !m.All {
		// "pivot", "the age": nothing picks rows or sums them up.
		return nil, &Gap{Phrase: s.Text, Why: "nothing to select or compute"}
	}
	return &rd.m, nil
}

func newReader(s *language.Sentence, r *schema.Result, ix *schema.Index) *reader {
	return &reader{s: s, r: r, ix: ix, link: make([]int, len(s.Tokens)), used: make([]bool, len(s.Tokens)), aggAt: -1}
}

// indexLinks maps each token to the link taken as meant there.
func (rd *reader) indexLinks() {
	for i := range rd.link {
		rd.link[i] = -1
	}
	for k, l := range rd.r.Links {
		if l.Best().Score < schema.UseScore || l.Ambiguous {
			continue
		}
		toks := l.Tokens
		if len(toks) == 0 {
			for i := l.Span.Start; i < l.Span.End; i++ {
				toks = append(toks, i)
			}
		}
		for _, i := range toks {
			rd.link[i] = k
		}
	}
}

// best returns the candidate taken at token i, if any.
func (rd *reader) best(i int) (schema.Candidate, bool) {
	if i < 0 || i >= len(rd.link) || rd.link[i] < 0 {
		return schema.Candidate{}, false
	}
	return rd.r.Links[rd.link[i]].Best(), true
}

// useLink marks every token of the link at token i as accounted for.
func (rd *reader) useLink(i int) {
	if i < 0 || rd.link[i] < 0 {
		return
	}
	l := rd.r.Links[rd.link[i]]
	for j := l.Span.Start; j < l.Span.End; j++ {
		if rd.link[j] == rd.link[i] || !content(rd.s.Tokens[j]) {
			rd.used[j] = true
		}
	}
	for _, j := range l.Tokens {
		rd.used[j] = true
	}
}

// phraseColumn returns the column a noun phrase names, looking at its head first and then its
// modifiers ("the highest net worth" → finalWorth), and the token that names it; "" when none.
func (rd *reader) phraseColumn(k int) (string, int) {
	if k < 0 {
		return "", -1
	}
	np := rd.s.Phrases[k]
	if col, at := rd.glossedColumn(np); col != "" {
		return col, at
	}
	if col, at := rd.rateOf(np); col != "" {
		return col, at
	}
	if c, ok := rd.best(np.Head); ok && c.Kind == schema.ColumnLink {
		return c.Column, np.Head
	}
	if rd.link[np.Head] >= 0 && rd.r.Links[rd.link[np.Head]].Ambiguous {
		return "", -1 // "satisfaction" with Q1_ and Q5_satisfaction: asked back, never guessed
	}
	for _, i := range np.Modifiers {
		if c, ok := rd.best(i); ok && c.Kind == schema.ColumnLink && c.Reason != schema.Attribute {
			return c.Column, i
		}
	}
	return "", -1
}

// glossedColumn returns the column a phrase names in parentheses right after it, by the
// column's very name, and its token: "the highest final grade (G3)" is G3, whatever "final
// grade" would link to. The phrase's words only describe the column, and are placed.
func (rd *reader) glossedColumn(np language.NounPhrase) (string, int) {
	toks := rd.s.Tokens
	i := np.End
	if i+2 >= len(toks) || !toks[i].Is("(") || !toks[i+2].Is(")") || !rd.namesColumn(i+1) {
		return "", -1
	}
	c, _ := rd.best(i + 1)
	for j := np.Start; j < np.End; j++ {
		if t := toks[j]; t.IsNoun() || t.IsAdjective() && t.POS != "JJS" && !rd.used[j] {
			rd.used[j] = true
		}
	}
	return c.Column, i + 1
}

// rateOf returns the yes/no column whose rate a phrase names, and the token naming its value:
// "survival rate" is the share of rows where Survived is true, the mean of that column.
func (rd *reader) rateOf(np language.NounPhrase) (string, int) {
	if !rd.s.Tokens[np.Head].Is("rate") {
		return "", -1
	}
	for _, i := range np.Modifiers {
		if c, ok := rd.best(i); ok && c.Kind == schema.ValueLink && c.Value == "True" {
			if col := rd.ix.Column(c.Column); col != nil && col.Type == schema.Boolean {
				return c.Column, i
			}
		}
	}
	return "", -1
}

// isRate reports the token naming the value of a rate: "survival" of "survival rate".
func (rd *reader) isRate(i int) bool {
	k := rd.phraseOf(i)
	if i < 0 || k < 0 {
		return false
	}
	_, at := rd.rateOf(rd.s.Phrases[k])
	return at == i
}

// isRows reports whether phrase k names the rows themselves: the row entity ("billionaires",
// "passengers", "respondents") or the table ("the dataset").
func (rd *reader) isRows(k int) bool {
	if k < 0 {
		return false
	}
	head := rd.s.Tokens[rd.s.Phrases[k].Head]
	if c, ok := rd.best(rd.s.Phrases[k].Head); ok {
		return c.Kind == schema.RowsLink
	}
	return tableWords[head.Lemma] || personWords[head.Lemma] && head.IsPlural()
}

// subjectSpan is the focus phrase and the phrases attached to it, as one token span. A
// comparison is the predicate, never an attachment: "is the age of the reviewers above 50 years".
func (rd *reader) subjectSpan() language.Span {
	f := rd.s.Form().Focus
	if f < 0 {
		return language.Span{}
	}
	sp := rd.s.Phrases[f].Span
	var extend func(k int)
	extend = func(k int) {
		for _, a := range rd.s.Phrases[k].Attachments {
			if rd.compares(a.Prep) {
				continue
			}
			if e := rd.s.Phrases[a.Object].End; e > sp.End {
				sp.End = e
			}
			extend(a.Object)
		}
	}
	extend(f)
	return sp
}

// compares reports a token that opens a comparison: "above" of "above 50 years".
func (rd *reader) compares(i int) bool {
	for _, c := range rd.s.Comparisons {
		if c.Start == i {
			return true
		}
	}
	return false
}

// form decides the answer's form once the rest is known.
func (rd *reader) form() Form {
	m := &rd.m
	switch {
	case rd.s.Form().Kind == language.YesNo && !rd.pairAsked:
		return Verdict
	case m.Agg != NoAgg:
		return Value
	case m.Order != nil && m.Order.N > 1, m.SameAs():
		return List
	case m.Order == nil && rd.focusPlural():
		return List
	}
	return Value
}

func (rd *reader) focusPlural() bool {
	f := rd.s.Form().Focus
	return f >= 0 && rd.s.Tokens[rd.s.Phrases[f].Head].IsPlural()
}

// text returns the question's words under a token span.
func (rd *reader) text(sp language.Span) string { return rd.s.Words(sp) }

// phraseText returns a noun phrase's words with its attachments: "the youngest billionaire".
func (rd *reader) phraseText(k int) string {
	sp := rd.s.Phrases[k].Span
	for _, a := range rd.s.Phrases[k].Attachments {
		sp.End = max(sp.End, rd.s.Phrases[a.Object].End)
	}
	return strings.TrimSpace(rd.text(sp))
}

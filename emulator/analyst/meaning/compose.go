package meaning

import (
	"slices"

	"github.com/analyst-workbench/workbench/emulator/analyst/language"
	"github.com/analyst-workbench/workbench/emulator/analyst/schema"
)

// aggregate reads how the values are summed up: "how many" counts (different values when the
// phrase says "unique"), "the average/total/median …", "on average".
func (rd *reader) aggregate() error {
	form := rd.s.Form()
	var aggs []Agg
	if form.Kind == language.HowMany || form.Kind == language.HowMuch {
		rd.used[form.Word] = true
		if form.Word+1 < len(rd.s.Tokens) {
			rd.used[form.Word+1] = true // many, much
		}
	}
	if form.Kind == language.HowMany {
		aggs = append(aggs, Count)
	}
	for i, t := range rd.s.Tokens {
		if rd.used[i] || t.Kind != language.Word {
			continue
		}
		if a, ok := aggWords[t.Lower]; ok {
			aggs = append(aggs, a)
			rd.used[i] = true
			continue
		}
		if distinctWords[t.Lemma] && len(aggs) > 0 && aggs[0] == Count {
			aggs[0] = Distinct
			rd.used[i] = true
			continue
		}
		if countNouns[t.Lemma] && t.IsNoun() && i+1 < len(rd.s.Tokens) && rd.s.Tokens[i+1].Lower == "of" {
			aggs = append(aggs, Count) // "the number of passengers"
			rd.used[i] = true
		}
	}
	aggs = slices.Compact(aggs)
	if len(aggs) > 1 {
		return &Gap{Phrase: rd.s.Text, Why: "two summaries in one question"}
	}
	if len(aggs) == 0 {
		if form.Kind == language.HowMuch {
			return &Gap{Phrase: "how much", Why: "an amount without saying total or average"}
		}
		return nil
	}
	a := aggs[0]
	if o := rd.m.Order; o != nil && (a == Max || a == Min) {
		return nil // "the top 4 maximum salaries" ranks; the degree word repeats the order
	}
	if o := rd.m.Order; o != nil && o.Size {
		return nil // "the least number of billionaires" is the size order's own count
	}
	rd.m.Agg = a
	return nil
}

// target reads what the answer takes from the selected rows: the groups' names when groups are
// ranked, the column the focus phrase names ("the age of …", "which category …"), or the rows.
func (rd *reader) target() error {
	f := rd.s.Form().Focus
	if rd.m.Group != "" {
		rd.m.Target = rd.m.Group
		if col, at := rd.phraseColumn(f); col == rd.m.Group {
			rd.useLink(at)
		}
		return nil
	}
	if col, at := rd.phraseColumn(f); col != "" {
		rd.useLink(at)
		rd.m.Target = col
		if rd.m.Agg == NoAgg && rd.m.Order == nil && rd.s.Form().Kind != language.YesNo && rd.filtered(col) {
			// "what circuit is listed below Enna": the value asked about is the one given.
			return &Gap{Phrase: rd.phraseText(f), Why: "a question about the value it names"}
		}
		return nil
	}
	if f >= 0 && rd.isRows(f) {
		head := rd.s.Phrases[f].Head
		if c, ok := rd.best(head); ok && c.Kind == schema.RowsLink {
			rd.m.Identifier = c.Column
		}
		return nil
	}
	if f < 0 && rd.s.Form().Kind == language.YesNo {
		return nil
	}
	if rd.m.Agg == Count || rd.s.Form().Kind == language.YesNo {
		return nil
	}
	if rd.m.Order != nil && rd.m.Order.Column != "" {
		rd.m.Target = rd.m.Order.Column // "what is the highest?"
		return nil
	}
	phrase := rd.s.Text
	if f >= 0 {
		phrase = rd.phraseText(f)
	}
	return &Gap{Phrase: phrase, Why: "no column for what is asked"}
}

// groupOrder turns a ranking of rows into a ranking of groups when what is asked is a category
// and the order is by an aggregate or by a column: "which region has the highest average
// charges", "the top 5 products by revenue" (by their total), "the top 2 genders by average
// fare". "Which category does the richest billionaire belong to" stays a row: the superlative
// picks a billionaire.
func (rd *reader) groupOrder() error {
	o, m := rd.m.Order, &rd.m
	if o == nil || o.Size || o.Column == "" || m.Target == "" || m.Target == o.Column {
		return nil
	}
	if m.Agg == NoAgg && !rd.byOrder {
		return nil
	}
	c := rd.ix.Column(m.Target)
	if c == nil || c.Type != schema.Category && c.Type != schema.Boolean {
		return nil
	}
	switch m.Agg {
	case NoAgg:
		o.Agg = Sum
	case Count, Distinct:
		return &Gap{Phrase: rd.s.Text, Why: "a count ranked by another column"}
	default:
		o.Agg = m.Agg
	}
	m.Group, m.Agg = m.Target, NoAgg
	return nil
}

// verdict reads what a yes/no question checks: whether any row passes ("is there", "did any"),
// whether a column's values are all different ("is every name unique"), or how the selected
// value, aggregate or most common value compares with what the predicate says ("is the richest
// self-made", "is the average age above 30", "is the most frequent hair color black").
func (rd *reader) verdict() error {
	if rd.s.Form().Kind != language.YesNo {
		return nil
	}
	m := &rd.m
	if rd.asksExistence() {
		m.Exists = true
		m.Target = ""
		m.Within = m.Order != nil
		return nil
	}
	if rd.asksUnique() {
		m.Unique = true
		return nil
	}
	var pred []int
	for k, c := range m.Filters {
		if rd.afterSubject(c) {
			pred = append(pred, k)
		}
	}
	if len(pred) != 1 {
		return &Gap{Phrase: rd.s.Text, Why: "a yes/no question whose check I could not find"}
	}
	check := m.Filters[pred[0]]
	m.Filters = slices.Delete(m.Filters, pred[0], pred[0]+1)
	switch {
	case m.Agg != NoAgg && m.Agg != Count && check.Numeric && check.Column == m.Target:
	case m.Order != nil && m.Order.Size && check.Column == m.Group:
	case m.Order != nil && !m.Order.Size && m.Order.N == 1:
		m.Target = check.Column
	default:
		return &Gap{Phrase: check.Phrase, Why: "a yes/no check I cannot relate to what is asked about"}
	}
	m.Check = &check
	return nil
}

// afterSubject reports a condition stated after the subject: the predicate of a yes/no question.
func (rd *reader) afterSubject(c Condition) bool { return c.at >= rd.subject.End }

// asksExistence reports "is there …", "are there any …", "did any …".
func (rd *reader) asksExistence() bool {
	w := rd.s.Form().Word
	if w+1 < len(rd.s.Tokens) && rd.s.Tokens[w+1].Lower == "there" {
		rd.used[w+1] = true
		return true
	}
	f := rd.s.Form().Focus
	return f >= 0 && rd.s.Phrases[f].Det >= 0 && rd.s.Tokens[rd.s.Phrases[f].Det].Is("any")
}

// asksUnique reports "is every …'s name unique", "are all ids distinct".
func (rd *reader) asksUnique() bool {
	for i, t := range rd.s.Tokens {
		if t.IsAdjective() && distinctWords[t.Lemma] && i >= rd.subject.End {
			rd.used[i] = true
			return rd.m.Target != ""
		}
	}
	return false
}

// account makes sure every content word has a place: used by a rule, naming the rows, or the
// name of a column whose value the question gives ("the 'Technology' category").
func (rd *reader) account() error {
	for i, t := range rd.s.Tokens {
		if !rd.used[i] && (negations[t.Lower] || sequenceWords[t.Lower]) {
			return &Gap{Phrase: rd.text(language.Span{Start: i, End: min(i+3, len(rd.s.Tokens))}), Why: "I did not understand"}
		}
		if rd.used[i] || !content(t) {
			continue
		}
		if c, ok := rd.best(i); ok {
			switch {
			case c.Kind == schema.RowsLink && !rd.restrictive(i, c):
				continue
			case c.Kind == schema.ColumnLink && rd.filtered(c.Column):
				continue
			}
		}
		return &Gap{Phrase: rd.linkText(i), Why: "I did not understand"}
	}
	return nil
}

// restrictive reports a row noun that restricts the rows rather than naming them all: one of
// age or sex ("children", "women"), or a bare plural after a preposition that is not the
// table's own entity ("the average salary of managers": some employees, not all of them; "the
// fare of the passengers" names them all).
func (rd *reader) restrictive(i int, c schema.Candidate) bool {
	t := rd.s.Tokens[i]
	if c.Score < 0.8 && t.IsPlural() && i > 0 && rd.s.Tokens[i-1].POS == "IN" {
		return true
	}
	lx := rd.ix.Lexicon()
	for _, class := range []string{"juvenile", "female", "male", "adult"} {
		if lx.IsAWithin(t.Lemma, class, 1) {
			return true
		}
	}
	return false
}

// filtered reports a column some filter or check is on.
func (rd *reader) filtered(col string) bool {
	for _, c := range rd.m.Filters {
		if c.Column == col {
			return true
		}
	}
	return rd.m.Check != nil && rd.m.Check.Column == col
}

// linkText is the phrase around token i: its link's text, or the word.
func (rd *reader) linkText(i int) string {
	if rd.link[i] >= 0 {
		return rd.r.Links[rd.link[i]].Text
	}
	return rd.s.Tokens[i].Text
}

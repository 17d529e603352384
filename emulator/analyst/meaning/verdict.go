package meaning

import (
	"cmp"
	"slices"

	"github.com/analyst-workbench/workbench/emulator/analyst/language"
	"github.com/analyst-workbench/workbench/emulator/analyst/schema"
)

// verdict reads what a yes/no question checks: whether any row passes ("is there", "did any"),
// whether a column's values are all different ("is every name unique"), or how the selected
// value, aggregate or most common value compares with what the predicate says ("is the richest
// self-made", "is the average age above 30", "is the most frequent hair color black").
func (rd *reader) verdict() error {
	if rd.s.Form().Kind != language.YesNo || rd.pairAsked || rd.m.Check != nil {
		return nil // "is A or B taller" asks for a row; "is A taller than B" was checked by pairOrder
	}
	m := &rd.m
	rd.used[rd.s.Form().Word] = true // the auxiliary, or "true" of "is it true that"
	if rd.s.Form().Denied {
		// "there were no days when the precipitation was greater than 5 inches": no row passes
		if rd.aggNamesFilter() {
			m.Agg = NoAgg
		}
		if len(m.Filters) == 0 || m.Agg != NoAgg || m.Order != nil {
			return &Gap{Phrase: rd.s.Text, Why: "an existence question with no condition I could read"}
		}
		m.Exists, m.None, m.Target, m.Identifier = true, true, "", ""
		return nil
	}
	if c := rd.also; c != nil {
		if len(m.Filters) > 0 || m.Order == nil || m.Order.Size || m.Order.N != 1 {
			return &Gap{Phrase: c.Phrase, Why: "a second ranking in one question"}
		}
		m.Target, m.Identifier, m.Check = cmp.Or(c.Pick, c.Column), "", c
		return nil
	}
	if c := rd.countCheck; c != nil {
		rd.asksExistence() // "are there" only introduces the rows counted
		if m.Agg != NoAgg && m.Agg != Distinct || m.Order != nil {
			return &Gap{Phrase: c.Phrase, Why: "a number of rows compared within a summary"}
		}
		if m.Agg == NoAgg {
			m.Agg = Count
		}
		if m.Agg == Distinct && m.Target == "" {
			return &Gap{Phrase: c.Phrase, Why: "different rows asked for, and no column names them"}
		}
		m.Check = c
		return nil
	}
	if rd.asksExistence() {
		if rd.aggNamesFilter() {
			m.Agg = NoAgg // "any trips with a total distance greater than 30": each trip's total
		}
		if len(m.Filters) == 0 || m.Agg != NoAgg {
			return &Gap{Phrase: rd.s.Text, Why: "an existence question with no condition I could read"}
		}
		m.Exists = true
		m.Target = ""
		m.Within = m.Order != nil
		return nil
	}
	if rd.asksUnique() {
		m.Unique = true
		return nil
	}
	if col, ok := rd.asksAlike(); ok {
		m.Alike, m.Target, m.Identifier = true, col, ""
		return nil
	}
	var pred []int
	for k, c := range m.Filters {
		if rd.afterSubject(c) {
			pred = append(pred, k)
		}
	}
	majority := rd.asksMajority()
	universal := majority || rd.asksAll()
	if len(pred) == 0 && universal {
		if col, at := rd.haveColumn(); col != "" {
			// "does every roller coaster have a G-force value": none is missing
			rd.useLink(at)
			m.All, m.Majority, m.Target, m.Identifier = true, majority, "", ""
			m.Check = &Condition{Column: col, Op: "notna", Phrase: rd.linkText(at)}
			return nil
		}
	}
	if o := m.Order; len(pred) == 0 && !universal && o != nil && !o.Size && o.N == 1 && m.Agg == NoAgg {
		if col, at := rd.haveColumn(); col != "" && col != o.Column {
			// "does the athlete with the highest height also have a medal": the one row's Medal
			// has a value
			rd.useLink(at)
			m.Target, m.Identifier = col, ""
			m.Check = &Condition{Column: col, Op: "notna", Phrase: rd.linkText(at)}
			return nil
		}
	}
	if len(pred) == 0 && m.Order == nil && m.Agg == NoAgg && len(m.Filters) > 0 && !universal {
		m.Exists, m.Target, m.Identifier = true, "", "" // "is 'Angelica' listed as a food name"
		return nil
	}
	if len(pred) != 1 {
		return &Gap{Phrase: rd.s.Text, Why: "a yes/no question whose check I could not find"}
	}
	check := m.Filters[pred[0]]
	if universal {
		if m.Order != nil || m.Agg != NoAgg {
			return &Gap{Phrase: rd.s.Text, Why: "a question about all rows with a ranking or a summary"}
		}
		m.Filters = slices.Delete(m.Filters, pred[0], pred[0]+1)
		m.All, m.Majority, m.Check, m.Target, m.Identifier = true, majority, &check, "", ""
		return nil
	}
	if check.Than != "" {
		return &Gap{Phrase: check.Phrase, Why: "a yes/no check of one value against another column"}
	}
	m.Filters = slices.Delete(m.Filters, pred[0], pred[0]+1)
	switch {
	case m.Agg != NoAgg && m.Agg != Count && check.Numeric && check.Column == m.Target:
	case m.Order != nil && m.Order.Size && check.Column == m.Group:
	case m.Order != nil && !m.Order.Size && m.Order.N == 1:
		if check.borrowed && rd.numeric(m.Target) {
			check.Column = m.Target // "is the fare of the oldest passenger above 50": the fare
		}
		m.Target = check.Column
	default:
		return &Gap{Phrase: check.Phrase, Why: "a yes/no check I cannot relate to what is asked about"}
	}
	m.Check = &check
	return nil
}

// aggNamesFilter reports an aggregate word that is part of a filtered column's name as said:
// "total" of "a total distance greater than 30 miles" is each row's total, not a sum.
func (rd *reader) aggNamesFilter() bool {
	if rd.aggAt < 0 || rd.m.Agg != Sum && rd.m.Agg != Mean {
		return false
	}
	c, ok := rd.best(rd.aggAt + 1)
	return ok && c.Kind == schema.ColumnLink && slices.ContainsFunc(rd.m.Filters, func(f Condition) bool { return f.Column == c.Column })
}

// afterSubject reports a condition stated after the subject: the predicate of a yes/no question.
func (rd *reader) afterSubject(c Condition) bool { return c.at >= rd.subject.End }

// asksAll reports a question about every row: "do all customers …", "are all listings …",
// "does every roller coaster …", "does everyone …".
func (rd *reader) asksAll() bool {
	f := rd.s.Form().Focus
	if f < 0 {
		return false
	}
	np := rd.s.Phrases[f]
	for i := rd.s.Form().Word + 1; i < np.End; i++ {
		if t := rd.s.Tokens[i]; t.Is("all", "every", "each", "everyone", "everybody") {
			rd.used[i] = true
			return true
		}
	}
	return false
}

// asksMajority reports a question about more than half of the rows: "do the majority of
// respondents …", "do most passengers …". Its words are placed. ("Are more than half of …"
// is a comparison the language front end reads, with no column: it is asked back.)
func (rd *reader) asksMajority() bool {
	toks := rd.s.Tokens
	for i := rd.s.Form().Word + 1; i+1 < len(toks) && i < rd.subject.End; i++ {
		switch {
		case toks[i].Is("majority") && toks[i+1].Is("of"):
			rd.used[i], rd.used[i+1] = true, true
			return true
		case toks[i].Is("most") && (i == 0 || !toks[i-1].Is("the")) && (toks[i+1].IsNoun() && toks[i+1].IsPlural() || toks[i+1].Is("of")):
			rd.used[i] = true // "most passengers", "most of the passengers"; "the most" ranks
			if toks[i+1].Is("of") {
				rd.used[i+1] = true
			}
			return true
		}
	}
	return false
}

// haveColumn returns the column named after the subject of "does every X have a <column>".
func (rd *reader) haveColumn() (string, int) {
	for i := rd.subject.End; i < len(rd.s.Tokens); i++ {
		if c, ok := rd.best(i); ok && c.Kind == schema.ColumnLink && !rd.used[i] {
			for j := rd.subject.End; j < i; j++ {
				if rd.s.Tokens[j].IsVerb() && rd.s.Tokens[j].Lemma == "have" {
					return c.Column, i
				}
			}
		}
	}
	return "", -1
}

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

// asksAlike reports a question whether every row shares one value, and the column: "are all
// properties located in the same neighbourhood", "do all reviews come from the same
// department". Its words are placed.
func (rd *reader) asksAlike() (string, bool) {
	f := rd.s.Form().Focus
	for i, t := range rd.s.Tokens {
		if !t.Is("same") || f < 0 || i <= rd.s.Phrases[f].Head {
			continue // "of the same length" may hang on the rows' phrase
		}
		k := rd.phraseOf(i)
		if k < 0 {
			return "", false
		}
		col, at := rd.phraseColumn(k)
		if col == "" {
			col, at = rd.columnCandidate(rd.s.Phrases[k].Head) // "the same department": Department Name
		}
		if col == "" || !rd.asksAll() {
			return "", false
		}
		rd.used[i] = true
		rd.useLink(at)
		return col, true
	}
	return "", false
}

// columnCandidate returns the best column the link at token i offers, even when the row
// entity leads: after "the same" a noun names a column whose values are compared.
func (rd *reader) columnCandidate(i int) (string, int) {
	if i < 0 || rd.link[i] < 0 {
		return "", -1
	}
	for _, c := range rd.r.Links[rd.link[i]].Candidates {
		if c.Kind == schema.ColumnLink {
			return c.Column, i
		}
	}
	return "", -1
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

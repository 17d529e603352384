package meaning

import (
	"slices"
	"strings"
	"unicode"

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
	if form.Kind == language.HowMany && !rd.numericFocus() {
		aggs = append(aggs, Count) // but "how many descendants does an entry have" asks a column's values
	}
	for i, t := range rd.s.Tokens {
		if rd.used[i] || t.Kind != language.Word {
			continue
		}
		if c, ok := rd.best(i); ok && c.Kind == schema.ColumnLink && !rd.used[i] && rd.r.Links[rd.link[i]].Span.Len() > 0 && len(rd.r.Links[rd.link[i]].Tokens) == 1 {
			continue // "Total" is the column's own name
		}
		if a, ok := aggWords[t.Lower]; ok {
			rd.used[i] = true
			if a == Sum && i+1 < len(rd.s.Tokens) && countNouns[rd.s.Tokens[i+1].Lemma] {
				continue // "the total number of customers" is their number
			}
			aggs = append(aggs, a)
			continue
		}
		if distinctWords[t.Lemma] && len(aggs) > 0 && aggs[0] == Count {
			aggs[0] = Distinct
			rd.used[i] = true
			continue
		}
		if distinctWords[t.Lemma] && rd.m.Order != nil && !rd.m.Order.Size && t.IsAdjective() {
			rd.m.Order.Unique = true
			rd.used[i] = true
			continue
		}
		if countNouns[t.Lemma] && t.IsNoun() && i+1 < len(rd.s.Tokens) && rd.s.Tokens[i+1].Lower == "of" {
			rd.used[i] = true
			if k := rd.phraseOf(i); k >= 0 {
				if col, _ := rd.attachedColumn(k); col != "" && !idColumns[lemmaOfColumn(col)] {
					continue // "the maximum number of bedrooms": the column's own values
				}
			}
			aggs = append(aggs, Count) // "the number of passengers"
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
		if a != Count && a != Distinct {
			return &Gap{Phrase: rd.s.Text, Why: "a summary with a ranking by how often values occur"}
		}
		return nil // "the least number of billionaires" is the size order's own count
	}
	rd.m.Agg = a
	return nil
}

// kindsAsked reports a "how many" about a category column's values rather than rows: the
// focus is the column named in the plural ("how many countries are there") or its kinds ("how
// many surface types").
func (rd *reader) kindsAsked(f, at int) bool {
	head := rd.s.Tokens[rd.s.Phrases[f].Head]
	if kindNouns[head.Lemma] {
		rd.used[rd.s.Phrases[f].Head] = true
		return true
	}
	c, ok := rd.best(rd.s.Phrases[f].Head)
	return ok && c.Kind == schema.ColumnLink && at == rd.s.Phrases[f].Head && head.IsPlural() && !rd.numeric(c.Column)
}

// numericFocus reports a "how many" whose focus is a numeric column: "how many descendants does
// an entry have on average" asks for descendants, not for a number of rows.
func (rd *reader) numericFocus() bool {
	f := rd.s.Form().Focus
	if f < 0 {
		return false
	}
	for _, i := range rd.s.Phrases[f].Modifiers {
		if distinctWords[rd.s.Tokens[i].Lemma] {
			return false // "how many unique passenger classes" counts values
		}
	}
	col, _ := rd.phraseColumn(f)
	return col != "" && rd.numeric(col) && !idColumns[lemmaOfColumn(col)]
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
	if form := rd.s.Form(); form.Kind == language.Wh && rd.s.Tokens[form.Word].Is("who", "whom") && rd.m.Agg == NoAgg {
		// "who has the most votes": the rows, by the column that names them
		lemma := "person"
		if f >= 0 && !rd.elliptical(f) {
			lemma = rd.s.Tokens[rd.s.Phrases[f].Head].Lemma // "who is the author …": author_name first
		}
		if rd.m.Identifier = rd.ix.Identifier(lemma); rd.m.Identifier == "" {
			return &Gap{Phrase: "who", Why: "rows asked for, and no column names them"}
		}
		return nil
	}
	col, at := rd.phraseColumn(f)
	if col == "" && f >= 0 && rd.m.Agg != Count && (countNouns[rd.s.Tokens[rd.s.Phrases[f].Head].Lemma] || measureNouns[rd.s.Tokens[rd.s.Phrases[f].Head].Lemma]) {
		col, at = rd.attachedColumn(f) // "the 5 highest number of comments"
	}
	if col != "" && rd.m.Agg == Count && rd.s.Form().Kind == language.HowMany && rd.kindsAsked(f, at) {
		rd.useLink(at) // "how many surface types", "how many countries": different values
		rd.m.Agg, rd.m.Target = Distinct, col
		return nil
	}
	if col != "" && rd.m.Agg == Count && !rd.numeric(col) || col != "" && rd.m.Agg == Count && idColumns[lemmaOfColumn(col)] {
		rd.useLink(at) // "the number of incidents": rows are counted, whatever names them
		return nil
	}
	if col != "" {
		rd.useLink(at)
		rd.m.Target = col
		if rd.m.Agg == NoAgg && rd.m.Order == nil && rd.s.Form().Kind != language.YesNo && rd.filtered(col) {
			// "what circuit is listed below Enna": the value asked about is the one given.
			return &Gap{Phrase: rd.phraseText(f), Why: "a question about the value it names"}
		}
		return nil
	}
	if f >= 0 && rd.periodWord(rd.s.Phrases[f].Head) {
		return &Gap{Phrase: rd.phraseText(f), Why: "a period of the dates"} // "which quarter had …"
	}
	if f >= 0 && (rd.isRows(f) || rd.entityNoun(rd.s.Phrases[f].Head)) {
		head := rd.s.Phrases[f].Head
		if c, ok := rd.best(head); ok && c.Kind == schema.RowsLink && (rd.namesRows() || rd.m.Agg == Distinct) {
			rd.m.Identifier = c.Column
		}
		if rd.m.Identifier == "" && (rd.namesRows() || rd.m.Agg == Distinct) {
			rd.m.Identifier = rd.ix.Identifier(rd.s.Tokens[head].Lemma)
		}
		if rd.m.Identifier == "" && rd.namesRows() {
			return &Gap{Phrase: rd.phraseText(f), Why: "rows asked for, and no column names them"}
		}
		if rd.m.Agg == Distinct {
			if rd.m.Identifier == "" {
				return &Gap{Phrase: rd.phraseText(f), Why: "different rows asked for, and no column names them"}
			}
			rd.m.Target = rd.m.Identifier // "how many unique customers": their ids
		}
		return nil
	}
	if f < 0 && rd.s.Form().Kind == language.YesNo {
		return nil
	}
	if rd.m.Agg == Count || rd.s.Form().Kind == language.YesNo {
		return nil
	}
	if o := rd.m.Order; o != nil && o.Column != "" && rd.elliptical(f) {
		rd.m.Target = o.Column // "what is the highest?"
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
	if o != nil && !o.Size && o.Column != "" && m.Group != "" {
		// "the top 2 genders by average fare": boundOrder set the groups, the aggregate is here
		o.Agg = Sum
		if m.Agg >= Sum {
			o.Agg = m.Agg
		} else if m.Agg != NoAgg {
			return &Gap{Phrase: rd.s.Text, Why: "a count ranked by another column"}
		}
		m.Agg, m.Target = NoAgg, m.Group
		return nil
	}
	if o != nil && m.Target == "" && m.Identifier != "" && m.Agg >= Sum {
		// "the top 3 months with the highest average maximum temperatures"
		m.Target = m.Identifier
	}
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

// periodWord reports an unlinked noun that names a period of time in any of its senses
// ("quarter", "year", "month"): answering it needs the dates grouped by period.
func (rd *reader) periodWord(i int) bool {
	if c, ok := rd.best(i); ok && c.Kind != schema.RowsLink && c.Reason != schema.Attribute && c.Reason != schema.Partial && c.Reason != schema.Unit {
		return false // "which date", named by a column of its own
	}
	lx, lemma := rd.ix.Lexicon(), rd.s.Tokens[i].Lemma
	return lx.IsA(lemma, "time period") || lx.IsA(lemma, "time unit")
}

// namesRows reports a question whose answer is rows, not a number of them: "who", "which
// customer", "list the 3 customers with …" without a count or a verdict.
func (rd *reader) namesRows() bool {
	k := rd.s.Form().Kind
	return rd.m.Agg == NoAgg && k != language.YesNo && k != language.HowMany
}

// elliptical reports a focus with no noun of its own, whose column the superlative gives: "what
// is the highest?", "the largest value".
func (rd *reader) elliptical(f int) bool {
	if f < 0 {
		return true
	}
	head := rd.s.Phrases[f].Head
	t := rd.s.Tokens[head]
	return t.IsAdjective() || measureNouns[t.Lemma] || rd.used[head] && rd.link[head] < 0
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
	var pred []int
	for k, c := range m.Filters {
		if rd.afterSubject(c) {
			pred = append(pred, k)
		}
	}
	universal := rd.asksAll()
	if len(pred) == 0 && universal {
		if col, at := rd.haveColumn(); col != "" {
			// "does every roller coaster have a G-force value": none is missing
			rd.useLink(at)
			m.All, m.Target, m.Identifier = true, "", ""
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
		m.All, m.Check, m.Target, m.Identifier = true, &check, "", ""
		return nil
	}
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
		if rd.used[i] || !content(t) && !rd.namesColumn(i) {
			continue // a harmless word, unless it is a column's very name ("overall" for Overall)
		}
		if c, ok := rd.best(i); ok {
			switch {
			case c.Kind == schema.RowsLink && !rd.restrictive(i, c) && !rd.namesValue(t):
				continue
			case c.Kind == schema.ColumnLink && rd.filtered(c.Column):
				continue
			}
		} else if rd.entityNoun(i) || rd.measureNoun(i) || rd.carrierVerb(i) {
			continue
		}
		return &Gap{Phrase: rd.linkText(i), Why: "I did not understand"}
	}
	return nil
}

// namesColumn reports a token that names a column as written, up to case and form.
func (rd *reader) namesColumn(i int) bool {
	c, ok := rd.best(i)
	return ok && c.Kind == schema.ColumnLink && (c.Reason == schema.Exact || c.Reason == schema.Normalised || c.Reason == schema.Lemma)
}

// restrictive reports a row noun that restricts the rows rather than naming them all: one of
// age or sex ("children", "women"), or a bare plural after a preposition that is not the
// table's own entity ("the average salary of managers": some employees, not all of them; "the
// fare of the passengers" names them all).
func (rd *reader) restrictive(i int, c schema.Candidate) bool {
	t := rd.s.Tokens[i]
	if c.Score < 0.8 && t.IsPlural() && i > 0 && rd.s.Tokens[i-1].POS == "IN" && !rd.s.Tokens[i-1].Is("of", "among", "amongst") {
		return true
	}
	lx := rd.ix.Lexicon()
	if c.Score < 0.8 && lx.IsAWithin(t.Lemma, "person", 2) {
		// The table says its rows are employees (employee_id); "managers" are some of them.
		for _, e := range rd.ix.Entities() {
			if lx.IsAWithin(e, "person", 2) {
				return true
			}
		}
	}
	for _, class := range []string{"juvenile", "female", "male", "adult"} {
		if lx.IsAWithin(t.Lemma, class, 1) {
			return true
		}
	}
	return false
}

// entityNoun reports an unlinked common noun that names what a row is: "How many complaints
// were made in Queens?", "Which neighbourhood has the most listings?". It must be plural or
// determined, must not restrict by age or sex, and must not name part of a category value (a
// table whose titles include "Engineering Manager" reads "managers" as a restriction).
func (rd *reader) entityNoun(i int) bool {
	t := rd.s.Tokens[i]
	if t.Kind != language.Word || !t.IsNoun() || strings.HasPrefix(t.POS, "NNP") || rd.namesValue(t) || rd.ix.IsTimeWord(t.Lemma) {
		return false // a year or a quarter is a period of the dates, not a row
	}
	if i > 0 && rd.s.Tokens[i-1].POS == "IN" && !rd.s.Tokens[i-1].Is("of", "among", "amongst") {
		return false // "people with diabetes", "during heatwaves": a restriction
	}
	if rd.restrictive(i, schema.Candidate{Score: 1}) || countNouns[t.Lemma] || measureNouns[t.Lemma] {
		return false
	}
	k := rd.phraseOf(i)
	if k >= 0 && i+1 < len(rd.s.Tokens) && rd.s.Tokens[i+1].POS == "POS" && rd.ix.Identifier(t.Lemma) != "" {
		return true // "every passenger's name": the possessor is the row
	}
	if k < 0 || rd.s.Phrases[k].Head != i {
		return false
	}
	np := rd.s.Phrases[k]
	for _, j := range np.Modifiers {
		if !rd.used[j] && content(rd.s.Tokens[j]) {
			return false // "foreign companies": a restriction the table may not hold
		}
	}
	if t.IsPlural() {
		return true
	}
	// A singular noun names the rows only as what is asked about ("which customer", "each
	// product"), not as the object of a verb ("survived the iceberg") or of "of" ("the crew").
	return np.Det >= 0 && (rd.s.Tokens[np.Det].Is("which", "what", "each", "every") ||
		rd.s.Tokens[np.Det].Is("the") && k == rd.s.Form().Focus)
}

// carrierVerb reports a verb that only carries a condition to the rows: next to the row noun,
// with the condition after it ("complaints made in Queens", "agencies handling the most
// complaints", "passengers who paid a fare of more than 500"). A verb whose complement holds
// nothing the rules used is itself the condition ("employees who left the company") and blocks.
func (rd *reader) carrierVerb(i int) bool {
	t := rd.s.Tokens[i]
	if !t.IsVerb() || !rd.nextToRows(i) {
		return false
	}
	for _, c := range rd.ix.Table().Columns {
		if slices.ContainsFunc(columnWords(c.Name), func(w string) bool { return w == t.Lower || w == t.Lemma }) {
			return false // "who expected more than 5 matches": part of expected_num_matches
		}
	}
	for j := i + 1; j < len(rd.s.Tokens); j++ {
		u := rd.s.Tokens[j]
		if u.Kind == language.Punct || u.IsVerb() && !rd.used[j] {
			break
		}
		if rd.used[j] && content(u) {
			return true
		}
	}
	return false
}

// nextToRows reports a verb whose neighbour, past auxiliaries, adverbs and relative pronouns,
// is the row noun or a column the rules used: "complaints (were) made", "who paid", "fare paid".
func (rd *reader) nextToRows(i int) bool {
	rows := func(j int) bool {
		if c, ok := rd.best(j); ok && (c.Kind == schema.RowsLink || c.Kind == schema.ValueLink && rd.used[j]) {
			return true
		}
		return rd.link[j] < 0 && rd.entityNoun(j)
	}
	for j := i - 1; j >= 0; j-- {
		u := rd.s.Tokens[j]
		if u.IsVerb() || strings.HasPrefix(u.POS, "RB") || u.POS == "MD" || u.Is("who", "that", "which") {
			continue
		}
		if rows(j) {
			return true
		}
		break
	}
	for j := i + 1; j < len(rd.s.Tokens); j++ {
		u := rd.s.Tokens[j]
		if u.POS == "DT" || rd.used[j] && !u.IsNoun() {
			continue
		}
		return u.IsNoun() && rows(j)
	}
	return false
}

// measureNoun reports "level", "stat", "values" leaning on a column in the same phrase or the
// phrase attached by "of": "the maximum level of Extraversion", "the highest total stats".
func (rd *reader) measureNoun(i int) bool {
	if !measureNouns[rd.s.Tokens[i].Lemma] {
		return false
	}
	k := rd.phraseOf(i)
	if k < 0 {
		return false
	}
	if col, _ := rd.phraseColumn(k); col != "" {
		return true
	}
	for _, a := range rd.s.Phrases[k].Attachments {
		if col, _ := rd.phraseColumn(a.Object); col != "" && rd.s.Tokens[a.Prep].Is("of", "for") {
			return true
		}
	}
	return false
}

// namesValue reports a noun that is a word of some category value, or derives from one: it
// restricts that column ("managers" of "Engineering Manager", "smokers" of "smokes").
func (rd *reader) namesValue(t language.Token) bool {
	if rd.valueForms == nil {
		rd.valueForms = rd.valueWordForms()
	}
	if rd.valueForms[t.Lower] || rd.valueForms[t.Lemma] {
		return true
	}
	for _, d := range rd.ix.Lexicon().Derivations(t.Lemma) {
		if rd.valueForms[d] {
			return true
		}
	}
	return false
}

// valueWordForms collects the words of every category value with their lemmas.
func (rd *reader) valueWordForms() map[string]bool {
	lx := rd.ix.Lexicon()
	forms := map[string]bool{}
	for _, c := range rd.ix.Table().Columns {
		if c.Type != schema.Category {
			continue
		}
		for _, v := range c.Values {
			for _, w := range strings.FieldsFunc(strings.ToLower(v), func(r rune) bool { return !unicode.IsLetter(r) }) {
				forms[w] = true
				for _, tag := range []string{"NNS", "VBZ", "VBD", "VBG"} {
					if l := lx.Lemma(w, tag); l != "" {
						forms[l] = true
					}
				}
			}
		}
	}
	return forms
}

// phraseOf returns the noun phrase token i is in, or -1.
func (rd *reader) phraseOf(i int) int {
	for k, np := range rd.s.Phrases {
		if np.Contains(i) {
			return k
		}
	}
	return -1
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

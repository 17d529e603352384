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
	if form.Kind == language.HowMany && !rd.numericFocus() {
		aggs = append(aggs, Count) // but "how many descendants does an entry have" asks a column's values
	}
	for i, t := range rd.s.Tokens {
		if rd.used[i] || t.Kind != language.Word {
			continue
		}
		if rd.namesColumn(i) && len(rd.r.Links[rd.link[i]].Tokens) == 1 {
			continue // "Total" is the column's own name; "unique" is not unique_key's
		}
		if _, ok := aggWords[t.Lower]; ok && rd.partOfColumnName(i) {
			continue // "maximum heart rate" is MaxHR, each word matched to one of the name's
		}
		if k := rd.phraseOf(i); k >= 0 && rd.s.Phrases[k].Head == i {
			if col, _ := rd.rateOf(rd.s.Phrases[k]); col != "" {
				rd.used[i] = true // "the survival rate": the mean of Survived
				aggs = append(aggs, Mean)
				rd.aggAt = i
				continue
			}
		}
		if a, ok := aggWords[t.Lower]; ok {
			rd.used[i] = true
			if a == Sum && i+1 < len(rd.s.Tokens) && countNouns[rd.s.Tokens[i+1].Lemma] {
				continue // "the total number of customers" is their number
			}
			if a == Sum && len(aggs) > 0 && aggs[0] == Count && form.Kind == language.HowMany {
				continue // "how many zip codes are there in total" counts them all
			}
			aggs = append(aggs, a)
			rd.aggAt = i
			continue
		}
		if distinctWords[t.Lemma] && len(aggs) > 0 && aggs[0] == Count {
			aggs[0] = Distinct
			rd.used[i] = true
			continue
		}
		if distinctWords[t.Lemma] && rd.m.Order != nil && t.IsAdjective() {
			rd.m.Order.Unique = !rd.m.Order.Size // ranked groups are different values already
			rd.used[i] = true
			continue
		}
		if k := rd.phraseOf(i); countNouns[t.Lemma] && t.IsNoun() && k >= 0 && rd.countColumnBefore(k, i) {
			rd.used[i] = true // "the retweet counts for the top 5 posts": Retweets' values
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
		if form.Kind == language.HowMany && rd.m.Order == nil && rd.numericFocus() {
			rd.m.Agg = Sum // "how many rebounds were there by Miami Heat players" adds theirs up
			return nil
		}
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

// codes reports a numeric column that labels rather than measures, by any word of its name
// ("ZIP code Lower", "Serial No"): adding its values up means nothing.
func (rd *reader) codes(col string) bool {
	words := columnWords(col)
	if len(words) >= 2 && (words[0] == "num" || words[0] == "number" || words[0] == "no") {
		words = words[1:] // num_claims, "Number of Projects": counts, not labels
	}
	return slices.ContainsFunc(words, func(w string) bool { return idColumns[w] })
}

// countColumnBefore reports a numeric column named right before the count noun at token i in
// phrase k: "retweet counts" are the values of a column of counts, not a count of rows.
func (rd *reader) countColumnBefore(k, i int) bool {
	j := i - 1
	if j < rd.s.Phrases[k].Start {
		return false
	}
	c, ok := rd.best(j)
	return ok && c.Kind == schema.ColumnLink && rd.numeric(c.Column) && !idColumns[lemmaOfColumn(c.Column)]
}

// partOfColumnName reports a word of several the linker matched, each to a word of one
// column's name: "maximum" of "the average maximum heart rate" (MaxHR).
func (rd *reader) partOfColumnName(i int) bool {
	c, ok := rd.best(i)
	if !ok || c.Kind != schema.ColumnLink || c.Score < schema.UseScore {
		return false
	}
	l := rd.r.Links[rd.link[i]]
	return len(l.Tokens) > 1 && slices.Contains(l.Tokens, i)
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

// kindOfColumn returns the column of text a kind noun's modifier or "of" object names, and its
// token: "surface" of "the surface types", "contract" of "the most common types of contract";
// "" when the head is no kind noun or nothing names such a column. The kind noun is placed.
func (rd *reader) kindOfColumn(f int) (string, int) {
	if f < 0 || !kindNouns[rd.s.Tokens[rd.s.Phrases[f].Head].Lemma] {
		return "", -1
	}
	np := rd.s.Phrases[f]
	for _, i := range np.Modifiers {
		if c, ok := rd.best(i); ok && c.Kind == schema.ColumnLink && !rd.numeric(c.Column) {
			rd.used[np.Head] = true
			return c.Column, i
		}
	}
	if col, at, of := rd.ofTextColumn(f); col != "" {
		rd.used[np.Head], rd.used[of] = true, true
		return col, at
	}
	return "", -1
}

// ofTextColumn returns the column of text the "of" object of phrase k names, its token and the
// token of "of": Competition of "the name of the competition"; "" when there is none.
func (rd *reader) ofTextColumn(k int) (string, int, int) {
	for _, a := range rd.s.Phrases[k].Attachments {
		if !rd.s.Tokens[a.Prep].Is("of") {
			continue
		}
		if col, at := rd.phraseColumn(a.Object); col != "" && !rd.numeric(col) {
			return col, at, a.Prep
		}
	}
	return "", -1, -1
}

// howAttribute returns the column "how" and an adjective ask for, the adjective's attribute
// in WordNet ("how old" → age, "how tall" → height), and places the adjective; "" otherwise.
func (rd *reader) howAttribute() string {
	form := rd.s.Form()
	if form.Kind != language.How || form.Word+1 >= len(rd.s.Tokens) || !rd.s.Tokens[form.Word+1].IsAdjective() {
		return ""
	}
	col := rd.attributeColumn(rd.s.Tokens[form.Word+1].Lemma)
	if col != "" {
		rd.used[form.Word], rd.used[form.Word+1] = true, true
	}
	return col
}

// ofColumn returns the column, of any type, that the "of" object of phrase k names, and its
// token; the head of k is placed.
func (rd *reader) ofColumn(k int) (string, int) {
	for _, a := range rd.s.Phrases[k].Attachments {
		if col, at := rd.phraseColumn(a.Object); col != "" && rd.s.Tokens[a.Prep].Is("of") {
			rd.used[rd.s.Phrases[k].Head], rd.used[a.Prep] = true, true
			return col, at
		}
	}
	return "", -1
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
	return col != "" && rd.numeric(col) && !rd.codes(col)
}

// target reads what the answer takes from the selected rows: the groups' names when groups are
// ranked, the column the focus phrase names ("the age of …", "which category …"), or the rows.
func (rd *reader) target() error {
	if rd.pairAsked || rd.m.Check != nil {
		return nil // pairOrder took the named rows' column
	}
	f := rd.s.Form().Focus
	if col := rd.howAttribute(); col != "" {
		rd.m.Target = col // "how old are the 5 oldest customers": their ages
		return nil
	}
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
		if rd.m.Identifier = rd.ix.Identifier(lemma); rd.m.Identifier != "" {
			return nil
		}
		if col, at := rd.phraseColumn(f); col != "" && !rd.numeric(col) && !rd.elliptical(f) {
			rd.useLink(at) // "who is the last opponent": the opponent's name is the answer
			rd.m.Target = col
			return nil
		}
		return &Gap{Phrase: "who", Why: "rows asked for, and no column names them"}
	}
	if rd.rankedPeriod(f) {
		return nil // "which year had the most injuries": the years of the dates, ranked
	}
	col, at := rd.phraseColumn(f)
	if col != "" && f >= 0 {
		if head := rd.s.Phrases[f].Head; at != head && kindNouns[rd.s.Tokens[head].Lemma] && !rd.numeric(col) {
			rd.used[head] = true // "which lunch type": the lunch column's values are its types
		}
	}
	if col == "" && f >= 0 && rd.m.Agg != Count && (countNouns[rd.s.Tokens[rd.s.Phrases[f].Head].Lemma] || measureNouns[rd.s.Tokens[rd.s.Phrases[f].Head].Lemma]) {
		col, at = rd.attachedColumn(f) // "the 5 highest number of comments"
	}
	if col == "" && f >= 0 && rd.m.Agg == Distinct && countNouns[rd.s.Tokens[rd.s.Phrases[f].Head].Lemma] {
		col, at = rd.ofColumn(f) // "the number of unique agencies": Agency's different values
	}
	if col == "" {
		col, at = rd.nameOfColumn(f) // "the name of the competition" is Competition's value
	}
	if rd.m.Agg == Count {
		if mc, mat := rd.kindOfColumn(f); mc != "" {
			col, at = mc, mat // "how many surface types": Surface's values, whatever a column Type holds
		}
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
		if o := rd.m.Order; o != nil && !o.Size && o.Column != "" && rd.m.Agg != Count && rd.m.Agg != Distinct {
			if col, part := rd.datePeriod(f); col != "" && part != "" {
				// "which year had the highest number of injuries": the years ranked by their total
				rd.m.Group, rd.m.GroupPart = col, part
				return nil
			}
		}
		return &Gap{Phrase: rd.phraseText(f), Why: "a period of the dates"} // "which quarter had …"
	}
	if f >= 0 && (rd.isRows(f) || rd.entityNoun(rd.s.Phrases[f].Head)) {
		head := rd.s.Phrases[f].Head
		ranked := rd.m.Order != nil && rd.m.Agg >= Sum // "the top 3 months with the highest average …": groups
		if c, ok := rd.best(head); ok && c.Kind == schema.RowsLink && (rd.namesRows() || rd.m.Agg == Distinct || ranked) {
			rd.m.Identifier = c.Column
		}
		if rd.m.Identifier == "" && (rd.namesRows() || rd.m.Agg == Distinct) {
			rd.m.Identifier = rd.ix.Identifier(rd.s.Tokens[head].Lemma)
		}
		if rd.m.Identifier == "" && rd.namesRows() && !rd.asksWhere() {
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
	if col := rd.alternativesAsked(); col != "" {
		rd.m.Target = col // "which is a civil parish, Aintree Village or Maghull?"
		return nil
	}
	phrase := rd.s.Text
	if f >= 0 {
		phrase = rd.phraseText(f)
	}
	return &Gap{Phrase: phrase, Why: "no column for what is asked"}
}

// alternativesAsked returns the column of the values a "which" question offers to choose
// from ("which is a civil parish, Aintree Village or Maghull?"): the one filter on two or more
// values of a column of names; "" when there is none.
func (rd *reader) alternativesAsked() string {
	form := rd.s.Form()
	if form.Kind != language.Wh || !rd.s.Tokens[form.Word].Is("which") {
		return ""
	}
	found := ""
	for _, c := range rd.m.Filters {
		if c.Op != "in" || !rd.names(c.Column) {
			continue
		}
		if found != "" {
			return ""
		}
		found = c.Column
	}
	return found
}

// rankedPeriod reads a period asked about as groups of the one date column when rows are
// ranked by a column: "which year had the most injuries", "which month had the highest
// average temperature" rank the years or months of the dates by the column's total or mean.
// The period word may be linked to the date column itself, as a unit of it.
func (rd *reader) rankedPeriod(f int) bool {
	o := rd.m.Order
	if f < 0 || o == nil || o.Size || o.Column == "" || rd.m.Agg == Count || rd.m.Agg == Distinct {
		return false
	}
	head := rd.s.Phrases[f].Head
	if c, ok := rd.best(head); ok && !(c.Kind == schema.ColumnLink && c.Reason == schema.Unit) {
		return false // "which date", "which month_name": a column of its own
	}
	if periodParts[rd.s.Tokens[head].Lemma] == "" {
		return false
	}
	if _, week := rd.weekOf(f); periodParts[rd.s.Tokens[head].Lemma] == "%Y-%m-%d" && !week {
		return false // "the top 10 days by volume": a day is a row, ranked as one
	}
	col, part := rd.datePeriod(f)
	if col == "" || part == "" {
		return false
	}
	rd.useLink(head)
	rd.m.Group, rd.m.GroupPart, rd.m.Target = col, part, col
	return true
}

// weekOf returns the "of the week" attached to phrase f's head: "which day of the week".
func (rd *reader) weekOf(f int) (language.Attachment, bool) {
	for _, a := range rd.s.Phrases[f].Attachments {
		if rd.s.Tokens[a.Prep].Is("of") && rd.s.Tokens[rd.s.Phrases[a.Object].Head].Is("week") {
			return a, true
		}
	}
	return language.Attachment{}, false
}

// groupOrder turns a ranking of rows into a ranking of groups when what is asked is a category
// and the order is by an aggregate or by a column: "which region has the highest average
// charges", "the top 5 products by revenue" (by their total), "the top 2 genders by average
// fare". "Which category does the richest billionaire belong to" stays a row: the superlative
// picks a billionaire.
func (rd *reader) groupOrder() error {
	o, m := rd.m.Order, &rd.m
	if o != nil && o.Agg == Distinct {
		return nil // "the region with the most countries": set by the superlative itself
	}
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
	if o != nil && !o.Size && o.Column != "" && m.Agg >= Sum && m.Target != "" && m.Target != o.Column && rd.aggInOrder() {
		// "which class has the highest average fare": the aggregate is what the groups of the
		// asked column are ranked by, whatever that column's type
		o.Agg, m.Group, m.Agg = m.Agg, m.Target, NoAgg
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
	if c == nil || c.Type != schema.Category && c.Type != schema.Boolean && !rd.comparedValues(m.Target) {
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

// comparedValues reports a column whose two values a yes/no question compares by a summary:
// "do 4-cylinder cars have a higher average mpg than 6-cylinder cars" groups cylinders.
func (rd *reader) comparedValues(col string) bool {
	return rd.m.Check != nil && rd.m.Check.Column == col && slices.ContainsFunc(rd.m.Filters, func(c Condition) bool {
		return c.Column == col && c.Op == "in" && len(c.Values) == 2
	})
}

// eachValue reads an average (or a median, maximum or minimum: what the values' rows do not
// add up to) over values named with "and" as one per value: "the average salary of male and
// female employees" is the average of each gender, listed. A total or a count of them stays
// one ("how many points did A and B score together").
func (rd *reader) eachValue() error {
	m := &rd.m
	if m.Group != "" || m.Order != nil || m.Check != nil || m.Exists || m.Target == "" || m.Agg < Mean {
		return nil
	}
	for _, c := range m.Filters {
		if c.Op == "in" && c.Both && c.Column != m.Target {
			m.Order = &Order{Column: m.Target, Agg: m.Agg, Desc: true, N: len(c.Values), Said: true, Each: true, Phrase: c.Phrase}
			m.Group, m.Target, m.Agg = c.Column, c.Column, NoAgg
			for i, t := range rd.s.Tokens {
				if t.Lemma == "compare" || t.Lemma == "comparison" {
					rd.used[i] = true // "compare the average salary of men and women": this listing
				}
			}
			return nil
		}
	}
	return nil
}

// aggInOrder reports an aggregate word inside the phrase a superlative ranks by.
func (rd *reader) aggInOrder() bool {
	return rd.aggAt >= rd.orderSpan.Start && rd.aggAt < rd.orderSpan.End && rd.orderSpan.Len() > 0
}

// periodWord reports an unlinked noun that names a period of time in any of its senses
// ("quarter", "year", "month"): answering it needs the dates grouped by period.
func (rd *reader) periodWord(i int) bool {
	if c, ok := rd.best(i); ok && c.Kind != schema.RowsLink && c.Reason != schema.Attribute && c.Reason != schema.Partial && c.Reason != schema.Unit {
		return false // "which date", named by a column of its own
	}
	if c, ok := rd.best(i); ok && c.Kind == schema.RowsLink && c.Column != "" && rd.ix.EntityOf(c.Column) == rd.s.Tokens[i].Lemma {
		return false // "which month", named by month_name
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

// nameOfColumn returns the column of text a phrase headed by "name" or "title" names with its
// "of" object, and the token naming it: "the name of the competition" → Competition, whose
// values are the names. The head is placed.
func (rd *reader) nameOfColumn(k int) (string, int) {
	if k < 0 || !rd.s.Tokens[rd.s.Phrases[k].Head].Is("name", "title") {
		return "", -1
	}
	col, at, of := rd.ofTextColumn(k)
	if col != "" {
		rd.used[rd.s.Phrases[k].Head], rd.used[of] = true, true
	}
	return col, at
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

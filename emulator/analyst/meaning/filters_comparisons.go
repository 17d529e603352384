package meaning

import (
	"slices"
	"strconv"

	"github.com/analyst-workbench/workbench/emulator/analyst/language"
	"github.com/analyst-workbench/workbench/emulator/analyst/schema"
)

// countComparison reads a comparison on how many rows there are, the rows named right after
// the number: "are there more than 2000 customers with …", "more than 20 unique items".
func (rd *reader) countComparison(cmp language.Comparison) bool {
	end := cmp.End
	if n := cmp.Value; n.Len() > 1 && rd.s.Tokens[n.Start].Kind == language.Number {
		end = n.Start + 1 // the value span "100 passengers" holds the rows
	}
	for end < len(rd.s.Tokens) && distinctWords[rd.s.Tokens[end].Lemma] {
		end++
	}
	if end >= len(rd.s.Tokens) || rd.s.Form().Kind != language.YesNo {
		return false
	}
	c, linked := rd.best(end)
	if !(linked && c.Kind == schema.RowsLink || !linked && rd.entityNoun(end)) {
		return false
	}
	if f := rd.s.Form().Focus; (!linked || c.Score < 0.8) && (f < 0 || rd.s.Tokens[rd.s.Phrases[f].Head].Lemma != rd.s.Tokens[end].Lemma) {
		return false // "talks available in more than 10 languages": the languages are not the rows
	}
	v, ok := rd.number(cmp.Value)
	if !ok {
		return false
	}
	for i := cmp.Start; i < end; i++ {
		rd.used[i] = true
	}
	op := cmp.Op
	if op == "=" {
		op = "=="
	}
	rd.countCheck = &Condition{Op: op, Value: v, Numeric: true, Phrase: rd.text(language.Span{Start: cmp.Start, End: end + 1}), at: cmp.Start}
	return true
}

// comparison reads a comparative condition on the column it is about.
func (rd *reader) comparison(cmp language.Comparison) ([]Condition, error) {
	col, at := "", -1
	if cmp.Adjective >= 0 && cmp.Value.Start > cmp.Adjective+2 {
		col, at = rd.columnWithin(cmp) // "a lower age than height": the noun names the scale
	}
	if cmp.Adjective >= 0 && col == "" {
		if c, ok := rd.best(cmp.Adjective); ok && c.Kind == schema.ColumnLink {
			col, at = c.Column, cmp.Adjective
		} else {
			col = rd.attributeColumn(rd.s.Tokens[cmp.Adjective].Lemma)
		}
	}
	if col == "" {
		col, at = rd.columnWithin(cmp) // "under the age of 25"
	}
	borrowed := false
	if col == "" {
		col, at = rd.columnAfter(cmp.End) // "more than 6 passengers": passenger_count
		if col != "" && !rd.numeric(col) && rd.unitAfter(cmp.Value) >= 0 {
			// "an arrival delay greater than 300 minutes": the unit (read as a date's) is the
			// column's, named before it; "more than 10 years of experience" names it after
			if before, k := rd.columnBefore(cmp.Start); before != "" {
				col, at, borrowed = before, k, true
			}
		}
	}
	if col == "" {
		col, at = rd.columnBefore(cmp.Start)
		borrowed = col != ""
	}
	if col == "" && cmp.Start > 0 && rd.moneyVerb(rd.s.Tokens[cmp.Start-1]) {
		if cols := rd.ix.MoneyColumns(); len(cols) == 1 {
			col, at = cols[0], -1 // "paid less than 10": the fare
			rd.used[cmp.Start-1] = true
		}
	}
	for i := cmp.Value.Start; i+1 < cmp.Value.End+1 && i+1 < len(rd.s.Tokens); i++ {
		if t := rd.s.Tokens[i]; t.Kind == language.Number && t.Ordinal && rd.s.Tokens[i+1].Is("percentile", "quantile", "quartile", "decile") {
			// "greater than the 75th percentile": a statistic of the column, not the number 75
			return nil, &Gap{Phrase: rd.text(cmp.Span), Why: "a comparison with a percentile"}
		}
	}
	lo, okLo := rd.number(cmp.Value)
	if u := rd.unitAfter(cmp.Value); u >= 0 && u != at && col != "" {
		rd.used[u] = true // "older than 30 years" with a Year column: the unit of the age
	}
	than, thanAt := "", -1
	if !okLo && col != "" {
		than, thanAt = rd.numericIn(cmp.Value) // "more replies than retweets": another column
	}
	if col == "" || !okLo && (than == "" || than == col) {
		return nil, &Gap{Phrase: rd.text(cmp.Span), Why: "a comparison on no column I could find"}
	}
	c := rd.ix.Column(col)
	items := c != nil && c.Type == schema.List && than == "" && cmp.Op != "between" // "more than 10 keywords"
	if c == nil || c.Type != schema.Number && !items {
		return nil, &Gap{Phrase: rd.text(cmp.Span), Why: "a comparison on a column that is not numeric"}
	}
	rd.useLink(at)
	for i := cmp.Start; i < cmp.End; i++ {
		rd.used[i] = true
	}
	if cmp.Adjective >= 0 {
		rd.used[cmp.Adjective] = true
	}
	start := cmp.Start
	if at >= 0 && at < start {
		start = at // "a philanthropy score above 3"
	}
	phrase := rd.text(language.Span{Start: start, End: cmp.End})
	op := cmp.Op
	if a := cmp.Adjective; a >= 0 && language.ComparativeOp(rd.s.Tokens[a]) == ">" && rd.lowEnd(rd.s.Tokens[a].Lemma) {
		op = flip(op) // "younger than 30" is a smaller age; "lower than 10" said "<" already
	}
	if op == "between" {
		hi, ok := rd.number(cmp.Upper)
		if !ok {
			return nil, &Gap{Phrase: rd.text(cmp.Span), Why: "a range without its upper bound"}
		}
		return []Condition{
			{Column: col, Op: ">=", Value: lo, Numeric: true, Phrase: phrase, at: cmp.Start},
			{Column: col, Op: "<=", Value: hi, Numeric: true, Phrase: phrase, at: cmp.Start},
		}, nil
	}
	if op == "=" {
		op = "=="
	}
	if than != "" {
		rd.useLink(thanAt)
		return []Condition{{Column: col, Op: op, Than: than, Numeric: true, Phrase: phrase, at: cmp.Start}}, nil
	}
	return []Condition{{Column: col, Op: op, Value: lo, Numeric: true, Items: items, Phrase: phrase, at: cmp.Start, borrowed: borrowed}}, nil
}

// numericIn returns the numeric column a span names, and its token: "their potential score"
// → Potential.
func (rd *reader) numericIn(sp language.Span) (string, int) {
	for i := sp.Start; i < sp.End; i++ {
		if c, ok := rd.best(i); ok && c.Kind == schema.ColumnLink && rd.numeric(c.Column) {
			return c.Column, i
		}
	}
	return "", -1
}

// moneyVerb reports a verb of paying: WordNet derives a payment, a cost or spending from it.
func (rd *reader) moneyVerb(t language.Token) bool {
	if !t.IsVerb() {
		return false
	}
	for _, d := range rd.ix.Lexicon().Derivations(t.Lemma) {
		if d == "payment" || d == "cost" || d == "spending" || d == "earnings" {
			return true
		}
	}
	return false
}

// columnWithin returns the column a comparison names between its word and its value: "under
// the age of 25".
func (rd *reader) columnWithin(cmp language.Comparison) (string, int) {
	for i := cmp.Start; i < cmp.Value.Start; i++ {
		if c, ok := rd.best(i); ok && c.Kind == schema.ColumnLink {
			return c.Column, i
		}
	}
	return "", -1
}

// columnAfter returns the column a noun right after a compared number names, or "". A numeric
// column's name that starts there counts whatever its first word's tag: "more than 1 existing
// loan", "more than 500 kcal" (a unit the tagger took for an adjective).
func (rd *reader) columnAfter(end int) (string, int) {
	if end >= len(rd.s.Tokens) {
		return "", -1
	}
	if c, ok := rd.best(end); ok && c.Kind == schema.ColumnLink && rd.numeric(c.Column) && rd.r.Links[rd.link[end]].Span.Start == end {
		return c.Column, end
	}
	if !rd.s.Tokens[end].IsNoun() {
		return "", -1
	}
	if c, ok := rd.best(end); ok && c.Kind == schema.ColumnLink {
		return c.Column, end
	}
	// "more than 6 passengers" counts passengers: the numeric column that is a near second to
	// the row entity holds the count (passenger_count).
	if k := rd.link[end]; k >= 0 {
		cands := rd.r.Links[k].Candidates
		if len(cands) >= 2 && cands[0].Kind == schema.RowsLink && cands[1].Kind == schema.ColumnLink &&
			cands[0].Score-cands[1].Score < schema.AmbiguityMargin && rd.numeric(cands[1].Column) {
			return cands[1].Column, end
		}
	}
	return "", -1
}

// columnBefore returns the nearest column named before token end, within the same clause.
func (rd *reader) columnBefore(end int) (string, int) {
	for i := end - 1; i >= 0; i-- {
		t := rd.s.Tokens[i]
		if t.Kind == language.Punct || t.Lower == "and" || t.Lower == "or" {
			break
		}
		if c, ok := rd.best(i); ok && c.Kind == schema.ColumnLink {
			return c.Column, i
		}
	}
	return "", -1
}

// number returns the number a span holds, as text, and takes the unit written after it ("170
// cm", "50 years", "10 inches").
func (rd *reader) number(sp language.Span) (string, bool) {
	for i := sp.Start; i < sp.End; i++ {
		if t := rd.s.Tokens[i]; t.Kind == language.Number {
			rd.used[i] = true
			if u := i + 1; u < len(rd.s.Tokens) && rd.isUnit(u) {
				rd.used[u] = true
			}
			return strconv.FormatFloat(t.Value, 'f', -1, 64), true
		}
	}
	return "", false
}

// isUnit reports a unit of measurement or of time that no link took: "cm", "years", "mph".
func (rd *reader) isUnit(i int) bool { return rd.link[i] < 0 && rd.unitWord(i) }

// unitWord reports a noun WordNet files under units of measurement or of time, said after a
// number.
func (rd *reader) unitWord(i int) bool {
	t := rd.s.Tokens[i]
	if !t.IsNoun() {
		return false
	}
	lx := rd.ix.Lexicon()
	return lx.IsAWithin(t.Lemma, "unit of measurement", 2) || lx.IsAWithin(t.Lemma, "time unit", 2) ||
		lx.IsAWithin(t.Lemma, "time period", 1) // "30 years": WordNet files a year as a period
}

// unitAfter returns the token of a unit right after the number of span sp, linked or not, or -1.
func (rd *reader) unitAfter(sp language.Span) int {
	for i := sp.Start; i < sp.End; i++ {
		if rd.s.Tokens[i].Kind == language.Number {
			if u := i + 1; u < len(rd.s.Tokens) && rd.unitWord(u) {
				return u
			}
			return -1
		}
	}
	return -1
}

// columnOfNumber reads "<numeric column> of <number>" as equality: "a philanthropy score of 5".
func (rd *reader) columnOfNumber() {
	for k, np := range rd.s.Phrases {
		i := np.End
		if i+1 >= len(rd.s.Tokens) || rd.s.Tokens[i].Lower != "of" || rd.s.Tokens[i+1].Kind != language.Number || rd.used[i+1] {
			continue
		}
		head := np.Head
		if _, linked := rd.best(head); !linked && measureNouns[rd.s.Tokens[head].Lemma] {
			if _, at := rd.phraseColumn(k); at >= 0 {
				head = at // "a quality rating of 10": the rating leans on Quality
			}
		}
		rd.numberIsValue(head, i+1, language.Span{Start: np.Start, End: i + 2})
	}
}

// columnNumber reads a numeric column's noun followed by a number as equality: "number 4110"
// is Number 4110, "squad # 7" Squad # 7, "week 3" Week 3; the row noun, as the row's id.
func (rd *reader) columnNumber() {
	toks := rd.s.Tokens
	for i := range len(toks) - 1 {
		n := toks[i+1]
		if rd.used[i] || rd.used[i+1] || rd.link[i] < 0 || n.Kind != language.Number || n.Ordinal || n.Percent {
			continue
		}
		l := rd.r.Links[rd.link[i]]
		if l.Span.End != i+1 {
			continue // the number must follow the column's whole name
		}
		if c, _ := rd.best(i); c.Kind == schema.RowsLink {
			rd.rowNumber(i, i+1) // "order 50003" is the order whose id is 50003
			continue
		}
		rd.numberIsValue(i, i+1, language.Span{Start: l.Span.Start, End: i + 2})
	}
}

// holdsNumber reports a column that may hold the number at token number: a column of numbers,
// or one of text with a value spelt so (Round "3").
func (rd *reader) holdsNumber(col *schema.Column, number int) bool {
	v := strconv.FormatFloat(rd.s.Tokens[number].Value, 'f', -1, 64)
	return col != nil && (col.Type == schema.Number || slices.Contains(col.Values, v))
}

// rowNumber reads the row noun followed by a number as the row whose identifier is that
// number: "order 50003" is order_id 50003, when the identifier is a column of numbers or holds
// the number as text.
func (rd *reader) rowNumber(noun, number int) {
	col := rd.ix.Column(rd.ix.Identifier(rd.s.Tokens[noun].Lemma))
	if !rd.holdsNumber(col, number) {
		return
	}
	rd.addNumberValue(col.Name, number, language.Span{Start: noun, End: number + 1})
}

// ordinalAfterVerb reads "ranked first", "placed 3rd", "finished second" as the value of the
// column the verb is the verb of: Rank 1, Place 3. The column may hold its numbers as text
// ("1", "2", …, "Total").
func (rd *reader) ordinalAfterVerb() {
	toks := rd.s.Tokens
	for i := range len(toks) - 1 {
		n := toks[i+1]
		if rd.used[i+1] || !n.Ordinal || n.Value < 1 { // "first" stays a word with its value
			continue
		}
		col := rd.columnOfVerb(i, func(c schema.Column) bool { return c.Type == schema.Number || c.Type == schema.Category })
		if col == "" {
			continue
		}
		rd.addNumberValue(col, i+1, language.Span{Start: i, End: i + 2})
	}
}

// ordinalOfColumn reads an ordinal right before a noun naming a numeric column as that
// column's value: "the 3rd class" is Pclass 3, "the 2nd round" Round 2, "in first class"
// Pclass 1 (but "the first year" is the earliest). An ordinal with a word
// between it and the noun ranks instead ("the 2nd highest score") and is left to the order.
func (rd *reader) ordinalOfColumn() {
	for _, np := range rd.s.Phrases {
		i := np.Head - 1
		if i < np.Start || rd.used[i] || !rd.s.Tokens[i].Ordinal || rd.s.Tokens[i].Value < 1 {
			continue
		}
		if rd.s.Tokens[i].Kind != language.Number && rd.timeHead(np.Head) {
			continue // "the first year" is the earliest, not year 1
		}
		rd.numberIsValue(np.Head, i, language.Span{Start: i, End: np.Head + 1})
	}
}

// timeHead reports a noun of time or one naming a column of years or dates.
func (rd *reader) timeHead(i int) bool {
	if rd.ix.IsTimeWord(rd.s.Tokens[i].Lemma) {
		return true
	}
	c, ok := rd.best(i)
	return ok && c.Kind == schema.ColumnLink && rd.temporal(c.Column)
}

// numberIsValue adds the filter "column == number" when the noun at head names a numeric
// column, or one of text with a value spelt so, and places both tokens; sp is the phrase the filter is said with.
func (rd *reader) numberIsValue(head, number int, sp language.Span) {
	c, ok := rd.best(head)
	if !ok || c.Kind != schema.ColumnLink {
		return
	}
	if !rd.holdsNumber(rd.ix.Column(c.Column), number) {
		return
	}
	rd.useLink(head)
	rd.addNumberValue(c.Column, number, sp)
}

// addNumberValue adds the filter "col == the number at token number", placing the number; sp is
// the phrase it is said with. A column of numbers held as text compares the spelling.
func (rd *reader) addNumberValue(col string, number int, sp language.Span) {
	rd.used[number] = true
	v := strconv.FormatFloat(rd.s.Tokens[number].Value, 'f', -1, 64)
	rd.m.Filters = append(rd.m.Filters, Condition{Column: col, Op: "==", Value: v, Numeric: rd.numeric(col),
		Phrase: rd.text(sp), at: sp.Start})
}

func flip(op string) string {
	switch op {
	case ">":
		return "<"
	case "<":
		return ">"
	case ">=":
		return "<="
	case "<=":
		return ">="
	}
	return op
}

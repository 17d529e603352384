package meaning

import (
	"slices"
	"strconv"
	"strings"

	"github.com/analyst-workbench/workbench/emulator/analyst/language"
	"github.com/analyst-workbench/workbench/emulator/analyst/schema"
)

// filters reads the row restrictions: values named ("female", "survivors", "'Technology'",
// "not self-made"), comparisons on the column they follow ("a philanthropy score above 3",
// "older than 30"), and "<column> of <number>" ("a philanthropy score of 5").
func (rd *reader) filters() error {
	for i := range rd.s.Tokens {
		if rd.used[i] || rd.isRate(i) {
			continue // "the survival rate" is a measure of every row, not the survivors
		}
		if c, ok := rd.valueAt(i); ok {
			rd.m.Filters = append(rd.m.Filters, c)
		}
	}
	for _, cmp := range rd.s.Comparisons {
		if rd.countComparison(cmp) || rd.versusRow(cmp) {
			continue
		}
		cs, err := rd.comparison(cmp)
		if err != nil {
			return err
		}
		rd.m.Filters = append(rd.m.Filters, cs...)
	}
	rd.columnOfNumber()
	rd.columnNumber()
	rd.ordinalAfterVerb()
	rd.ordinalOfColumn()
	rd.yearIn()
	rd.monthDays()
	rd.quotedValues()
	rd.amountPresence()
	rd.countedColumn()
	rd.m.Filters = rd.mergeAlternatives(rd.m.Filters)
	return nil
}

// presenceVerbs say that a row holds some of a measure: "foods that contain sugar",
// "participants who got a match".
var presenceVerbs = set("contain", "include", "have", "get")

// amountPresence reads a measure said absent or present: "with zero calories", "with no
// siblings", "without any sugar", "that contain no fat (at all)" and "that do not contain
// protein" are the column at 0; "that contain sugar" is above 0 (DataBench 056).
func (rd *reader) amountPresence() {
	toks := rd.s.Tokens
	for i := range toks {
		c, ok := rd.best(i)
		if rd.used[i] || !ok || c.Kind != schema.ColumnLink || rd.r.Links[rd.link[i]].Span.Start != i {
			continue
		}
		if rd.valuePresence(i, c.Column) || !rd.numeric(c.Column) {
			continue
		}
		marks := []int{}
		j := i - 1
		for j >= 0 && toks[j].Is("any", "a", "an") {
			marks, j = append(marks, j), j-1 // "who got a match", "with any sugar"
		}
		none := j >= 0 && (toks[j].Is("no", "zero", "without") || toks[j].Kind == language.Number && toks[j].Value == 0 && !toks[j].Ordinal)
		if none {
			marks, j = append(marks, j), j-1
		}
		verb := -1
		if j >= 0 && presenceVerbs[toks[j].Lemma] && toks[j].IsVerb() {
			verb = j
		}
		negated := verb >= 0 && rd.negatedVerb(verb)
		op := "=="
		switch {
		case none && negated, !none && !negated && verb < 0:
			continue // "does not contain no fat" is no reading; a column alone is no condition
		case !none && !negated:
			op = ">"
		}
		if verb >= 0 {
			marks = append(marks, rd.verbTokens(verb)...)
		}
		if k := rd.link[i]; k >= 0 {
			if end := rd.r.Links[k].Span.End; end+1 < len(toks) && toks[end].Is("at") && toks[end+1].Is("all") {
				marks = append(marks, end, end+1)
			}
		}
		rd.useLink(i)
		for _, k := range marks {
			rd.used[k] = true
		}
		start := slices.Min(append(marks, i))
		rd.m.Filters = append(rd.m.Filters, Condition{Column: c.Column, Op: op, Value: "0", Numeric: true,
			Phrase: rd.text(language.Span{Start: start, End: rd.r.Links[rd.link[i]].Span.End}), at: start})
	}
}

// valuePresence reads a column said to be empty and reports whether it did: "songs without
// lyrics", "listings with no room type" and "any missing customer IDs" keep the rows where the
// column at token i has no value. "No" and "without" before an amount are 0 instead
// (amountPresence). A column said present alone is no condition ("songs with lyrics" names what
// to show); a value of the column ("no internet service" as InternetService "No") was read
// before, as a value.
func (rd *reader) valuePresence(i int, col string) bool {
	if c := rd.ix.Column(col); c == nil || c.Type == schema.Boolean {
		return false // "who have not had a work accident" is the flag's False, read as a value
	}
	toks := rd.s.Tokens
	end := rd.r.Links[rd.link[i]].Span.End
	j := i - 1
	for j >= 0 && toks[j].Is("any", "a", "an", "specified") {
		j--
	}
	var mark int
	switch {
	case j >= 0 && toks[j].Is("no", "without") && !rd.numeric(col) && !rd.deniedRows(j):
		mark = j
	case i > 0 && toks[i-1].Is("missing", "empty", "blank"):
		mark = i - 1
	case end < len(toks) && toks[end].Is("missing", "empty", "blank") && !toks[end].IsNoun():
		mark = end // "are any customer IDs missing"
	case j >= 0 && toks[j].IsVerb() && presenceVerbs[toks[j].Lemma] && rd.negatedVerb(j) && !rd.numeric(col):
		// "posts that do not contain any mentions": the verb group, "do not" included
		vt := rd.verbTokens(j)
		mark = vt[0]
		for _, k := range vt {
			rd.used[k] = true
		}
	default:
		return false
	}
	rd.useLink(i)
	start, stop := min(mark, j+1, i), max(end, mark+1)
	for k := start; k < stop; k++ {
		rd.used[k] = true
	}
	c := Condition{Column: col, Op: "isna", Phrase: rd.text(language.Span{Start: start, End: stop}), at: start}
	if v := rd.absenceValue(col, rd.text(rd.r.Links[rd.link[i]].Span)); v != "" {
		c.Op, c.Value = "==", v // the table writes the absence as a value: InternetService "No"
	}
	rd.m.Filters = append(rd.m.Filters, c)
	return true
}

// absenceValue returns the value by which a column writes that a row has none of it: "No",
// "None", or "No" followed by the column's words ("No internet service"); "" when it has none.
func (rd *reader) absenceValue(col, words string) string {
	c := rd.ix.Column(col)
	if c == nil {
		return ""
	}
	for _, v := range c.Values {
		switch low := strings.ToLower(strings.TrimSpace(v)); low {
		case "no", "none", "no " + strings.ToLower(words):
			return v
		}
	}
	return ""
}

// deniedRows reports the "no" of a denial's rows: "there were no days when …" says no row
// passes, not that the days are missing.
func (rd *reader) deniedRows(no int) bool {
	f := rd.s.Form()
	return f.Denied && f.Focus >= 0 && rd.s.Phrases[f.Focus].Contains(no)
}

// countedColumn reads a number of a numeric column's units held by the rows as equality:
// "a property with exactly 5 bedrooms", "coasters that have 3 inversions" are Bedrooms == 5
// and Inversions == 3. The number must follow "with" or a verb of having, so that "the 5
// highest" and "top 3" stay the order's.
func (rd *reader) countedColumn() {
	toks := rd.s.Tokens
	for i := 1; i+1 < len(toks); i++ {
		n := toks[i]
		if rd.used[i] || n.Kind != language.Number || n.Ordinal || n.Percent || n.Value < 0 || n.Value != float64(int(n.Value)) {
			continue
		}
		if rd.hyphenCode(i) {
			continue
		}
		c, ok := rd.best(i + 1)
		if !ok || c.Kind != schema.ColumnLink || !rd.numeric(c.Column) || rd.used[i+1] || rd.r.Links[rd.link[i+1]].Span.Start != i+1 {
			continue
		}
		j := i - 1
		if toks[j].Is("exactly", "only", "precisely") {
			j--
		}
		if j < 0 || !(toks[j].Is("with") || toks[j].IsVerb() && presenceVerbs[toks[j].Lemma]) {
			continue
		}
		rd.useLink(i + 1)
		for k := j + 1; k < i; k++ {
			rd.used[k] = true
		}
		rd.addNumberValue(c.Column, i, language.Span{Start: j + 1, End: rd.r.Links[rd.link[i+1]].Span.End})
	}
}

// hyphenCode reads a number joined by a hyphen to a numeric column's noun as its value: "4-cylinder
// cars" are cylinders 4, "3-bedroom houses" bedrooms 3.
func (rd *reader) hyphenCode(i int) bool {
	toks := rd.s.Tokens
	if i+2 >= len(toks) || !toks[i+1].Is("-") || rd.used[i+2] {
		return false
	}
	c, ok := rd.best(i + 2)
	if !ok || c.Kind != schema.ColumnLink || !rd.numeric(c.Column) || rd.r.Links[rd.link[i+2]].Span.Start != i+2 {
		return false
	}
	rd.useLink(i + 2)
	rd.used[i+1] = true
	rd.addNumberValue(c.Column, i, language.Span{Start: i, End: rd.r.Links[rd.link[i+2]].Span.End})
	return true
}

// negatedVerb reports a verb group with a negation holding token v: "do not contain".
func (rd *reader) negatedVerb(v int) bool {
	for _, vg := range rd.s.Verbs {
		if vg.Contains(v) {
			return vg.Negated
		}
	}
	return false
}

// verbTokens returns the tokens of the verb group holding v, auxiliaries and "not" included.
func (rd *reader) verbTokens(v int) []int {
	for _, vg := range rd.s.Verbs {
		if vg.Contains(v) {
			var out []int
			for k := vg.Start; k < vg.End; k++ {
				out = append(out, k)
			}
			return out
		}
	}
	return []int{v}
}

// yearIn reads "in 1961" or "from 1965" as a value of the table's one column of years ("who were the
// champions in 1961"), or as the year of its one column of dates.
func (rd *reader) yearIn() {
	col := rd.onlyTemporal()
	if col == "" {
		return
	}
	part := ""
	if !rd.numeric(col) {
		if rd.eventsRanked() {
			return
		}
		part = "%Y" // a column of dates: "the rebounds in 1978" are those of 1978's dates
	}
	for i, t := range rd.s.Tokens {
		if rd.used[i] || t.Kind != language.Number || t.Ordinal || i == 0 || !rd.s.Tokens[i-1].Is("in", "during", "from") {
			continue
		}
		if t.Value < 1000 || t.Value > 2999 || t.Value != float64(int(t.Value)) {
			continue
		}
		rd.used[i] = true
		rd.m.Filters = append(rd.m.Filters, Condition{Column: col, Op: "==", Value: strconv.Itoa(int(t.Value)), Numeric: part == "",
			Part: part, Phrase: rd.text(language.Span{Start: i - 1, End: i + 1}), at: i - 1})
	}
}

// mergeAlternatives joins equalities on one column into one membership test: a row cannot be
// both clay and hard, so "clay or hard" (or "clay and hard courts") asks for either.
func (rd *reader) mergeAlternatives(cs []Condition) []Condition {
	var out []Condition
	for _, c := range cs {
		k := slices.IndexFunc(out, func(o Condition) bool {
			return o.Column == c.Column && !c.Numeric && !o.Numeric && (o.Op == c.Op || o.Op == "in" && c.Op == "==" || o.Op == "not in" && c.Op == "!=")
		})
		if k < 0 || c.Op != "==" && c.Op != "!=" {
			out = append(out, c)
			continue
		}
		o := &out[k]
		if o.Op == "==" || o.Op == "!=" {
			o.Values = []string{o.Value}
			o.Op = map[string]string{"==": "in", "!=": "not in"}[o.Op]
		}
		o.Values = append(o.Values, c.Value)
		o.Phrase += " or " + c.Phrase
		o.Both = o.Op == "in" && rd.joinedByAnd(o.at, c.at)
	}
	return out
}

// joinedByAnd reports whether the words between two values are "and" (with commas), not "or":
// "male and female employees" names two groups, "male or female" one.
func (rd *reader) joinedByAnd(from, to int) bool {
	and := false
	for k := from + 1; k < to && k < len(rd.s.Tokens); k++ {
		switch t := rd.s.Tokens[k]; {
		case t.Is("or", "nor", "either"):
			return false
		case t.Is("and", "&", "vs", "versus"):
			and = true
		}
	}
	return and
}

// afterNegated reports a value joined by "or", "nor" or "and" to a negated value of the same
// column just before it: "not clay or hard" negates both.
func (rd *reader) afterNegated(start int, column string) bool {
	if len(rd.m.Filters) == 0 {
		return false
	}
	last := rd.m.Filters[len(rd.m.Filters)-1]
	if last.Column != column || last.Op != "!=" {
		return false
	}
	for k := start - 1; k > last.at; k-- {
		if t := rd.s.Tokens[k]; !t.Is("or", "nor", "and", ",") && !rd.used[k] {
			return false
		}
	}
	return true
}

// negationBefore returns the negation that turns the condition at token i around ("not
// self-made", "didn't survive", "no survivors", "other than Townsville"), or -1. Of a
// two-word negation it places the second word and returns the first.
func (rd *reader) negationBefore(i int) int {
	for k := i - 1; k >= 0 && k >= i-3; k-- {
		t := rd.s.Tokens[k]
		if negations[t.Lower] {
			return k
		}
		if k > 0 && exclusions[rd.s.Tokens[k-1].Lower+" "+t.Lower] {
			rd.used[k] = true // "other than Townsville", "apart from Sunday"
			return k - 1
		}
		if !strings.HasPrefix(t.POS, "RB") && !strings.HasPrefix(t.POS, "VB") && t.POS != "MD" && t.POS != "DT" {
			break
		}
	}
	return -1
}

// valueAt reads a value named at token i: a value link, or a word WordNet makes a value of a
// category column's attribute whose values spell it or its initial ("male" → gender = M).
func (rd *reader) valueAt(i int) (Condition, bool) {
	c, ok := rd.best(i)
	if ok && c.Kind == schema.ValueLink && rd.aggregateWord(i) {
		return Condition{}, false // "the average salary": an aggregate, not the value Average
	}
	if ok && c.Kind == schema.ValueLink {
		l := rd.r.Links[rd.link[i]]
		if l.Span.Start != i && (len(l.Tokens) == 0 || l.Tokens[0] != i) {
			return Condition{}, false // one condition per link, read at its first token
		}
		if col := rd.ix.Column(c.Column); col != nil && col.Type == schema.Boolean && i > 0 && rd.s.Tokens[i-1].Is("by", "per", "across") && !rd.agent(i) {
			return Condition{}, false // "median charges by smoker" groups by the yes/no column, it keeps no rows
		}
		rd.useLink(i)
		cond := Condition{Column: c.Column, Op: "==", Value: c.Value, Numeric: isNumber(c.Value), Phrase: l.Text, at: i}
		if col := rd.ix.Column(c.Column); col != nil && col.Type == schema.List {
			cond.Items, cond.Numeric = true, false // "Boris" among a cell's mentions
		}
		if neg := rd.negationBefore(l.Span.Start); neg >= 0 || rd.afterNegated(l.Span.Start, c.Column) {
			if neg >= 0 {
				rd.used[neg] = true
			}
			if col := rd.ix.Column(c.Column); col != nil && col.Type != schema.Boolean {
				cond.Op = "!=" // the linker turns booleans itself: "not self-made" is selfMade = False
			}
		}
		return cond, true
	}
	t := rd.s.Tokens[i]
	if t.Kind != language.Word || !(t.IsNoun() || t.IsAdjective()) || ok && c.Kind == schema.ColumnLink && c.Reason != schema.Attribute {
		return Condition{}, false
	}
	col, val := rd.attributeValue(t.Lemma)
	if col == "" {
		return Condition{}, false
	}
	rd.used[i] = true
	return Condition{Column: col, Op: "==", Value: val, Phrase: t.Text, at: i}, true
}

// aggregateWord reports an aggregate's word before a numeric column: "average" in "the average
// gross annual salary", which a table may also hold as a value ("Average" body complexity).
func (rd *reader) aggregateWord(i int) bool {
	t := rd.s.Tokens[i]
	if _, ok := aggWords[t.Lower]; !ok || t.Kind == language.Quoted {
		return false
	}
	for j := i + 1; j < len(rd.s.Tokens) && j <= i+4; j++ {
		if c, ok := rd.best(j); ok && c.Kind == schema.ColumnLink {
			col := rd.ix.Column(c.Column)
			return col != nil && col.Type == schema.Number
		}
	}
	return false
}

// attributeValue finds the category column whose name WordNet gives as the word's attribute
// ("male" is a value of sex, gender) and the value that spells the word or is its initial.
func (rd *reader) attributeValue(lemma string) (string, string) {
	attrs := rd.ix.Lexicon().Attributes(lemma)
	if len(attrs) == 0 {
		return rd.kindOfAttributeValue(lemma)
	}
	for _, c := range rd.ix.Table().Columns {
		if c.Type != schema.Category || !containsFold(attrs, lemmaOfColumn(c.Name)) {
			continue
		}
		var initial []string
		for _, v := range c.Values {
			if strings.EqualFold(v, lemma) {
				return c.Name, v
			}
			if strings.EqualFold(v, lemma[:1]) {
				initial = append(initial, v)
			}
		}
		if len(initial) == 1 {
			return c.Name, initial[0]
		}
	}
	return "", ""
}

// kindOfAttributeValue finds the value a noun names by being a kind of one of the adjectives
// WordNet gives a category column's name as its values: "men" are a kind of male (gender's
// adjectives are male, female …), so gender M; "women" gender F.
func (rd *reader) kindOfAttributeValue(lemma string) (string, string) {
	lx := rd.ix.Lexicon()
	for _, c := range rd.ix.Table().Columns {
		if c.Type != schema.Category {
			continue
		}
		for _, adj := range lx.Attributes(lemmaOfColumn(c.Name)) {
			if adj == lemma || !lx.IsAWithin(lemma, adj, 1) {
				continue
			}
			if col, v := rd.attributeValue(adj); col == c.Name {
				return col, v
			}
		}
	}
	return "", ""
}

// quotedValues reads a quoted value no link took as a condition on the category or text column
// named next to it: "Is 'Angelica' listed as a food name", "'linux' in the Clusters column".
func (rd *reader) quotedValues() {
	for i, t := range rd.s.Tokens {
		if t.Kind != language.Quoted || rd.used[i] || rd.link[i] >= 0 {
			continue
		}
		col, at := rd.quotedColumn(i)
		if c := rd.ix.Column(col); c == nil || c.Type != schema.Category && c.Type != schema.Text {
			continue
		}
		rd.used[i] = true
		rd.useLink(at)
		rd.m.Filters = append(rd.m.Filters, Condition{Column: col, Op: "==", Value: t.Text, Phrase: "'" + t.Text + "'", at: i})
	}
}

// quotedColumn finds the column a quoted value is given for: named right before it
// ("designation 'VP'", "the type 'design'", "a model named 'Golf'"), or after it through function words only ("'King'
// as their pitched product", "'Angelica' listed as a food name").
func (rd *reader) quotedColumn(i int) (string, int) {
	if i >= 2 && rd.s.Tokens[i-1].IsVerb() && namingVerbs[rd.s.Tokens[i-1].Lemma] {
		// "a car model named 'Golf'": the value names the column before the verb
		if c, ok := rd.best(i - 2); ok && c.Kind == schema.ColumnLink {
			rd.used[i-1] = true
			return c.Column, i - 2
		}
	}
	if c, ok := rd.best(i - 1); ok && c.Kind == schema.ColumnLink {
		return c.Column, i - 1
	}
	for j := i + 1; j < len(rd.s.Tokens) && j <= i+6; j++ {
		t := rd.s.Tokens[j]
		if c, ok := rd.best(j); ok && c.Kind == schema.ColumnLink {
			return c.Column, j
		}
		if !(t.POS == "DT" || t.POS == "IN" || t.POS == "PRP$" || t.Is("listed", "mentioned", "recorded") || rd.s.Tokens[j].IsAdjective()) {
			break
		}
	}
	return "", -1
}

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

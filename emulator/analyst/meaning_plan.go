package analyst

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/analyst-workbench/workbench/emulator/analyst/language"
	"github.com/analyst-workbench/workbench/emulator/analyst/meaning"
	"github.com/analyst-workbench/workbench/emulator/analyst/schema"
)

// questionReading is a question read through the language front end (package language), schema
// linking (package schema) and package meaning.
type questionReading struct {
	// m is the question's meaning, nil when the profile has several tables or the question
	// has a phrase the meaning rules cannot place: the keyword rules then have their turn.
	m *meaning.Meaning
	f *Frame // the table m is about
	// derived are the columns m's cell derives before it reads them (labelled bins).
	derived []derivation
	// gap is what Read could not place, when it could not.
	gap *meaning.Gap
	// s, r and ix are the parse, links and index Read used, kept for the questions the plan
	// asks only when the keyword rules answer; nil for a profile of several tables.
	s  *language.Sentence
	r  *schema.Result
	ix *schema.Index
	// refine is how the question asks the answer presented: rounded, in a format.
	refine refinements
}

// readMeaning reads a question about a one-table profile.
func readMeaning(question string, p *Profile) questionReading {
	if len(p.Frames) != 1 {
		return questionReading{}
	}
	f := &p.Frames[0]
	ix := schema.NewIndex(schemaTable(f))
	s, r := ix.Read(question)
	rd := questionReading{s: s, r: r, ix: ix}
	m, err := meaning.Read(s, r, ix)
	switch {
	case err == nil && runnable(m, f):
		rd.m, rd.f = m, f
	case err != nil:
		errors.As(err, &rd.gap)
	}
	return rd
}

// gapDropped returns the phrase the meaning could not place when it holds a value (a number,
// an ordinal, a name) beside a column the keyword rules' query does not restrict: "in first
// class", which they would read as nothing, or as a second measure, and answer over every
// class, a nearby question.
func (rd questionReading) gapDropped(q *Query) []string {
	if rd.gap == nil || rd.r == nil || !valueIntents[q.Intent] || !strings.HasPrefix(rd.gap.Why, "I did not understand") {
		return nil
	}
	valued := false
	for _, t := range rd.s.Tokens {
		if strings.Contains(rd.gap.Phrase, t.Text) && (t.Ordinal || t.Kind == language.Number || t.Kind == language.Quoted) {
			valued = true
		}
	}
	if !valued {
		return nil
	}
	for _, l := range rd.r.Links {
		b := l.Best()
		if b.Kind == schema.RowsLink || b.Column == "" || b.Score < schema.UseScore || !strings.Contains(rd.gap.Phrase, l.Text) {
			continue
		}
		if !q.restrictsBy(b.Column) {
			return []string{strings.TrimRight(rd.gap.Phrase, "?.! ")}
		}
	}
	return nil
}

// placement is the reading without its meaning: the parse and links, which say which words
// are harmless, for a question the keyword rules answer.
func (rd questionReading) placement() questionReading {
	return questionReading{s: rd.s, r: rd.r, ix: rd.ix, gap: rd.gap}
}

// form is how the question asks; Statement when it was not read.
func (rd questionReading) form() language.FormKind {
	if rd.s == nil {
		return language.Statement
	}
	return rd.s.Form().Kind
}

// entity is the phrase with which the question asks for something by name ("who", "which
// country"), or "".
func (rd questionReading) entity() string {
	if rd.s == nil {
		return ""
	}
	return meaning.AsksEntity(rd.s, rd.r, rd.ix)
}

// valueAsked is the wh-word with which the question asks for a place or a time: "where",
// "when", "in what year"; "" otherwise. The file's size, its first rows or a summary is never
// that value. ("How old is the oldest passenger" may well be a statistic: "how" is not here.)
func (rd questionReading) valueAsked() string {
	if rd.s == nil {
		return ""
	}
	f := rd.s.Form()
	if f.Kind != language.Wh || f.Word < 0 {
		return ""
	}
	w := rd.s.Tokens[f.Word]
	if w.Is("where", "when") {
		return w.Lower
	}
	if f.Focus < 0 {
		return ""
	}
	np := rd.s.Phrases[f.Focus]
	if head := rd.s.Tokens[np.Head]; (np.Det == f.Word || np.Start == f.Word+1) && np.Head == f.Word+1 && rd.ix.IsTimeWord(head.Lemma) {
		return w.Lower + " " + head.Lower // "what year", "which season"
	}
	return ""
}

// placed are the words with no analytic role (the row noun, carrier verbs): they never block
// the keyword rules either.
func (rd questionReading) placed() []string {
	if rd.s == nil {
		return nil
	}
	return meaning.Placed(rd.s, rd.r, rd.ix)
}

// differenceAsked returns "larger … than" when the question asks by how much one value
// exceeds another: a subtraction the rules do not make, which the keyword rules would read as
// a maximum or a filter, a nearby question.
func (rd questionReading) differenceAsked() []string {
	if rd.s == nil {
		return nil
	}
	c := rd.s.DifferenceAsked()
	if c < 0 {
		return nil
	}
	return []string{rd.s.Tokens[c].Text + " … than"}
}

// entityColumn is the column whose values answer a question asking for something by name
// (meaning.EntityColumn), or "".
func (rd questionReading) entityColumn() string {
	if rd.s == nil {
		return ""
	}
	return meaning.EntityColumn(rd.s, rd.r, rd.ix)
}

// rowOrderAsked returns "before the midwest" when the question places a row by the rows
// around it, a position the rules do not compute; the keyword rules would read the named row
// as a filter and list it, a nearby question.
func (rd questionReading) rowOrderAsked() []string {
	if rd.s == nil {
		return nil
	}
	sp, ok := rd.s.RowOrderAsked()
	if !ok {
		return nil
	}
	return []string{rd.s.Words(sp)}
}

// comparisonsDropped returns the comparisons with a number or a date the language front end
// read ("before 1900", "over 30") that no filter of the keyword rules' query carries in the
// same direction: answered without them, the question is a nearby one ("the dioceses" for
// "the diocese established before 1900"). Only for the intents whose every number is a filter.
func (rd questionReading) comparisonsDropped(q *Query) []string {
	if rd.s == nil || !filtersOnly[q.Intent] {
		return nil
	}
	var out []string
	for _, c := range rd.s.Comparisons {
		dir := opDirection(c.Op)
		if dir == 0 || c.Value.End-c.Value.Start != 1 {
			continue
		}
		if c.Adjective >= 0 {
			dir = 2 // "younger than 25" is "more young": the column's scale may run either way
		}
		v := rd.s.Tokens[c.Value.Start]
		if v.Kind != language.Number && v.Kind != language.Date || carries(q.Filters, dir, v) {
			continue
		}
		out = append(out, rd.s.Words(c.Span))
	}
	return out
}

// monthDaysDropped returns the months and days named without a year ("in February", "on
// September 17th") when the keyword rules' query has no date filter: they read months only
// with a year, and without one would answer for every date.
func (rd questionReading) monthDaysDropped(q *Query) []string {
	if rd.s == nil || !valueIntents[q.Intent] || slices.ContainsFunc(q.Filters, func(f Filter) bool { return f.Kind == "date" }) {
		return nil
	}
	var out []string
	for _, md := range rd.s.MonthDays() {
		out = append(out, rd.s.Words(md.Span))
	}
	return out
}

// positionDropped returns "first game" when the question places a row first or last and the
// keyword rules would list every matching row: the list is not the row asked for.
func (rd questionReading) positionDropped(q *Query) []string {
	if rd.s == nil || q.Intent != intentFilter {
		return nil
	}
	for i, t := range rd.s.Tokens {
		if t.Is("first", "last") && t.IsAdjective() && i+1 < len(rd.s.Tokens) && rd.s.Tokens[i+1].IsNoun() {
			return []string{t.Text + " " + rd.s.Tokens[i+1].Text}
		}
	}
	return nil
}

// sameAsDropped returns "the same … as …" when the question has it: the keyword rules never
// read it, and would answer about the reference's rows alone.
func (rd questionReading) sameAsDropped() []string {
	if rd.s == nil {
		return nil
	}
	if sa, ok := rd.s.SameAs(); ok {
		return []string{rd.s.Words(sa.Span)}
	}
	return nil
}

// groupingUnsaid returns the words the keyword rules took for groups when the question says no
// grouping: no "by", "per", "each", "every" or "across", and the groups are not what it asks
// for ("which country has the highest average salary"). "Who weighs the most on the team"
// asks for a player, not for each team's heaviest; "the average number of losses an opponent
// has" is one average, not one per opponent.
func (rd questionReading) groupingUnsaid(q *Query) []string {
	if rd.s == nil || len(q.By) == 0 || q.each != "" || q.Intent != intentStat && q.Intent != intentTop || q.Agg == "count" || q.Agg == "" {
		return nil // counting rows by a noun ("how many films …") lists the films: the groups are the answer
	}
	for _, t := range rd.s.Tokens {
		if t.Is("by", "per", "each", "every", "across", "grouped", "breakdown", "among", "between") {
			return nil
		}
	}
	if slices.Contains(q.By, rd.entityColumn()) || rd.m != nil && slices.Contains(q.By, rd.m.Group) {
		return nil // "the 4 carriers with the lowest median distance": the meaning groups so too
	}
	var words []string
	for _, l := range rd.r.Links {
		if c := l.Best(); c.Kind == schema.ColumnLink && slices.Contains(q.By, c.Column) {
			words = append(words, l.Text)
		}
	}
	if len(words) == 0 {
		words = q.By
	}
	return words
}

// filtersOnly are the keyword intents whose reading puts every compared number in a filter.
var filtersOnly = setOf(intentFilter, intentSize, intentStat, intentCounts, intentUnique, intentWhich)

// opDirection is +1 for a comparison that keeps values above its bound, -1 below, 0 otherwise.
func opDirection(op string) int {
	switch op {
	case ">", ">=":
		return 1
	case "<", "<=":
		return -1
	}
	return 0
}

// carries reports whether a filter compares in direction dir (2: either) with the value of v:
// the same number, or a date of the same year.
func carries(filters []Filter, dir int, v language.Token) bool {
	for _, f := range filters {
		if d := opDirection(f.Op); d == 0 || dir != 2 && d != dir {
			continue
		}
		if n, err := strconv.ParseFloat(f.Value, 64); err == nil && n == v.Value {
			return true
		}
		if v.Kind == language.Date && strings.HasPrefix(f.Value, strconv.Itoa(int(v.Value))) {
			return true
		}
		if v.Kind == language.Number && v.Value == float64(int(v.Value)) && strings.HasPrefix(f.Value, strconv.Itoa(int(v.Value))+"-") {
			return true // "before 1900" on a date column: < 1900-01-01
		}
	}
	return false
}

// dropPlaced removes from the words the keyword rules could not read those the meaning rules
// place as harmless: "passengers" in "the mean fare of the passengers" names the rows.
func dropPlaced(unknown, placed []string) []string {
	return slices.DeleteFunc(unknown, func(w string) bool {
		return slices.ContainsFunc(placed, func(p string) bool { return strings.EqualFold(p, w) })
	})
}

// runnable reports a meaning whose every column is in the frame with the type it needs.
func runnable(m *meaning.Meaning, f *Frame) bool {
	for _, c := range m.Filters {
		if c.Ref != nil && !runnable(&meaning.Meaning{Filters: c.Ref, Agg: meaning.Count}, f) {
			return false
		}
		if c.Ref == nil && f.column(c.Column) == nil {
			return false
		}
	}
	if m.Target == "" && m.Agg == meaning.NoAgg && !m.Exists && !m.All && m.Identifier == "" && m.Order == nil {
		return false // rows asked for with nothing to name them by
	}
	if m.GroupPart != "" && (m.Order == nil || !m.Order.Size && m.Order.Agg == meaning.NoAgg) {
		return false // periods of dates are groups: ranked by their size or by an aggregate
	}
	if t := f.column(m.Target); t != nil && t.Kind == "date" && m.Agg != meaning.Count && m.Agg != meaning.Distinct && m.GroupPart == "" {
		return false // "which month had the highest revenue" groups by periods: the keyword rules resample
	}
	for _, name := range []string{m.Target, m.Group, m.Identifier} {
		if name != "" && f.column(name) == nil {
			return false
		}
	}
	if m.Agg >= meaning.Sum && (m.Target == "" || f.column(m.Target).Kind != "num" && !(m.Agg == meaning.Mean && yesNoColumn(f.column(m.Target)))) {
		return false // an average of names; a rate of a yes/no column is its mean
	}
	if o := m.Order; o != nil && o.Column != "" {
		c := f.column(o.Column)
		if c == nil || c.Kind != "num" && c.Kind != "date" && !(o.Agg == meaning.Mean && yesNoColumn(c)) && !(o.Length && c.Kind != "bool") && o.Agg != meaning.Distinct {
			return false
		}
	}
	return true
}

// yesNoColumn reports a column of booleans, read as such or as the text True and False.
func yesNoColumn(c *Column) bool {
	return c != nil && (c.Kind == "bool" || c.Kind == "cat" && trueFalse(c.Values))
}

// rateColumns are the yes/no columns held as text that a meaning averages (a rate): its cell
// reads them as 1 and 0 first.
func rateColumns(m *meaning.Meaning, f *Frame) []string {
	var out []string
	for _, name := range averaged(m) {
		if c := f.column(name); c != nil && c.Kind == "cat" && trueFalse(c.Values) {
			out = append(out, name)
		}
	}
	return out
}

// averaged are the columns a meaning takes the mean of: its target, or what its groups are
// ranked by.
func averaged(m *meaning.Meaning) []string {
	var out []string
	if m.Agg == meaning.Mean {
		out = append(out, m.Target)
	}
	if o := m.Order; o != nil && o.Agg == meaning.Mean && !slices.Contains(out, o.Column) {
		out = append(out, o.Column)
	}
	return out
}

// schemaTable describes a frame for schema linking.
func schemaTable(f *Frame) *schema.Table {
	t := &schema.Table{File: f.File}
	for _, c := range f.Columns {
		sc := schema.Column{Name: c.Name, Values: c.Values}
		switch c.Kind {
		case "num":
			sc.Type = schema.Number
			sc.Values = nil
			if c.Unique == 2 && c.Min == "0" && c.Max == "1" {
				// 0/1 is a flag: "survivors" is Survived = 1.
				sc.Type, sc.Values = schema.Boolean, []string{"True", "False"}
			}
		case "date":
			sc.Type = schema.Date
			if c.clockTimes() {
				sc.Type = schema.Text // "8:00 pm" is no day of the year: "the last game" orders by the Date
			}
		case "bool":
			sc.Type = schema.Boolean
		case "list":
			sc.Type = schema.List // its values are the items
		case "cat":
			sc.Type = schema.Category
			if trueFalse(c.Values) {
				sc.Type = schema.Boolean // "True"/"False" read as text
			}
		default:
			sc.Type = schema.Text
		}
		t.Columns = append(t.Columns, sc)
	}
	return t
}

// leadsMeaning reports a meaning the keyword rules have no intent for, which is read first:
// yes/no questions, rows or groups ranked to pick an entity ("the youngest billionaire",
// "the country with the most billionaires"), and rows compared with another ("the same city as
// Windsor Park").
func leadsMeaning(m *meaning.Meaning) bool {
	// Periods of the dates ranked by a total or mean lead too ("which year had the most
	// injuries" adds them up), except months, which the keyword rules read as calendar months.
	period := m.GroupPart != "" && m.GroupPart != "%B"
	return m.Form == meaning.Verdict || m.Order != nil && m.Order.Agg == meaning.NoAgg || m.SameAs() || period
}

// rateAsked reports a meaning that averages a yes/no column, a rate ("the survival rate", "the
// top 3 classes by survival rate"): the keyword rules read "rate" as a share of a total.
func (rd questionReading) rateAsked() bool {
	return slices.ContainsFunc(averaged(rd.m), func(name string) bool { return yesNoColumn(rd.f.column(name)) })
}

// valueIntents are the keyword intents that compute values from rows: the ones a whole meaning
// can stand in for. Charts, tests, models and exports it cannot, and it never overrides them.
var valueIntents = setOf(intentStat, intentCounts, intentUnique, intentFilter, intentTop, intentWhich, intentPeak, intentSize, intentDescribe, intentSort)

// keywordMisreads reports a keyword reading the whole meaning contradicts: its filters are on
// other columns or keep what the meaning excludes, it counts the cells or rows of a measure the
// meaning adds up or reads, or it groups by a column the meaning does not group by. The meaning accounts
// for every word in the sentence's structure; the keyword rules read words one at a time and
// take "female passengers who survived" as a grouping by survival.
func keywordMisreads(q *Query, m *meaning.Meaning) bool {
	if !valueIntents[q.Intent] {
		return false
	}
	var meaningCols, keywordCols []string
	for _, c := range m.Filters {
		meaningCols = append(meaningCols, c.Column+excludes(c.Op))
	}
	for _, f := range q.Filters {
		keywordCols = append(keywordCols, f.Col+excludes(f.Op))
	}
	slices.Sort(meaningCols)
	slices.Sort(keywordCols)
	if !slices.Equal(slices.Compact(meaningCols), slices.Compact(keywordCols)) {
		return true
	}
	if countsCells(q) && m.Agg != meaning.Count && m.Agg != meaning.Distinct && slices.Contains(q.Measures, m.Target) {
		return true // "how many rebounds" adds them up, "the number of starters" is their value
	}
	if m.Order != nil && m.Order.Said && !m.Order.Each && q.Intent == intentStat && len(q.By) > 0 {
		return true // "the 4 carriers with the lowest median distance": the keyword rules list every group
	}
	if q.Intent == intentSize && m.Agg == meaning.Sum {
		return true // "how many employees does the school have" is # of Employees, not its rows
	}
	return slices.ContainsFunc(q.By, func(b string) bool { return b != m.Group && b != q.each })
}

// countsCells reports a keyword reading that counts the values of a measure: the cells of a
// column of numbers are rarely what a question counts.
func countsCells(q *Query) bool {
	return q.Intent == intentStat && q.Agg == "count"
}

// excludes marks a condition that keeps the rows without a value ("other than Townsville"),
// so that a keyword filter keeping the rows with it reads as another question.
func excludes(op string) string {
	if op == "!=" || op == "not in" {
		return " (excluded)"
	}
	return ""
}

// plan is the plan of a question read by package meaning: one cell.
func (rd questionReading) plan() plan {
	return plan{Query: Query{Intent: intentMeaning, Frame: 0, JoinWith: -1, Via: -1, refine: rd.refine}, Cells: []string{meaningCell(rd.m, rd.f, rd.derived)}}
}

// labelledBins reports derivations that are all bins cut at ranges the question listed, the
// only derived columns a meaning's cell makes.
func labelledBins(ds []derivation) bool {
	return len(ds) > 0 && !slices.ContainsFunc(ds, func(d derivation) bool { return d.Kind != "cat" || len(d.Labels) == 0 })
}

// trueFalse reports values that are exactly the two booleans as text: True and False, or yes
// and no ("smoker: yes"), so that "smokers" are the rows that say yes.
func trueFalse(values []string) bool {
	if len(values) != 2 {
		return false
	}
	a, b := strings.ToLower(values[0]), strings.ToLower(values[1])
	return a == "true" && b == "false" || a == "false" && b == "true" || a == "yes" && b == "no" || a == "no" && b == "yes"
}

// textTruth is how a column of booleans as text writes True or False: "yes" for True where
// the column says yes and no, "true" where it writes true in lower case.
func textTruth(c *Column, v string) string {
	if c == nil || len(c.Values) != 2 || v != "True" && v != "False" {
		return v
	}
	for _, x := range c.Values {
		switch strings.ToLower(x) {
		case "yes", "true":
			if v == "True" {
				return x
			}
		case "no", "false":
			if v == "False" {
				return x
			}
		}
	}
	return v
}

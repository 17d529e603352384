package analyst

import (
	"fmt"
	"slices"
	"strings"

	"github.com/analyst-workbench/workbench/emulator/analyst/meaning"
)

// plan is what the rules decided for one turn: the cells to run after the loading cell, or a
// reply to give without running anything more.
type plan struct {
	Query Query
	Cells []string
	Reply string // set when the turn ends without analysis: asking back, or out of reach
	// Lead opens the answer before what the cells found: a document's overview before its
	// picture.
	Lead string
}

// makePlan resolves the question in its conversation and writes the cells. It is pure: the same
// question, history and profile always give the same plan.
func makePlan(question string, history []Message, p *Profile) plan {
	if a, ok := readDocQuestion(question, p); ok {
		return docPlan(a, p)
	}
	pl := tablePlan(question, history, p)
	if note := alsoDocuments(&pl, p); note != "" {
		pl.Query.Notes = append(pl.Query.Notes, note)
	}
	return pl
}

// tablePlan plans a question about the tables.
func tablePlan(question string, history []Message, p *Profile) plan {
	if len(p.Frames) == 0 {
		return plan{Reply: noDataReply(p)}
	}
	p, derived, ref := readSession(question, history, p)
	if ref.Unread != "" {
		return plan{Reply: unreadReply(question, ref)}
	}
	rd := questionReading{}
	switch {
	case labelledBins(derived) && ref.plainBesidesDerived():
		// "the most common age range: (0-18, 18-30, 30-50, 50+)": the meaning of the question
		// as rewritten around the new column, which its cell derives first
		text, _ := p.questionProper(question)
		if rd = readMeaning(text, p); rd.m == nil {
			rd = questionReading{} // the keyword rules read derived columns as before, unguarded
		}
		rd.derived = derived
	case len(derived) == 0:
		// The question without its refinements. When they only say how to present the answer
		// ("Round to 2 decimals.", "Format: @mean_fare[value]", "If there is a tie, use
		// alphabetical order."), its meaning answers, rounded, ending with the format line and
		// breaking ties so; otherwise the keyword rules answer, and the reading only says
		// which of their unknown words are harmless and which constructions they would drop.
		text, _ := p.questionProper(question)
		rd = readMeaning(text, p)
		if !ref.presentational() {
			rd = rd.placement()
		}
	}
	rd.refine = ref
	m := rd.m
	if m != nil && m.Order != nil {
		m.Order.Ties = ref.Ties
	}
	if m != nil && (leadsMeaning(m) || rd.rateAsked()) {
		return rd.plan()
	}
	if ref.Ties != meaning.TiesNamed {
		// the keyword rules break no ties: an answer without the sentence answers a nearby question
		return plan{Reply: unreadReply(question, refinements{Unread: ref.TiesSaid})}
	}
	ix := newColIndex(p)
	q := resolveTurn(question, history, ix)
	q.refine, q.derived = ref, derived
	q.unknown = append(reportedWords(&q), formatColumnsUnused(&q, p)...)
	if m == nil && len(q.unknown) > 0 {
		// With a whole meaning, the words the keyword rules cannot read hand the question
		// to it below; without one, words meaning places as harmless must not block.
		q.unknown = dropPlaced(q.unknown, rd.placed())
	}
	q.unknown = append(q.unknown, rd.differenceAsked()...)
	q.unknown = append(q.unknown, rd.rowOrderAsked()...)
	if reply := complete(&q, p); reply != "" {
		if m != nil && q.Intent != intentHelp && !q.cue {
			return rd.plan() // the keyword rules ask back; the meaning is whole
		}
		if len(q.asked) > 0 {
			// Asking back offers each reading as a question the user can click.
			reply += "\n" + suggestionList(readings(question, q.askedWord(), q.asked))
		}
		return plan{Query: q, Reply: reply}
	}
	if len(q.unknown) > 0 {
		if m != nil && !q.cue {
			return rd.plan()
		}
		return plan{Query: q, Reply: notUnderstood(&q, question, p)}
	}
	if m != nil && !q.cue && keywordMisreads(&q, m) {
		return rd.plan()
	}
	verdictOfCorrelation(&q, rd, &p.Frames[q.Frame])
	if reply := formMismatch(&q, rd, p); reply != "" && !q.cue {
		if m != nil {
			return rd.plan() // the meaning answers in the form asked
		}
		return plan{Query: q, Reply: reply}
	}
	if dropped := rd.sameAsDropped(); len(dropped) > 0 {
		q.unknown = dropped // "the same city as Windsor Park" is no follow-up's "same"
		return plan{Query: q, Reply: notUnderstood(&q, question, p)}
	}
	if dropped := slices.Concat(rd.comparisonsDropped(&q), rd.gapDropped(&q), rd.monthDaysDropped(&q), rd.groupingUnsaid(&q), rd.positionDropped(&q)); len(dropped) > 0 && !q.cue {
		q.unknown = dropped
		return plan{Query: q, Reply: notUnderstood(&q, question, p)}
	}
	if q.Intent == intentFilter {
		q.Named = rd.entityColumn() // "what is the network owned by …": the list names its networks
	}
	g := newGen(&q, p)
	intentCode[q.Intent](g)
	return plan{Query: q, Cells: []string{closeFailedCharts(strings.TrimRight(g.b.String(), "\n"))}}
}

// closeFailedCharts wraps a cell that draws so that, if it fails, its half-drawn figure is
// closed: the kernel shows every figure left open after a cell, and a failed chart must never
// be shown (or kept in the gallery) as the answer's.
func closeFailedCharts(code string) string {
	if !strings.Contains(code, "_save_chart(") {
		return code
	}
	return "try:\n    " + strings.ReplaceAll(code, "\n", "\n    ") +
		"\nexcept Exception:\n    plt.close(\"all\")\n    raise"
}

// intentCode maps each runnable intent to the method writing its cell.
var intentCode = map[intent]func(*gen){
	intentOverview: (*gen).overview, intentColumns: (*gen).columns, intentHead: (*gen).head,
	intentSize: (*gen).size, intentMissing: (*gen).missing, intentDescribe: (*gen).describe,
	intentCounts: (*gen).counts, intentUnique: (*gen).unique, intentStat: (*gen).stat,
	intentPeak: (*gen).peak, intentTop: (*gen).top, intentFilter: (*gen).filterRows,
	intentSort: (*gen).sortRows, intentPivot: (*gen).pivot, intentResample: (*gen).resample,
	intentGrowth: (*gen).growth, intentCorr: (*gen).corr, intentOutliers: (*gen).outliersAsked,
	intentChart: (*gen).chart, intentDuration: (*gen).duration, intentJoin: (*gen).join, intentExport: (*gen).export, intentShare: (*gen).share,
	intentWhich: (*gen).which,
	intentTest:  (*gen).test, intentModel: (*gen).model,
}

// needsNumber lists the intents that need a numeric column to work on.
var needsNumber = setOf(intentStat, intentPeak, intentGrowth, intentShare, intentWhich)

// complete fills the defaults a query may leave open and returns a reply instead when the
// question is ambiguous or out of reach.
func complete(q *Query, p *Profile) string {
	f := queryFrame(p, q)
	dropMissingColumns(q, f)
	if q.Intent == intentAmbig {
		return q.ask(fmt.Sprintf("“%s” matches several columns", q.AmbigWord), q.Ambiguous)
	}
	switch q.Intent {
	case intentHelp:
		return helpReply(p)
	case intentBeyond:
		return beyondReply(q, p)
	case intentTest, intentModel, intentOutliers:
		if reply := completeStat(q, f); reply != "" {
			return reply
		}
	}
	if len(q.Ambiguous) > 0 && len(q.Measures) == 0 {
		return q.ask(fmt.Sprintf("“%s” matches several columns", q.AmbigWord), q.Ambiguous)
	}
	dropTimeAxis(q, f)
	if q.Intent == intentResample && len(q.Measures) > 0 && allIDs(f, q.Measures) {
		q.Measures = nil // "contracts per year" counts the contracts, it does not average their ids
	}
	if q.Intent == intentStat && q.Agg == "count" && len(q.By) > 0 {
		q.Intent = intentCounts
	}
	if q.Intent == intentChart && q.Chart == "" && len(q.Measures) == 0 && len(q.By) == 0 && len(q.Filters) == 0 {
		return q.ask("Which columns should I plot? The numeric ones are", numericColumns(f))
	}
	if q.Intent == intentChart && q.Chart == "scatter" && len(q.Measures) == 0 {
		return q.askPair("A scatter plot needs two numeric columns; which two? Candidates are", numericColumns(f))
	}
	if q.Intent == intentShare && len(q.By) == 0 && !slices.ContainsFunc(q.Filters, isPart) {
		q.Intent = intentStat // a share needs a part: a category value, or groups
	}
	if q.Intent == intentChart && q.Chart == "" {
		q.Chart = inferChart(q, f)
	}
	if q.Intent == intentChart && q.Period == periodWeekday && (q.Chart == "line" || q.Chart == "area") {
		q.Chart = "bar" // weekdays are categories, not a time line
	}
	if (needsNumber[q.Intent] || q.Intent == intentTop || q.Intent == intentChart && chartNeedsNumber(q)) && !hasNumericMeasure(q, f) {
		if defaultMeasure(q, f) {
			groupByCategories(q, f) // "mean Ticker" becomes the mean Close per ticker
		} else {
			if len(q.unknown) > 0 {
				return q.ask(fmt.Sprintf("I found no column matching “%s” in %s. The numeric columns are", strings.Join(q.unknown, " "), f.Key), numericColumns(f))
			}
			return q.ask(fmt.Sprintf("Which column do you mean for the %s?", intentNoun(q)), numericColumns(f))
		}
	}
	if q.Intent == intentChart && (q.Chart == "bar" || q.Chart == "barh" || q.Chart == "pie") && len(q.By)+len(categoryOf(q, f)) == 0 &&
		firstCategory(f) == "" && dateColumn(f) == "" {
		return q.ask("A bar or pie chart needs a category to split by, and I found none; which column?", columnNames(f))
	}
	if reply := checkShape(q, p, f); reply != "" {
		return reply
	}
	if (q.Intent == intentCounts || q.Intent == intentUnique) && len(q.Measures)+len(q.By) == 0 {
		return q.ask("Which column should I count? Candidates are", categoryColumns(f))
	}
	if q.Intent == intentDescribe && len(q.Measures) == 0 {
		q.Intent = intentOverview
	}
	if q.Intent == intentSort && q.sortKeyMissing() {
		return q.ask("Which column should I sort by?", columnNames(f))
	}
	return ""
}

func (q *Query) sortKeyMissing() bool {
	return len(q.Measures)+len(q.By) == 0 && q.DateCol == "" && !q.byDate
}

// timeNamed reports whether a column of f is named as a time ("Year", "month"), which a chart
// over time may take as its axis though it holds numbers.
func timeNamed(f *Frame) bool {
	return slices.ContainsFunc(f.Columns, func(c Column) bool {
		return slices.ContainsFunc(nameWords(c.Name), func(w string) bool { return timeWords[singular(w)] })
	})
}

// checkShape catches queries the data cannot answer as asked, such as growth without dates.
func checkShape(q *Query, p *Profile, f *Frame) string {
	date := q.DateCol
	if date == "" {
		date = dateColumn(f)
	}
	switch {
	case (q.Intent == intentGrowth || q.Intent == intentPeak || q.Intent == intentResample) && date == "":
		return fmt.Sprintf("%s has no date column, so I cannot follow %s over time. I can summarise it, rank rows by it, or chart its distribution instead.", f.Key, strings.Join(q.Measures, ", "))
	case q.Intent == intentJoin && q.JoinWith < 0:
		return fmt.Sprintf("I found no column shared by %s and the other files, so I cannot join them. Name the matching columns, or rename one so both files share it.", f.Key)
	case q.Intent == intentChart && q.Chart == "scatter" && len(numericOf(q, f)) < 2:
		return q.askPair("A scatter plot needs two numeric columns; which two? Candidates are", numericColumns(f))
	case q.Intent == intentChart && (q.kwHas("overtime") || q.Period != "") && date == "" && !timeNamed(f):
		// Drawn anyway, the chart would be the previous one, or a histogram: a nearby answer.
		asked := "“Over time”"
		if q.Period != "" && !q.kwHas("overtime") {
			asked = "A chart per " + periodWord[q.Period]
		}
		return fmt.Sprintf("%s needs a column of dates or times, and %s has none. I can draw a histogram, a bar chart by a category, or a scatter of two columns.", asked, f.Key)
	case q.Intent == intentChart && (q.Chart == "line" || q.Chart == "area") && date == "":
		if len(q.By) > 0 {
			q.Chart = "bar"
			return ""
		}
		return fmt.Sprintf("%s has no date column for a line over time. I can draw a histogram, a bar chart by a category, or a scatter of two columns.", f.Key)
	case q.Intent == intentPivot && len(q.By) == 1 && hasNumericMeasure(q, f):
		q.Intent = intentStat // one key: a plain group-by is the pivot
	case q.Intent == intentPivot && len(q.By)+len(categoryOf(q, f)) < 2:
		return q.askPair("A pivot needs two category columns (rows and columns) and optionally a value; candidates are", categoryColumns(f))
	}
	return ""
}

// dropMissingColumns removes columns the table lacks, which a follow-up can carry over from a
// question about another file, so that no cell fails on a missing key.
func dropMissingColumns(q *Query, f *Frame) {
	has := func(name string) bool { return f.column(name) != nil }
	q.Measures = slices.DeleteFunc(q.Measures, func(n string) bool { return !has(n) })
	q.By = slices.DeleteFunc(q.By, func(n string) bool { return !has(n) })
	q.Filters = slices.DeleteFunc(q.Filters, func(x Filter) bool { return !has(x.Col) })
	if q.DateCol != "" && !has(q.DateCol) {
		q.DateCol = ""
	}
}

// isPart reports whether a filter picks a category value, the part of a share.
func isPart(f Filter) bool { return f.Kind == "cat" && f.Op != "!=" }

func chartNeedsNumber(q *Query) bool {
	switch q.Chart {
	case "line", "area", "hist", "box", "scatter":
		return true
	case "", "bar", "barh", "pie":
		return false
	}
	return false
}

func intentNoun(q *Query) string {
	if q.Intent == intentChart {
		return q.Chart + " chart"
	}
	if q.Agg != "" {
		return aggName(q.Agg)
	}
	if n := map[intent]string{intentStat: "statistic", intentPeak: "peak", intentResample: "resampling",
		intentGrowth: "growth", intentTop: "ranking", intentShare: "share"}[q.Intent]; n != "" {
		return n
	}
	return "analysis"
}

func hasNumericMeasure(q *Query, f *Frame) bool { return len(numericOf(q, f)) > 0 }

func numericOf(q *Query, f *Frame) []string {
	var out []string
	for _, m := range q.Measures {
		if c := f.column(m); c != nil && c.Kind == "num" {
			out = append(out, m)
		}
	}
	return out
}

func categoryOf(q *Query, f *Frame) []string {
	var out []string
	for _, m := range q.Measures {
		if c := f.column(m); c != nil && c.Kind != "num" {
			out = append(out, m)
		}
	}
	return out
}

// defaultMeasure picks the measure a question left out, when there is an obvious one: Close in
// a price table, or the only numeric column.
func defaultMeasure(q *Query, f *Frame) bool {
	for _, name := range standInMeasures {
		if c := f.column(name); c != nil && c.Kind == "num" {
			q.Measures = append([]string{name}, q.Measures...)
			q.Notes = append(q.Notes, "I used the "+name+" column, as no column was named.")
			return true
		}
	}
	if nums := numericColumns(f); len(nums) == 1 {
		q.Measures = append([]string{nums[0]}, q.Measures...)
		return true
	}
	return false
}

func categoryColumns(f *Frame) []string {
	var out []string
	for _, c := range f.Columns {
		if c.Kind == "cat" || c.Kind == "bool" {
			out = append(out, c.Name)
		}
	}
	return out
}

func columnNames(f *Frame) []string {
	out := make([]string, len(f.Columns))
	for i, c := range f.Columns {
		out[i] = c.Name
	}
	return out
}

// askedWord is the word of the question that a column should replace in a suggestion.
func (q *Query) askedWord() string {
	if q.AmbigWord != "" {
		return q.AmbigWord
	}
	return strings.Join(q.unknown, " ")
}

// ask asks back, naming the candidate columns, and remembers them for the suggestions.
func (q *Query) ask(lead string, cands []string) string {
	q.asked = cands
	return askColumns(lead, cands)
}

// askPair asks back for two columns; the suggestions pair the first candidate with the next.
func (q *Query) askPair(lead string, cands []string) string {
	reply := askColumns(lead, cands)
	q.asked = nil
	for _, c := range cands[min(1, len(cands)):] {
		q.asked = append(q.asked, cands[0]+" and "+c)
	}
	return reply
}

// askColumns asks back, naming the candidate columns.
func askColumns(lead string, cands []string) string {
	if len(cands) == 0 {
		return lead + ", but I found no suitable column. Which column do you mean?"
	}
	if len(cands) > 12 {
		cands = append(cands[:12:12], "…")
	}
	end := ""
	if !strings.HasSuffix(lead, "?") {
		end = ". Which one do you mean?"
		lead += ":"
	}
	return lead + " " + quoteList(cands) + end
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + n + "`"
	}
	return strings.Join(q, ", ")
}

package analyst

import (
	"slices"
	"strings"
)

// parseQuestion resolves one question against the profile, without looking at the history.
func parseQuestion(question string, ix *colIndex) Query {
	question, ref := ix.p.questionProper(question)
	question, notes := resolveOrdinals(question, ix.p)
	ps := analyze(question, ix)
	q := Query{JoinWith: -1, Via: -1, kws: ps.kws, Notes: notes, refine: ref}
	q.Frame, q.named = pickFrame(ps, ix)
	q.typed = ps.file >= 0
	if _, sheet := typedSheet(ps, ix.p); q.typed && !sheet {
		q.Sheets = sheetsOf(ix.p, ps.file) // a workbook named, no sheet: each answers
	}
	if !ps.has("join") {
		q.Frame, q.Via, q.ViaOn, q.ViaRight = lookupJoin(ps, ix, q.Frame)
	}
	assignRoles(&q, ps, ix)
	f := queryFrame(ix.p, &q)
	groupByCategories(&q, f)
	q.numeric = anyKind(f, nonIDs(f, q.Measures), "num")
	q.Agg = ps.firstAgg()
	q.Aggs = ps.moreAggs(q.Agg)
	if q.Agg == "count" && len(q.By) == 0 && allIDs(f, q.Measures) && !ps.has("unique") {
		q.Measures, q.numeric = nil, false // "number of records in employees" counts rows
	}
	if q.Agg == "count" && len(q.By) == 0 && len(q.Measures) > 0 && !ps.has("unique") && !slices.ContainsFunc(q.Measures, func(m string) bool { return !filtered(&q, m) }) {
		q.Measures, q.numeric = nil, false // "how many houses were built before 1950": the rows, placed by year_built
	}
	readModifiers(&q, ps, f)
	q.cue = q.cue || question == "" && ref.any() // "round to 3 decimals" alone refines the previous question
	yearNumberFilters(&q, f)
	when := asksWhichTime(ps)
	q.whenRow = when != ""
	q.flip = ps.hasPhrase("other", "way") || ps.hasWord("reverse") || ps.hasWord("reversed") || ps.hasWord("flip")
	q.returns = ps.hasWord("returns") || ps.hasWord("pct_change") || ps.hasPhrase("daily", "return") || ps.hasPhrase("percent", "change")
	readDuration(&q, ps, f)
	readStatAsk(&q, ps, f)
	q.Intent, q.explicit = chooseIntent(&q, ps, len(ix.p.Frames))
	if q.Intent == intentPeak && when != "" {
		whichPeriod(&q, ps, f, when)
	}
	everyField(&q, f)
	if q.Intent == intentStat || q.Intent == intentTop || q.Intent == intentPeak && when == "" {
		readEntity(&q, ps, ix, f)
	}
	eachNamedValue(&q, ps)
	flagShare(&q, ps)
	if q.Intent == intentStat && len(q.By) > 0 && (q.Agg == "max" || q.Agg == "min") && ps.has("what") && ps.firstOf("mean", "median", "sum", "std") == "" {
		q.Agg = "" // "which region sells the most" ranks the regions by their total
	}
	if len(q.Ambiguous) > 0 && len(q.Measures) == 0 {
		// Decide the intent as if the column were known, so the answer to the question asked
		// back ("Q3") can resume it.
		q.Measures = q.Ambiguous[:1]
		q.pending, _ = chooseIntent(&q, ps, len(ix.p.Frames))
		q.Measures, q.Intent = nil, intentAmbig
	}
	if q.Intent == intentJoin {
		planJoin(&q, ps, ix)
	}
	q.unknown = append(q.unknown, unreadModifiers(&q, ps)...)
	if priceStandIn(&q, ps, f) {
		q.Notes = append(q.Notes, "I read “price” as the Close column.")
	}
	return q
}

// flagShare reads the share of rows a flag column the question defined marks: "a binary column
// high_quality that is 1 if quality is at least 7 … what proportion of wines are high
// quality" is the mean of its 1s and 0s, and a percentage a hundred times that.
func flagShare(q *Query, ps *parsed) {
	if !ps.has("percent") || len(q.Measures) != 1 || len(q.By) > 0 || len(q.Filters) > 0 {
		return
	}
	for _, d := range q.refine.Derived {
		if d.Name == q.Measures[0] && d.Flag {
			q.Intent, q.Agg = intentStat, "mean"
			if ps.hasWord("percentage") || ps.hasWord("percent") || ps.hasWord("%") {
				q.Agg = "flagpct"
			}
			ps.taken[ps.at("percent")] = true
			q.unknown = slices.DeleteFunc(q.unknown, func(w string) bool { return vocabulary[strings.ToLower(w)] == "percent" })
			return
		}
	}
}

// eachNamedValue reads an average (or another statistic that does not add up) of values named
// with "and" as one per value: "the average salary of male and female employees", "compare
// the average mpg of 4-cylinder and 6-cylinder cars". Over the rows of either it is "… of male
// or female employees"; a total stays one. "How many males and females are there?" counts
// each value, and the counts' sentence says their sum too; "together", "combined" or "in total"
// count them as one.
func eachNamedValue(q *Query, ps *parsed) {
	if ps.hasWord("or") || ps.hasWord("either") || len(q.By) > 0 {
		return
	}
	op := versusOp(ps)
	ratio := op == "/"
	counting := (q.Intent == intentSize || ratio && q.Intent == intentFilter) && !ps.hasWord("together") && !ps.hasWord("combined") && !ps.has("sum") && !ps.hasWord("altogether")
	if !counting && (q.Intent != intentStat || !nonAdditive[q.Agg]) {
		return
	}
	if !ps.hasWord("and") && !ps.has("compare") && !ps.hasWord("vs") && !ps.hasWord("versus") && op == "" {
		return
	}
	for _, x := range q.Filters {
		if x.Op == "in" && len(x.Values) >= 2 {
			q.By, q.each = []string{x.Col}, x.Col
			if counting {
				q.Intent = intentCounts
			}
			if op != "" && len(x.Values) == 2 {
				q.versus = versusAsk{op: op, a: x.Values[0], b: x.Values[1]}
				q.unknown = slices.DeleteFunc(q.unknown, func(w string) bool { return strings.EqualFold(w, "ratio") || strings.EqualFold(w, "difference") })
			}
			return
		}
	}
}

// versusOp is the operation of a ratio or difference asked of two values: "the ratio of A to
// B", "the difference between A and B", "the difference in X between A and B"; "" if none.
func versusOp(ps *parsed) string {
	switch {
	case ps.hasWord("ratio") && ps.hasWord("to"):
		return "/"
	case ps.hasWord("difference") && (ps.hasWord("between") || ps.hasWord("in")):
		return "-"
	}
	return ""
}

// nonAdditive are the aggregates of a group that its parts do not add up to.
var nonAdditive = setOf("mean", "median", "std", "var", "min", "max")

// readModifiers sets what refines the analysis: period, chart, order, N, rolling window,
// export, and whether the question leans on the previous one.
func readModifiers(q *Query, ps *parsed, f *Frame) {
	q.Period = ps.period()
	q.Chart = ps.chartKind()
	q.Trend = ps.has("trendline") || q.Chart == "scatter" && ps.has("trend")
	q.Tail = ps.has("tail") && !ps.hasWord("first") && !ps.hasWord("head")
	q.Bottom = ps.has("bottom") || ps.has("asc") || ps.has("min") && !ps.has("max")
	if ps.has("compare") && len(q.By) == 0 {
		if k := seriesColumn(f, dateColumn(f)); k != "" && !filtered(q, k) {
			q.By = []string{k} // "compare the closing prices of the stocks": one group per ticker
		}
	}
	if (ps.has("recent") || ps.has("oldest")) && dateColumn(f) != "" {
		q.byDate, q.Bottom = true, ps.has("oldest")
		if q.DateCol == "" {
			q.DateCol = dateColumn(f)
		}
		if len(q.Measures) == 0 && (q.Agg == "max" || q.Agg == "min") {
			q.Agg = "" // "most recently" orders by date; "most" is not a maximum of anything
		}
	}
	q.N = countAsked(ps)
	q.plural = pluralRows(ps, f)
	q.unknown = ps.unknown
	if ps.has("rolling") {
		i := ps.at("rolling")
		q.Rolling = max(ps.numberBefore(i), ps.numberAfter(i))
		if i > 1 && q.Rolling == 0 {
			q.Rolling = ps.numberBefore(i - 1) // "10 week rolling mean"
		}
		if q.Rolling < 2 {
			q.Rolling = 7
		}
	}
	q.Export = exportFormat(ps)
	q.cue = followCue(ps)
}

// countAsked returns the N of "top 5", "first 10 rows", "3 largest", or 0.
func countAsked(ps *parsed) int {
	for _, k := range []string{"top", "bottom", "head", "tail", "max", "min"} {
		if i := ps.at(k); i >= 0 {
			if n := ps.numberAfter(i); n > 0 && n < 1000 {
				return n
			}
			if n := ps.numberBefore(i); n > 0 && n < 1000 {
				return n
			}
		}
	}
	return 0
}

// exportFormat reads "save as excel", "export to CSV", "as an xlsx"; a workbook merely
// mentioned ("the columns in the workbook") is not an export.
func exportFormat(ps *parsed) string {
	asked := ps.has("save") || ps.has("clean")
	for _, k := range []string{"excel", "csv"} {
		i := ps.at(k)
		for j := i - 1; i > 0 && j >= 0 && j >= i-2; j-- {
			if w := ps.toks[j].low; w == "as" || w == "to" || w == "into" {
				asked = true
			}
		}
	}
	switch {
	case ps.has("excel") && asked:
		return "xlsx"
	case ps.has("csv") && asked:
		return "csv"
	case ps.has("save"):
		return "csv"
	}
	return ""
}

// dropIDs removes identifier columns from the measures when a real quantity is also named:
// "highest paid employees" is about Salary, not Employee ID.
func dropIDs(q *Query, f *Frame) {
	var keep []string
	for _, m := range q.Measures {
		if c := f.column(m); c == nil || !isID(c, f.Rows) {
			keep = append(keep, m)
		}
	}
	if len(keep) > 0 && anyKind(f, keep, "num") {
		q.Measures = keep
	}
}

// filtered reports whether the query already narrows column k to chosen values.
func filtered(q *Query, k string) bool {
	for _, f := range q.Filters {
		if f.Col == k {
			return true
		}
	}
	return false
}

// nonIDs drops identifier columns from names.
func nonIDs(f *Frame, names []string) []string {
	var out []string
	for _, n := range names {
		if c := f.column(n); c != nil && !isID(c, f.Rows) {
			out = append(out, n)
		}
	}
	return out
}

func allIDs(f *Frame, names []string) bool {
	for _, n := range names {
		if c := f.column(n); c == nil || !isID(c, f.Rows) {
			return false
		}
	}
	return true
}

// pluralRows reports whether the question names the rows in the plural ("employees",
// "orders"), which turns "highest paid" into a ranking rather than one number.
func pluralRows(ps *parsed, f *Frame) bool {
	for _, c := range f.Columns {
		if !isID(&c, f.Rows) {
			continue
		}
		for _, w := range nameWords(c.Name) {
			for _, t := range ps.toks {
				if t.low != w && singular(t.low) == w {
					return true
				}
			}
		}
	}
	return false
}

// priceStandIn maps "price" to Close in a price table with no column called price.
func priceStandIn(q *Query, ps *parsed, f *Frame) bool {
	if len(q.Measures) == 0 || q.Measures[0] != "Close" && !strings.EqualFold(q.Measures[0], "close") {
		return false
	}
	for _, t := range ps.toks {
		if singular(t.low) == "price" || t.low == "stock" || t.low == "share" {
			for _, c := range f.Columns {
				if strings.Contains(strings.ToLower(c.Name), "price") {
					return false
				}
			}
			return true
		}
	}
	return false
}

// anyKind reports whether one of the named columns of f has the kind.
func anyKind(f *Frame, names []string, kind string) bool {
	for _, n := range names {
		if c := f.column(n); c != nil && c.Kind == kind {
			return true
		}
	}
	return false
}

// column returns the named column of f, or nil.
func (f *Frame) column(name string) *Column {
	for i := range f.Columns {
		if f.Columns[i].Name == name {
			return &f.Columns[i]
		}
	}
	return nil
}

// planJoin picks the second frame and the shared column of a join.
func planJoin(q *Query, ps *parsed, ix *colIndex) {
	named := map[int]bool{}
	for fi, f := range ix.p.Frames {
		for _, w := range frameWords(f) {
			for _, t := range ps.toks {
				if len(w) > 2 && (t.low == w || singular(t.low) == w) {
					named[fi] = true
				}
			}
		}
	}
	left := q.Frame
	for fi := range ix.p.Frames {
		if fi != left && (named[fi] || q.JoinWith < 0) {
			if on, onRight := sharedKey(&ix.p.Frames[left], &ix.p.Frames[fi]); on != "" && (q.JoinWith < 0 || named[fi]) {
				q.JoinWith, q.JoinOn, q.JoinRight = fi, on, onRight
			}
		}
	}
	if len(q.Measures) > 0 && q.JoinWith >= 0 && ix.p.Frames[q.JoinWith].column(q.Measures[0]) != nil {
		q.JoinOn, q.JoinRight = q.Measures[0], q.Measures[0]
	}
	if q.JoinWith >= 0 && ix.p.Frames[q.JoinWith].Rows > ix.p.Frames[q.Frame].Rows {
		// The larger table (the facts) goes on the left, so every one of its rows is kept.
		q.Frame, q.JoinWith = q.JoinWith, q.Frame
		q.JoinOn, q.JoinRight = q.JoinRight, q.JoinOn
	}
}

// sharedKey names the columns two frames join on: a column both have, preferring ids and keys
// and never a float measure (two prices are not a key); else a date column in each, so a daily
// file joins another daily file on the day whatever the columns are called. The names are a's
// and b's; both are empty when the frames share nothing.
func sharedKey(a, b *Frame) (string, string) {
	found := ""
	for _, c := range a.Columns {
		if other := b.column(c.Name); other == nil || c.Dtype == "float64" || other.Dtype == "float64" {
			continue
		}
		low := strings.ToLower(c.Name)
		if strings.Contains(low, "id") || strings.Contains(low, "key") || strings.Contains(low, "code") {
			return c.Name, c.Name
		}
		if found == "" {
			found = c.Name
		}
	}
	if found != "" {
		return found, found
	}
	if da, db := onlyDate(a), onlyDate(b); da != "" && db != "" {
		return da, db
	}
	return "", ""
}

// onlyDate names a frame's date column when it has exactly one, the natural key of a series.
func onlyDate(f *Frame) string {
	found := ""
	for _, c := range f.Columns {
		if c.Kind == "date" {
			if found != "" {
				return ""
			}
			found = c.Name
		}
	}
	return found
}

// groupByCategories reads "top 5 products by revenue" and "region revenue" as revenue grouped by
// the category: with a numeric measure named, category columns named as measures become keys.
func groupByCategories(q *Query, f *Frame) {
	dropIDs(q, f)
	if len(q.By) > 0 || !anyKind(f, q.Measures, "num") {
		return
	}
	var nums []string
	for _, m := range q.Measures {
		if c := f.column(m); c.Kind == "cat" && len(q.By) < 2 {
			q.By = append(q.By, m)
		} else {
			nums = append(nums, m)
		}
	}
	q.Measures = nums
}

// lookupJoin finds a second frame the question needs: one holding a named column or value the
// chosen frame lacks, sharing a key with it. The larger frame (the facts) stays on the left.
func lookupJoin(ps *parsed, ix *colIndex, frame int) (left, via int, on, onRight string) {
	other := -1
	for _, m := range ps.mentions {
		if len(inFrame(m.cols, frame)) == 0 {
			other = m.cols[0].frame
		}
	}
	for _, v := range ps.values {
		if v.col.frame != frame && other < 0 {
			other = v.col.frame
		}
	}
	if other < 0 {
		return frame, -1, "", ""
	}
	key, keyRight := sharedKey(&ix.p.Frames[frame], &ix.p.Frames[other])
	if key == "" {
		return frame, -1, "", ""
	}
	if ix.p.Frames[other].Rows > ix.p.Frames[frame].Rows {
		frame, other, key, keyRight = other, frame, keyRight, key
	}
	return frame, other, key, keyRight
}

// queryFrame is the table a query works on: its frame, or its frame with the Via frame's
// columns merged in.
func queryFrame(p *Profile, q *Query) *Frame {
	f := &p.Frames[q.Frame]
	if q.Via < 0 {
		return f
	}
	merged := *f
	merged.Columns = append([]Column{}, f.Columns...)
	for _, c := range p.Frames[q.Via].Columns {
		if f.column(c.Name) == nil && c.Name != q.ViaRight {
			merged.Columns = append(merged.Columns, c)
		}
	}
	return &merged
}

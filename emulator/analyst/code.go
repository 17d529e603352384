package analyst

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// gen writes one analysis cell for a resolved query.
type gen struct {
	q *Query
	p *Profile
	f *Frame
	b strings.Builder
}

func newGen(q *Query, p *Profile) *gen {
	return &gen{q: q, p: p, f: queryFrame(p, q)}
}

// line appends one line of Python; args are formatted with %s, %d or %q-free verbs only, and
// column names must go through py.
func (g *gen) line(format string, args ...any) {
	fmt.Fprintf(&g.b, format, args...)
	g.b.WriteByte('\n')
}

// py quotes a string for Python.
func py(s string) string { return pyStr(s) }

// pyList quotes a list of strings for Python.
func pyList(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = py(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// col returns the Python expression for a column of df.
func col(name string) string { return "df[" + py(name) + "]" }

// prelude selects the frame and applies the filters, reporting how many rows remain.
func (g *gen) prelude() {
	g.line("df = frames[%s]", py(g.f.Key))
	if g.q.Via >= 0 {
		right := g.p.Frames[g.q.Via].Key
		g.line("df = df.merge(%s, on=%s, how=\"left\", suffixes=(\"\", \"_right\"))", rightFrame(right, g.q.ViaRight, g.q.ViaOn), py(g.q.ViaOn))
		g.line("_emit(\"merged\", left=%s, right=%s, on=%s)", py(g.f.Key), py(right), py(g.q.ViaOn))
	}
	g.prepare()
	if len(g.q.Filters) == 0 {
		return
	}
	var conds []string
	for _, f := range g.q.Filters {
		conds = append(conds, "("+filterExpr(f)+")")
	}
	where := describeFilters(g.q.Filters)
	g.line("df = df[%s]", strings.Join(conds, " & "))
	g.line("_emit(\"rows\", n=len(df), of=len(frames[%s]), where=%s)", py(g.f.Key), py(where))
	g.line("if df.empty:")
	g.line("    raise ValueError(%s)", py(noRowsPrefix+where))
}

// rightFrame is the other frame of a join, its key renamed to the left one's name when the
// two differ, so that one merge key serves both.
func rightFrame(key, rightName, leftName string) string {
	if rightName == "" || rightName == leftName {
		return "frames[" + py(key) + "]"
	}
	return "frames[" + py(key) + "].rename(columns={" + py(rightName) + ": " + py(leftName) + "})"
}

func filterExpr(f Filter) string {
	c := col(f.Col)
	if f.Kind == "list" {
		return listExpr(f.Col, f.Op, f.Value, f.Values)
	}
	if f.Kind == "agg" {
		if q, ok := quantileOf(f.Value); ok {
			return c + " " + f.Op + " " + c + ".quantile(" + strconv.FormatFloat(q, 'g', -1, 64) + ")"
		}
		return c + " " + f.Op + " " + c + "." + f.Value + "()" // the column's own average, over the rows so far
	}
	switch f.Op {
	case "in":
		if f.Kind == "num" {
			return c + ".isin([" + strings.Join(f.Values, ", ") + "])"
		}
		return c + ".isin(" + pyList(f.Values) + ")"
	case "year":
		return c + ".dt.year == " + f.Value
	case "month":
		return c + ".dt.to_period(\"M\") == pd.Period(" + py(f.Value) + ", \"M\")"
	case "latest":
		if f.Value == "Y" {
			return c + ".dt.year == " + c + ".dt.year.max()"
		}
		return c + ".dt.to_period(\"M\") == " + c + ".dt.to_period(\"M\").max()"
	}
	v := py(f.Value)
	if f.Kind == "num" {
		v = f.Value
	} else if f.Kind == "date" {
		v = "pd.Timestamp(" + py(f.Value) + ")"
	}
	return c + " " + f.Op + " " + v
}

// noRowsPrefix starts the error a cell raises when its filters leave nothing, which the reply
// turns into a plain sentence.
const noRowsPrefix = "no rows match: "

// describeFilters says the conditions in words, for the reply.
func describeFilters(fs []Filter) string {
	words := map[string]string{"==": "is", "!=": "is not", ">": "above", ">=": "at least", "<": "below", "<=": "at most"}
	var parts []string
	for _, f := range fs {
		switch {
		case f.Kind == "list" && f.Op == "==":
			parts = append(parts, f.Col+" includes "+f.Value)
		case f.Op == "in":
			parts = append(parts, f.Col+" in "+strings.Join(f.Values, ", "))
		case f.Op == "year" || f.Op == "month":
			parts = append(parts, f.Col+" in "+f.Value)
		case f.Op == "latest":
			parts = append(parts, f.Col+" in the latest "+map[string]string{"Y": "year", "M": "month"}[f.Value]+" of the data")
		case f.Kind == "agg":
			parts = append(parts, f.Col+" "+words[f.Op]+" its "+aggName(f.Value))
		case f.Kind == "agg":
			parts = append(parts, f.Col+" "+words[f.Op]+" its "+aggName(f.Value))
		case f.Kind == "date":
			parts = append(parts, f.Col+" "+map[string]string{">": "after", ">=": "from", "<": "before", "<=": "up to"}[f.Op]+" "+f.Value)
		default:
			parts = append(parts, f.Col+" "+words[f.Op]+" "+f.Value)
		}
	}
	return strings.Join(parts, " and ")
}

// exportResult saves `result` when the question asked for a file.
func (g *gen) exportResult(stem string) {
	if g.q.Export == "" {
		return
	}
	name := slug(stem) + "." + g.q.Export
	// The index is written only when it says something: a group key (named, or several), or
	// labels such as value_counts' values. Filtered rows keep the row numbers of the whole file,
	// which would start the saved file with an unnamed column of them.
	keep := "result.index.name is not None or result.index.nlevels > 1 or not pd.api.types.is_integer_dtype(result.index)"
	if g.q.Export == "xlsx" {
		g.line("result.to_excel(%s, index=%s)", py(name), keep)
	} else {
		g.line("result.to_csv(%s, index=%s)", py(name), keep)
	}
	g.line("_emit(\"file\", file=%s, rows=len(result))", py(name))
}

// show ends the cell with `result` as its value rather than printing its first rows: the
// kernel then sends it as a table with its first rows, its totals and, when those rows are not
// all of it, the whole result as CSV, so the page's table can say how many rows it shows of
// how many, and sort and download all of them.
func (g *gen) show() {
	g.line("result")
}

// showRounded is show for a result of computed numbers, rounded as the reply quotes them, so
// that the table and the sentence agree.
func (g *gen) showRounded() {
	g.line("result.round(2)")
}

// maxTableCols bounds the columns of a table quoted in a reply; the cell prints them all.
const maxTableCols = 8

// tableCols picks the columns worth quoting from a wide table: the date, the columns the
// question used, then the others in order, up to maxTableCols; "None" keeps a narrow table whole.
func (g *gen) tableCols() string {
	if len(g.f.Columns) <= maxTableCols {
		return "None"
	}
	var cols []string
	add := func(names ...string) {
		for _, n := range names {
			if n != "" && len(cols) < maxTableCols && !slices.Contains(cols, n) {
				cols = append(cols, n)
			}
		}
	}
	add(g.q.Named)
	add(g.dateCol())
	for _, f := range g.q.Filters {
		add(f.Col)
	}
	add(g.q.Measures...)
	add(g.q.By...)
	add(columnNames(g.f)...)
	return pyList(cols)
}

// slug makes a descriptive, safe file name stem.
func slug(s string) string {
	var b strings.Builder
	under := false
	for _, r := range strings.ToLower(s) {
		ok := r >= 'a' && r <= 'z' || r >= '0' && r <= '9'
		if ok {
			b.WriteRune(r)
			under = false
		} else if !under && b.Len() > 0 {
			b.WriteByte('_')
			under = true
		}
	}
	out := strings.TrimRight(b.String(), "_")
	if len(out) > 60 {
		out = strings.TrimRight(out[:60], "_")
	}
	if out == "" {
		out = "result"
	}
	return out
}

// filterStem names the filters in file names: "aapl", "after_2010".
func (g *gen) filterStem() string {
	var parts []string
	for _, f := range g.q.Filters {
		switch {
		case f.Kind == "cat":
			parts = append(parts, strings.Join(f.Values, "_"))
		case f.Kind == "date":
			parts = append(parts, map[string]string{">": "after", ">=": "from", "<": "before", "<=": "to", "year": "in", "month": "in", "latest": "latest"}[f.Op]+"_"+f.Value)
		default: // a number, or an aggregate of the column ("charges_over_mean")
			parts = append(parts, f.Col+"_"+map[string]string{">": "over", ">=": "from", "<": "under", "<=": "to", "==": "eq", "!=": "not"}[f.Op]+"_"+f.Value)
		}
	}
	return strings.Join(parts, "_")
}

// additive names quantities whose natural aggregate is a sum.
var additive = []string{"revenue", "sales", "amount", "units", "quantity", "qty", "volume", "count", "cost",
	"profit", "visitor", "besucher", "budget", "total", "spend", "niederschlag", "rain", "points", "orders"}

// defaultAgg is sum for additive quantities, otherwise the mean.
func defaultAgg(name string) string {
	low := strings.ToLower(name)
	for _, a := range additive {
		if strings.Contains(low, a) {
			return "sum"
		}
	}
	return "mean"
}

// capital upper-cases the first letter.
func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// aggTitle names an aggregate of a column in a title: "Total revenue", "Standard deviation
// of Close".
func aggTitle(agg, col string) string {
	switch agg {
	case "count":
		return "Number of rows"
	case "std", "var", "iqr", "percent", "valrange", "cv", "flagpct", "meanad", "medad":
		return capital(aggName(agg)) + " of " + col
	}
	return capital(aggName(agg)) + " " + col
}

// aggName names an aggregation in the reply: aggWord's, or "90th percentile" for q90.
func aggName(agg string) string {
	if w, ok := aggWord[agg]; ok {
		return w
	}
	if n, ok := quantileOf(agg); ok {
		return ordinal(math.Round(n*100)) + " percentile"
	}
	return ""
}

// quantileOf reads an aggregation "q90" as the quantile 0.9.
func quantileOf(agg string) (float64, bool) {
	rest, ok := strings.CutPrefix(agg, "q")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n <= 0 || n >= 100 {
		return 0, false
	}
	return float64(n) / 100, true
}

// aggWord names an aggregation in the reply.
var aggWord = map[string]string{"mean": "average", "median": "median", "sum": "total", "min": "minimum",
	"max": "maximum", "std": "standard deviation", "var": "variance", "iqr": "interquartile range", "count": "count", "percent": "share in percent",
	"valrange": "range (maximum − minimum)", "cv": "coefficient of variation (standard deviation / mean)",
	"flagpct": "share in percent", "meanad": "mean absolute deviation (from the mean)",
	"medad": "median absolute deviation (from the median)"}

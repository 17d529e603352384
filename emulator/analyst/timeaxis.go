package analyst

import "strconv"

// Seasonal periods group by a part of the date rather than resampling along it: every Monday
// together, every year of a decade together.
const (
	periodWeekday = "WD"
	periodDecade  = "10Y"
)

// seasonal reports whether a period groups by a part of the date (or of a year number) rather
// than resampling a datetime index.
func seasonal(period string) bool { return period == periodWeekday || period == periodDecade }

// yearAxis finds a whole-number column named like a year ("Year", "Jahr") whose values are
// years: in a wide year-by-field table it is the time axis, for peaks, growth and lines.
func yearAxis(f *Frame) string {
	for _, c := range f.Columns {
		if c.Kind != "num" || !isYearName(c.Name) || c.Dtype != "int64" {
			continue
		}
		lo, err1 := strconv.Atoi(c.Min)
		hi, err2 := strconv.Atoi(c.Max)
		if err1 == nil && err2 == nil && lo >= 1800 && hi <= 2200 {
			return c.Name
		}
	}
	return ""
}

func isYearName(name string) bool {
	for _, w := range nameWords(name) {
		if w == "year" || w == "jahr" || w == "yr" || w == "fy" {
			return true
		}
	}
	return false
}

// yearNumbers reports whether the time column is a year number rather than a datetime.
func (g *gen) yearNumbers(d string) bool {
	c := g.f.column(d)
	return c != nil && c.Kind == "num"
}

// yearNumberFilters turns date conditions on a year-number column into number conditions:
// "after 2010" is Year > 2010, "in 2012" Year == 2012.
func yearNumberFilters(q *Query, f *Frame) {
	for i, x := range q.Filters {
		c := f.column(x.Col)
		if x.Kind != "date" || c == nil || c.Kind != "num" || len(x.Value) < 4 {
			continue
		}
		op := x.Op
		if op == "year" {
			op = "=="
		}
		q.Filters[i] = Filter{Col: x.Col, Op: op, Value: x.Value[:4], Kind: "num"}
	}
}

// periodKey is the Python expression grouping rows by a seasonal period, or by the year
// number of a year axis.
func (g *gen) periodKey(d, period string) string {
	years := col(d)
	if !g.yearNumbers(d) {
		years = col(d) + ".dt.year"
	}
	switch period {
	case periodWeekday:
		return col(d) + ".dt.day_name().rename(\"weekday\")"
	case periodDecade:
		return "(" + years + " // 10 * 10).rename(\"decade\")"
	}
	return years
}

// weekdayOrder puts a per-weekday result in calendar order, not alphabetical.
const weekdayOrder = `["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]`

// timeWords name a point in time after "which" or "what": "which year was X highest".
var timeWords = setOf("year", "month", "day", "date", "week", "quarter", "decade", "time")

// asksWhichTime reports whether the question asks for the time of a row ("which year",
// "on what day"), which makes a maximum a peak: the answer is the date, not the value.
func asksWhichTime(ps *parsed) string {
	for i := 0; i+1 < len(ps.toks); i++ {
		if w := singular(ps.toks[i+1].low); (ps.toks[i].low == "which" || ps.toks[i].low == "what") && timeWords[w] {
			return w
		}
	}
	return ""
}

// periodOfWord maps "which month" to the period to aggregate over before ranking: the
// month with the most revenue is a sum over its orders, not the month of the largest order.
var periodOfWord = map[string]string{"week": "W", "month": "M", "quarter": "Q", "year": "Y", "decade": periodDecade}

// whichPeriod turns "which month had the highest revenue" into a ranking of months, unless the
// rows are the periods already (a year-by-field table's years).
func whichPeriod(q *Query, ps *parsed, f *Frame, word string) {
	period := periodOfWord[word]
	d := dateColumn(f)
	if period == "" || d == "" || f.column(d).Kind != "date" || len(q.Measures) == 0 {
		return
	}
	// "highest" ranks the periods; each period's value is the usual total or mean.
	q.Intent, q.Period, q.explicit, q.Agg = intentResample, period, true, ""
	if ps.hasWord("most") || ps.hasWord("total") {
		q.Agg = "sum" // "which year had the most contract value": the year's total
	}
}

// dropTimeAxis removes the time axis from the measures when it was named only as the axis:
// in "which year was Physics highest" Year is where to look, Physics what to measure.
func dropTimeAxis(q *Query, f *Frame) {
	axis := q.DateCol
	if axis == "" {
		axis = dateColumn(f)
	}
	if axis == "" || len(q.Measures) < 2 {
		return
	}
	for i, m := range q.Measures {
		if m == axis {
			q.Measures = append(q.Measures[:i:i], q.Measures[i+1:]...)
			return
		}
	}
}

// wideMeasures are the numeric columns of a wide table other than its axis and ids: every
// field of a year-by-field table, for "which field grew the most".
func wideMeasures(f *Frame) []string {
	axis := dateColumn(f)
	var out []string
	for i := range f.Columns {
		c := &f.Columns[i]
		if c.Kind == "num" && c.Name != axis && !isID(c, f.Rows) && !labelColumn(c.Name) {
			out = append(out, c.Name)
		}
	}
	return out
}

// everyField reads "which field grew the most" and "average per decade" in a wide
// year-by-field table as asking about every field. It runs as the question is parsed, so a
// follow-up ("now as a line chart") keeps the fields.
func everyField(q *Query, f *Frame) {
	if len(q.Measures) > 0 || len(q.By) > 0 || yearAxis(f) == "" {
		return
	}
	if q.Intent == intentGrowth || q.Intent == intentResample && q.Agg != "" && q.Agg != "count" {
		q.Measures = wideMeasures(f)
	}
}

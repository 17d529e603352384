package analyst

import (
	"math"
	"regexp"
	"strconv"
)

// fmtLabel formats a value that names something (a group, a year, an id) rather than
// measures it: whole numbers are written without thousands separators, so a year reads 2011
// and an id 100234, never 2,011.
func fmtLabel(v any) string {
	if x, ok := v.(float64); ok && x == float64(int64(x)) {
		return strconv.FormatInt(int64(x), 10)
	}
	return fmtAny(v)
}

// periodLabel matches a time label that is a whole period, a year or a
// month ("1983", "2024-03"), not a day.
var periodLabel = regexp.MustCompile(`^\d{4}(-\d{2})?$`)

// atTime says when with its preposition: "in 1983", "in 2024-03", "on 2024-03-05".
func atTime(v any) string {
	label := fmtLabel(v)
	if periodLabel.MatchString(label) {
		return "in " + label
	}
	return "on " + label
}

// labelWords are the name words of columns whose numbers are names, not quantities.
var labelWords = setOf("year", "yr", "jahr", "id", "code", "zip", "postcode", "plz", "nr", "ean", "isbn", "sku")

// labelColumn reports whether a column's numbers are years, ids or codes by its name.
func labelColumn(name string) bool {
	for _, w := range nameWords(name) {
		if labelWords[w] {
			return true
		}
	}
	return false
}

// fmtFor formats a value of the column col: as a label when the column holds names.
func fmtFor(col string, v any) string {
	if x, ok := v.(float64); ok && labelColumn(col) && x != math.Trunc(x) {
		return strconv.FormatFloat(math.Round(x*100)/100, 'f', -1, 64) // a median year: 1969.5
	}
	if labelColumn(col) {
		return fmtLabel(v)
	}
	return fmtAny(v)
}

// statValue is a statistic of a column: the minimum of Year is 2008, its mean 2010.47.
func statValue(m marker) string {
	switch m.str("agg") {
	case "min", "max", "median":
		return fmtFor(m.str("col"), m["value"])
	}
	return m.str("value")
}

// describeValue formats one statistic of a description, a label for the order statistics of
// a year or id column.
func describeValue(col, stat string, v any) string {
	switch stat {
	case "min", "max", "25%", "50%", "75%", "top", "first", "last":
		return fmtFor(col, v)
	}
	return fmtAny(v)
}

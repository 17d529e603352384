package chat

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

// NumberFormat is how one column of a table shows its numbers: every value to the same number
// of decimals, the most any of its values needs (money shows two, counts none), digits grouped
// by thousands, never in scientific notation below 1e15. A column of years or identifiers is
// not grouped: 2013 is a year, not two thousand and thirteen.
type NumberFormat struct {
	Decimals int
	Group    bool
}

// maxDecimals bounds a column's decimals: beyond six a table is noise, and the full value is
// kept for copying and sorting.
const maxDecimals = 6

// nameWords splits a column's name into its words.
var nameWords = regexp.MustCompile(`[A-Za-z#]+`)

// labelWords end the names of columns whose numbers are labels, not quantities: an order id,
// a zip code, a year, a phone number.
var labelWords = map[string]bool{"id": true, "code": true, "zip": true, "postcode": true, "phone": true,
	"year": true, "yr": true, "no": true, "number": true, "#": true, "ref": true}

// labelColumn reports a column named like a label: its last word is one of labelWords.
func labelColumn(name string) bool {
	words := nameWords.FindAllString(name, -1)
	return len(words) > 0 && labelWords[strings.ToLower(words[len(words)-1])]
}

// ColumnFormats returns the format of each of n columns, from the values rows hold and the
// columns' names (names may be shorter than n: index columns have none to go by).
func ColumnFormats(names []string, rows [][]any, n int) []NumberFormat {
	out := make([]NumberFormat, n)
	for c := range n {
		name := ""
		if c < len(names) {
			name = names[c]
		}
		out[c] = columnFormat(name, rows, c)
	}
	return out
}

func columnFormat(name string, rows [][]any, c int) NumberFormat {
	f := NumberFormat{Group: !labelColumn(name)}
	years := true
	for _, row := range rows {
		if c >= len(row) {
			continue
		}
		x, ok := row[c].(float64)
		if !ok || math.IsNaN(x) || math.IsInf(x, 0) {
			continue
		}
		f.Decimals = max(f.Decimals, decimalsOf(x))
		years = years && x == math.Trunc(x) && x >= 1800 && x <= 2100
	}
	if years {
		f.Group = false // a column of whole numbers between 1800 and 2100 counts years
	}
	return f
}

// decimalsOf returns how many decimals x needs, read at twelve significant digits so that a
// float's noise (0.1 + 0.2) does not count, at most maxDecimals; a number too small to show
// in them ("1.2e-08") needs none of its own and is written in full.
func decimalsOf(x float64) int {
	if x == math.Trunc(x) || math.Abs(x) < 1e-4 {
		return 0
	}
	s := strconv.FormatFloat(x, 'g', 12, 64)
	v, _ := strconv.ParseFloat(s, 64)
	s = strconv.FormatFloat(v, 'f', -1, 64)
	if i := strings.IndexByte(s, '.'); i >= 0 {
		return min(len(s)-i-1, maxDecimals)
	}
	return 0
}

// Format formats one value of the column: a number as the format says, a boolean as pandas
// writes it, a string as it is, a missing value as "". full is the value in full, for sorting
// and copying.
func (f NumberFormat) Format(x any) (shown, full string) {
	switch x := x.(type) {
	case float64:
		full := strconv.FormatFloat(x, 'g', -1, 64)
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return full, full
		}
		if math.Abs(x) >= 1e15 || x != 0 && math.Abs(x) < 1e-4 {
			return strconv.FormatFloat(x, 'g', 6, 64), full
		}
		s := strconv.FormatFloat(x, 'f', f.Decimals, 64)
		if f.Group {
			s = groupThousands(s)
		}
		return s, full
	case bool:
		if x {
			return "True", "True"
		}
		return "False", "False"
	case string:
		return x, x
	default:
		return "", ""
	}
}

// groupThousands puts a comma between each three digits of a number's whole part.
func groupThousands(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, frac, _ := strings.Cut(s, ".")
	if len(whole) <= 3 {
		return sign + s
	}
	var b strings.Builder
	for i, d := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(d)
	}
	if frac != "" {
		b.WriteString("." + frac)
	}
	return sign + b.String()
}

package analyst

import (
	"fmt"
	"strconv"
	"strings"
)

// A column of flags defined by a condition: "a new binary column high_quality that is 1 if
// quality is at least 7 and 0 otherwise", "IsAlone = 1 if FamilySize == 1 else 0", "a
// feature is_expensive which is True when price is above 500000, otherwise False".

// flagNouns say that the new column holds flags.
var flagNouns = setOf("binary", "boolean", "indicator", "flag", "dummy")

// readFlag reads a flag column's definition starting at word i, its name first.
func (r *clauseReader) readFlag(i int) int {
	w := r.ws[i]
	if !isLetterStart(w.s) || w.quoted || namedLead[w.low] || flagNouns[w.low] || stopwords[w.low] || r.fileColumn(i) {
		return i
	}
	start := i
	for start > 0 && (namedLead[r.word(start-1)] || flagNouns[r.word(start-1)]) {
		start--
	}
	if start == i && !r.is(i+1, "=") {
		return i // a name alone, with nothing saying it is new, is no definition
	}
	j := r.skip(i+1, setOf("=", "that", "which", "is", "will", "be", "equal", "equals", "to", "with", "value", "as", "set", ",", ":"))
	if j < len(r.ws) && r.ws[j].quoted {
		return r.readLabelFlag(start, i, j)
	}
	yes, ok := flagValue(r.word(j))
	if !ok || !r.is(j+1, "if", "when", "where", "for") {
		return i
	}
	c, end, ok := r.flagCond(j + 2)
	if !ok {
		return i
	}
	k := r.skip(end, setOf(",", "and", "or", "else", "otherwise", ";"))
	no, ok := flagValue(r.word(k))
	if !ok || no == yes {
		return i
	}
	k = r.skip(k+1, setOf("otherwise", "else", "if", "not", "for", "all", "other", "rows", "cases"))
	py, how := c.py(), c.said()
	if yes == "0" || yes == "False" {
		py, how = "~"+py, "not ("+how+")"
	}
	kind := "num"
	py = "(" + py + ").astype(int)"
	if yes == "True" || yes == "False" {
		py = "(" + strings.TrimSuffix(strings.TrimPrefix(py, "("), ").astype(int)") + ")"
		kind = "cat"
	}
	d := derivation{Name: w.s, Kind: kind, How: flagHow(yes, how), Sources: []string{c.col}, Py: py, Flag: kind == "num"}
	return r.derive(start, k, d)
}

// readLabelFlag reads a column of two labels defined by a condition, the first label at j:
// 'performance that is "High" if math_score is above the mean math_score and "Low" otherwise'.
func (r *clauseReader) readLabelFlag(start, i, j int) int {
	if !r.is(j+1, "if", "when", "where", "for") {
		return i
	}
	c, end, ok := r.flagCond(j + 2)
	if !ok {
		return i
	}
	k := r.skip(end, setOf(",", "and", "or", "else", "otherwise", ";"))
	if k >= len(r.ws) || !r.ws[k].quoted || r.ws[k].s == r.ws[j].s {
		return i
	}
	yes, no := r.ws[j].s, r.ws[k].s
	k = r.skip(k+1, setOf("otherwise", "else", "if", "not", "for", "all", "other", "rows", "cases"))
	d := derivation{Name: r.ws[i].s, Kind: "cat", How: fmt.Sprintf("%q where %s, else %q", yes, c.said(), no), Sources: []string{c.col},
		Py: fmt.Sprintf("np.where(%s, %s, %s)", c.py(), strconv.Quote(yes), strconv.Quote(no)), Labels: []string{yes, no}}
	return r.derive(start, k, d)
}

// flagHow says a flag column's definition.
func flagHow(yes, cond string) string {
	if yes == "True" || yes == "False" {
		return "True where " + cond + ", else False"
	}
	return "1 where " + cond + ", else 0"
}

// flagValue reads the value a flag takes: 1 or 0, True or False, yes or no.
func flagValue(w string) (string, bool) {
	switch w {
	case "1", "one":
		return "1", true
	case "0", "zero":
		return "0", true
	case "true", "yes":
		return "True", true
	case "false", "no":
		return "False", true
	}
	return "", false
}

// flagCond is the condition of a flag: a column compared with a number or with a statistic of
// a column ("above the mean math_score"), or equal to a value.
type flagCond struct {
	col, op, value string
	numeric        bool
	// of is the column of a statistic compared with, and value the statistic: "mean".
	of string
}

func (c flagCond) py() string {
	v := c.value
	switch {
	case c.of != "":
		v = col(c.of) + "." + c.value + "()"
	case !c.numeric:
		v = strconv.Quote(c.value)
	}
	return col(c.col) + " " + c.op + " " + v
}

func (c flagCond) said() string {
	words := map[string]string{"==": "is", "!=": "is not", ">": "is above", ">=": "is at least", "<": "is below", "<=": "is at most"}
	if c.of != "" {
		return c.col + " " + words[c.op] + " the " + aggWord[c.value] + " of " + c.of
	}
	return c.col + " " + words[c.op] + " " + c.value
}

// statisticAt reads "the mean math_score", "the average of math_score", "its median" at k:
// the statistic, its column (the condition's own when none is named) and the index after.
func (r *clauseReader) statisticAt(k int, own string) (agg, of string, end int) {
	k = r.skip(k, setOf("the", "its", "their", "overall", "column"))
	agg = map[string]string{"mean": "mean", "average": "mean", "avg": "mean", "median": "median"}[r.word(k)]
	if agg == "" {
		return "", "", k
	}
	k = r.skip(k+1, setOf("of", "the"))
	if c, e := r.column(k); c != "" {
		return agg, c, e
	}
	return agg, own, k
}

// flagCond reads "quality is at least 7", "FamilySize == 1", "sex is female", "Age < 18".
func (r *clauseReader) flagCond(i int) (flagCond, int, bool) {
	name, k := r.column(r.skip(i, setOf("the")))
	if name == "" {
		return flagCond{}, i, false
	}
	c := flagCond{col: name}
	at := k
	for n := 1; n <= 6 && at+n < len(r.ws) && !r.ws[at+n-1].num; n++ {
		// the longest run of words that is a comparison and is followed by its value: "is
		// greater than or equal to 7", not "is greater than" before "or"
		next := r.ws[at+n]
		if op := comparisonOpEnding(strings.ToLower(r.span(at, at+n))); op != "" && (next.num || r.is(at+n, "-") || !isOp(next.low) && !r.is(at+n, "or", "equal", "to", "than")) {
			c.op, k = op, at+n
		}
	}
	if c.op == "" && r.is(k, "is", "equals", "=", "==") {
		c.op, k = "==", k+1
	}
	if c.op == "" || k >= len(r.ws) {
		return flagCond{}, i, false
	}
	if agg, of, e := r.statisticAt(k, name); agg != "" && c.op != "==" && c.op != "!=" && numericColumn(r.p, of) {
		c.value, c.of, c.numeric = agg, of, true
		return c, e, true
	}
	w := r.ws[k]
	switch {
	case w.num:
		c.value, c.numeric = w.low, true
	case r.is(k, "-") && k+1 < len(r.ws) && r.ws[k+1].num && r.ws[k+1].at == w.end:
		c.value, c.numeric, k = "-"+r.ws[k+1].low, true, k+1
	case c.op == "==" || c.op == "!=":
		c.value = w.s
	default:
		return flagCond{}, i, false
	}
	return c, k + 1, true
}

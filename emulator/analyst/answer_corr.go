package analyst

import (
	"fmt"
	"math"
	"strings"
)

func corrSentence(m marker) string {
	r, _ := m.num("r")
	return fmt.Sprintf("The "+methodName(m.str("method"))+" correlation between `%s` and `%s` is **%s** over %s rows — %s.", m.str("a"), m.str("b"), fmtCorr(r), m.str("n"), corrWords(r))
}

func fmtCorr(r float64) string { return fmt.Sprintf("%.3f", r) }

// corrWords names the strength of a correlation.
func corrWords(r float64) string {
	a := math.Abs(r)
	dir := "positive"
	if r < 0 {
		dir = "negative"
	}
	switch {
	case a >= 0.7:
		return "a strong " + dir + " relationship"
	case a >= 0.4:
		return "a moderate " + dir + " relationship"
	case a >= 0.2:
		return "a weak " + dir + " relationship"
	}
	return "little or no linear relationship"
}

// corrWithSentence names the column most strongly correlated with one column, then the others.
func corrWithSentence(m marker) string {
	items := m.list("items")
	first, ok := firstItem(items)
	if !ok {
		return fmt.Sprintf("No other number column has a correlation with `%s`.", m.str("col"))
	}
	var rest []string
	for _, it := range items[1:min(len(items), 8)] {
		if p, _ := it.([]any); len(p) == 2 {
			rest = append(rest, fmt.Sprintf("`%s` %s", fmtAny(p[0]), fmtCorr(numOf(p[1]))))
		}
	}
	s := fmt.Sprintf("**`%s`** has the strongest %s correlation with `%s`: r = **%s** (%s).", fmtAny(first[0]), methodName(m.str("method")), m.str("col"), fmtCorr(numOf(first[1])), corrWords(numOf(first[1])))
	if len(rest) > 0 {
		s += " Then: " + strings.Join(rest, ", ") + "."
	}
	return s
}

func corrMatrixSentence(m marker) string {
	var parts []string
	for _, it := range m.list("strongest") {
		if r, _ := it.([]any); len(r) == 3 {
			parts = append(parts, fmt.Sprintf("`%s`–`%s` %s", fmtAny(r[0]), fmtAny(r[1]), fmtCorr(numOf(r[2]))))
		}
	}
	return fmt.Sprintf("Correlations among %d numeric columns. Strongest pairs: %s.", len(m.list("cols")), strings.Join(parts, ", "))
}

func scatterSentence(m marker) string {
	r, _ := m.num("r")
	s := fmt.Sprintf("`%s` against `%s` over %s rows: correlation %s (%s).", m.str("y"), m.str("x"), m.str("n"), fmtCorr(r), corrWords(r))
	if m["trend"] == true {
		s += fmt.Sprintf(" Trend line: y = %s·x + %s.", m.str("slope"), m.str("intercept"))
	}
	return s
}

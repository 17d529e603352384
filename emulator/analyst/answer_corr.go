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

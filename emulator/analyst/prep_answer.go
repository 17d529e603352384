package analyst

import (
	"fmt"
	"strconv"
	"strings"
)

// The sentences of the preparation markers, said after the answer, and the lines a question's
// refinements add: the answer rounded as asked first, the format line last.

// isPrepKind reports whether a marker kind tells how the data were prepared.
func isPrepKind(kind string) bool { return kind == "prep" || kind == "derived" }

// prepSentence says what one preparation step did.
func prepSentence(m marker) string {
	if m.str("kind") == "derived" {
		return derivedSentence(m)
	}
	switch m.str("step") {
	case "dedupe":
		return fmt.Sprintf("Removed duplicate rows first: %s of %s rows were duplicates, %s remain.", fmtNum(numOr(m, "before")-numOr(m, "after")), m.str("before"), m.str("after"))
	case "dropna":
		where := "a missing value in any column"
		if cols := m.list("cols"); len(cols) > 0 {
			where = "a missing value in " + codeList(cols)
		}
		return fmt.Sprintf("Dropped the %s rows with %s first: %s of %s rows remain.", fmtNum(numOr(m, "before")-numOr(m, "after")), where, m.str("after"), m.str("before"))
	case "fill":
		how := map[string]string{"mean": "its mean", "median": "its median", "mode": "its most frequent value", "value": "the value"}[m.str("how")]
		return fmt.Sprintf("Filled the %s missing values of `%s` with %s, %s.", m.str("n"), m.str("col"), how, fmtAny(m["value"]))
	case "scale":
		if m.str("how") == "z" {
			return fmt.Sprintf("Standardized `%s` to z-scores: (x − %s) / %s, its mean and standard deviation.", m.str("col"), m.str("a"), m.str("b"))
		}
		return fmt.Sprintf("Scaled `%s` to 0–1 (min-max): (x − %s) / (%s − %s).", m.str("col"), m.str("a"), m.str("b"), m.str("a"))
	case "log":
		return logSentence(m)
	case "trim":
		return trimSentence(m)
	case "trimmed":
		return fmt.Sprintf("%s of %s rows remain after removing the outliers.", m.str("after"), m.str("before"))
	case "label":
		return fmt.Sprintf("Encoded `%s` as numbers: %s.", m.str("col"), codePairs(m.list("codes")))
	case "onehot":
		return fmt.Sprintf("One-hot encoded `%s` into %d columns (%s); the table now has %s columns.", m.str("col"), len(m.list("added")), codeList(m.list("added")), m.str("cols"))
	}
	return ""
}

// derivedSentence says how a derived column was made, and what it holds.
func derivedSentence(m marker) string {
	s := fmt.Sprintf("Derived `%s` = %s", m.str("name"), m.str("how"))
	if counts := m.list("counts"); len(counts) > 0 {
		return s + ": " + pairs(counts, 12) + " rows."
	}
	return s + fmt.Sprintf(" (%s values, mean %s).", m.str("n"), m.str("mean"))
}

func numOr(m marker, k string) float64 { v, _ := m.num(k); return v }

func codeList(items []any) string {
	var parts []string
	for _, it := range items {
		parts = append(parts, "`"+fmtAny(it)+"`")
	}
	return strings.Join(parts, ", ")
}

func codePairs(items []any) string {
	var parts []string
	for _, it := range items {
		if p, _ := it.([]any); len(p) == 2 {
			parts = append(parts, fmt.Sprintf("%s = %s", fmtAny(p[0]), fmtAny(p[1])))
		}
	}
	return strings.Join(parts, ", ")
}

// refinedLead is the answer rounded as asked, said before everything else.
func refinedLead(q *Query, ms []marker) string {
	if q.refine.Round < 0 {
		return ""
	}
	return roundedLead(answerValues(ms), q.refine.Round)
}

// refinedTail says how the data were prepared, then ends with the format line asked.
func refinedTail(q *Query, ms []marker) string {
	var b strings.Builder
	for _, m := range ms {
		if isPrepKind(m.str("kind")) {
			if s := prepSentence(m); s != "" {
				b.WriteString(s + "\n\n")
			}
		}
	}
	vals := answerValues(ms)
	if sign := signLabel(q.refine.Format, q.refine.FormatNote, vals); sign != "" {
		vals = append(vals, named("direction", sign, "direction", "sign", "positive", "negative", "label", "type", "relationship"))
	}
	if len(q.refine.Labels) > 0 {
		label, why, ok := labelValue(q.refine.Labels, formatOptions(q.refine.FormatNote), vals)
		if !ok {
			b.WriteString("The rules given to name the answer read values this answer does not compute (the p-value or the coefficient r of a test), so no rule was applied.\n\n")
		} else {
			b.WriteString(labelSentence(label, why) + "\n\n")
			vals = append(vals, named("label", label, labelKeys...))
		}
	}
	if q.refine.Format != "" {
		b.WriteString(formatLine(q.refine.Format, q.refine.FormatNote, vals, q.refine.Round) + "\n\n")
	}
	return b.String()
}

// logSentence says which logarithm a column took, and how many values had none.
func logSentence(m marker) string {
	fn := map[string]string{"log": "the natural logarithm", "log10": "the base-10 logarithm", "log1p": "the natural logarithm of 1 + x"}[m.str("how")]
	s := fmt.Sprintf("Took %s of `%s`", fn, m.str("col"))
	if n := numOr(m, "n"); n > 0 {
		limit := map[bool]string{true: "−1", false: "0"}[m.str("how") == "log1p"]
		return s + fmt.Sprintf("; its %s values at or below %s have none and are left out.", fmtNum(n), limit)
	}
	return s + "."
}

// trimSentence says which rows of a column were removed as outliers, and by which rule.
func trimSentence(m marker) string {
	k := strconv.FormatFloat(numOr(m, "k"), 'g', -1, 64)
	rule := fmt.Sprintf("outside Q1 − %s×IQR to Q3 + %s×IQR", k, k)
	if m.str("method") == "zscore" {
		rule = fmt.Sprintf("|z| > %s, the z-scores with the population standard deviation as scipy.stats.zscore computes them", k)
	}
	s := fmt.Sprintf("Removed the %s outliers of `%s` first (%s: %s to %s)", m.str("n"), m.str("col"), rule, fmtAny(m["low"]), fmtAny(m["high"]))
	if m["default"] == true {
		s += ", the usual 1.5×IQR rule as no rule was named"
	}
	if n := numOr(m, "missing"); n > 0 {
		s += fmt.Sprintf(", and the %s rows with no value", fmtNum(n))
	}
	return s + "."
}

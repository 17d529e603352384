package analyst

import (
	"slices"
	"strconv"
	"strings"
)

// Two preparations the long form asks before a statistic: removing outliers by a rule
// ("Calculate the mean charges after removing outliers using the IQR method") and a log
// transform ("Apply a natural log transformation to charges and calculate its skewness").

// trimSpec removes the rows whose value of a column is an outlier by a rule: "iqr" (outside
// Q1 − K×IQR to Q3 + K×IQR) or "zscore" (|z| > K, with the population standard deviation, as
// scipy.stats.zscore). No columns means the numeric columns the question measures.
type trimSpec struct {
	Cols     []string
	How      string
	K        float64
	Defaults bool // no rule was named: 1.5×IQR, said in the reply
}

// removeVerbs remove rows.
var removeVerbs = setOf("remove", "removing", "exclude", "excluding", "drop", "dropping", "discard", "discarding",
	"eliminate", "eliminating", "filter", "filtering", "trim", "trimming", "without")

// outlierWords name outliers.
var outlierWords = setOf("outliers", "outlier", "outlying", "extreme")

// trimRuleWords are the words of a rule for outliers after the clause's column: "using the IQR
// method", "(values more than 3 standard deviations from the mean)", "with a z-score above 3",
// "defined as values beyond 1.5 times the IQR".
var trimRuleWords = setOf("using", "based", "on", "with", "by", "via", "according", "to", "the", "a", "an", "iqr",
	"interquartile", "range", "method", "rule", "approach", "criterion", "z-score", "z-scores", "zscore", "zscores",
	"z", "score", "scores", "threshold", "of", "standard", "deviation", "deviations", "sd", "sds", "sigma", "std",
	"times", "x", "×", "*", "from", "mean", "(", ")", "|", ">", "<", "=", "greater", "than", "above", "more", "beyond",
	"outside", "exceeding", "exceed", "exceeds", "below", "less", "or", "and", "q1", "q3", "first", "third",
	"quartile", "quartiles", "-", "+", "−", "whose", "that", "are", "is", "values", "value", "rows", "points", "data",
	"absolute", "defined", "as", "where", "which", "have", "has", "having", "lie", "lies", "fall", "falls", "away",
	",", "its", "their", "any", "all", "outliers", "outlier", "observations", "entries", "records", "in", "column",
	"columns", "multiplier", "k", "fences", "fence", "lower", "upper", "bound", "bounds")

// readTrim reads "removing outliers (from charges) using the IQR method", "exclude outliers
// (|z| > 3) in price", "filter out the outliers of Fare, defined as values more than 3
// standard deviations from the mean". A question that still asks about outliers after the
// clause ("remove outliers … how many outliers were removed?") is left to the outlier rules.
func (r *clauseReader) readTrim(i int) int {
	if !removeVerbs[r.word(i)] {
		return i
	}
	j := r.skip(i+1, setOf("out", "the", "any", "all", "potential", "possible"))
	cols, k := r.columnList(j) // "remove charges outliers"
	if !outlierWords[r.word(k)] {
		return i
	}
	j = r.skip(k+1, setOf("values", "rows", "points", "observations", "data", "entries", "records"))
	if len(cols) == 0 && r.is(j, "from", "in", "of", "for") {
		if c, e := r.columnList(r.skip(j+1, setOf("the"))); len(c) > 0 {
			cols, j = c, r.skip(e, setOf("column", "columns", "values"))
		}
	}
	end := r.trimRule(j)
	if len(cols) == 0 {
		// "… using the z-score of price": the column can come inside the rule.
		for k := j; k < end; k++ {
			if c, e := r.columnList(k); len(c) > 0 {
				cols, k = c, e
			}
		}
	}
	if r.mentionsOutliersBeyond(end) {
		return i
	}
	spec := r.trimMethod(j, end)
	spec.Cols = cols
	r.ref.Trims = append(r.ref.Trims, spec)
	start := r.lead(i)
	if r.is(start-1, "after", "once") {
		start--
	}
	r.edit(start, r.trail(end), "")
	return end
}

// trimRule moves past the rule's words from j, and back off the joining words it took.
func (r *clauseReader) trimRule(j int) int {
	end := j
	for end < len(r.ws) && (trimRuleWords[r.word(end)] || r.ws[end].num || r.column1(end)) {
		end++
	}
	for end > j && (r.is(end-1, "and", "or", "the", "a", "of", "to", "with", "by", ",", "that", "is", "are", "which", "in", "(", "on") ||
		r.is(end-1, "mean") && !r.is(end-2, "the") && !r.is(end-3, "from")) {
		end--
	}
	opens := 0
	for k := j; k < end; k++ {
		if r.is(k, "(") {
			opens++
		} else if r.is(k, ")") {
			opens--
		}
	}
	if opens < 0 && r.is(end-1, ")") {
		end-- // the clause sat inside parentheses of the question: keep its closing one
	}
	return end
}

// column1 reports whether a column's name starts at k.
func (r *clauseReader) column1(k int) bool {
	c, _ := r.column(k)
	return c != ""
}

// mentionsOutliersBeyond reports whether the question names outliers again after the clause.
func (r *clauseReader) mentionsOutliersBeyond(end int) bool {
	for k := end; k < len(r.ws); k++ {
		if r.is(k, "outliers", "outlier") {
			return true
		}
	}
	return false
}

// trimMethod reads the rule's method and multiple in words [from, to): the IQR's 1.5 unless
// another multiple is typed, a z-score's 3.
func (r *clauseReader) trimMethod(from, to int) trimSpec {
	spec := trimSpec{How: "iqr", K: 1.5, Defaults: true}
	for k := from; k < to; k++ {
		switch {
		case r.is(k, "iqr", "interquartile", "quartile", "quartiles", "q1", "q3"):
			spec.How, spec.Defaults = "iqr", false
		case r.is(k, "z-score", "z-scores", "zscore", "zscores", "z", "standard", "sd", "sds", "sigma", "std"):
			if spec.Defaults || spec.How != "zscore" {
				spec.How, spec.K, spec.Defaults = "zscore", 3, false
			}
		}
	}
	for k := from; k < to; k++ {
		if r.ws[k].num && !r.is(k-1, "q", "-") {
			if v, err := strconv.ParseFloat(r.word(k), 64); err == nil && v > 0 && v <= 10 && !spec.Defaults {
				spec.K = v
				break
			}
		}
	}
	return spec
}

// logWords name a logarithm.
var logWords = setOf("log", "logarithm", "logarithmic", "ln", "log10", "log-transform", "log-transformation", "log1p")

// readLog reads a log transform of columns: "apply a natural log transformation to charges",
// "log-transform price", "take the logarithm of Fare", "log transform the Income column". The
// clause becomes the columns' names, so that the statistic asked is of the logged values.
func (r *clauseReader) readLog(i int) int {
	if r.is(i, "log-transformed", "logged", "log-scaled") {
		return r.readLogged(i)
	}
	j := i
	if r.is(j, "apply", "applying", "take", "taking", "perform", "performing", "compute", "calculate", "use", "using") {
		j = r.skip(j+1, setOf("a", "an", "the"))
	}
	j = r.skip(j, setOf("natural", "base-10", "base", "10", "e"))
	if !logWords[r.word(j)] || j == i && !r.is(j, "log-transform", "log") {
		return i
	}
	how := "log"
	switch {
	case r.is(j, "log10") || r.is(j-1, "base-10", "10"):
		how = "log10"
	case r.is(j, "log1p") || r.is(j+1, "(") && r.is(j+3, "+") && r.is(j+4, "1"):
		how = "log1p"
	}
	j = r.skip(j+1, setOf("transform", "transformation", "transformed", "transforming", "function", "scale", "values"))
	j = r.skip(j, setOf("to", "of", "on", "for", "the"))
	cols, end := r.columnList(j)
	if len(cols) == 0 {
		return i
	}
	end = r.skip(end, setOf("column", "columns", "values", "variable"))
	r.ref.Scales = append(r.ref.Scales, scaleSpec{Cols: cols, How: how})
	r.edit(r.lead(i), r.trail(end), strings.Join(cols, " and "))
	return end
}

// readLogged reads "the log-transformed charges" (a log transform of the column named) and
// "the logged values" after a transform (the column just transformed).
func (r *clauseReader) readLogged(i int) int {
	cols, end := r.columnList(r.skip(i+1, setOf("the")))
	if len(cols) == 0 {
		if len(r.ref.Scales) == 0 {
			return i
		}
		r.edit(i, i+1, "")
		return i + 1
	}
	if !slices.ContainsFunc(r.ref.Scales, func(s scaleSpec) bool { return slices.Equal(s.Cols, cols) }) {
		r.ref.Scales = append(r.ref.Scales, scaleSpec{Cols: cols, How: "log"})
	}
	r.edit(i, i+1, "")
	return end
}

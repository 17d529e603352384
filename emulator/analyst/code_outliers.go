package analyst

import (
	"strconv"
)

// The cells of outliers found by the rule the question names: a z-score or IQR multiple, or
// percentile bounds. With no rule named, the 1.5×IQR cell of code_corr.go runs as before.

func (g *gen) outliersAsked() {
	s := &g.q.stat
	if s.outlier == "" {
		g.outliers()
		return
	}
	g.prelude()
	g.outlierBounds()
	ms := nonIDs(g.f, g.numericMeasures())
	if len(ms) == 0 {
		g.line("counts = {}")
		g.line("for c in %s:", pyList(numericColumns(g.f)))
		g.line("    low, high, score = _bounds(df[c])")
		g.line("    counts[c] = int(((df[c] < low) | (df[c] > high)).sum())")
		g.line("result = pd.Series(counts, name=\"outliers\").sort_values(ascending=False)")
		g.line("print(result.to_string())")
		g.line("_emit(\"outliercountsby\", counts=counts, rows=len(df), %s)", g.ruleFields())
		g.exportResult("outlier_counts")
		return
	}
	for _, m := range ms {
		g.line("s = %s", col(m))
		g.line("low, high, score = _bounds(s)")
		g.line("mask = (s < low) | (s > high)")
		if s.outlier == "zscore" {
			g.line("result = df[mask].assign(z_score=score[mask].round(2))")
			g.line("result = result.loc[score[mask].abs().sort_values(ascending=False).index]")
		} else {
			g.line("result = df[mask].sort_values(%s, ascending=False)", py(m))
		}
		g.line("print(len(result), \"outliers outside\", low, \"to\", high)")
		g.line("print(result.head(20).to_string())")
		g.line("_emit(\"outliersby\", col=%s, n=len(result), low=float(low), high=float(high), rows_total=int(s.notna().sum()), %s, %s, **_rows(result, 10, %s))",
			py(m), g.ruleFields(), outlierSpanArgs, g.outlierCols(m))
		g.exportResult(m + "_outliers")
	}
}

// outlierBounds writes _bounds(s): the low and high limits of the rule, and the z-scores for
// the z rule (population standard deviation, as scipy.stats.zscore computes them).
func (g *gen) outlierBounds() {
	s := &g.q.stat
	k := strconv.FormatFloat(s.k, 'g', -1, 64)
	g.line("def _bounds(s):")
	switch s.outlier {
	case "zscore":
		g.line("    mean, sd = s.mean(), s.std(ddof=0)")
		low, high := "mean - "+k+" * sd", "mean + "+k+" * sd"
		switch s.zSide {
		case "above":
			low = "-np.inf"
		case "below":
			high = "np.inf"
		}
		g.line("    return %s, %s, (s - mean) / sd", low, high)
	case "iqr":
		g.line("    q1, q3 = s.quantile([0.25, 0.75])")
		g.line("    return q1 - %s * (q3 - q1), q3 + %s * (q3 - q1), None", k, k)
	case "percentile":
		lo, hi := strconv.FormatFloat(s.lowPct/100, 'g', -1, 64), strconv.FormatFloat(s.highPct/100, 'g', -1, 64)
		g.line("    low = s.quantile(%s) if %s > 0 else -np.inf", lo, lo)
		g.line("    high = s.quantile(%s) if %s < 1 else np.inf", hi, hi)
		g.line("    return low, high, None")
	}
}

// ruleFields are the marker fields naming the rule, for the sentence.
func (g *gen) ruleFields() string {
	s := &g.q.stat
	return "method=" + py(s.outlier) + ", k=" + strconv.FormatFloat(s.k, 'g', -1, 64) +
		", low_pct=" + strconv.FormatFloat(s.lowPct, 'g', -1, 64) + ", high_pct=" + strconv.FormatFloat(s.highPct, 'g', -1, 64) +
		", default=" + pyBool(s.defaultK) + ", side=" + py(s.zSide)
}

// outlierCols picks the columns of the rows quoted: the table's own choice, with the z-score.
func (g *gen) outlierCols(m string) string {
	if g.q.stat.outlier != "zscore" {
		return g.tableCols()
	}
	cols := []string{m, "z_score"}
	for _, c := range columnNames(g.f) {
		if len(cols) < maxTableCols && !contains(cols, c) {
			cols = append(cols, c)
		}
	}
	return pyList(cols)
}

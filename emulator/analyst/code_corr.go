package analyst

// The cells that look at how columns relate and at what stands out.

func (g *gen) corr() {
	g.prelude()
	ms := g.numericMeasures()
	if len(ms) == 2 && len(g.q.By) == 1 && g.q.Chart != "heatmap" {
		g.corrBy(ms[0], ms[1], g.q.By[0])
		return
	}
	if len(ms) == 2 && g.q.Chart != "heatmap" {
		a, b := ms[0], ms[1]
		g.line("pair = df[[%s, %s]].dropna()", py(a), py(b))
		g.line("r = pair[%s].corr(pair[%s], method=%s)", py(a), py(b), py(g.corrMethod()))
		g.line("print(%s, round(r, 4), \"over\", len(pair), \"rows\")", py(methodName(g.corrMethod())+" r ="))
		if g.q.refine.Format != "" {
			// a format may ask for the p-value beside r: SciPy's test of the same coefficient
			g.line("import scipy.stats as sps")
			g.line("p = float(sps.%s(pair[%s], pair[%s])[1]) if len(pair) > 2 else float(\"nan\")", map[string]string{"pearson": "pearsonr", "spearman": "spearmanr", "kendall": "kendalltau"}[g.corrMethod()], py(a), py(b))
			g.line("_emit(\"corr\", a=%s, b=%s, r=r, p=p, n=len(pair), method=%s)", py(a), py(b), py(g.corrMethod()))
		} else {
			g.line("_emit(\"corr\", a=%s, b=%s, r=r, n=len(pair), method=%s)", py(a), py(b), py(g.corrMethod()))
		}
		g.line("result = pair.corr()")
		g.exportResult("correlation_" + a + "_" + b)
		return
	}
	cols := pyList(ms)
	if len(ms) < 2 {
		cols = pyList(numericColumns(g.f))
	}
	if len(ms) == 1 && g.q.Chart != "heatmap" {
		// "which feature correlates most with quality": every other number column against it
		g.line("result = df[%s].corr(method=%s)[%s].drop(%s).dropna()", cols, py(g.corrMethod()), py(ms[0]), py(ms[0]))
		g.line("result = result.reindex(result.abs().sort_values(ascending=False).index)")
		g.line("print(result.round(3).to_string())")
		g.line("_emit(\"corrwith\", col=%s, method=%s, items=[[k, float(v)] for k, v in result.items()])", py(ms[0]), py(g.corrMethod()))
		g.exportResult("correlations_with_" + ms[0])
		return
	}
	g.line("result = df[%s].corr(method=%s)", cols, py(g.corrMethod()))
	g.line("print(result.round(3).to_string())")
	g.line("pairs = result.where(np.triu(np.ones(result.shape, dtype=bool), k=1)).stack()")
	g.line("strong = pairs.reindex(pairs.abs().sort_values(ascending=False).index).head(3)")
	g.line("_emit(\"corrmatrix\", cols=list(result.columns), strongest=[[a, b, r] for (a, b), r in strong.items()])")
	if g.q.Chart == "heatmap" || g.q.kwHas("plot") || g.q.kwHas("heatmap") || g.q.kwHas("matrix") {
		g.heatmapOf("result", "Correlation matrix of "+baseStem(g.f), "correlation_heatmap_"+baseStem(g.f), true)
	}
	g.exportResult("correlation_matrix_" + baseStem(g.f))
}

// corrBy gives the correlation of two columns within each group of a third ("the Pearson
// correlation between study_hours and math_score for each gender"), with SciPy's p-value.
func (g *gen) corrBy(a, b, by string) {
	fn := map[string]string{"pearson": "pearsonr", "spearman": "spearmanr", "kendall": "kendalltau"}[g.corrMethod()]
	g.line("import scipy.stats as sps")
	g.line("rows = []")
	g.line("for key, part in df[[%s, %s, %s]].dropna().groupby(%s):", py(a), py(b), py(by), py(by))
	g.line("    r, p = (float(x) for x in sps.%s(part[%s], part[%s])) if len(part) > 2 else (float(\"nan\"), float(\"nan\"))", fn, py(a), py(b))
	g.line("    rows.append([key, r, p, len(part)])")
	g.line("result = pd.DataFrame(rows, columns=[%s, \"r\", \"p\", \"n\"]).set_index(%s)", py(by), py(by))
	g.line("print(result.round(4).to_string())")
	g.line("_emit(\"corrby\", a=%s, b=%s, by=%s, method=%s, items=rows)", py(a), py(b), py(by), py(g.corrMethod()))
	g.exportResult("correlation_" + a + "_" + b + "_by_" + by)
}

// numericMeasures keeps the numeric measures of the query.
func (g *gen) numericMeasures() []string {
	var out []string
	for _, m := range g.q.Measures {
		if c := g.f.column(m); c != nil && c.Kind == "num" {
			out = append(out, m)
		}
	}
	return out
}

func (g *gen) outliers() {
	g.prelude()
	ms := g.numericMeasures()
	if len(ms) == 0 {
		g.line("counts = {}")
		g.line("for c in %s:", pyList(numericColumns(g.f)))
		g.line("    q1, q3 = df[c].quantile([0.25, 0.75])")
		g.line("    counts[c] = int(((df[c] < q1 - 1.5 * (q3 - q1)) | (df[c] > q3 + 1.5 * (q3 - q1))).sum())")
		g.line("result = pd.Series(counts, name=\"outliers\").sort_values(ascending=False)")
		g.line("print(result.to_string())")
		g.line("_emit(\"outliercounts\", counts=counts, rows=len(df))")
		g.exportResult("outlier_counts")
		return
	}
	m := ms[0]
	g.line("s = %s", col(m))
	g.line("q1, q3 = s.quantile([0.25, 0.75])")
	g.line("low, high = q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1)")
	g.line("result = df[(s < low) | (s > high)].sort_values(%s, ascending=False)", py(m))
	g.line("print(len(result), \"outliers outside\", round(low, 2), \"to\", round(high, 2))")
	g.line("print(result.head(20).to_string())")
	g.line("_emit(\"outliers\", col=%s, n=len(result), low=low, high=high, rows_total=int(s.notna().sum()), %s, **_rows(result, 8, %s))", py(m), outlierSpanArgs, g.tableCols())
	g.exportResult(m + "_outliers")
}

// outlierSpanArgs are the marker fields of the outliers' range on each side of the bounds, or
// None where none lie: the reply quotes them instead of repeating the rows.
const outlierSpanArgs = `above=[float(s[s > high].min()), float(s[s > high].max())] if (s > high).any() else None, ` +
	`below=[float(s[s < low].min()), float(s[s < low].max())] if (s < low).any() else None`

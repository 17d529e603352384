package analyst

// growthColumns ranks several columns by their change from the first to the last point of the
// time axis: "which field grew the most" in a wide year-by-field table.
func (g *gen) growthColumns(d string) {
	ms := g.numericMeasures()
	span := "(s.index[-1] - s.index[0]).days / 365.25"
	if g.yearNumbers(d) {
		span = "s.index[-1] - s.index[0]"
	}
	g.line("t = df.dropna(subset=[%s]).sort_values(%s).set_index(%s)", py(d), py(d), py(d))
	g.line("rows = []")
	g.line("for c in %s:", pyList(ms))
	g.line("    s = t[c].dropna()")
	g.line("    if len(s) < 2 or not s.iloc[0]:")
	g.line("        continue")
	g.line("    years = max(%s, 1e-9)", span)
	g.line("    ratio = s.iloc[-1] / s.iloc[0]")
	g.line("    rows.append({\"name\": c, \"first_date\": s.index[0], \"first\": s.iloc[0], \"last_date\": s.index[-1], \"last\": s.iloc[-1], \"pct\": (ratio - 1) * 100, \"cagr\": (ratio ** (1 / years) - 1) * 100 if ratio > 0 else None})")
	g.line("rows.sort(key=lambda r: -r[\"pct\"])")
	g.line("result = pd.DataFrame(rows).set_index(\"name\")")
	g.line("print(result.round(3).to_string())")
	g.line("_emit(\"growth\", col=%s, items=rows, ranked=True)", py("every column"))
	g.exportResult("growth_by_column")
}

// returns answers "daily returns": the change from each row to the next (pct_change), with
// its mean, its spread (volatility), the best and worst step, and the compounded total.
func (g *gen) returns(m, d string) {
	keys := g.seriesKeys()
	g.line("t = df.dropna(subset=[%s]).sort_values(%s)", py(m), py(d))
	if keys != "" {
		g.line("t[\"return_pct\"] = t.groupby(%s)[%s].pct_change() * 100", keys, py(m))
	} else {
		g.line("t[\"return_pct\"] = t[%s].pct_change() * 100", py(m))
	}
	g.line("r = t.dropna(subset=[\"return_pct\"])")
	g.line("best, worst = r.loc[r[\"return_pct\"].idxmax()], r.loc[r[\"return_pct\"].idxmin()]")
	g.line("total = ((1 + r[\"return_pct\"] / 100).prod() - 1) * 100")
	g.line("result = t")
	g.line("print(r[[%s, %s, \"return_pct\"]].round(3).tail(10).to_string(index=False))", py(d), py(m))
	g.line("_emit(\"returns\", col=%s, n=len(r), mean=r[\"return_pct\"].mean(), std=r[\"return_pct\"].std(), best=best[\"return_pct\"], best_date=best[%s], worst=worst[\"return_pct\"], worst_date=worst[%s], total=total)",
		py(m), py(d), py(d))
	g.exportResult(m + "_returns")
}

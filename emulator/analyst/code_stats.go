package analyst

import (
	"fmt"
	"strconv"
	"strings"
)

// The cells of the computing intents: aggregates, peaks, rankings, periods, growth, correlation
// and outliers.

// aggOf is the query's aggregation, or the natural one for the column.
func (g *gen) aggOf(m string) string {
	if g.q.Agg != "" {
		return g.q.Agg
	}
	return defaultAgg(m)
}

// definedAggs are the statistics pandas has no method for, as the Python a cell defines them by.
var definedAggs = map[string]string{
	"iqr":      "s.quantile(0.75) - s.quantile(0.25)",
	"valrange": "s.max() - s.min()",
	"cv":       "s.std() / s.mean()",
	"flagpct":  "100 * s.mean()",
	"meanad":   "(s - s.mean()).abs().mean()",
	"medad":    "(s - s.median()).abs().median()",
}

func (g *gen) stat() {
	g.prelude()
	if len(g.q.By) > 0 {
		g.groupStat(g.q.Measures[0])
		return
	}
	for _, agg := range append([]string{g.q.Agg}, g.q.Aggs...) {
		if def, ok := definedAggs[agg]; ok {
			g.line("def %s(s):", agg) // named so, the summary table's row says which statistic
			g.line("    return %s", def)
		}
		if q, ok := quantileOf(agg); ok {
			g.line("def %s(s):", agg) // named so, the summary table's row says which quantile
			g.line("    return s.quantile(%s)", strconv.FormatFloat(q, 'g', -1, 64))
		}
		if g.population(agg) {
			g.line("def %s(s):", agg) // over the population, as the library asked computes it
			g.line("    return s.%s(ddof=0)", agg)
			g.q.Notes = appendNew(g.q.Notes, fmt.Sprintf("The %s is the population's (ddof = 0), as %s computes it by default; pandas divides by n − 1.", aggName(agg), g.q.refine.Library))
		}
	}
	for _, m := range g.numericMeasures() {
		for _, agg := range append([]string{g.aggOf(m)}, g.q.Aggs...) {
			if _, q := quantileOf(agg); definedAggs[agg] != "" || q || g.population(agg) {
				g.line("value = %s(%s)", agg, col(m))
			} else {
				g.line("value = %s.%s()", col(m), agg)
			}
			g.line("print(%s, value)", py(aggName(agg)+" of "+m+":"))
			g.line("_emit(\"stat\", col=%s, agg=%s, value=value, n=int(%s.notna().sum()))", py(m), py(agg), col(m))
		}
	}
	g.line("result = df[%s].agg([%s]).T", pyList(g.numericMeasures()), aggList(g))
	g.exportResult(strings.Join(g.q.Measures, "_") + "_summary")
}

func aggList(g *gen) string {
	seen := map[string]bool{}
	var out []string
	for _, m := range g.numericMeasures() {
		for _, a := range append([]string{g.aggOf(m)}, g.q.Aggs...) {
			switch {
			case seen[a]:
			case definedAggs[a] != "" || strings.HasPrefix(a, "q") && aggName(a) != "" || g.population(a):
				out = append(out, a) // the function the cell defined
			default:
				out = append(out, py(a))
			}
			seen[a] = true
		}
	}
	return strings.Join(out, ", ")
}

// population reports whether an aggregate is a spread computed over the population, as the
// library the question names computes it.
func (g *gen) population(agg string) bool {
	return (agg == "std" || agg == "var") && g.q.refine.populationStd()
}

// groupStat aggregates a measure by one or two keys, largest first.
func (g *gen) groupStat(m string) {
	agg := g.aggOf(m)
	call := agg + "()"
	switch {
	case g.population(agg):
		call = agg + "(ddof=0)"
	case definedAggs[agg] != "":
		call = "agg(lambda s: " + definedAggs[agg] + ")"
	}
	if len(g.q.By) == 2 {
		g.line("result = df.groupby(%s)[%s].%s.unstack()", pyList(g.q.By), py(m), call)
		g.line("print(result.round(2).to_string())")
		g.line("_emit(\"table\", title=%s, total=len(result), **_rows(result.round(2), 20))", py(aggTitle(agg, m)+" by "+g.q.By[0]+" and "+g.q.By[1]))
	} else {
		g.line("result = df.groupby(%s)[%s].%s.sort_values(ascending=%s)", py(g.q.By[0]), py(m), call, pyBool(g.q.flipped))
		g.versusOf(m, agg)
		g.line("_emit(\"group\", col=%s, agg=%s, by=%s, items=[[k, v] for k, v in result.head(25).items()], groups=len(result)%s)", py(m), py(agg), py(g.q.By[0]), g.whichArg())
	}
	g.exportResult(m + "_by_" + strings.Join(g.q.By, "_"))
	if len(g.q.By) != 2 {
		g.showRounded()
	}
}

func (g *gen) peak() {
	g.prelude()
	m, d := g.q.Measures[0], g.dateCol()
	fn, word := "idxmax", "max"
	if g.q.Bottom {
		fn, word = "idxmin", "min"
	}
	if len(g.q.By) > 0 {
		g.line("idx = df.groupby(%s)[%s].%s().dropna()", py(g.q.By[0]), py(m), fn)
		g.line("result = df.loc[idx.values, [%s, %s, %s]]", py(g.q.By[0]), py(d), py(m))
		g.line("print(result.to_string(index=False))")
		g.line("_emit(\"peaks\", col=%s, by=%s, date=%s, which=%s, items=result.values.tolist())", py(m), py(g.q.By[0]), py(d), py(word))
	} else {
		g.line("i = %s.%s()", col(m), fn)
		g.line("result = df.loc[[i]]")
		g.line("print(result.to_string(index=False))")
		g.line("_emit(\"peak\", col=%s, date=df.loc[i, %s], value=df.loc[i, %s], which=%s, row={k: v for k, v in df.loc[i].items() if df[k].dtype == object}, datecol=%s)",
			py(m), py(d), py(m), py(word), py(d))
	}
	g.exportResult(m + "_" + word)
}

// dateCol is the date column the query uses.
func (g *gen) dateCol() string {
	if g.q.DateCol != "" {
		return g.q.DateCol
	}
	return dateColumn(g.f)
}

func (g *gen) top() {
	g.prelude()
	n := g.q.N
	if n <= 0 {
		n = 10
	}
	fn := "nlargest"
	if g.q.Bottom {
		fn = "nsmallest"
	}
	if len(g.q.By) > 0 {
		m := g.q.Measures[0]
		agg := g.aggOf(m)
		g.line("result = df.groupby(%s)[%s].%s().%s(%d)", py(g.q.By[0]), py(m), agg, fn, n)
		g.line("print(result.round(2).to_string())")
		g.line("_emit(\"group\", col=%s, agg=%s, by=%s, items=[[k, v] for k, v in result.items()], groups=len(result), rank=%s)", py(m), py(agg), py(g.q.By[0]), py(fn))
		g.exportResult(fmt.Sprintf("%s_%d_%s_by_%s", map[bool]string{true: "bottom", false: "top"}[g.q.Bottom], n, g.q.By[0], m))
		return
	}
	m := g.q.Measures[0]
	g.line("result = df.%s(%d, %s)", fn, n, py(m))
	g.line("print(result.to_string())")
	g.line("_emit(\"table\", title=%s, total=len(df), key=%s, **_rows(result, %d, %s))", py(fmt.Sprintf("%s %d rows by %s", map[bool]string{true: "Bottom", false: "Top"}[g.q.Bottom], n, m)), py(m), min(n, 30), g.tableCols())
	g.exportResult(fmt.Sprintf("%s_%d_by_%s", map[bool]string{true: "bottom", false: "top"}[g.q.Bottom], n, m))
}

func (g *gen) pivot() {
	g.prelude()
	if len(g.q.Measures) == 0 || len(g.q.By) < 2 {
		by := append([]string{}, g.q.By...)
		for _, m := range g.q.Measures {
			if c := g.f.column(m); c != nil && c.Kind != "num" && len(by) < 2 {
				by = append(by, m)
			}
		}
		if len(by) == 2 && !g.q.numeric {
			g.line("result = pd.crosstab(%s, %s)", col(by[0]), col(by[1]))
			g.line("print(result.to_string())")
			g.line("_emit(\"table\", title=%s, total=len(result), **_rows(result, 20))", py("Counts of "+by[0]+" by "+by[1]))
			g.exportResult("pivot_" + by[0] + "_" + by[1])
			return
		}
	}
	m := g.q.Measures[0]
	agg := g.aggOf(m)
	cols := "None"
	if len(g.q.By) > 1 {
		cols = py(g.q.By[1])
	}
	g.line("result = pd.pivot_table(df, index=%s, columns=%s, values=%s, aggfunc=%s)", py(g.q.By[0]), cols, py(m), py(agg))
	g.line("print(result.round(2).to_string())")
	g.line("_emit(\"table\", title=%s, total=len(result), **_rows(result.round(2), 20))", py("Pivot of "+aggName(agg)+" "+m+" by "+strings.Join(g.q.By, " and ")))
	g.exportResult("pivot_" + m + "_by_" + strings.Join(g.q.By, "_"))
}

// pandasFreq maps a period to the pandas 1.5 alias.
var pandasFreq = map[string]string{"D": "D", "W": "W", "M": "M", "Q": "Q", "Y": "A"}

var periodWord = map[string]string{"D": "day", "W": "week", "M": "month", "Q": "quarter", "Y": "year",
	periodWeekday: "weekday", periodDecade: "decade"}

// resampled writes `result`: the measure aggregated per period (per group as columns).
func (g *gen) resampled(m, period string) string {
	d, agg := g.dateCol(), g.aggOf(m)
	if seasonal(period) || g.yearNumbers(d) {
		return g.grouped([]string{m}, d, period, agg)
	}
	freq := pandasFreq[period]
	if len(g.q.By) > 0 {
		g.line("result = df.groupby([pd.Grouper(key=%s, freq=%s), %s])[%s].%s().unstack()", py(d), py(freq), py(g.q.By[0]), py(m), agg)
	} else {
		g.line("result = df.set_index(%s)[%s].resample(%s).%s()", py(d), py(m), py(freq), agg)
	}
	g.line("result.index = result.index.to_period(%s).astype(str)", py(freq))
	return agg
}

// grouped writes `result`: the measure aggregated per weekday, decade, or year number.
func (g *gen) grouped(ms []string, d, period, agg string) string {
	key := g.periodKey(d, period)
	sel := py(ms[0])
	if len(ms) > 1 {
		sel = pyList(ms)
	}
	if len(g.q.By) > 0 {
		g.line("result = df.groupby([%s, %s])[%s].%s().unstack()", key, col(g.q.By[0]), py(ms[0]), agg)
	} else {
		g.line("result = df.groupby(%s)[%s].%s()", key, sel, agg)
	}
	g.orderWeekdays()
	return agg
}

// orderWeekdays puts a per-weekday result in calendar order; the others are sorted already.
func (g *gen) orderWeekdays() {
	if g.q.Period == periodWeekday {
		g.line("result = result.reindex([d for d in %s if d in result.index])", weekdayOrder)
	}
	g.line("result.index = result.index.astype(str)")
}

func (g *gen) resample() {
	g.prelude()
	m, agg := "rows", "count"
	if nums := g.numericMeasures(); len(nums) > 1 && (seasonal(g.q.Period) || g.yearNumbers(g.dateCol())) {
		m = "every column"
		agg = g.grouped(nums, g.dateCol(), g.q.Period, g.aggOf(nums[0]))
	} else if len(nums) > 0 {
		m = nums[0]
		agg = g.resampled(m, g.q.Period)
	} else if seasonal(g.q.Period) || g.yearNumbers(g.dateCol()) {
		g.line("result = df.groupby(%s).size().rename(\"rows\")", g.periodKey(g.dateCol(), g.q.Period))
		g.orderWeekdays()
	} else {
		freq := pandasFreq[g.q.Period]
		g.line("result = df.set_index(%s).resample(%s).size().rename(\"rows\")", py(g.dateCol()), py(freq))
		g.line("result.index = result.index.to_period(%s).astype(str)", py(freq))
	}
	title := fmt.Sprintf("%s %s of %s per %s", strings.ToUpper(agg[:1])+agg[1:], "", m, periodWord[g.q.Period])
	g.line("_emit(\"series\", col=%s, agg=%s, period=%s, title=%s, items=[[k, v] for k, v in result.round(4).items()] if result.ndim == 1 else [], lowest=%s, **_rows(result.round(2), 24))",
		py(m), py(agg), py(periodWord[g.q.Period]), py(strings.Join(strings.Fields(title), " ")), pyBool(g.q.Bottom && g.q.whenRow))
	g.exportResult(m + "_by_" + periodWord[g.q.Period])
	g.showRounded()
}

func (g *gen) growth() {
	g.prelude()
	m, d := g.q.Measures[0], g.dateCol()
	keys := g.seriesKeys()
	if g.q.returns {
		g.returns(m, d)
		return
	}
	if len(g.numericMeasures()) > 1 && keys == "" {
		g.growthColumns(d)
		return
	}
	if g.q.Period != "" {
		g.periodChange(m, d, keys)
		return
	}
	if dc := g.f.column(d); keys == "" && dc != nil && dc.Unique < g.f.Rows*9/10 && seriesColumn(g.f, d) == "" {
		// Many rows share a date (orders): compare months, not single rows.
		g.line("g = df.groupby(pd.Grouper(key=%s, freq=\"M\"))[%s].%s().reset_index()", py(d), py(m), g.aggOf(m))
		g.line("g[%s] = g[%s].dt.to_period(\"M\").dt.to_timestamp()", py(d), py(d))
	} else {
		g.line("g = df.dropna(subset=[%s]).sort_values(%s)", py(m), py(d))
	}
	if keys != "" {
		g.line("parts = g.groupby(%s)", keys)
	} else {
		g.line("parts = [(%s, g)]", py(m))
	}
	g.line("rows = []")
	g.line("for name, part in parts:")
	g.line("    first, last = part.iloc[0], part.iloc[-1]")
	if g.yearNumbers(d) {
		g.line("    years = max(last[%s] - first[%s], 1e-9)", py(d), py(d))
	} else {
		g.line("    years = max((last[%s] - first[%s]).days / 365.25, 1e-9)", py(d), py(d))
	}
	g.line("    pct = (last[%s] / first[%s] - 1) * 100 if first[%s] else None", py(m), py(m), py(m))
	g.line("    cagr = ((last[%s] / first[%s]) ** (1 / years) - 1) * 100 if first[%s] and last[%s] / first[%s] > 0 else None", py(m), py(m), py(m), py(m), py(m))
	x := "(part[%s] - part[%s].min()).dt.days / 365.25"
	if g.yearNumbers(d) {
		x = "part[%s] - part[%s].min()"
	}
	g.line("    slope = np.polyfit("+x+", part[%s], 1)[0] if len(part) > 1 else None", py(d), py(d), py(m))
	g.line("    rows.append({\"name\": name, \"first_date\": first[%s], \"first\": first[%s], \"last_date\": last[%s], \"last\": last[%s], \"pct\": pct, \"cagr\": cagr, \"slope_per_year\": slope})", py(d), py(m), py(d), py(m))
	g.line("result = pd.DataFrame(rows).set_index(\"name\")")
	g.line("print(result.round(3).to_string())")
	g.line("_emit(\"growth\", col=%s, items=rows)", py(m))
	g.exportResult(m + "_growth")
}

// seriesKeys names the columns that split a long table into separate series (one row per key
// and date, as in a price table with a Ticker column), or "".
func (g *gen) seriesKeys() string {
	if len(g.q.By) > 0 {
		return py(g.q.By[0])
	}
	if k := seriesColumn(g.f, g.dateCol()); k != "" && !g.filteredTo(k) {
		return py(k)
	}
	return ""
}

// filteredTo reports whether the query narrowed column k to a single value.
func (g *gen) filteredTo(k string) bool {
	for _, f := range g.q.Filters {
		if f.Col == k && f.Op == "==" {
			return true
		}
	}
	return false
}

// seriesColumn finds a category column with few values that, with the date, identifies rows.
func seriesColumn(f *Frame, date string) string {
	dc := f.column(date)
	if dc == nil || dc.Unique >= f.Rows {
		return ""
	}
	for _, c := range f.Columns {
		if c.Kind == "cat" && c.Unique >= 2 && c.Unique <= 12 && c.Unique*dc.Unique >= f.Rows && f.Rows >= dc.Unique*c.Unique*9/10 {
			return c.Name
		}
	}
	return ""
}

// share answers "what percentage of revenue comes from Electronics": the part a category
// value (or each group) makes of the total, the total taken before that value's filter.
func (g *gen) share() {
	m := g.numericMeasures()[0]
	var part *Filter
	rest := g.q.Filters[:0:0]
	for i, f := range g.q.Filters {
		if part == nil && isPart(f) {
			part = &g.q.Filters[i]
			continue
		}
		rest = append(rest, f)
	}
	q := *g.q
	q.Filters = rest
	sub := &gen{q: &q, p: g.p, f: g.f}
	sub.prelude()
	g.b.WriteString(sub.b.String())
	if part == nil {
		by := g.q.By[0]
		g.line("result = (df.groupby(%s)[%s].sum() / df[%s].sum() * 100).sort_values(ascending=False)", py(by), py(m), py(m))
		g.line("print(result.round(2).to_string())")
		g.line("_emit(\"group\", col=%s, agg=\"percent\", by=%s, items=[[k, v] for k, v in result.items()], groups=len(result))", py(m), py(by))
		g.exportResult(m + "_share_by_" + by)
		return
	}
	g.line("total = df[%s].sum()", py(m))
	g.line("part = df.loc[%s, %s].sum()", filterExpr(*part), py(m))
	g.line("print(part, \"of\", total, \"=\", round(part / total * 100, 2), \"percent\")")
	g.line("_emit(\"share\", col=%s, where=%s, part=part, total=total, pct=part / total * 100)", py(m), py(describeFilters([]Filter{*part})))
	g.line("result = pd.DataFrame({\"part\": [part], \"total\": [total], \"percent\": [part / total * 100]})")
	g.exportResult(m + "_share_" + strings.Join(part.Values, "_"))
}

// periodChange answers "percent change per year": the measure per period (its last value for
// levels such as prices, its sum for amounts) and the change from one period to the next.
func (g *gen) periodChange(m, d, keys string) {
	freq := pandasFreq[g.q.Period]
	agg := g.q.Agg
	if agg == "" {
		agg = map[bool]string{true: "sum", false: "last"}[defaultAgg(m) == "sum"]
	}
	if keys != "" {
		g.line("level = df.pivot_table(index=%s, columns=%s, values=%s, aggfunc=\"mean\").resample(%s).%s()", py(d), keys, py(m), py(freq), agg)
		g.line("result = (level.pct_change() * 100).iloc[1:]")
	} else {
		g.line("level = df.set_index(%s)[%s].sort_index().resample(%s).%s()", py(d), py(m), py(freq), agg)
		g.line("result = pd.DataFrame({%s: level, \"change_pct\": level.pct_change() * 100})", py(m))
	}
	g.line("result.index = result.index.to_period(%s).astype(str)", py(freq))
	g.line("print(result.round(2).to_string())")
	title := fmt.Sprintf("Change of %s (%s per %s) in percent", m, agg, periodWord[g.q.Period])
	items := "[]"
	if keys == "" {
		items = "[[k, v] for k, v in result[\"change_pct\"].dropna().round(2).items()]"
	}
	g.line("_emit(\"series\", col=%s, agg=\"percent change\", period=%s, title=%s, items=%s, **_rows(result.round(2), 24))",
		py(m), py(periodWord[g.q.Period]), py(title), items)
	g.exportResult(m + "_change_by_" + periodWord[g.q.Period])
}

// versusOf reports the ratio or the difference of the results of the two values the question
// named, first to second ("the ratio of smokers to non-smokers"), from the series result
// indexed by value; it comes before the results it compares, as it is the answer.
func (g *gen) versusOf(col, agg string) {
	v := g.q.versus
	if v.op == "" {
		return
	}
	g.line("_key = lambda k: str(int(k)) if isinstance(k, float) and k.is_integer() else str(k)")
	g.line("_by = {_key(k): v for k, v in result.items()}")
	g.line("_a, _b = float(_by.get(%s, np.nan)), float(_by.get(%s, np.nan))", py(v.a), py(v.b))
	value := "_a - _b"
	if v.op == "/" {
		value = "_a / _b if _b else None"
	}
	g.line("_v = %s", value)
	g.line("print(%s, %s, %s, _v)", py(map[string]string{"/": "ratio", "-": "difference"}[v.op]), py(v.a), py(v.b))
	g.line("_emit(\"versus\", op=%s, col=%s, agg=%s, by=%s, a=%s, b=%s, va=_a, vb=_b, value=_v)", py(v.op), py(col), py(agg), py(g.q.each), py(v.a), py(v.b))
}

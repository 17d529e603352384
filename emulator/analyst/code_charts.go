package analyst

import (
	"fmt"
	"strings"
)

// The chart cells. Every chart gets a title, labelled axes, readable dates, and is saved as a
// PNG in /mnt/data under a descriptive name before plt.show() hands it to the kernel.

// inferChart settles the chart to draw when the question only said "plot".
func inferChart(q *Query, f *Frame) string {
	nums := numericOf(q, f)
	date := q.DateCol
	if date == "" {
		date = dateColumn(f)
	}
	switch {
	case q.kwHas("overtime") && date != "" && len(nums) > 0:
		return "line"
	case len(q.By) > 0:
		return "bar"
	case len(nums) >= 2 && (q.kwHas("vs") || date == ""):
		return "scatter"
	case len(nums) >= 1 && date != "":
		return "line"
	case len(nums) == 1:
		return "hist"
	}
	return "bar"
}

func (g *gen) chart() {
	g.prelude()
	kind := g.q.Chart
	g.line("fig, ax = plt.subplots(figsize=(10, 5.5))")
	switch kind {
	case "line", "area":
		g.timeChart(kind)
	case "hist":
		g.histChart()
	case "box":
		g.boxChart()
	case "scatter":
		g.scatterChart()
	case "heatmap":
		g.pivotHeatmap()
	default:
		g.categoryChart(kind)
	}
	g.exportResult(g.chartStem())
}

// chartStem is the descriptive file name of the chart, without extension.
func (g *gen) chartStem() string {
	parts := []string{g.q.Chart}
	parts = append(parts, g.q.Measures...)
	if len(g.q.By) > 0 {
		parts = append(parts, "by", strings.Join(g.q.By, "_"))
	}
	if seasonal(g.q.Period) {
		parts = append(parts, "by", periodWord[g.q.Period])
	} else if g.q.Period != "" {
		parts = append(parts, periodWord[g.q.Period]+"ly")
	}
	if s := g.filterStem(); s != "" {
		parts = append(parts, s)
	}
	return slug(strings.Join(parts, "_"))
}

// finish labels the axes and saves the chart.
func (g *gen) finish(title, xlabel, ylabel string) {
	g.line("ax.set_title(%s)", py(title))
	g.line("ax.set_xlabel(%s)", py(xlabel))
	g.line("ax.set_ylabel(%s)", py(ylabel))
	g.line("_save_chart(fig, %s)", py(g.chartStem()+".png"))
}

// titleSuffix names the filters in a chart title.
func (g *gen) titleSuffix() string {
	if len(g.q.Filters) == 0 {
		return ""
	}
	return " (" + describeFilters(g.q.Filters) + ")"
}

// monthlyAfter is how many distinct dates a table of repeated dates must have
// before a chart over time draws one point per month: fewer are drawn per
// date, so 52 daily rows are never 3 monthly means.
const monthlyAfter = 90

func (g *gen) timeChart(kind string) {
	d, ms := g.dateCol(), g.numericMeasures()
	m := ms[0]
	agg := g.aggOf(m)
	key := g.seriesKeys()
	period := g.q.Period
	dc := g.f.column(d)
	if seasonal(period) || g.yearNumbers(d) {
		period = "" // a year number or a weekday is no datetime to resample: plot the points
	}
	repeated := dc != nil && dc.Kind == "date" && dc.Unique < g.f.Rows*9/10 && seriesColumn(g.f, d) == ""
	if period == "" && repeated && dc.Unique > monthlyAfter {
		period = "M" // many repeated dates and no series key: one point per month reads better
	}
	switch {
	case g.q.Period == periodDecade && key == "":
		// A line through the decades' values, one per measure.
		g.line("result = df.groupby(%s)[%s].%s()", g.periodKey(d, periodDecade), pyList(ms), agg)
	case key != "":
		pivotAgg := agg
		if s := seriesColumn(g.f, d); s != "" && key == py(s) && agg != "sum" {
			pivotAgg = "mean" // one row per key and date: the aggregate applies per period, below
		}
		g.line("result = df.pivot_table(index=%s, columns=%s, values=%s, aggfunc=%s)", py(d), key, py(m), py(pivotAgg))
		if period != "" {
			g.line("result = result.resample(%s).%s()", py(pandasFreq[period]), agg)
		}
	case period != "":
		g.line("result = df.set_index(%s)[%s].resample(%s).%s()", py(d), pyList(ms), py(pandasFreq[period]), agg)
	case repeated:
		// A few repeated dates: one point per date, not a zigzag through its rows, nor a
		// month's mean standing for a few weeks of rows.
		g.line("result = df.groupby(%s)[%s].%s()", py(d), pyList(ms), agg)
	default:
		g.line("result = df.set_index(%s)[%s].sort_index()", py(d), pyList(ms))
	}
	// A long series is drawn from at most about 2,000 points per line, the reduction named on
	// the chart; the numbers reported still come from every row.
	g.line("shown, _note = _thin(result)")
	g.line("if _note:")
	g.line("    fig.text(0.01, 0.005, _note, fontsize=8)")
	g.line("    _emit(\"thinned\", note=_note)")
	if kind == "area" {
		g.line("ax.stackplot(shown.index, shown.fillna(0).T.values, labels=[str(c) for c in shown.columns], alpha=0.85)")
	} else {
		// Periods with no value are left out of a line rather than drawn as gaps, which read as
		// a dashed line.
		g.line("for c in shown.columns:")
		g.line("    s = shown[c].dropna()")
		g.line("    ax.plot(s.index, s, label=str(c), linewidth=1.6)")
	}
	if agg == "sum" || agg == "count" || agg == "size" {
		// Totals and counts are read against zero: an axis from 1.46 M makes a 5% wobble look
		// like a collapse.
		g.line("if (result.min() >= 0).all():")
		g.line("    ax.set_ylim(bottom=0)")
	}
	if g.q.Rolling > 0 {
		g.line("rolled, _ = _thin(result.rolling(%d).mean())", g.q.Rolling)
		g.line("for c in rolled.columns:")
		g.line("    ax.plot(rolled.index, rolled[c], linestyle=\"--\", label=f\"{c} %d-point rolling mean\")", g.q.Rolling)
	}
	g.line("ax.legend()")
	if !g.yearNumbers(d) {
		g.line("ax.xaxis.set_major_formatter(matplotlib.dates.ConciseDateFormatter(ax.xaxis.get_major_locator()))")
	}
	g.line("ax.grid(alpha=0.3)")
	g.line("_emit(\"lines\", col=%s, date=%s, items=[{\"name\": c, \"first\": s.iloc[0], \"first_date\": s.index[0], \"last\": s.iloc[-1], \"last_date\": s.index[-1], \"max\": s.max(), \"max_date\": s.idxmax(), \"min\": s.min(), \"min_date\": s.idxmin()} for c, s in ((c, result[c].dropna()) for c in result.columns) if len(s)])",
		py(m), py(d))
	ylabel := strings.Join(ms, " and ") // the legend tells the lines apart; the axis holds them all
	if len(ms) > 2 {
		ylabel = "Value"
	}
	if period != "" {
		ylabel = aggTitle(agg, strings.Join(ms, " and ")) + " per " + periodWord[period]
	}
	title := strings.Join(ms, " and ") + " over time" + g.titleSuffix()
	if g.q.Rolling > 0 {
		title += fmt.Sprintf(", with a %d-point rolling mean", g.q.Rolling)
	}
	if period != "" {
		title = strings.ToUpper(ylabel[:1]) + ylabel[1:] + g.titleSuffix()
	}
	g.finish(title, d, ylabel)
}

func (g *gen) histChart() {
	m := g.numericMeasures()[0]
	if len(g.q.By) > 0 {
		g.line("for name, part in df.groupby(%s):", py(g.q.By[0]))
		g.line("    ax.hist(part[%s].dropna(), bins=30, rwidth=0.92, alpha=0.5, label=str(name))", py(m))
		g.line("ax.legend(title=%s)", py(g.q.By[0]))
	} else {
		g.line("ax.hist(%s.dropna(), bins=30, rwidth=0.92)", col(m)) // gaps, not white edges: the ground may be dark
	}
	g.line("s = %s.dropna()", col(m))
	g.line("_emit(\"dist\", col=%s, n=len(s), mean=s.mean(), median=s.median(), std=s.std(), min=s.min(), max=s.max())", py(m))
	g.line("result = s.describe()")
	g.finish("Distribution of "+m+g.titleSuffix(), m, "Count")
}

func (g *gen) boxChart() {
	ms := g.numericMeasures()
	if len(g.q.By) > 0 {
		m := ms[0]
		g.line("groups = [(str(k), part[%s].dropna()) for k, part in df.groupby(%s)]", py(m), py(g.q.By[0]))
		g.line("ax.boxplot([s for _, s in groups], labels=[k for k, _ in groups])")
		g.line("result = df.groupby(%s)[%s].median().sort_values(ascending=False)", py(g.q.By[0]), py(m))
		g.line("_emit(\"group\", col=%s, agg=\"median\", by=%s, items=[[k, v] for k, v in result.items()], groups=len(result))", py(m), py(g.q.By[0]))
		g.finish(m+" by "+g.q.By[0]+g.titleSuffix(), g.q.By[0], m)
		return
	}
	g.line("ax.boxplot([%s.dropna() for c in %s], labels=%s)", "df[c]", pyList(ms), pyList(ms))
	g.line("result = df[%s].median()", pyList(ms))
	g.line("_emit(\"medians\", items=[[k, v] for k, v in result.items()])")
	g.finish("Spread of "+strings.Join(ms, ", ")+g.titleSuffix(), "", "Value")
}

func (g *gen) scatterChart() {
	ms := g.numericMeasures()
	x, y := ms[0], ms[1]
	g.line("pair = df.dropna(subset=[%s, %s])", py(x), py(y))
	if len(g.q.By) > 0 {
		g.line("for name, part in pair.groupby(%s):", py(g.q.By[0]))
		g.line("    ax.scatter(part[%s], part[%s], s=14, alpha=0.7, label=str(name))", py(x), py(y))
		g.line("ax.legend(title=%s)", py(g.q.By[0]))
	} else {
		g.line("ax.scatter(pair[%s], pair[%s], s=14, alpha=0.7)", py(x), py(y))
	}
	g.line("slope, intercept = np.polyfit(pair[%s], pair[%s], 1)", py(x), py(y))
	if g.q.Trend {
		g.line("xs = np.linspace(pair[%s].min(), pair[%s].max(), 100)", py(x), py(x))
		g.line("ax.plot(xs, slope * xs + intercept, color=\"crimson\", label=f\"trend: y = {slope:.3g}x + {intercept:.3g}\")")
		g.line("ax.legend()")
	}
	g.line("_emit(\"scatter\", x=%s, y=%s, r=pair[%s].corr(pair[%s]), slope=slope, intercept=intercept, n=len(pair), trend=%s)", py(x), py(y), py(x), py(y), pyBool(g.q.Trend))
	g.line("result = pair[[%s, %s]]", py(x), py(y))
	g.finish(y+" vs "+x+g.titleSuffix(), x, y)
}

// categoryChart draws bar, horizontal bar and pie charts of a measure per category, or of
// counts when no measure was named.
func (g *gen) categoryChart(kind string) {
	by, m, agg := g.categoryAxes()
	if m == "" && g.q.Period != "" && by == g.dateCol() && (seasonal(g.q.Period) || g.yearNumbers(by)) {
		g.line("result = df.groupby(%s).size()", g.periodKey(by, g.q.Period))
		g.orderWeekdays()
		agg, m = "count", "rows"
	} else if m == "" && g.q.Period != "" && by == g.dateCol() {
		freq := pandasFreq[g.q.Period]
		g.line("result = df.set_index(%s).resample(%s).size()", py(by), py(freq))
		g.line("result.index = result.index.to_period(%s).astype(str)", py(freq))
		agg, m = "count", "rows"
	} else if m == "" {
		g.line("result = %s.value_counts().head(%d)", col(by), g.barCount())
		agg = "count"
		m = "rows"
	} else if g.q.Period != "" && by == g.dateCol() {
		g.resampled(m, g.q.Period)
	} else {
		g.line("result = df.groupby(%s)[%s].%s().sort_values(ascending=%s).head(%d)", py(by), py(m), agg, pyBool(g.q.flipped), g.barCount())
	}
	if kind == "pie" && (agg == "sum" || agg == "count") {
		// More than eight slices do not read: the rest become one "Other" slice.
		g.line("if len(result) > 8:")
		g.line("    result = pd.concat([result.head(7), pd.Series({\"Other\": result.iloc[7:].sum()})])")
	}
	switch kind {
	case "pie":
		// The percentages sit on the slices: black reads on every default colour.
		g.line("_, _, shares = ax.pie(result.values, labels=result.index.astype(str), autopct=\"%%1.1f%%%%\", startangle=90)")
		g.line("plt.setp(shares, color=\"black\")")
		g.line("ax.axis(\"equal\")")
	case "barh":
		g.line("ax.barh(result.index.astype(str)[::-1], result.values[::-1])")
	default:
		g.line("ax.bar(result.index.astype(str), result.values)")
		g.line("ax.tick_params(axis=\"x\", rotation=45 if len(result) > 6 else 0)")
	}
	label := aggTitle(agg, m)
	if agg == "count" {
		label = "Number of rows"
	}
	byWord := by
	if g.q.Period != "" && by == g.dateCol() {
		byWord = periodWord[g.q.Period]
	}
	g.line("_emit(\"group\", col=%s, agg=%s, by=%s, items=[[k, v] for k, v in result.items()], groups=len(result))", py(m), py(agg), py(byWord))
	title := label + " by " + byWord + g.titleSuffix()
	switch kind {
	case "barh":
		g.finish(title, label, byWord)
	case "pie":
		g.finish(title, "", "")
	default:
		g.finish(title, byWord, label)
	}
}

// categoryAxes picks the category axis, the measure and the aggregation of a bar or pie.
func (g *gen) categoryAxes() (by, m, agg string) {
	for _, n := range g.numericMeasures() {
		if c := g.f.column(n); !isID(c, g.f.Rows) {
			m, agg = n, g.aggOf(n)
			break
		}
	}
	switch {
	case len(g.q.By) > 0:
		by = g.q.By[0]
	case g.q.Period != "" && g.dateCol() != "":
		by = g.dateCol()
	default:
		for _, x := range g.q.Measures {
			if c := g.f.column(x); c != nil && c.Kind != "num" {
				by = x
			}
		}
	}
	if by == "" {
		by = firstCategory(g.f)
	}
	if by == "" && g.dateCol() != "" {
		// No category to put on the axis ("now as a bar chart" after a line over time): one
		// bar per period, per year for a year axis and per month for dates.
		by = g.dateCol()
		if g.q.Period == "" {
			g.q.Period = "M"
			if g.yearNumbers(by) {
				g.q.Period = "Y"
			}
		}
	}
	return by, m, agg
}

// firstCategory is the frame's first category column with a handful of values.
func firstCategory(f *Frame) string {
	for _, c := range f.Columns {
		if c.Kind == "cat" && c.Unique <= 25 {
			return c.Name
		}
	}
	return ""
}

func (g *gen) pivotHeatmap() {
	if len(g.q.By) < 2 || len(g.numericMeasures()) == 0 {
		g.line("result = df[%s].corr()", pyList(numericColumns(g.f)))
		g.heatmapOf("result", "Correlation matrix of "+baseStem(g.f), g.chartStem(), true)
		return
	}
	m := g.numericMeasures()[0]
	agg := g.aggOf(m)
	g.line("result = df.pivot_table(index=%s, columns=%s, values=%s, aggfunc=%s)", py(g.q.By[0]), py(g.q.By[1]), py(m), py(agg))
	title := aggTitle(agg, m) + " by " + g.q.By[0] + " and " + g.q.By[1]
	g.line("_emit(\"table\", title=%s, total=len(result), **_rows(result.round(2), 20))", py(title))
	g.heatmapOf("result", title, g.chartStem(), false)
}

// heatmapOf draws a labelled heatmap of a DataFrame variable, annotated when small enough.
func (g *gen) heatmapOf(v, title, stem string, corr bool) {
	if !strings.Contains(g.b.String(), "fig, ax = plt.subplots") {
		g.line("fig, ax = plt.subplots(figsize=(9, 7))")
	}
	cmap, lim := "viridis", ""
	if corr {
		cmap, lim = "coolwarm", ", vmin=-1, vmax=1"
	}
	g.line("im = ax.imshow(%s.values, cmap=%s%s, aspect=\"auto\")", v, py(cmap), lim)
	g.line("fig.colorbar(im, ax=ax)")
	g.line("ax.set_xticks(range(%s.shape[1]), [str(c) for c in %s.columns], rotation=45, ha=\"right\")", v, v)
	g.line("ax.set_yticks(range(%s.shape[0]), [str(i) for i in %s.index])", v, v)
	g.line("if %s.size <= 225:", v)
	g.line("    lo, hi = np.nanmin(%s.values), np.nanmax(%s.values)", v, v)
	g.line("    for (i, j), val in np.ndenumerate(%s.values):", v)
	g.line("        dark = %s and hi > lo and (val - lo) / (hi - lo) < 0.5  # white text on the dark end of viridis", pyBool(!corr))
	g.line("        ax.text(j, i, f\"{val:.2f}\" if abs(val) < 100 else f\"{val:,.0f}\", ha=\"center\", va=\"center\", fontsize=8, color=\"white\" if dark else \"black\")")
	g.line("ax.set_title(%s)", py(title))
	if !corr {
		g.line("ax.set_xlabel(%s)", py(g.q.By[1]))
		g.line("ax.set_ylabel(%s)", py(g.q.By[0]))
	}
	g.line("_save_chart(fig, %s)", py(slug(stem)+".png"))
}

// barCount is how many bars or slices to draw: the N asked for, else up to 20.
func (g *gen) barCount() int {
	if g.q.N > 0 {
		return g.q.N
	}
	return 20
}

package analyst

import (
	"fmt"
	"strconv"
	"strings"
)

// The cells of the table-shaped intents: what the data is, and rows picked from it.

func (g *gen) overview() {
	if g.eachFrame((*gen).overview) {
		return
	}
	g.prelude()
	g.line("print(f\"{len(df):,} rows x {df.shape[1]} columns\")")
	g.line("result = df.describe(include=\"all\", datetime_is_numeric=True).T")
	g.line("print(result.to_string())")
	g.line("num = df.select_dtypes(\"number\")")
	g.line("dates = {c: [df[c].min(), df[c].max()] for c in df.columns if str(df[c].dtype).startswith(\"datetime\")}")
	g.line("_emit(\"overview\", key=%s, rows=len(df), cols=df.shape[1], missing=int(df.isna().sum().sum()),", py(g.f.Key))
	g.line("      kinds=[[c, str(t)] for c, t in df.dtypes.items()], dates=dates,")
	g.line("      numeric={c: {\"mean\": num[c].mean(), \"min\": num[c].min(), \"max\": num[c].max()} for c in list(num.columns)[:%d]},", overviewNumbers)
	g.line("      numeric_n=num.shape[1])")
}

// overviewNumbers is how many number columns an overview sums up one by one;
// the table it prints has them all.
const overviewNumbers = 20

// eachFrame writes step for each frame when the question names no one table: every file, or
// every sheet of the workbook it names. It reports whether it did.
func (g *gen) eachFrame(step func(*gen)) bool {
	frames := g.q.Sheets
	if len(g.p.Frames) > 1 && !g.q.named && len(g.q.Filters) == 0 {
		frames = make([]int, len(g.p.Frames))
		for i := range frames {
			frames[i] = i
		}
	}
	if len(frames) < 2 || len(g.q.Filters) > 0 {
		return false
	}
	one := *g.q
	one.named, one.Sheets = true, nil
	for _, i := range frames {
		sub := &gen{q: &one, p: g.p, f: &g.p.Frames[i]}
		step(sub)
		g.b.WriteString(sub.b.String())
	}
	return true
}

func (g *gen) columns() {
	if len(g.p.Frames) > 1 && len(g.q.Measures) == 0 && len(g.q.Filters) == 0 {
		g.line("for key, d in frames.items():")
		g.line("    print(key); print(d.dtypes.to_string()); print()")
		g.line("    _emit(\"columns\", key=key, columns=[[c, str(t)] for c, t in d.dtypes.items()])")
		return
	}
	g.prelude()
	g.line("result = pd.DataFrame({\"dtype\": df.dtypes.astype(str), \"non_null\": df.notna().sum(), \"unique\": df.nunique()})")
	g.line("print(result.to_string())")
	g.line("_emit(\"columns\", key=%s, columns=[[c, str(t)] for c, t in df.dtypes.items()])", py(g.f.Key))
}

func (g *gen) head() {
	g.prelude()
	n := g.q.N
	if n <= 0 {
		n = 5
	}
	fn := "head"
	if g.q.Tail {
		fn = "tail"
	}
	g.line("result = df.%s(%d)", fn, n)
	g.line("print(result.to_string())")
	g.line("_emit(\"table\", title=%s, total=len(df), **_rows(result, %d, %s))", py(map[string]string{"head": "First", "tail": "Last"}[fn]+" "+strconv.Itoa(n)+" rows of "+g.f.Key), min(n, 30), g.tableCols())
	g.exportResult(fn + "_rows")
}

func (g *gen) size() {
	if g.eachFrame((*gen).size) {
		return
	}
	g.prelude()
	g.line("print(f\"{len(df):,} rows x {df.shape[1]} columns\")")
	where := ""
	if len(g.q.Filters) > 0 {
		// the rows counted are those the filters kept: say so, and out of how many
		where = fmt.Sprintf(", where=%s, of=len(frames[%s])", py(describeFilters(g.q.Filters)), py(g.f.Key))
	} else if g.q.refine.prepares() {
		where = fmt.Sprintf(", prepared=True, of=len(frames[%s])", py(g.f.Key))
	}
	g.line("_emit(\"size\", key=%s, rows=len(df), cols=df.shape[1]%s)", py(g.f.Key), where)
}

func (g *gen) missing() {
	g.prelude()
	cols := "df"
	if len(g.q.Measures) > 0 {
		cols = "df[" + pyList(g.q.Measures) + "]"
	}
	g.line("miss = %s.isna().sum()", cols)
	g.line("result = pd.DataFrame({\"missing\": miss, \"percent\": (miss / max(len(df), 1) * 100).round(1)}).sort_values(\"missing\", ascending=False)")
	g.line("print(result.to_string())")
	g.line("_emit(\"missing\", rows=len(df), total=int(miss.sum()), counts={c: int(n) for c, n in miss.items() if n}, asked=%s)", pyList(g.q.Measures))
	g.exportResult("missing_values")
}

// describe summarises every column asked, each in its own sentence: "describe the AAPL and
// MSFT columns" describes both.
func (g *gen) describe() {
	g.prelude()
	cols := g.q.Measures[:min(len(g.q.Measures), maxDescribed)]
	for _, m := range cols {
		g.line("s = %s", col(m))
		if g.f.column(m).Kind == "num" {
			g.line("result = s.describe()")
		} else {
			g.line("result = s.describe(%s)", datetimeArg(g.f.column(m)))
		}
		g.line("print(%s)", py(m+":"))
		g.line("print(result.to_string())")
		if g.f.column(m).Kind != "num" {
			g.line("print(s.value_counts().head(10).to_string())")
		}
		g.line("_emit(\"describe\", col=%s, stats={k: v for k, v in result.items()}, missing=int(s.isna().sum()))", py(m))
	}
	if len(cols) > 1 {
		g.line("result = df[%s].describe(include=\"all\")", pyList(cols))
	}
	g.exportResult("describe_" + strings.Join(cols, "_"))
}

// maxDescribed is the most columns one answer describes; more is a table for the overview.
const maxDescribed = 6

func datetimeArg(c *Column) string {
	if c.Kind == "date" {
		return "datetime_is_numeric=True"
	}
	return ""
}

// countsColumn is the column to count: a category if one was named, else the first column.
func (g *gen) countsColumn() string {
	for _, m := range append(append([]string{}, g.q.By...), g.q.Measures...) {
		if c := g.f.column(m); c != nil && c.Kind != "num" {
			return m
		}
	}
	if len(g.q.By) > 0 {
		return g.q.By[0]
	}
	return g.q.Measures[0]
}

func (g *gen) counts() {
	g.prelude()
	c := g.countsColumn()
	vals := valuesOf(c, g.f) // a column of lists counts its items
	g.line("result = %s.value_counts(dropna=False)", vals)
	if g.q.Which == c && g.q.Bottom {
		g.line("result = result.sort_values(kind=\"stable\")") // "the level with the fewest": the fewest first
	}
	g.versusOf(c, "count")
	g.line("_emit(\"counts\", col=%s, unique=int(%s.nunique()), total=len(df), items=[[k, int(v)] for k, v in result.head(20).items()]%s)", py(c), vals, g.whichArg())
	g.line("result = result.rename(\"count\").to_frame()")
	g.exportResult(c + "_counts")
	g.show()
}

func (g *gen) unique() {
	g.prelude()
	c := g.countsColumn()
	g.line("vals = %s.dropna().unique()", valuesOf(c, g.f))
	g.line("print(len(vals), \"unique values\")")
	g.line("print(sorted(map(str, vals))[:50])")
	g.line("_emit(\"unique\", col=%s, n=len(vals), values=sorted(map(str, vals))[:30])", py(c))
	g.line("result = pd.DataFrame({%s: sorted(vals, key=str)})", py(c))
	g.exportResult(c + "_unique")
}

func (g *gen) sortRows() {
	g.prelude()
	key := g.sortKey()
	n := g.q.N
	if n <= 0 {
		n = 10
	}
	g.line("result = df.sort_values(%s, ascending=%s)", py(key), pyBool(g.q.Bottom))
	g.line("_emit(\"table\", title=%s, total=len(result), key=%s, **_rows(result, %d, %s))", py("Rows sorted by "+key+ascWord(g.q.Bottom)), py(key), min(n, 30), g.tableCols())
	g.exportResult("sorted_by_" + key)
	g.show()
}

func (g *gen) sortKey() string {
	if g.q.byDate && g.dateCol() != "" {
		return g.dateCol()
	}
	if len(g.q.Measures) > 0 {
		return g.q.Measures[0]
	}
	if len(g.q.By) > 0 {
		return g.q.By[0]
	}
	return g.q.DateCol
}

func ascWord(asc bool) string {
	if asc {
		return ", ascending"
	}
	return ", descending"
}

func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

func (g *gen) filterRows() {
	g.prelude()
	g.line("result = df")
	g.line("print(len(result), \"rows match\")")
	named := ""
	if g.q.Named != "" {
		named = ", key=" + py(g.q.Named)
	}
	if g.q.kwHas("percent") {
		named += ", percent=True" // "what percentage of cars come from usa": the share leads
	}
	g.line("_emit(\"table\", title=%s, total=len(result), where=%s, of=len(frames[%s])%s, **_rows(result, 10, %s))",
		py("Rows where "+describeFilters(g.q.Filters)), py(describeFilters(g.q.Filters)), py(g.f.Key), named, g.tableCols())
	g.exportResult("rows_" + g.filterStem())
	g.show()
}

func (g *gen) export() {
	g.prelude()
	g.line("result = df")
	stem := strings.TrimSuffix(g.f.File, "."+lastExt(g.f.File)) + "_cleaned"
	if g.f.Sheet != "" {
		stem += "_" + g.f.Sheet
	}
	if len(g.q.Filters) > 0 {
		stem += "_" + g.filterStem()
	}
	g.exportResult(stem)
}

func lastExt(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return ""
}

func (g *gen) join() {
	right := &g.p.Frames[g.q.JoinWith]
	g.prelude()
	g.line("right = %s", rightFrame(right.Key, g.q.JoinRight, g.q.JoinOn))
	g.line("result = df.merge(right, on=%s, how=\"left\", suffixes=(\"\", \"_right\"))", py(g.q.JoinOn))
	g.line("matched = int(df[%s].isin(right[%s]).sum())", py(g.q.JoinOn), py(g.q.JoinOn))
	g.line("_emit(\"join\", left=%s, right=%s, on=%s, rows=len(result), cols=result.shape[1], matched=matched, of=len(df))",
		py(g.f.Key), py(right.Key), py(g.q.JoinOn))
	g.line("_emit(\"table\", title=\"First joined rows\", total=len(result), **_rows(result, 5, %s))", joinCols(g.f, right, g.q.JoinOn))
	if g.q.Export == "" {
		g.q.Export = "csv"
	}
	g.exportResult(baseStem(g.f) + "_with_" + baseStem(right))
	g.show()
}

// joinCols shows the key, a few columns of the left table and what the right one brought in.
func joinCols(left, right *Frame, on string) string {
	cols := []string{on}
	for _, c := range left.Columns {
		if len(cols) < 4 && c.Name != on {
			cols = append(cols, c.Name)
		}
	}
	for _, c := range right.Columns {
		if len(cols) < maxTableCols && c.Name != on {
			cols = append(cols, c.Name)
		}
	}
	return pyList(cols)
}

func baseStem(f *Frame) string {
	if f.Sheet != "" {
		return f.Sheet
	}
	return strings.TrimSuffix(f.File, "."+lastExt(f.File))
}

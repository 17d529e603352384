package analyst

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/analyst-workbench/workbench/emulator/analyst/meaning"
	"github.com/analyst-workbench/workbench/emulator/analyst/schema"
)

// meaningCell writes the cell for a question package meaning read: derive the columns it reads
// that the file lacks, filter the rows, rank them (or their groups), take the target, sum it up,
// check it, and report one "answer" marker.
func meaningCell(m *meaning.Meaning, f *Frame, derived []derivation) string {
	g := &gen{f: f}
	g.line("df = frames[%s]", py(f.Key))
	for _, name := range rateColumns(m, f) {
		// a rate of a yes/no column held as text: True is 1, False is 0
		g.line("df = df.assign(**{%s: %s.astype(str).str.lower().map({\"true\": 1.0, \"false\": 0.0, \"yes\": 1.0, \"no\": 0.0})})", py(name), col(name))
	}
	for _, d := range derived {
		g.line("df = df.assign(**{%s: %s})", py(d.Name), d.Py)
		g.emitDerived(d) // the reply says how the column was made, and its counts
	}
	g.line("_scores, _tied, _others = None, False, None")
	n := "len(df)"
	if !m.Within {
		meaningFilters(g, m, f)
		if o := m.Order; o != nil && !o.Size && o.Agg == meaning.NoAgg {
			g.line("_n = len(df)") // the rows the ranking chooses from, said beside its answer
			n = "_n"
		}
	}
	switch {
	case m.Order != nil && m.Order.Size:
		meaningGroups(g, m, f)
	case m.Order != nil && m.Order.Agg != meaning.NoAgg:
		meaningGroupAgg(g, m, f)
	case m.Order != nil && m.Order.Position:
		if m.Order.Desc {
			g.line("df = df.iloc[::-1]")
		}
		g.line("df = df.head(%d)", m.Order.N)
		meaningValues(g, m, f)
	case m.Order != nil:
		o := m.Order
		g.line("df = df[%s.notna()].sort_values(%s, ascending=%s, kind=\"stable\"%s)", col(o.Column), rowOrderKeys(m), rowOrderDirections(m), lengthKey(o))
		if o.Unique {
			g.line("df = df.drop_duplicates(subset=[%s])", py(o.Column))
		}
		g.line("df = df.head(%d)", o.N)
		if m.Within {
			meaningFilters(g, m, f)
		}
		meaningValues(g, m, f)
		switch {
		case o.Length:
			g.line("_scores = %s.astype(str).str.len().head(50).tolist()", col(o.Column)) // the lengths ranked
		case m.Target != o.Column:
			g.line("_scores = %s.head(50).tolist()", col(o.Column))
		}
	default:
		meaningValues(g, m, f)
	}
	meaningCheck(g, m, f)
	shape, what, where := meaningWhat(spelledMeaning(m, f))
	by := ""
	if m.Order != nil && m.Order.Agg == meaning.NoAgg {
		by = m.Order.Column
	}
	extreme := "" // "also the one with the highest B": B's extreme, said beside the verdict
	if c := m.Check; c != nil && extremes[c.Op].method != "" {
		x := extremes[c.Op]
		extreme = fmt.Sprintf(", extreme=float(frames[%s][%s].%s()), extreme_what=%s", py(f.Key), py(c.Column), x.method, py("the "+x.word+" `"+c.Column+"`"))
		if c.Pick != "" {
			extreme = fmt.Sprintf(", extreme=%s, extreme_what=%s", pickedExpr(*c, f), py("the `"+c.Pick+"` of the row with the "+x.word+" `"+c.Column+"`"))
		}
	}
	byLength := m.Order != nil && m.Order.Length // the scores are the texts' lengths
	g.line("_emit(\"answer\", form=%s, shape=%s, what=%s, where=%s, by=%s, by_length=%s, values=_vals, counts=_counts, scores=_scores, others=_others, tied=_tied, verdict=_ok, n=%s, of=len(frames[%s]), target=%s%s)",
		py(m.Form.String()), py(shape), py(what), py(where), py(by), pyBool(byLength), n, py(f.Key), py(m.Target), extreme)
	meaningResult(g, m, shape, what)
	return strings.TrimRight(g.b.String(), "\n")
}

// meaningResult ends the cell with the table the answer came from, shown under the code: the
// groups ranked, the rows selected, the rows that fail a check on all of them, or the value.
func meaningResult(g *gen, m *meaning.Meaning, shape, what string) {
	switch {
	case m.Order != nil && m.Order.Size:
		g.line("result = _sizes.rename_axis(%s).reset_index(name=\"rows\")", py(m.Group))
		g.line("result")
	case m.Order != nil && m.Order.Agg != meaning.NoAgg:
		g.line("result = _sizes.rename_axis(%s).reset_index(name=%s)", py(m.Group), py(aggName(m.Order.Agg.String())+" "+m.Order.Column))
		g.line("result")
	case m.All:
		g.line("result = df[~_pass]")
		g.line("result")
	case m.Unique:
		g.line("result = df[%s.duplicated(keep=False) & %s.notna()]", col(m.Target), col(m.Target))
		g.line("result")
	case m.Alike:
		g.line("result = %s.value_counts(dropna=False).rename_axis(%s).reset_index(name=\"rows\")", col(m.Target), py(m.Target))
		g.line("result")
	case m.Agg == meaning.NoAgg:
		g.line("result = df")
		g.line("result")
	default:
		label := strings.Trim(what, "`")
		if shape == "count" || shape == "countcheck" {
			label = "rows"
		}
		g.line("result = pd.DataFrame({%s: [_v]})", py(strings.ReplaceAll(label, "`", "")))
		g.line("result")
	}
}

// meaningFilters keeps the rows that pass every condition.
func meaningFilters(g *gen, m *meaning.Meaning, f *Frame) {
	if len(m.Filters) == 0 {
		return
	}
	var conds []string
	for _, c := range m.Filters {
		conds = append(conds, conditionExpr(c, f))
	}
	g.line("df = df[%s]", strings.Join(conds, " & "))
}

// conditionExpr is one condition as a boolean Series over df, in parentheses.
func conditionExpr(c meaning.Condition, f *Frame) string {
	if c.Same != nil {
		// the reference rows' values, looked up in the whole table; those rows left out
		ref := conditionExpr(*c.Same, f)
		return fmt.Sprintf("(%s.isin(frames[%s].loc[%s, %s].dropna()) & ~%s)", col(c.Column), py(f.Key), ref, py(c.Column), ref)
	}
	if c.Ref != nil {
		return neighbourExpr(c, f)
	}
	if c.Part != "" {
		return fmt.Sprintf("(pd.to_datetime(%s, errors=\"coerce\").dt.strftime(%s) %s %s)", col(c.Column), py(c.Part), c.Op, py(c.Value))
	}
	if c.Than != "" {
		return fmt.Sprintf("(%s %s %s)", col(c.Column), c.Op, col(c.Than)) // two columns of each row
	}
	if listed(c.Column, f) {
		switch c.Op {
		case "isna":
			return "(" + col(c.Column) + ".map(_items).str.len() == 0)" // "[]" holds nothing either
		case "notna":
			return "(" + col(c.Column) + ".map(_items).str.len() > 0)"
		}
		return listExpr(c.Column, c.Op, c.Value, c.Values)
	}
	x := meaningFilter(c, f)
	if fc := f.column(c.Column); fc != nil && fc.Kind == "cat" && trueFalse(fc.Values) && (c.Op == "==" || c.Op == "!=") {
		// booleans read as text: compare their spelling, whatever its case
		return fmt.Sprintf("(%s.astype(str).str.lower() %s %s)", col(c.Column), c.Op, py(strings.ToLower(x.Value)))
	}
	switch c.Op {
	case "notna":
		return "(" + col(c.Column) + ".notna())"
	case "isna":
		// blank text is as empty as a missing cell: "songs without lyrics"
		return fmt.Sprintf("(%s.isna() | %s.astype(str).str.strip().eq(\"\"))", col(c.Column), col(c.Column))
	case "not in":
		x.Op = "in"
		return "(~" + filterExpr(x) + ")"
	}
	return "(" + filterExpr(x) + ")"
}

// neighbourExpr selects the rows after, or before, the first row passing c.Ref, by their
// position in the file; with no such row it selects none.
func neighbourExpr(c meaning.Condition, f *Frame) string {
	var refs []string
	for _, r := range c.Ref {
		refs = append(refs, conditionExpr(r, f))
	}
	ref := strings.Join(refs, " & ")
	if c.Op == "after" {
		return fmt.Sprintf("(np.arange(len(df)) > _row_position(%s, len(df)))", ref)
	}
	return fmt.Sprintf("(np.arange(len(df)) < _row_position(%s, -1))", ref)
}

// meaningFilter is a condition as the cells' Filter, typed by the column it tests.
func meaningFilter(c meaning.Condition, f *Frame) Filter {
	x := Filter{Col: c.Column, Op: c.Op, Value: c.Value, Values: slices.Clone(c.Values), Kind: "cat"}
	col := f.column(c.Column)
	spell := func(v string) string { return v }
	switch {
	case col != nil && col.Kind == "bool":
		x.Kind = "num" // compared with the Python literal True or False
	case col != nil && col.Kind == "num" && (c.Value == "True" || c.Value == "False" || slices.Contains(c.Values, "True")):
		x.Kind = "num"
		spell = func(v string) string { return cmp.Or(map[string]string{"True": "1", "False": "0"}[v], v) }
	case col != nil && col.Kind == "cat":
		spell = func(v string) string { return textTruth(col, v) } // "smokers": smoker is yes
	case c.Numeric && col != nil && col.Kind == "num":
		x.Kind = "num"
	}
	x.Value = spell(x.Value)
	for i, v := range x.Values {
		x.Values[i] = spell(v)
	}
	return x
}

// listed reports a column whose cells hold lists ("['France', 'Spain']").
func listed(name string, f *Frame) bool {
	c := f.column(name)
	return c != nil && c.Kind == "list"
}

// valuesOf is the expression of a column's values as counted and grouped: the column, or for
// a column of lists its items, one row each (loader.py's _each), so that "the most common
// country" counts countries, not lists of them.
func valuesOf(name string, f *Frame) string {
	if listed(name, f) {
		return "_each(" + col(name) + ")"
	}
	return col(name)
}

// groupValues is the expression of what a meaning's groups are: its group column's values, or
// the period of its dates the question names ("which month": each date's month name).
func groupValues(m *meaning.Meaning, f *Frame) string {
	if m.GroupPart != "" {
		return fmt.Sprintf("pd.to_datetime(%s, errors=\"coerce\").dt.strftime(%s)", col(m.Group), py(m.GroupPart))
	}
	return valuesOf(m.Group, f)
}

// groupName says what a meaning's group is, after "the": "`country`", "month of `date`".
func groupName(m *meaning.Meaning) string {
	if p := meaning.PeriodName(m.GroupPart); p != "" {
		return p + " of `" + m.Group + "`"
	}
	return "`" + m.Group + "`"
}

// groupsName says n of a meaning's groups, after "the": "3 values of `country`", "2 months of
// `date`".
func groupsName(m *meaning.Meaning, n int) string {
	if p := meaning.PeriodName(m.GroupPart); p != "" {
		return fmt.Sprintf("%d %ss of `%s`", n, p, m.Group)
	}
	return fmt.Sprintf("%d values of `%s`", n, m.Group)
}

// listExpr tests a column of lists: the number of items for a comparison ("more than 10
// keywords"), membership for a value ("mentions 'Boris'").
func listExpr(column, op, value string, values []string) string {
	items := col(column) + ".map(_items)"
	switch op {
	case "==":
		return fmt.Sprintf("(%s.map(lambda xs: %s in xs))", items, py(value))
	case "!=":
		return fmt.Sprintf("(~%s.map(lambda xs: %s in xs))", items, py(value))
	case "in", "not in":
		neg := map[string]string{"in": "", "not in": "~"}[op]
		return fmt.Sprintf("(%s%s.map(lambda xs: any(v in xs for v in %s)))", neg, items, pyList(values))
	}
	return fmt.Sprintf("(%s.str.len() %s %s)", items, op, value)
}

// meaningGroups ranks the groups of m.Group by their number of rows and keeps the first N.
func meaningGroups(g *gen, m *meaning.Meaning, f *Frame) {
	o := m.Order
	g.line("_sizes = %s.value_counts()", groupValues(m, f))
	switch o.Ties {
	case meaning.TiesAlphabetical, meaning.TiesReverse:
		g.line("_sizes = _sizes.sort_index(ascending=%s).sort_values(ascending=%s, kind=\"stable\")", pyBool(o.Ties == meaning.TiesAlphabetical), pyBool(!o.Desc))
	case meaning.TiesFileOrder:
		// in the order the values first come in the file
		g.line("_sizes = _sizes.reindex(pd.unique(%s.dropna())).sort_values(ascending=%s, kind=\"stable\")", groupValues(m, f), pyBool(!o.Desc))
	default:
		if !o.Desc {
			g.line("_sizes = _sizes.sort_values(ascending=True, kind=\"stable\")")
		}
	}
	if o.N == 1 && o.Ties == meaning.TiesNamed {
		// "the most common" with a tie at the top names every value tied, never one of them
		g.line("_others = [[k, int(v)] for k, v in _sizes[_sizes != _sizes.iloc[0]].head(5).items()] if len(_sizes) else None")
		g.line("_sizes = _sizes[_sizes == _sizes.iloc[0]] if len(_sizes) else _sizes")
		g.line("_tied = len(_sizes) > 1")
	} else {
		g.line("_others = [[k, int(v)] for k, v in _sizes.iloc[%d:%d].items()]", o.N, o.N+5)
		g.line("_sizes = _sizes.head(%d)", o.N)
	}
	g.line("_vals, _counts = list(_sizes.index), [int(x) for x in _sizes.values]")
	g.line("_v = _vals[0] if _vals else None")
}

// rowOrderKeys are the columns rows are sorted by: the order's, then the answer's when ties go
// alphabetically. The stable sort keeps the file's order among rows still equal.
func rowOrderKeys(m *meaning.Meaning) string {
	if t := tieColumn(m); t != "" {
		return "[" + py(m.Order.Column) + ", " + py(t) + "]"
	}
	return py(m.Order.Column)
}

// lengthKey is the sort key of an order by the length of a text ("the longest lyrics"), as
// sort_values takes it; "" for an order by the values themselves. Only the order's own column
// is measured: a tie column keeps its alphabetical order.
func lengthKey(o *meaning.Order) string {
	if !o.Length {
		return ""
	}
	return fmt.Sprintf(", key=lambda s: s.astype(str).str.len() if s.name == %s else s", py(o.Column))
}

// rowOrderDirections are the directions of rowOrderKeys.
func rowOrderDirections(m *meaning.Meaning) string {
	if t := tieColumn(m); t != "" {
		return "[" + pyBool(!m.Order.Desc) + ", " + pyBool(m.Order.Ties == meaning.TiesAlphabetical) + "]"
	}
	return pyBool(!m.Order.Desc)
}

// tieColumn is the column alphabetical ties are broken by: the answer's, or the rows' names.
func tieColumn(m *meaning.Meaning) string {
	if m.Order.Ties != meaning.TiesAlphabetical && m.Order.Ties != meaning.TiesReverse {
		return ""
	}
	if t := cmp.Or(m.Target, m.Identifier); t != m.Order.Column {
		return t
	}
	return ""
}

// pandasAgg is an aggregate's name as pandas spells it: distinct is nunique.
func pandasAgg(a meaning.Agg) string {
	if a == meaning.Distinct {
		return "nunique"
	}
	return a.String()
}

// meaningGroupAgg ranks the groups of m.Group by an aggregate of the order's column.
func meaningGroupAgg(g *gen, m *meaning.Meaning, f *Frame) {
	o := m.Order
	// groupby orders the groups A to Z, which the stable sort keeps among equals
	keys := map[meaning.Ties]string{meaning.TiesReverse: ".sort_index(ascending=False)"}[o.Ties]
	by := py(m.Group)
	if m.GroupPart != "" {
		by = groupValues(m, f) // the dates' periods
	}
	g.line("_sizes = df.groupby(%s, sort=%s)[%s].agg(%s).dropna()%s.sort_values(ascending=%s, kind=\"stable\")",
		by, pyBool(o.Ties != meaning.TiesFileOrder), py(o.Column), py(pandasAgg(o.Agg)), keys, pyBool(!o.Desc))
	if o.N == 1 && o.Ties == meaning.TiesNamed && o.Agg == meaning.Distinct {
		// counts of different values tie often: every group tied at the top is named
		g.line("_sizes = _sizes[_sizes == _sizes.iloc[0]] if len(_sizes) else _sizes")
		g.line("_tied = len(_sizes) > 1")
	} else {
		// the groups not chosen, which a yes/no comparison of two says beside the first
		g.line("_others = [[k, float(v)] for k, v in _sizes.iloc[%d:%d].items()]", o.N, o.N+5)
		g.line("_sizes = _sizes.head(%d)", o.N)
	}
	g.line("_vals, _counts = list(_sizes.index), None")
	g.line("_scores = [float(x) for x in _sizes.values]")
	g.line("_v = _vals[0] if _vals else None")
}

// meaningValues takes the target from the selected rows and sums it up.
func meaningValues(g *gen, m *meaning.Meaning, f *Frame) {
	g.line("_counts = None")
	t := m.Target
	if t == "" {
		t = m.Identifier
	}
	switch {
	case m.Agg == meaning.Count || m.Exists || t == "":
		g.line("_v = len(df)")
	case m.Agg == meaning.Distinct:
		g.line("_v = int(%s.nunique())", valuesOf(t, f))
	case m.Agg != meaning.NoAgg:
		g.line("_v = %s.agg(%s)", col(t), py(m.Agg.String()))
	default:
		g.line("_vals = %s.head(50).tolist()", col(t))
		g.line("_v = _vals[0] if len(_vals) == 1 else None")
		return
	}
	g.line("_vals = [_v]")
}

// meaningCheck sets _ok to the verdict of a yes/no question, or None.
func meaningCheck(g *gen, m *meaning.Meaning, f *Frame) {
	switch {
	case m.Form != meaning.Verdict:
		g.line("_ok = None")
	case m.Exists && m.None:
		g.line("_ok = len(df) == 0") // "there were no days when …" holds when no row passes
	case m.Exists:
		g.line("_ok = len(df) > 0")
	case m.Unique:
		g.line("_ok = bool(%s.dropna().is_unique)", col(m.Target))
	case m.Alike:
		// one value in every row; _vals holds how many values and the most common one
		g.line("_top = %s.value_counts()", col(m.Target))
		g.line("_ok = bool(len(_top) == 1 and %s.notna().all())", col(m.Target))
		g.line("_vals = [int(len(_top)), (_top.index[0] if len(_top) else None), (int(_top.iloc[0]) if len(_top) else 0)]")
	case m.All:
		g.line("_pass = %s", conditionExpr(*m.Check, f))
		if m.Majority {
			g.line("_ok = bool(_pass.mean() > 0.5)") // more than half of the rows
		} else {
			g.line("_ok = bool(_pass.all())")
		}
		g.line("_vals = [int(_pass.sum())]")
	case m.Check != nil:
		// A missing value is not the value asked about: DataBench and analysts alike read
		// "does the oldest have a score of 5" as no when the score is missing.
		g.line("_ok = False if _tied or _v is None or pd.isna(_v) else bool(%s)", checkExpr(*m.Check, f)) // a tie is no "more"
	default:
		g.line("_ok = None")
	}
}

// checkExpr compares the scalar _v with a condition's value.
func checkExpr(c meaning.Condition, f *Frame) string {
	x := meaningFilter(c, f)
	op := c.Op
	switch op {
	case "notna":
		return "True" // the missing value was tested first
	case "top", "bottom":
		if c.Pick != "" {
			// "the same artist as the song with the lowest rank": the two rows' artists
			return "str(_v) == str(" + pickedExpr(c, f) + ")"
		}
		// "also the one with the highest B": the selected row's B is B's extreme over the file
		return fmt.Sprintf("float(_v) == float(frames[%s][%s].%s())", py(f.Key), py(c.Column), extremes[op].method)
	}
	if c.Column == "" && c.Numeric {
		return "float(_v) " + op + " " + c.Value // a number of rows
	}
	if x.Kind == "num" {
		if c.Value == "True" || c.Value == "False" {
			return "bool(_v) " + op + " " + c.Value
		}
		return "float(_v) " + op + " " + x.Value
	}
	return "str(_v).casefold() " + op + " " + py(strings.ToLower(x.Value)) + ".casefold()"
}

// pickedExpr is the Python for a two-row check's other value: the Pick of the first row at
// the extreme of the check's column.
func pickedExpr(c meaning.Condition, f *Frame) string {
	return fmt.Sprintf("frames[%s].loc[frames[%s][%s].%s(), %s]", py(f.Key), py(f.Key), py(c.Column), map[string]string{"top": "idxmax", "bottom": "idxmin"}[c.Op], py(c.Pick))
}

// spelledMeaning is the meaning with the true and false of yes/no text columns written as the
// table writes them, for the words that say it ("`smoker` is yes", never "is True").
func spelledMeaning(m *meaning.Meaning, f *Frame) *meaning.Meaning {
	out := *m
	spell := func(c meaning.Condition) meaning.Condition {
		if col := f.column(c.Column); col != nil && (col.Kind == "cat" || col.Kind == "num") {
			x := meaningFilter(c, f) // the values as the cells compare them: yes, 1
			c.Value, c.Values = x.Value, x.Values
		}
		return c
	}
	out.Filters = make([]meaning.Condition, len(m.Filters))
	for i, c := range m.Filters {
		out.Filters[i] = spell(c)
	}
	if m.Check != nil {
		c := spell(*m.Check)
		out.Check = &c
	}
	return &out
}

// meaningWhat says in words what the answer is (shape, for the sentence), what it is of, and
// which rows it used.
func meaningWhat(m *meaning.Meaning) (shape, what, where string) {
	var conds []string
	var near *meaning.Condition
	for i, c := range m.Filters {
		if c.Ref != nil && m.Order != nil && m.Order.Position {
			near = &m.Filters[i] // said with the row it takes: "the row right after the one where …"
		}
	}
	for _, c := range m.Filters {
		if near == nil || c.Ref == nil && !skipsReference(c, *near) {
			conds = append(conds, conditionWords(c))
		}
	}
	where = strings.Join(conds, " and ")
	target := "`" + cmp.Or(m.Target, m.Identifier) + "`"
	switch {
	case m.Exists:
		shape = "exists"
		if m.Within && m.Order != nil {
			what = rowsWords(m.Order)
		}
	case m.Unique:
		shape, what = "unique", target
	case m.Alike:
		shape, what = "alike", target
	case m.All && m.Majority:
		shape, what = "majority", conditionWords(*m.Check)
	case m.All:
		shape, what = "all", conditionWords(*m.Check)
	case m.Check != nil && m.Check.Column == "":
		shape, what = "countcheck", countWords(*m.Check)
	case m.Order != nil && (m.Order.Size || m.Order.Agg != meaning.NoAgg):
		shape, what = "groups", groupsWords(m)
	case m.Agg == meaning.Count:
		shape = "count"
	case m.Agg == meaning.Distinct:
		shape, what = "distinct", target
	case m.Agg != meaning.NoAgg:
		shape, what = "value", "the "+aggName(m.Agg.String())+" of "+target
	case near != nil && listedWords(*near, cmp.Or(m.Target, m.Identifier)) != "":
		shape, what = "value", "the "+target+" "+listedWords(*near, cmp.Or(m.Target, m.Identifier))
	case near != nil:
		shape, what = "value", "the "+target+" of "+neighbourWords(*near, len(conds) > 0)
	case m.Order != nil && m.Target == "" && m.Identifier == "":
		shape, what = "value", "the number of "+rowsWords(m.Order)
	case m.Order != nil && m.Order.Column == m.Target:
		shape, what = "value", extremesWords(m.Order)
	case m.Order != nil:
		shape, what = "value", "the "+target+" of "+rowsWords(m.Order)
	default:
		shape, what = "value", "the "+target
	}
	if m.Order != nil {
		what += tiesWords[m.Order.Ties]
	}
	return shape, what, where
}

// extremes are what a "top" or "bottom" check compares with: pandas' method and its word.
var extremes = map[string]struct{ method, word string }{"top": {"max", "highest"}, "bottom": {"min", "lowest"}}

// tiesWords say how a ranking broke ties, as the question asked.
var tiesWords = map[meaning.Ties]string{
	meaning.TiesAlphabetical: " (ties broken alphabetically, as asked)",
	meaning.TiesReverse:      " (ties broken in reverse alphabetical order, as asked)",
	meaning.TiesFileOrder:    " (ties broken by the file's row order, as asked)",
}

// neighbourWords names the row a placement takes: "the row right after the one where `Round`
// is 3"; with other conditions, "the nearest row after …" among those passing them.
func neighbourWords(c meaning.Condition, among bool) string {
	which := "the row right "
	if among {
		which = "the nearest row "
	}
	return which + c.Op + " the one where " + placedWords(c.Ref)
}

// listedWords says a placement whose answer is a value of the column naming the reference:
// "listed after Midwest in the file's order" (the next other value); "" when the reference is
// named otherwise.
func listedWords(c meaning.Condition, target string) string {
	if len(c.Ref) != 1 || c.Ref[0].Column != target || c.Ref[0].Op != "==" {
		return ""
	}
	return "listed " + c.Op + " " + c.Ref[0].Value + " in the file's order"
}

// skipsReference reports the condition that keeps a placement off the value it names (see
// neighbourWords), said with the placement.
func skipsReference(c, near meaning.Condition) bool {
	return (c.Op == "!=" || c.Op == "not in") && slices.ContainsFunc(near.Ref, func(r meaning.Condition) bool {
		return r.Column == c.Column && r.Value == c.Value && slices.Equal(r.Values, c.Values)
	})
}

// placedWords says the conditions naming a reference row: "`Region` is Midwest".
func placedWords(ref []meaning.Condition) string {
	var words []string
	for _, r := range ref {
		words = append(words, conditionWords(r))
	}
	return strings.Join(words, " and ")
}

// extremesWords names the extreme values of the column an order ranks by: "the lowest `age`",
// "the 3 highest values of `Fare`".
func extremesWords(o *meaning.Order) string {
	if o.N == 1 {
		return fmt.Sprintf("the %s `%s`", endWord(o), o.Column)
	}
	return fmt.Sprintf("the %d %s values of `%s`", o.N, endWord(o), o.Column)
}

// endWord says which end of its scale an order keeps.
func endWord(o *meaning.Order) string {
	switch {
	case o.Length && o.Desc:
		return "longest"
	case o.Length:
		return "shortest"
	case o.Desc:
		return "highest"
	}
	return "lowest"
}

// rowsWords names the rows an order selects: "the row with the lowest `age`", "the last row
// in the file's order".
func rowsWords(o *meaning.Order) string {
	if o.Position {
		end := "first"
		if o.Desc {
			end = "last"
		}
		if o.N == 1 {
			return fmt.Sprintf("the %s row in the file's order", end)
		}
		return fmt.Sprintf("the %s %d rows in the file's order", end, o.N)
	}
	if o.N == 1 {
		return fmt.Sprintf("the row with the %s `%s`", endWord(o), o.Column)
	}
	return fmt.Sprintf("the %d rows with the %s `%s`", o.N, endWord(o), o.Column)
}

// groupsWords names the groups a size order selects: "the 3 values of `country` with the most
// rows".
func groupsWords(m *meaning.Meaning) string {
	most := "most"
	if !m.Order.Desc {
		most = "fewest"
	}
	if o := m.Order; o.Each {
		return fmt.Sprintf("the %s of `%s` for each `%s` asked, highest first", aggName(o.Agg.String()), o.Column, m.Group)
	}
	if o := m.Order; o.Agg == meaning.Distinct {
		most := map[bool]string{true: "most", false: "fewest"}[o.Desc]
		if o.N == 1 {
			return fmt.Sprintf("the %s with the %s different values of `%s`", groupName(m), most, o.Column)
		}
		return fmt.Sprintf("the %s with the %s different values of `%s`", groupsName(m, o.N), most, o.Column)
	}
	if o := m.Order; o.Agg != meaning.NoAgg {
		end := endWord(o)
		if o.N == 1 {
			return fmt.Sprintf("the %s with the %s %s of `%s`", groupName(m), end, aggName(o.Agg.String()), o.Column)
		}
		return fmt.Sprintf("the %s with the %s %s of `%s`", groupsName(m, o.N), end, aggName(o.Agg.String()), o.Column)
	}
	if m.Order.N == 1 {
		return fmt.Sprintf("the %s with the %s rows", groupName(m), most)
	}
	return fmt.Sprintf("the %s with the %s rows", groupsName(m, m.Order.N), most)
}

// countWords says a comparison on a number of rows: "more than 2000".
func countWords(c meaning.Condition) string {
	words := map[string]string{"==": "exactly", "!=": "other than", ">": "more than", ">=": "at least", "<": "fewer than", "<=": "at most"}
	v := c.Value
	if x, err := strconv.ParseFloat(v, 64); err == nil {
		v = fmtNum(x)
	}
	return words[c.Op] + " " + v
}

// datePartWords says a condition on part of a date: "in 1978", "in February", "on September 17".
func datePartWords(c meaning.Condition) string {
	if c.Part == "%Y" {
		return map[bool]string{true: "not in ", false: "in "}[c.Op == "!="] + c.Value
	}
	var month, day int
	fmt.Sscanf(c.Value, "%d-%d", &month, &day)
	if month < 1 || month > 12 {
		return c.Op + " " + c.Value
	}
	words := "in " + time.Month(month).String()
	if day > 0 {
		words = fmt.Sprintf("on %s %d", time.Month(month), day)
	}
	if c.Op == "!=" {
		words = "not " + words
	}
	return words
}

// spelledAsIs reports a column whose numbers are names rather than amounts, written without
// thousands separators: years (1961) and identifiers (order_id 50003).
func spelledAsIs(column string) bool {
	words := schema.NameWords(column)
	return strings.Contains(strings.ToLower(column), "year") || len(words) > 0 && slices.Contains([]string{"id", "no", "number", "code", "#"}, words[len(words)-1])
}

// conditionWords says one condition: "`Sex` is female", "`Age` above 30".
func conditionWords(c meaning.Condition) string {
	switch c.Op {
	case "notna":
		return "`" + c.Column + "` has a value"
	case "isna":
		return "`" + c.Column + "` has no value"
	}
	switch c.Op {
	case "top", "bottom":
		if c.Pick != "" {
			return "`" + c.Pick + "` is that of the row with the " + extremes[c.Op].word + " `" + c.Column + "`"
		}
		return "`" + c.Column + "` is the " + extremes[c.Op].word + " of all rows"
	}
	if c.Column == "" {
		c.Column = "number of rows"
	}
	if c.Part != "" {
		return "`" + c.Column + "` " + datePartWords(c)
	}
	if c.Ref != nil {
		return "listed " + c.Op + " the row where " + placedWords(c.Ref)
	}
	if c.Same != nil {
		ref := c.Same.Value
		if len(c.Same.Values) > 0 {
			ref = strings.Join(c.Same.Values, " or ")
		}
		return "`" + c.Column + "` is the same as for `" + c.Same.Column + "` " + ref
	}
	words := map[string]string{"==": "is", "!=": "is not", ">": "above", ">=": "at least", "<": "below", "<=": "at most", "in": "is", "not in": "is neither"}
	switch {
	case c.Items && !c.Numeric && c.Op == "==":
		return "`" + c.Column + "` includes " + c.Value
	case c.Items && !c.Numeric && c.Op == "!=":
		return "`" + c.Column + "` does not include " + c.Value
	case c.Items && c.Numeric:
		return "the number of items in `" + c.Column + "` " + words[c.Op] + " " + c.Value
	}
	if c.Than != "" {
		return "`" + c.Column + "` " + words[c.Op] + " `" + c.Than + "`"
	}
	v := c.Value
	if len(c.Values) > 0 {
		v = strings.Join(c.Values, map[bool]string{true: " nor ", false: " or "}[c.Op == "not in"])
	}
	if c.Numeric && !spelledAsIs(c.Column) { // 1961, not 1,961
		if x, err := strconv.ParseFloat(v, 64); err == nil {
			v = fmtNum(x)
		}
	}
	return "`" + c.Column + "` " + words[c.Op] + " " + v
}

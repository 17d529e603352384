package analyst

import (
	"slices"
	"strconv"
)

// The lines every analysis cell starts with when the question prepared the data or the
// conversation derived columns: duplicates, fills and drops, then the derived columns, then
// encodings and scaling, each saying what it did in a marker of its own.

// prepare writes the preparation lines after df is chosen and before the filters.
func (g *gen) prepare() {
	ref := &g.q.refine
	ds := g.frameDerivations()
	if !ref.prepares() && len(ds) == 0 {
		return
	}
	g.line("df = df.copy()")
	if ref.Dedupe {
		g.line("_n0 = len(df)")
		g.line("df = df.drop_duplicates()")
		g.line("_emit(\"prep\", step=\"dedupe\", before=_n0, after=len(df))")
	}
	for _, f := range ref.Fills {
		g.fill(f)
	}
	switch ref.Drop {
	case "any":
		g.dropMissing(nil)
	case "cols":
		g.dropMissing(ref.DropOn)
	}
	for _, d := range ds {
		g.line("df[%s] = %s", py(d.Name), d.Py)
		if ref.defines(d.Name) || g.uses(d.Name) {
			g.emitDerived(d)
		}
	}
	if ref.Drop == "used" {
		g.dropMissing(g.usedColumns())
	}
	for _, t := range ref.Trims {
		g.trim(t)
	}
	for _, e := range ref.Encodes {
		g.encode(e)
	}
	for _, s := range ref.Scales {
		g.scale(s)
	}
}

// frameDerivations are the conversation's derived columns that this cell's frame can compute.
func (g *gen) frameDerivations() []derivation {
	var out []derivation
	have := map[string]bool{}
	for _, c := range g.p.Frames[g.q.Frame].Columns {
		have[c.Name] = !isDerivedColumn(c)
	}
	for _, d := range g.q.derived {
		ok := true
		for _, s := range d.Sources {
			ok = ok && have[s]
		}
		if ok {
			out = append(out, d)
			have[d.Name] = true
		}
	}
	return out
}

func isDerivedColumn(c Column) bool {
	return len(c.Dtype) > len(derivedDtype) && c.Dtype[len(c.Dtype)-len(derivedDtype):] == derivedDtype
}

// uses reports whether the query works on the column.
func (g *gen) uses(name string) bool {
	if slices.Contains(g.q.Measures, name) || slices.Contains(g.q.By, name) || g.q.DateCol == name {
		return true
	}
	return slices.ContainsFunc(g.q.Filters, func(f Filter) bool { return f.Col == name })
}

// usedColumns are the columns the analysis reads, for "ignore missing values".
func (g *gen) usedColumns() []string {
	var out []string
	for _, c := range append(append([]string{}, g.q.Measures...), g.q.By...) {
		if g.f.column(c) != nil {
			out = appendNew(out, c)
		}
	}
	return out
}

func (g *gen) emitDerived(d derivation) {
	if d.Kind == "cat" {
		g.line("_emit(\"derived\", name=%s, how=%s, n=int(df[%s].notna().sum()), rows=len(df), counts=[[str(k), int(v)] for k, v in df[%s].value_counts(sort=False).sort_index().items()][:12])",
			py(d.Name), py(d.How), py(d.Name), py(d.Name))
		return
	}
	g.line("_emit(\"derived\", name=%s, how=%s, n=int(df[%s].notna().sum()), rows=len(df), mean=df[%s].mean())", py(d.Name), py(d.How), py(d.Name), py(d.Name))
}

// dropMissing drops rows with a missing value in the columns, or in any column.
func (g *gen) dropMissing(cols []string) {
	g.line("_n0 = len(df)")
	if len(cols) == 0 {
		g.line("df = df.dropna()")
	} else {
		g.line("df = df.dropna(subset=%s)", pyList(cols))
	}
	g.line("_emit(\"prep\", step=\"dropna\", before=_n0, after=len(df), cols=%s)", pyList(cols))
}

// fill fills the gaps of the named columns, or of every column with gaps that the value suits.
func (g *gen) fill(f fillSpec) {
	cols := pyList(f.Cols)
	if len(f.Cols) == 0 {
		cols = "[c for c in df.columns if df[c].isna().any()]"
		if f.How == "mean" || f.How == "median" {
			cols = "[c for c in df.select_dtypes('number').columns if df[c].isna().any()]"
		}
	}
	value := map[string]string{"mean": "df[_c].mean()", "median": "df[_c].median()", "mode": "df[_c].mode().iloc[0]"}[f.How]
	if f.How == "value" {
		value = f.Value
	}
	g.line("for _c in %s:", cols)
	g.line("    _v, _n = %s, int(df[_c].isna().sum())", value)
	g.line("    df[_c] = df[_c].fillna(_v)")
	g.line("    _emit(\"prep\", step=\"fill\", col=_c, how=%s, value=_v, n=_n)", py(f.How))
}

// encode turns a category into numbers: codes in sorted order, or one 0/1 column per value.
func (g *gen) encode(e encodeSpec) {
	if e.How == "onehot" {
		g.line("_before = list(df.columns)")
		g.line("df = pd.get_dummies(df, columns=[%s])", py(e.Col))
		g.line("_emit(\"prep\", step=\"onehot\", col=%s, added=[c for c in df.columns if c not in _before], cols=df.shape[1])", py(e.Col))
		return
	}
	g.line("_codes = {v: i for i, v in enumerate(sorted(df[%s].dropna().unique(), key=str))}", py(e.Col))
	g.line("df[%s] = df[%s].map(_codes)", py(e.Col), py(e.Col))
	g.line("_emit(\"prep\", step=\"label\", col=%s, codes=[[str(k), v] for k, v in _codes.items()][:20])", py(e.Col))
}

// scale rescales columns to 0–1 (min-max) or to z-scores (pandas' standard deviation, n − 1),
// or takes their logarithm, where values at or below zero (at or below −1 for log1p) have none.
func (g *gen) scale(s scaleSpec) {
	for _, c := range s.Cols {
		if fn, ok := logFuncs[s.How]; ok {
			floor := map[bool]string{true: "-1", false: "0"}[s.How == "log1p"]
			g.line("_a = int((df[%s] <= %s).sum())", py(c), floor)
			g.line("df[%s] = np.%s(df[%s].where(df[%s] > %s))", py(c), fn, py(c), py(c), floor)
			g.line("_emit(\"prep\", step=\"log\", col=%s, how=%s, n=_a)", py(c), py(s.How))
			continue
		}
		if s.How == "z" {
			g.line("_a, _b = df[%s].mean(), df[%s].std()", py(c), py(c))
			g.line("df[%s] = (df[%s] - _a) / _b", py(c), py(c))
		} else {
			g.line("_a, _b = df[%s].min(), df[%s].max()", py(c), py(c))
			g.line("df[%s] = (df[%s] - _a) / (_b - _a)", py(c), py(c))
		}
		g.line("_emit(\"prep\", step=\"scale\", col=%s, how=%s, a=_a, b=_b)", py(c), py(s.How))
	}
}

// logFuncs are numpy's functions for the logarithms a question can ask.
var logFuncs = map[string]string{"log": "log", "log10": "log10", "log1p": "log1p"}

// trim removes the rows whose value is an outlier by the rule, bounds computed on the rows as
// they are before any is removed; rows with no value in the column go too, as a comparison
// with the bounds drops them.
func (g *gen) trim(t trimSpec) {
	cols := t.Cols
	if len(cols) == 0 {
		cols = nonIDs(g.f, g.numericMeasures())
	}
	k := strconv.FormatFloat(t.K, 'g', -1, 64)
	g.line("_n0, _keep = len(df), pd.Series(True, index=df.index)")
	g.line("for _c in %s:", pyList(cols))
	g.line("    _s = df[_c]")
	if t.How == "zscore" {
		g.line("    _m, _sd = _s.mean(), _s.std(ddof=0)")
		g.line("    _lo, _hi = _m - %s * _sd, _m + %s * _sd", k, k)
	} else {
		g.line("    _q1, _q3 = _s.quantile([0.25, 0.75])")
		g.line("    _lo, _hi = _q1 - %s * (_q3 - _q1), _q3 + %s * (_q3 - _q1)", k, k)
	}
	g.line("    _in = _s.between(_lo, _hi)")
	g.line("    _emit(\"prep\", step=\"trim\", col=_c, method=%s, k=%s, default=%s, low=float(_lo), high=float(_hi), n=int((~_in & _s.notna()).sum()), missing=int(_s.isna().sum()))",
		py(t.How), k, pyBool(t.Defaults))
	g.line("    _keep &= _in")
	g.line("df = df[_keep]")
	g.line("_emit(\"prep\", step=\"trimmed\", before=_n0, after=len(df))")
}

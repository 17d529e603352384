package analyst

import (
	"strconv"
	"strings"
)

// The cells of statistical tests: each prints the statistic, the p-value and the α the verdict
// uses, in one marker the sentence reads (answer_tests.go).

// alpha is the significance level asked, or 0.05.
func (g *gen) alpha() string {
	if a := g.q.stat.alpha; a > 0 {
		return strconv.FormatFloat(a, 'g', -1, 64)
	}
	return "0.05"
}

func (g *gen) test() {
	g.prelude()
	g.line("import scipy.stats as sps")
	g.line("alpha = %s", g.alpha())
	switch s := &g.q.stat; s.test {
	case "normality":
		g.normalityDef()
		g.eachNumeric(g.normality)
	case "shape":
		g.eachNumeric(g.shape)
	case "ci":
		g.eachNumeric(g.meanInterval)
	case "ttest1":
		g.oneSample()
	case "ttest2", "mwu":
		g.twoGroups()
	case "anova", "kruskal":
		g.manyGroups()
	case "paired", "wilcoxon":
		g.pairedTest()
	case "chi2":
		g.chi2()
	case "corrtest":
		g.corrTest()
	}
}

// eachNumeric runs a one-column test on each numeric column asked, per group when grouped.
func (g *gen) eachNumeric(one func(col, series, group string)) {
	for _, m := range nonIDs(g.f, g.numericMeasures()) {
		if len(g.q.By) > 0 {
			g.line("for key, part in df.groupby(%s)[%s]:", py(g.q.By[0]), py(m))
			g.b.WriteString("    ")
			one(m, "part", "key")
			continue
		}
		one(m, col(m), "None")
	}
}

// normalityDef writes the helper testing one column: Shapiro–Wilk up to 5,000 values (its
// p-value is accurate there), D'Agostino–Pearson above, unless the question named one.
func (g *gen) normalityDef() {
	choose := `"shapiro" if len(s) <= 5000 else "dagostino"`
	if g.q.stat.method != "" {
		choose = py(g.q.stat.method)
	}
	g.line("def _normality(s, col, group, by, alpha):")
	g.line("    test = %s", choose)
	g.line("    stat, p = sps.shapiro(s) if test == \"shapiro\" else sps.normaltest(s)")
	g.line("    print(col, group or \"\", test, \"statistic\", round(float(stat), 4), \"p\", float(p))")
	g.line("    _emit(\"normality\", col=col, group=None if group is None else str(group), by=by, test=test, stat=float(stat), p=float(p), n=len(s), alpha=alpha, skew=float(s.skew()), asked=%s)", pyBool(g.q.stat.method != ""))
}

// normality calls the helper on one column, or one group of it.
func (g *gen) normality(m, series, group string) {
	by := "None"
	if len(g.q.By) > 0 {
		by = py(g.q.By[0])
	}
	g.line("_normality(%s.dropna(), %s, %s, %s, alpha)", series, py(m), group, by)
}

// shape gives the skewness and the excess kurtosis as pandas computes them (bias-corrected), or
// as SciPy does (biased) when the question asks for scipy.stats.skew.
func (g *gen) shape(m, series, group string) {
	s := &g.q.stat
	by := "None"
	if len(g.q.By) > 0 {
		by = py(g.q.By[0])
	}
	skew, kurt := series+".skew()", series+".kurt()"
	if g.q.refine.scipyShape() {
		g.line("import scipy.stats as sps")
		skew, kurt = "sps.skew("+series+".dropna())", "sps.kurtosis("+series+".dropna())"
	}
	g.line("_emit(\"shape\", col=%s, group=None if %s is None else str(%s), by=%s, n=int(%s.notna().sum()), skew=float(%s), kurt=float(%s), asked_skew=%s, asked_kurt=%s, scipy=%s)",
		py(m), group, group, by, series, skew, kurt, pyBool(s.skew || !s.kurt), pyBool(s.kurt), pyBool(g.q.refine.scipyShape()))
}

func (g *gen) oneSample() {
	s := &g.q.stat
	value := strconv.FormatFloat(s.value, 'g', -1, 64)
	g.line("s = %s.dropna()", col(s.target))
	g.line("t, p = sps.ttest_1samp(s, %s, alternative=%s)", value, py(s.side))
	g.line("print(\"one-sample t-test\", round(float(t), 4), float(p))")
	g.line("_emit(\"ttest1\", col=%s, value=%s, side=%s, n=len(s), mean=float(s.mean()), t=float(t), p=float(p), alpha=alpha)", py(s.target), value, py(s.side))
}

// groupLevels writes the two or more groups compared: the ones named, else the column's values.
func (g *gen) groupLevels() {
	s := &g.q.stat
	if len(s.groups) > 0 {
		if c := g.f.column(s.groupBy); c != nil && c.Kind == "num" {
			g.line("levels = [%s]", strings.Join(s.groups, ", ")) // "4-cylinder cars": numbers, as the column holds them
			return
		}
		g.line("levels = %s", pyList(s.groups))
		return
	}
	g.line("levels = sorted(df[%s].dropna().unique().tolist())", py(s.groupBy))
}

func (g *gen) twoGroups() {
	s := &g.q.stat
	g.groupLevels()
	g.line("a = df.loc[df[%s] == levels[0], %s].dropna()", py(s.groupBy), py(s.target))
	g.line("b = df.loc[df[%s] == levels[1], %s].dropna()", py(s.groupBy), py(s.target))
	if s.test == "mwu" {
		g.line("stat, p = sps.mannwhitneyu(a, b, alternative=%s)", py(s.side))
		g.line("test = \"mwu\"")
	} else {
		g.line("stat, p = sps.ttest_ind(a, b, equal_var=%s, alternative=%s)", pyBool(s.method == "student"), py(s.side))
		g.line("test = %s", py(map[bool]string{true: "student", false: "welch"}[s.method == "student"]))
	}
	g.line("print(test, levels[:2], round(float(stat), 4), float(p))")
	g.line("_emit(\"twogroups\", test=test, col=%s, by=%s, a=str(levels[0]), b=str(levels[1]), n_a=len(a), n_b=len(b), mean_a=float(a.mean()), mean_b=float(b.mean()), median_a=float(a.median()), median_b=float(b.median()), stat=float(stat), p=float(p), side=%s, alpha=alpha)",
		py(s.target), py(s.groupBy), py(s.side))
}

func (g *gen) manyGroups() {
	s := &g.q.stat
	g.groupLevels()
	g.line("parts = [df.loc[df[%s] == v, %s].dropna() for v in levels]", py(s.groupBy), py(s.target))
	g.line("parts, levels = [x for x in parts if len(x)], [v for v, x in zip(levels, parts) if len(x)]")
	g.line("if len(parts) < 2:")
	g.line("    raise ValueError(%s + str(len(parts)) + %s)", py(s.groupBy+" has "), py(" group with values of "+s.target+"; the test needs at least two"))
	fn := map[bool]string{true: "kruskal", false: "f_oneway"}[s.test == "kruskal"]
	g.line("stat, p = sps.%s(*parts)", fn)
	g.line("means = sorted([[str(v), float(x.mean())] for v, x in zip(levels, parts)], key=lambda r: -r[1])")
	g.line("print(%s, round(float(stat), 4), float(p))", py(s.test))
	g.line("_emit(\"manygroups\", test=%s, col=%s, by=%s, k=len(parts), n=int(sum(len(x) for x in parts)), stat=float(stat), p=float(p), alpha=alpha, means=means[:12])",
		py(s.test), py(s.target), py(s.groupBy))
}

func (g *gen) pairedTest() {
	s := &g.q.stat
	a, b := s.features[0], s.features[1]
	g.line("pair = df[[%s, %s]].dropna()", py(a), py(b))
	if s.test == "wilcoxon" {
		g.line("stat, p = sps.wilcoxon(pair[%s], pair[%s])", py(a), py(b))
	} else {
		g.line("stat, p = sps.ttest_rel(pair[%s], pair[%s])", py(a), py(b))
	}
	g.line("print(%s, round(float(stat), 4), float(p))", py(s.test))
	g.line("_emit(\"paired\", test=%s, a=%s, b=%s, n=len(pair), mean_diff=float((pair[%s] - pair[%s]).mean()), stat=float(stat), p=float(p), alpha=alpha)",
		py(s.test), py(a), py(b), py(a), py(b))
}

func (g *gen) chi2() {
	s := &g.q.stat
	a, b := s.features[0], s.features[1]
	g.line("table = pd.crosstab(df[%s], df[%s])", py(a), py(b))
	g.line("stat, p, dof, expected = sps.chi2_contingency(table)")
	g.line("n = int(table.values.sum())")
	g.line("cramers_v = (stat / (n * (min(table.shape) - 1))) ** 0.5 if min(table.shape) > 1 else float(\"nan\")")
	g.line("print(table.to_string())")
	g.line("_emit(\"chi2\", a=%s, b=%s, n=n, rows=table.shape[0], cols=table.shape[1], stat=float(stat), p=float(p), dof=int(dof), v=float(cramers_v), yates=bool(dof == 1), low_expected=int((expected < 5).sum()), alpha=alpha)", py(a), py(b))
}

func (g *gen) corrTest() {
	s := &g.q.stat
	a, b := s.features[0], s.features[1]
	method := s.method
	if method == "" {
		method = "pearson"
	}
	fn := map[string]string{"pearson": "pearsonr", "spearman": "spearmanr", "kendall": "kendalltau"}[method]
	g.line("pair = df[[%s, %s]].dropna()", py(a), py(b))
	g.line("r, p = sps.%s(pair[%s], pair[%s])", fn, py(a), py(b))
	g.line("rho = sps.spearmanr(pair[%s], pair[%s])[0]", py(a), py(b))
	g.line("print(%s, round(float(r), 4), float(p))", py(method))
	g.line("_emit(\"corrtest\", method=%s, a=%s, b=%s, n=len(pair), r=float(r), p=float(p), rho=float(rho), linear=%s, alpha=alpha)", py(method), py(a), py(b), pyBool(s.linear))
}

// meanInterval gives the confidence interval of a column's mean from Student's t distribution
// with n − 1 degrees of freedom, as scipy.stats.t.interval with the standard error sem gives it.
func (g *gen) meanInterval(m, series, group string) {
	by := "None"
	if len(g.q.By) > 0 {
		by = py(g.q.By[0])
	}
	level := strconv.FormatFloat(g.q.stat.level, 'g', -1, 64)
	// one line, as eachNumeric indents the first line only into its loop
	g.line("_s = %s.dropna(); _low, _high = sps.t.interval(%s, len(_s) - 1, loc=_s.mean(), scale=sps.sem(_s)); "+
		"_emit(\"ci\", col=%s, group=None if %s is None else str(%s), by=%s, n=len(_s), mean=float(_s.mean()), sem=float(sps.sem(_s)), low=float(_low), high=float(_high), level=%s)",
		series, level, py(m), group, group, by, level)
}

package analyst

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The sentences of tests and outlier rules: the verdict in plain words first, then the test
// and why it was chosen, then the statistic and the p-value, all read from the marker.

// statSentence writes the sentence of a test, outlier-rule or model marker; ok is false for
// any other kind.
func statSentence(m marker) (string, bool) {
	write, ok := map[string]func(marker) string{
		"normality": normalitySentence, "shape": shapeSentence, "ci": intervalSentence, "ttest1": oneSampleSentence, "twogroups": twoGroupsSentence,
		"manygroups": manyGroupsSentence, "paired": pairedSentence, "chi2": chi2Sentence, "corrtest": corrTestSentence,
		"outliersby": outliersBySentence, "outliercountsby": outlierCountsBySentence, "regression": regressionSentence,
		"classifier": classifierSentence, "kmeans": kmeansSentence, "naive": naiveSentence,
	}[m.str("kind")]
	if !ok {
		return "", false
	}
	return write(m), true
}

// pValue writes a p-value; one below what a float holds is said as such.
func pValue(m marker) string {
	p, _ := m.num("p")
	if p == 0 {
		return "p < 1e-300"
	}
	return "p = " + fmtNum(p)
}

// significant reports whether the marker's p-value is below its α.
func significant(m marker) bool {
	p, _ := m.num("p")
	a, _ := m.num("alpha")
	return p < a
}

// verdictWords says whether a result is significant at the marker's α, in the words the
// replies share: "is statistically significant" or "is not statistically significant".
func verdictWords(m marker) string {
	if significant(m) {
		return fmt.Sprintf("is statistically significant at α = %s (%s < %s)", m.str("alpha"), pValue(m), m.str("alpha"))
	}
	return fmt.Sprintf("is not statistically significant at α = %s (%s ≥ %s)", m.str("alpha"), pValue(m), m.str("alpha"))
}

// ofGroup names the column, and the group when the test ran per group.
func ofGroup(m marker) string {
	if g := m.str("group"); g != "" {
		return fmt.Sprintf("`%s` for %s = %s", m.str("col"), m.str("by"), g)
	}
	return "`" + m.str("col") + "`"
}

var testTitle = map[string]string{"shapiro": "Shapiro–Wilk", "dagostino": "D'Agostino–Pearson", "welch": "Welch's t-test",
	"student": "Student's t-test", "mwu": "Mann–Whitney U test", "anova": "One-way ANOVA", "kruskal": "Kruskal–Wallis H test",
	"paired": "Paired t-test", "wilcoxon": "Wilcoxon signed-rank test", "pearson": "Pearson", "spearman": "Spearman", "kendall": "Kendall"}

func normalitySentence(m marker) string {
	verdict := "**Yes: " + ofGroup(m) + " looks normally distributed**: the test finds no evidence against normality"
	if significant(m) {
		verdict = "**No: " + ofGroup(m) + " is not normally distributed**"
	}
	n, _ := m.num("n")
	why := "chosen because n is at most 5,000"
	sym := "W"
	if m.str("test") == "dagostino" {
		why, sym = "chosen because n is above 5,000, where Shapiro–Wilk's p-value is unreliable", "K²"
	}
	if m["asked"] == true {
		why = "as asked"
	}
	cmp := "below"
	if !significant(m) {
		cmp = "at or above"
	}
	skew, _ := m.num("skew")
	return fmt.Sprintf("%s (α = %s). %s test (n = %s, %s): %s = %s, %s, %s α. Skewness %s: %s.",
		verdict, m.str("alpha"), testTitle[m.str("test")], fmtInt(int64(n)), why, sym, fmtNum(numOf(m["stat"])), pValue(m), cmp, fmtNum(skew), skewWords(skew))
}

// skewWords reads a skewness: under 0.5 in size about symmetric, under 1 moderate, else high.
func skewWords(s float64) string {
	side := "right-skewed (a longer tail of large values)"
	if s < 0 {
		side = "left-skewed (a longer tail of small values)"
	}
	switch a := math.Abs(s); {
	case a < 0.5:
		return "approximately symmetric"
	case a < 1:
		return "moderately " + side
	}
	return "highly " + side
}

// kurtWords reads an excess kurtosis, 0 for a normal distribution.
func kurtWords(k float64) string {
	switch {
	case k > 1:
		return "heavier tails than a normal distribution (leptokurtic)"
	case k < -1:
		return "lighter tails than a normal distribution (platykurtic)"
	}
	return "tails close to a normal distribution's (mesokurtic)"
}

func shapeSentence(m marker) string {
	skew, _ := m.num("skew")
	kurt, _ := m.num("kurt")
	var parts []string
	if m["asked_skew"] == true {
		parts = append(parts, fmt.Sprintf("skewness **%s**: %s", fmtNum(skew), skewWords(skew)))
	}
	if m["asked_kurt"] == true {
		parts = append(parts, fmt.Sprintf("excess kurtosis **%s**: %s", fmtNum(kurt), kurtWords(kurt)))
	}
	how := "As pandas computes them (bias-corrected; a normal distribution has 0 for both)."
	if m["scipy"] == true {
		how = "As scipy.stats.skew and scipy.stats.kurtosis compute them (the biased estimates, as asked; a normal distribution has 0 for both)."
	}
	return fmt.Sprintf("%s (n = %s): %s. %s", capital(ofGroup(m)), m.str("n"), strings.Join(parts, "; "), how)
}

// sideWords names a one-sided alternative, or "" for two-sided.
func sideWords(side string) string {
	return map[string]string{"greater": "greater than", "less": "less than"}[side]
}

func oneSampleSentence(m marker) string {
	rel := sideWords(m.str("side"))
	if rel == "" {
		rel = "different from"
	}
	yes := "**No"
	if significant(m) {
		yes = "**Yes"
	}
	return fmt.Sprintf("%s: the mean of `%s` (%s) being %s %s %s.** One-sample t-test (%s, n = %s): t = %s, %s.",
		yes, m.str("col"), m.str("mean"), rel, m.str("value"), verdictWords(m), sideName(m.str("side")), m.str("n"), fmtNum(numOf(m["t"])), pValue(m))
}

func sideName(side string) string {
	if side == "two-sided" || side == "" {
		return "two-sided"
	}
	return "one-sided, " + sideWords(side)
}

func twoGroupsSentence(m marker) string {
	yes := "**No"
	if significant(m) {
		yes = "**Yes"
	}
	centre, a, b := "mean", m.str("mean_a"), m.str("mean_b")
	why := "two independent groups; it does not assume equal variances"
	sym := "t"
	switch m.str("test") {
	case "mwu":
		centre, a, b, sym = "median", m.str("median_a"), m.str("median_b"), "U"
		why = "two independent groups, no normality assumed"
	case "student":
		why = "two independent groups, equal variances assumed, as in the pooled independent two-sample t-test; say “Welch” for unequal variances"
	}
	ga, gb := groupLabel(m, m.str("a")), groupLabel(m, m.str("b"))
	what := "the difference in `" + m.str("col") + "` between " + ga + " and " + gb
	if side := m.str("side"); side == "greater" || side == "less" {
		what = "`" + m.str("col") + "` being " + side + " for " + ga + " than for " + gb
	}
	return fmt.Sprintf("%s: %s %s.** %s: %s %s vs %s %s. %s (`%s`, %s; %s): %s = %s, %s; n = %s and %s.",
		yes, what, verdictWords(m), capital(centre), ga, a, gb, b, testTitle[m.str("test")], m.str("by"), sideName(m.str("side")), why,
		sym, fmtNum(numOf(m["stat"])), pValue(m), m.str("n_a"), m.str("n_b"))
}

// groupLabel names a group of a test: its value, with the column's name when the value is a
// number ("`cylinders` 4"), which alone says nothing.
func groupLabel(m marker, v string) string {
	if _, err := strconv.ParseFloat(v, 64); err == nil {
		return "`" + m.str("by") + "` " + v
	}
	return v
}

func manyGroupsSentence(m marker) string {
	yes := "**No"
	if significant(m) {
		yes = "**Yes"
	}
	sym, why := "F", "comparing the means of more than two groups"
	if m.str("test") == "kruskal" {
		sym, why = "H", "comparing more than two groups without assuming normality"
	}
	return fmt.Sprintf("%s: the difference in `%s` across the %s groups of `%s` %s.** %s (%s, n = %s): %s = %s, %s. Means: %s.",
		yes, m.str("col"), m.str("k"), m.str("by"), verdictWords(m), testTitle[m.str("test")], why, m.str("n"), sym, fmtNum(numOf(m["stat"])), pValue(m), pairs(m.list("means"), 12))
}

func pairedSentence(m marker) string {
	yes := "**No"
	if significant(m) {
		yes = "**Yes"
	}
	sym := "t"
	if m.str("test") == "wilcoxon" {
		sym = "W"
	}
	return fmt.Sprintf("%s: the difference between `%s` and `%s` %s.** Mean difference (%s − %s) %s. %s (the same %s rows measured twice): %s = %s, %s.",
		yes, m.str("a"), m.str("b"), verdictWords(m), m.str("a"), m.str("b"), m.str("mean_diff"), testTitle[m.str("test")], m.str("n"), sym, fmtNum(numOf(m["stat"])), pValue(m))
}

func chi2Sentence(m marker) string {
	verdict := fmt.Sprintf("**No: no significant association between `%s` and `%s`; they look independent.** The association %s", m.str("a"), m.str("b"), verdictWords(m))
	if significant(m) {
		verdict = fmt.Sprintf("**Yes: `%s` and `%s` are associated (not independent).** The association %s", m.str("a"), m.str("b"), verdictWords(m))
	}
	yates := ""
	if m["yates"] == true {
		yates = ", with Yates' continuity correction as the table is 2 × 2"
	}
	v, _ := m.num("v")
	s := fmt.Sprintf("%s. Chi-square test of independence on the %s × %s contingency table (n = %s%s): χ² = %s, dof = %s, %s; Cramér's V = %s (%s).",
		verdict, m.str("rows"), m.str("cols"), m.str("n"), yates, fmtNum(numOf(m["stat"])), m.str("dof"), pValue(m), fmtCorr(v), cramerWords(v))
	if low, _ := m.num("low_expected"); low > 0 {
		s += fmt.Sprintf(" %s cells expect fewer than 5 rows, so the p-value is approximate.", m.str("low_expected"))
	}
	return s
}

func cramerWords(v float64) string {
	switch {
	case v < 0.1:
		return "negligible"
	case v < 0.3:
		return "weak"
	case v < 0.5:
		return "moderate"
	}
	return "strong"
}

// strength names the size of a correlation coefficient.
func strength(r float64) string {
	switch a := math.Abs(r); {
	case a >= 0.7:
		return "strong"
	case a >= 0.4:
		return "moderate"
	case a >= 0.2:
		return "weak"
	}
	return "negligible"
}

func corrTestSentence(m marker) string {
	r, _ := m.num("r")
	rho, _ := m.num("rho")
	method := m.str("method")
	sym := map[string]string{"pearson": "r", "spearman": "ρ", "kendall": "τ"}[method]
	shape := "linear"
	if method != "pearson" {
		shape = "monotonic"
	}
	dir := "positive"
	if r < 0 {
		dir = "negative"
	}
	pair := "`" + m.str("a") + "` and `" + m.str("b") + "`"
	rel := fmt.Sprintf("a %s %s %s relationship", strength(r), dir, shape)
	var lead string
	switch {
	case m["linear"] == true && strength(r) == "negligible":
		lead = fmt.Sprintf("**No: the relationship between %s is not %s — its strength is negligible.**", pair, shape)
	case m["linear"] == true && strength(r) == "weak":
		lead = fmt.Sprintf("**Only weakly: %s have %s.**", pair, rel)
	case m["linear"] == true:
		lead = fmt.Sprintf("**Yes: %s have %s.**", pair, rel)
	case significant(m):
		lead = fmt.Sprintf("**Yes: %s have %s**, and the correlation %s.", pair, rel, verdictWords(m))
	default:
		lead = fmt.Sprintf("**No: %s have no significant correlation** (%s); the correlation %s.", pair, rel, verdictWords(m))
	}
	s := fmt.Sprintf("%s %s correlation (n = %s): %s = **%s**, %s.", lead, testTitle[method], m.str("n"), sym, fmtCorr(r), pValue(m))
	if m["linear"] == true {
		s += " The correlation " + verdictWords(m) + "."
		if method == "pearson" && math.Abs(rho)-math.Abs(r) > 0.1 {
			s += fmt.Sprintf(" Spearman ρ = %s is clearly higher: the relationship is monotonic but curved, so a straight line understates it.", fmtCorr(rho))
		}
	}
	return s
}

// ruleWords names an outlier rule from the marker's fields.
func ruleWords(m marker) string {
	k := fmtParam(m["k"])
	dflt := ""
	if m["default"] == true {
		dflt = ", the usual threshold as none was named"
	}
	switch m.str("method") {
	case "zscore":
		rule := map[string]string{"above": "z > ", "below": "z < −"}[m.str("side")]
		if rule == "" {
			rule = "|z| > "
		}
		return fmt.Sprintf("the z-score rule %s%s (z from the mean and the population standard deviation%s)", rule, k, dflt)
	case "iqr":
		return fmt.Sprintf("the %s × IQR rule (beyond Q1 − %s·IQR or Q3 + %s·IQR%s)", k, k, k, dflt)
	}
	lo, _ := m.num("low_pct")
	hi, _ := m.num("high_pct")
	switch {
	case lo <= 0:
		return fmt.Sprintf("the percentile rule: above the %s percentile%s", ordinal(hi), dflt)
	case hi >= 100:
		return fmt.Sprintf("the percentile rule: below the %s percentile%s", ordinal(lo), dflt)
	}
	return fmt.Sprintf("the percentile rule: outside the %s to %s percentiles%s", ordinal(lo), ordinal(hi), dflt)
}

// fmtParam writes a parameter as typed: 1.5, 3, 2.5, never 1.50.
func fmtParam(v any) string {
	f, ok := v.(float64)
	if !ok {
		return fmtAny(v)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// ordinal writes 99 as 99th, 1 as 1st, 2.5 as 2.5th.
func ordinal(v float64) string {
	s := fmtParam(v)
	if v != math.Trunc(v) {
		return s + "th"
	}
	n := int(v)
	switch {
	case n%100 >= 11 && n%100 <= 13:
		return s + "th"
	case n%10 == 1:
		return s + "st"
	case n%10 == 2:
		return s + "nd"
	case n%10 == 3:
		return s + "rd"
	}
	return s + "th"
}

func outliersBySentence(m marker) string {
	bounds := fmt.Sprintf("outside %s to %s", m.str("low"), m.str("high"))
	if m["low"] == nil {
		bounds = "above " + m.str("high") // an infinite bound prints as null
	} else if m["high"] == nil {
		bounds = "below " + m.str("low")
	}
	return fmt.Sprintf("**%s outliers** in `%s` (of %s values) by %s: the values %s.", m.str("n"), m.str("col"), m.str("rows_total"), ruleWords(m), bounds) + outlierSpans(m)
}

func outlierCountsBySentence(m marker) string {
	counts, _ := m["counts"].(map[string]any)
	var parts []string
	for _, k := range sortedKeys(counts) {
		parts = append(parts, fmt.Sprintf("`%s` %s", k, fmtAny(counts[k])))
	}
	return fmt.Sprintf("Outliers per column by %s (%s rows): %s.", ruleWords(m), m.str("rows"), strings.Join(parts, ", "))
}

// intervalSentence says a confidence interval of a mean and how it was computed.
func intervalSentence(m marker) string {
	level, _ := m.num("level")
	return fmt.Sprintf("The %s%% confidence interval for the mean of %s is **%s to %s** (mean %s, n = %s; Student's t with %s degrees of freedom, standard error %s).",
		strconv.FormatFloat(level*100, 'g', 4, 64), ofGroup(m), m.str("low"), m.str("high"), m.str("mean"), m.str("n"), fmtNum(numOr(m, "n")-1), fmtNum(numOf(m["sem"])))
}

package analyst

import (
	"cmp"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/analyst-workbench/workbench/emulator/analyst/schema"
)

// answerValue is one value of an answer, in the order the reply states them, with the words a
// format's placeholder may name it by: @p_value takes the value known as "p", @rmse the "rmse",
// @mean_fare the "mean" (of Fare).
type answerValue struct {
	label string
	v     any
	keys  []string
}

// whole gives a count as an integer, so that no rounding asked pads it with decimals ("389",
// never "389.000").
func whole(v any) any {
	if f, ok := v.(float64); ok && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return int64(f)
	}
	return v
}

// named is a value with its keys.
func named(label string, v any, keys ...string) answerValue {
	return answerValue{label: label, v: v, keys: keys}
}

// missingKeys name a count of missing values in a placeholder: @missing_count, @null_values.
var missingKeys = []string{"missing", "count", "total", "number", "n", "nan", "nans", "null", "nulls", "na"}

// aggKeys are the words that name each aggregate in a placeholder.
var aggKeys = map[string][]string{
	"mean": {"mean", "average", "avg"}, "median": {"median"}, "std": {"std", "standard", "deviation", "sd", "stdev"},
	"var": {"variance", "var"}, "sum": {"sum", "total"}, "min": {"min", "minimum", "lowest", "smallest"},
	"max": {"max", "maximum", "highest", "largest"}, "count": {"count", "number", "n"}, "nunique": {"unique", "distinct"},
	"skew": {"skew", "skewness"}, "kurt": {"kurtosis", "kurt"}, "iqr": {"iqr", "interquartile", "range"},
	"valrange": {"range", "spread"}, "cv": {"cv", "coefficient", "variation"}, "flagpct": {"percentage", "percent", "pct", "share"},
	"meanad": {"mad", "absolute", "deviation"}, "medad": {"mad", "absolute", "deviation"},
}

// columnKeys are a column's words, for placeholders that name the column: @mean_fare.
func columnKeys(col string, more ...string) []string {
	return append(schema.NameWords(col), more...)
}

// answerValues lists the values a reply states, for a rounded lead line and a format line.
// The rows a filter kept are a value only when nothing else was computed from them: "how many
// houses have more than 3 bedrooms" is their number, "the total price of houses in Riverside"
// their total.
func answerValues(ms []marker) []answerValue {
	var out, rows []answerValue
	for _, m := range ms {
		if m.str("kind") == "rows" {
			rows = append(rows, markerValues(m)...)
			continue
		}
		out = append(out, markerValues(m)...)
	}
	if len(out) == 0 {
		return rows
	}
	return out
}

// markerValues are one result's values.
func markerValues(m marker) []answerValue {
	col := m.str("col")
	switch m.str("kind") {
	case "stat":
		agg := m.str("agg")
		keys := aggKeys[agg]
		if q, ok := quantileOf(agg); ok {
			n := strconv.Itoa(int(math.Round(q * 100)))
			keys = []string{"percentile", "quantile", "p" + n, "q" + n, n + "th", n}
		}
		return []answerValue{named(aggName(agg)+" of `"+col+"`", m["value"], columnKeys(col, keys...)...)}
	case "dist":
		var out []answerValue
		for _, agg := range []string{"mean", "median", "std", "min", "max"} {
			out = append(out, named(aggName(agg)+" of `"+col+"`", m[agg], columnKeys(col, aggKeys[agg]...)...))
		}
		return out
	case "describe":
		stats, _ := m["stats"].(map[string]any)
		var out []answerValue
		for _, k := range []string{"count", "mean", "std", "min", "25%", "50%", "75%", "max"} {
			if v, ok := stats[k]; ok {
				out = append(out, named(k+" of `"+col+"`", v, columnKeys(col, append(aggKeys[k], strings.TrimSuffix(k, "%"))...)...))
			}
		}
		return out
	case "corr":
		out := []answerValue{correlationValue(m)}
		if p, ok := m["p"]; ok {
			out = append(out, named("p-value", p, "p", "pvalue"))
		}
		return out
	case "corrwith":
		if first, ok := firstItem(m.list("items")); ok {
			return []answerValue{named("strongest", first[0], "feature", "column", "variable", "name", "predictor", "attribute", "strongest"),
				named("its correlation", first[1], "r", "correlation", "coefficient", "corr")}
		}
		return nil
	case "corrmatrix":
		if top := m.list("strongest"); len(top) > 0 {
			if r, _ := top[0].([]any); len(r) == 3 {
				return []answerValue{named("strongest pair", fmtAny(r[0])+", "+fmtAny(r[1]), "pair", "pairs", "strongest", "columns"),
					named("its correlation", r[2], "r", "correlation", "coefficient", "corr")}
			}
		}
		return nil
	case "corrtest":
		return []answerValue{correlationValue(m),
			named("p-value", m["p"], "p", "pvalue", "significance"),
			named("significant", below(m["p"], m["alpha"]), "significant", "significance", "relationship", "result", "conclusion")}
	case "normality":
		return []answerValue{
			named("p-value", m["p"], "p", "pvalue"),
			named("statistic", m["stat"], "statistic", "stat", "w", "shapiro", "test"),
			named("normal", not(below(m["p"], m["alpha"])), "normal", "normality", "distribution", "distributed", "gaussian", "result", "conclusion"),
		}
	case "chi2":
		out := testValues(m, []string{"chi2", "chi", "square", "chisquare", "statistic", "stat", "x2"},
			[]string{"association", "associated", "independent", "dependent", "relationship", "result", "conclusion"})
		out[0].label = "chi-square"
		return slices.Insert(out, 2, named("degrees of freedom", whole(m["dof"]), "dof", "degrees", "freedom", "df"))
	case "manygroups":
		return testValues(m, []string{"statistic", "stat", "f", "h", "test", "anova", "kruskal"}, differenceKeys)
	case "twogroups", "paired", "ttest":
		return testValues(m, []string{"statistic", "stat", "t", "u", "f", "test"}, differenceKeys)
	case "regression":
		out := []answerValue{
			named("RMSE", m["rmse"], "rmse", "root", "error"),
			named("R²", m["r2"], "r2", "r", "squared", "rsquared", "determination", "score"),
			named("intercept", m["intercept"], "intercept"),
		}
		coefs := m.list("coefs")
		for _, c := range coefs {
			if p, _ := c.([]any); len(p) == 2 {
				keys := columnKeys(fmtAny(p[0]), "coef", "coefficient", "weight")
				if len(coefs) == 1 {
					keys = append(keys, "slope") // one predictor: its coefficient is the line's slope
				}
				out = append(out, named("coefficient of `"+fmtAny(p[0])+"`", p[1], keys...))
			}
		}
		return out
	case "rows":
		n, okN := m.num("n")
		of, okOf := m.num("of")
		if !okN || !okOf || of == 0 {
			return nil
		}
		return []answerValue{
			named("rows", whole(n), "count", "number", "n", "rows"),
			named("share", n/of, "proportion", "ratio", "fraction", "share", "rate"),
			named("percentage", 100*n/of, "percentage", "percent", "pct"),
		}
	case "outliercounts", "outliercountsby":
		counts, _ := m["counts"].(map[string]any)
		var out []answerValue
		for c, n := range counts {
			out = append(out, named("outliers in `"+c+"`", n, columnKeys(c, "outliers", "outlier", "count", "number", "n", "num")...))
		}
		slices.SortFunc(out, func(a, b answerValue) int { return strings.Compare(a.label, b.label) })
		return out
	case "outliers", "outliersby":
		return []answerValue{
			named("outliers in `"+col+"`", whole(m["n"]), columnKeys(col, "outliers", "outlier", "count", "number", "n", "num")...),
			named("lower bound", m["low"], "lower", "low", "bound", "min"),
			named("upper bound", m["high"], "upper", "high", "bound", "max"),
		}
	case "peak":
		return []answerValue{named(m.str("col"), m["value"], columnKeys(m.str("col"), "value", "max", "maximum", "highest", "min", "minimum", "lowest", "peak")...),
			named("date", m["date"], columnKeys(m.str("datecol"), "date", "day", "when", "time")...)}
	case "missing":
		counts, _ := m["counts"].(map[string]any)
		var out []answerValue
		for _, c := range m.list("asked") {
			name := fmtAny(c)
			n, ok := counts[name]
			if !ok {
				n = 0.0 // a column asked with no missing value has 0, not nothing
			}
			out = append(out, named("missing in `"+name+"`", n, columnKeys(name, missingKeys...)...))
		}
		return append(out, named("missing values", m["total"], missingKeys...))
	case "which":
		return []answerValue{named(m.str("entity"), m["label"], columnKeys(m.str("entity"), "name", "which", "id")...),
			named(m.str("col"), m["value"], columnKeys(m.str("col"), "value", "highest", "lowest", "max", "min")...)}
	case "group", "counts", "medians":
		var out []answerValue
		if items := m.list("items"); m.str("which") != "" && len(items) > 0 {
			// "which region has the highest average charges": the region is the answer
			if p, _ := items[0].([]any); len(p) == 2 {
				by := cmp.Or(m.str("by"), m.str("col")) // a group's key, or the counted column
				out = append(out, named(by, p[0], columnKeys(by, "name", "which", "group", "category")...))
			}
		}
		for _, it := range m.list("items") {
			if p, _ := it.([]any); len(p) == 2 {
				v := p[1]
				if m.str("kind") == "counts" {
					v = whole(v)
				}
				out = append(out, named(fmtLabel(p[0]), v, strings.Fields(strings.ToLower(fmtAny(p[0])))...))
			}
		}
		return out
	case "size":
		return []answerValue{named("rows", whole(m["rows"]), "rows", "count", "number", "n", "total")}
	case "share":
		return []answerValue{named("share in percent", m["pct"], "percentage", "percent", "share", "proportion", "rate", "ratio")}
	case "unique":
		return []answerValue{named("distinct values of `"+col+"`", whole(m["n"]), columnKeys(col, "unique", "distinct", "count", "number", "n")...)}
	case "answer":
		return meaningAnswerValues(m)
	case "versus":
		if m.str("op") == "-" {
			return []answerValue{named("difference", m["value"], "difference", "diff", "gap", "value")}
		}
		return []answerValue{named("ratio", m["value"], "ratio", "proportion", "value")}
	case "corrby":
		var out []answerValue
		for _, it := range m.list("items") {
			if p, _ := it.([]any); len(p) == 4 {
				words := strings.Fields(strings.ToLower(fmtAny(p[0])))
				out = append(out, named(fmtLabel(p[0])+" r", p[1], slices.Concat(words, []string{"r", "correlation", "coefficient", "corr"})...),
					named(fmtLabel(p[0])+" p-value", p[2], slices.Concat(words, []string{"p", "pvalue"})...))
			}
		}
		return out
	case "ci":
		return []answerValue{
			named("lower bound", m["low"], columnKeys(col, "lower", "low", "lo", "min", "left", "lb", "start", "from")...),
			named("upper bound", m["high"], columnKeys(col, "upper", "high", "hi", "max", "right", "ub", "end", "to")...),
			named("mean of `"+col+"`", m["mean"], columnKeys(col, "mean", "average", "avg")...),
		}
	case "shape":
		return []answerValue{
			named("skewness of `"+col+"`", m["skew"], columnKeys(col, "skew", "skewness")...),
			named("kurtosis of `"+col+"`", m["kurt"], columnKeys(col, "kurtosis", "kurt")...),
		}
	case "kmeans":
		return []answerValue{named("inertia", m["inertia"], "inertia", "sse", "wcss")}
	}
	if v, ok := m["value"]; ok && !isPrepKind(m.str("kind")) {
		return []answerValue{named(m.str("kind"), v, m.str("kind"))}
	}
	return nil
}

// correlationValue is a correlation's coefficient.
func correlationValue(m marker) answerValue {
	return named("correlation of `"+m.str("a")+"` and `"+m.str("b")+"`", m["r"], "r", "correlation", "coefficient", "corr", "pearson", "spearman", "rho", "kendall", "tau")
}

// testValues are a test's statistic, its p-value and whether p is below the cell's α, the
// first and the last named by the test's own words as well.
func testValues(m marker, statKeys, verdictKeys []string) []answerValue {
	return []answerValue{
		named("statistic", m["stat"], statKeys...),
		named("p-value", m["p"], "p", "pvalue"),
		named("significant", below(m["p"], m["alpha"]), append([]string{"significant", "significance"}, verdictKeys...)...),
	}
}

// differenceKeys name the verdict of a test of groups: "@significant_difference[…]".
var differenceKeys = []string{"difference", "different", "result", "conclusion"}

// meaningAnswerValues are the values of an answer the meaning path reported: its verdict, or
// the values it found.
func meaningAnswerValues(m marker) []answerValue {
	if v, ok := m["verdict"].(bool); ok {
		return []answerValue{named("answer", v, "answer", "result", "verdict", "is", "exists", "any")}
	}
	var out []answerValue
	for _, v := range m.list("values") {
		out = append(out, named("value", v, "value", "answer", "result"))
	}
	return out
}

// below reports p < alpha (0.05 when the cell gave none), or nil when p is missing.
func below(p, alpha any) any {
	pv, ok := p.(float64)
	if !ok || math.IsNaN(pv) {
		return nil
	}
	a, ok := alpha.(float64)
	if !ok || a <= 0 {
		a = 0.05
	}
	return pv < a
}

// not negates a yes/no that may be missing.
func not(v any) any {
	if b, ok := v.(bool); ok {
		return !b
	}
	return v
}

// placeholderWords are the words of a placeholder's name: "@p_value" → p, value;
// "@meanFare" → mean, fare.
func placeholderWords(name string) []string {
	return schema.NameWords(strings.TrimPrefix(name, "@"))
}

// formatLine fills the format's placeholders with the answer's values: each takes the unused
// value its name names best (@p_value the p-value, @mean_fare the mean of Fare), else the next
// unused one in order; one placeholder for several values holds them all, separated by commas.
// A yes/no value is written in the words the format offers ("yes or no", "Normal" or "Not
// Normal" in the note after it), else as Yes or No.
func formatLine(format, note string, vals []answerValue, decimals int) string {
	holes := placeholder.FindAllStringIndex(format, -1)
	used := make([]bool, len(vals))
	var b strings.Builder
	last := 0
	own := holeDecimals(format, note)
	for i, h := range holes {
		b.WriteString(format[last:h[0]])
		hole := format[h[0]:h[1]]
		open := strings.IndexByte(hole, '[')
		name, content := hole[:open], hole[open+1:len(hole)-1]
		decimals := decimals
		if own[i] >= 0 {
			decimals = own[i]
		}
		var fill []string
		k := bestValue(placeholderWords(name), vals, used)
		if k < 0 && contentOptions(content) != nil {
			k = slices.IndexFunc(vals, func(v answerValue) bool { _, yes := v.v.(bool); return yes }) // a yes or no
			if k >= 0 && used[k] {
				k = -1
			}
		}
		if k >= 0 {
			used[k] = true
			fill = []string{fillValue(vals[k].v, content, note, decimals)}
		} else if len(holes) == 1 && len(vals) > 1 {
			for _, v := range vals {
				fill = append(fill, fillValue(v.v, content, note, decimals))
			}
		} else if k := slices.Index(used, false); k >= 0 && k < len(vals) {
			used[k] = true
			fill = []string{fillValue(vals[k].v, content, note, decimals)}
		} else {
			fill = []string{"n/a"}
		}
		b.WriteString(name + "[" + strings.Join(fill, ", ") + "]")
		last = h[1]
	}
	b.WriteString(format[last:])
	return b.String()
}

// holeDecimals reads the decimals the note asks of each placeholder on its own ("r_value is
// … rounded to two decimal places, p_value … rounded to four"), -1 where it asks none: the
// note from a placeholder's name to the next one's is read by the rounding clause reader.
func holeDecimals(format, note string) []int {
	holes := placeholder.FindAllString(format, -1)
	out := make([]int, len(holes))
	at := make([]int, len(holes))
	low := strings.ToLower(note)
	for i, h := range holes {
		out[i], at[i] = -1, -1
		open := strings.IndexByte(h, '[')
		for _, key := range []string{strings.ToLower(h[open+1 : len(h)-1]), strings.ToLower(h[1:open])} {
			if !vagueWords[key] && at[i] < 0 {
				at[i] = wordIndex(low, key)
			}
		}
	}
	for i := range holes {
		if at[i] < 0 {
			continue
		}
		end := len(note)
		for j := range holes {
			if at[j] > at[i] && at[j] < end {
				end = at[j]
			}
		}
		r := &clauseReader{text: note[at[i]:end], ws: scanClauseWords(note[at[i]:end]), ref: &refinements{Round: -1}}
		for k := range r.ws {
			r.readRound(k)
		}
		out[i] = r.ref.Round
	}
	return out
}

// bestValue returns the unused value whose keys share the most words with a placeholder's
// name, or -1 when none shares one. A key met as a whole word scores 2; "value", "result" and
// the like, which every placeholder may say, score nothing.
func bestValue(words []string, vals []answerValue, used []bool) int {
	best, bestScore := -1, 0
	for k, v := range vals {
		if used[k] {
			continue
		}
		score := 0
		for _, w := range words {
			if !vagueWords[w] && slices.Contains(v.keys, w) {
				score += 2
			}
		}
		if score > bestScore {
			best, bestScore = k, score
		}
	}
	return best
}

// vagueWords name no value in particular.
var vagueWords = setOf("value", "values", "result", "results", "answer", "the", "of", "in", "for", "is", "a")

// fillValue writes one value for a placeholder.
func fillValue(v any, content, note string, decimals int) string {
	if yes, ok := v.(bool); ok {
		return verdictWord(yes, content, note)
	}
	return fmtRounded(v, decimals)
}

// quoted matches a word or phrase in quotes.
var quoted = regexp.MustCompile(`["“']([^"”']{1,30})["”']`)

// verdictWord says yes or no in the words the format offers: its placeholder's own options
// ("yes or no", "True/False"), else two quoted options in the note that explains the format,
// else Yes or No.
func verdictWord(yes bool, content, note string) string {
	opts := contentOptions(content)
	if opts == nil {
		for _, m := range quoted.FindAllStringSubmatch(note, -1) {
			if !slices.Contains(opts, m[1]) && !strings.Contains(m[1], "_") && m[1] != content {
				opts = append(opts, m[1])
			}
		}
		if len(opts) != 2 {
			opts = nil
		}
	}
	if opts == nil {
		opts = []string{"Yes", "No"}
	}
	pos, neg := opts[0], opts[1]
	if negative(pos) && !negative(neg) {
		pos, neg = neg, pos
	}
	if yes {
		return pos
	}
	return neg
}

// contentOptions are the two answers a placeholder offers inside its brackets: "yes or no",
// "True/False", "yes_or_no", `"significant" or "not significant"`; nil when it offers none.
func contentOptions(content string) []string {
	for _, sep := range []string{"/", " or ", "|", "_or_"} { // "yes_or_no" as a placeholder's name
		if parts := strings.Split(content, sep); len(parts) == 2 {
			return []string{strings.Trim(parts[0], ` "'“”`), strings.Trim(parts[1], ` "'“”`)}
		}
	}
	return nil
}

// negative reports an option that says no: "no", "False", "Not Normal", "non-linear".
func negative(opt string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(opt), func(r rune) bool { return r == ' ' || r == '-' }) {
		if w == "no" || w == "not" || w == "false" || w == "non" || w == "none" || w == "insignificant" {
			return true
		}
	}
	return false
}

// formatColumnsUnused returns the placeholders of the answer format that name a column of the
// table the keyword rules' query does not read, or reads only as the key of groups it lists
// without picking one: "report their student_id" answered with the highest score would fill
// @student_id with the score.
func formatColumnsUnused(q *Query, p *Profile) []string {
	if q.refine.Format == "" || q.Frame < 0 || q.Frame >= len(p.Frames) {
		return nil
	}
	var out []string
	for _, hole := range placeholder.FindAllString(q.refine.Format, -1) {
		name := hole[:strings.IndexByte(hole, '[')]
		words := strings.Join(placeholderWords(name), " ")
		for _, c := range p.Frames[q.Frame].Columns {
			if strings.Join(nameWords(c.Name), " ") != words {
				continue
			}
			if q.Intent == intentPeak && c.Name == dateColumn(&p.Frames[q.Frame]) {
				continue // a peak's answer is its date and its value
			}
			if !q.reads(c.Name) || slices.Contains(q.By, c.Name) && q.Which == "" {
				// not read, or the groups' table where one group's name is asked for
				out = append(out, name)
			}
		}
	}
	return out
}

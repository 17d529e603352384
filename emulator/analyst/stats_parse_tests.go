package analyst

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// The parse of statistical tests: which test, on which columns and groups, at which α.

// readTest reads a test the question asks for; it reports whether it read one (perhaps as a
// decline, when the test is clear but its columns or groups are not).
func readTest(q *Query, ps *parsed, f *Frame, s *statAsk) bool {
	switch {
	case ps.has("normal"):
		s.test = "normality"
		if ps.hasWord("shapiro") {
			s.method = "shapiro"
		} else if ps.hasWord("dagostino") || ps.hasWord("normaltest") {
			s.method = "dagostino"
		}
		return needNumeric(q, f, s, "a normality test")
	case ps.hasWord("confidence") && ps.hasWord("interval") && !ps.has("ttest") && !ps.has("corr"):
		s.test, s.level = "ci", readLevel(ps, s)
		return needNumeric(q, f, s, "a confidence interval")
	case ps.has("skew") || ps.has("kurtosis"):
		s.test, s.skew, s.kurt = "shape", ps.has("skew"), ps.has("kurtosis")
		return needNumeric(q, f, s, "the skewness and kurtosis")
	case ps.has("chi2") || asksIndependence(ps) && len(catLikeColumns(q, f)) >= 2:
		s.test = "chi2"
		return readChi2(q, f, s)
	case ps.has("paired") || ps.has("wilcoxon"):
		s.test = "paired"
		if ps.has("wilcoxon") {
			s.test = "wilcoxon"
		}
		return readPaired(q, f, s)
	case ps.has("pearson") || ps.has("spearman") || ps.has("kendall") || (ps.has("corr") || ps.has("linear")) && (ps.has("signif") || ps.has("linear") || ps.freeWord("test") || ps.hasPhrase("p", "value") || ps.hasWord("tau")):
		s.test, s.linear = "corrtest", ps.has("linear")
		// The clause reader takes a method named as a constraint ("use Spearman") into
		// q.refine; one named in the question itself is a keyword here.
		s.method = cmp.Or(ps.firstOf("pearson", "spearman", "kendall"), q.refine.Method)
		return readCorrTest(q, f, s)
	case ps.has("ttest") || ps.has("mwu") || ps.has("anova") || ps.has("kruskal") || ps.has("signif") || ps.has("differ") && ps.freeWord("test"):
		return readGroupTest(q, ps, f, s)
	}
	return false
}

// asksIndependence reports whether the question asks if two things are independent or
// associated, which between categories is a chi-square test.
func asksIndependence(ps *parsed) bool {
	return ps.hasWord("independent") || ps.hasWord("associated") || ps.hasWord("association") || ps.hasWord("dependent") ||
		ps.has("signif") && ps.has("corr")
}

// needNumeric keeps the numeric columns of a one-column test, or declines without one.
func needNumeric(q *Query, f *Frame, s *statAsk, what string) bool {
	if len(nonIDs(f, numericOf(q, f))) == 0 {
		s.decline = "I understood that you ask for " + what + ", but not of which numeric column"
		s.readings = testReadings(q, f, s.test)
	}
	return true
}

// catLike reports whether a column can be a category of a test: text categories, booleans, and
// integer codes with few distinct values (a class, a rating, a 0/1 outcome).
func catLike(c *Column, f *Frame) bool {
	if isID(c, f.Rows) {
		return false
	}
	return c.Kind == "cat" || c.Kind == "bool" || c.Kind == "num" && c.Unique >= 2 && c.Unique <= 12
}

// catLikeColumns lists the query's columns that can be categories, in the question's order.
func catLikeColumns(q *Query, f *Frame) []string {
	var out []string
	for _, n := range append(append([]string{}, q.Measures...), q.By...) {
		if c := f.column(n); c != nil && catLike(c, f) && !contains(out, n) {
			out = append(out, n)
		}
	}
	for _, x := range q.Filters {
		if c := f.column(x.Col); x.Kind == "cat" && c != nil && !contains(out, x.Col) {
			out = append(out, x.Col)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// readChi2 takes the two categories of a test of independence; the filters on them only named
// their values, so they are dropped.
func readChi2(q *Query, f *Frame, s *statAsk) bool {
	cats := catLikeColumns(q, f)
	if len(cats) < 2 {
		s.decline = "A chi-square test of independence needs two category columns, and I found " + fmt.Sprint(len(cats))
		s.readings = testReadings(q, f, "chi2")
		return true
	}
	s.groupBy, s.features = cats[0], cats[:2]
	q.Filters = nil
	return true
}

// readPaired takes the two numeric columns measured on the same rows.
func readPaired(q *Query, f *Frame, s *statAsk) bool {
	nums := nonIDs(f, numericOf(q, f))
	if len(nums) != 2 {
		s.decline = "A paired test compares two numeric columns measured on the same rows, and I found " + fmt.Sprint(len(nums))
		s.readings = testReadings(q, f, s.test)
		return true
	}
	s.features = nums
	return true
}

// readCorrTest takes the two numeric columns of a correlation test.
func readCorrTest(q *Query, f *Frame, s *statAsk) bool {
	nums := nonIDs(f, numericOf(q, f))
	if len(nums) != 2 {
		s.decline = "A correlation test needs exactly two numeric columns, and I found " + fmt.Sprint(len(nums))
		s.readings = testReadings(q, f, "corrtest")
		return true
	}
	s.features = nums
	return true
}

// readGroupTest reads a comparison of a numeric column between groups (t-test, Mann–Whitney,
// ANOVA, Kruskal–Wallis), or of its mean with a value (one-sample t-test).
func readGroupTest(q *Query, ps *parsed, f *Frame, s *statAsk) bool {
	nums := nonIDs(f, numericOf(q, f))
	group, levels, named := testGroups(q, f, nums)
	if group != "" {
		nums = without(nums, group)
	}
	if len(nums) == 0 {
		s.test = "ttest2"
		s.decline = "I understood a significance test, but not of which numeric column"
		s.readings = testReadings(q, f, s.test)
		return true
	}
	s.target = nums[0]
	if group == "" {
		return readOneSample(q, ps, f, s, nums)
	}
	s.groupBy, s.groups = group, named
	s.side = direction(ps)
	nonpar := ps.has("mwu") || ps.has("kruskal")
	switch {
	case ps.has("anova") || ps.has("kruskal") || levels > 2 && !ps.has("ttest") && !ps.has("mwu"):
		s.test = "anova"
		if nonpar {
			s.test = "kruskal"
		}
		if s.side != "two-sided" {
			s.decline = "A one-sided comparison of more than two groups is not a test the rules run"
		}
	case levels == 2:
		s.test = "ttest2"
		if nonpar {
			s.test = "mwu"
		}
		if ps.hasWord("student") || ps.hasPhrase("equal", "variances") || ps.hasPhrase("equal", "variance") || textbookTTest(ps) {
			s.method = "student"
		}
		if s.side != "two-sided" && len(named) != 2 {
			s.decline = "A one-sided comparison needs the two groups named in order (“higher for A than for B”)"
		}
	default:
		s.test = "ttest2"
		s.decline = fmt.Sprintf("A t-test compares two groups, and `%s` has %d", group, levels)
	}
	switch {
	case q.Agg == "median" && !nonpar:
		s.decline = "A test of medians (Mood's median test) is beyond the tests the rules run; Mann–Whitney U and Kruskal–Wallis compare whole distributions"
	case q.Agg == "std" && !ps.hasWord("equal") && !ps.hasWord("unequal"): // "assuming equal variances" is Student's t-test
		s.decline = "A test of variances (Levene's, Bartlett's) is beyond the tests the rules run; the t-tests and ANOVA compare means"
	}
	if s.decline != "" {
		s.readings = testReadings(q, f, s.test)
	}
	return true
}

// textbookTTest reports whether the t-test is asked by its textbook name, "an independent
// (two-sample) t-test": the pooled-variance test, scipy's ttest_ind by default. Welch's is
// asked by name or by unequal variances, and stays the answer to a t-test named no further.
func textbookTTest(ps *parsed) bool {
	return ps.has("ttest") && (ps.hasWord("independent") || ps.hasPhrase("two", "sample")) &&
		!ps.hasWord("welch") && !ps.hasWord("welchs") && !ps.hasWord("unequal")
}

// testGroups finds the grouping of a comparison: a group-by key, two or more values named of
// one category ("between male and female"), or an integer-coded column among the measures.
// levels is how many groups it makes; named lists the groups named, in the question's order.
func testGroups(q *Query, f *Frame, nums []string) (group string, levels int, named []string) {
	for _, x := range q.Filters {
		if (x.Kind == "cat" || x.Kind == "num") && x.Op == "in" && len(x.Values) >= 2 {
			return x.Col, len(x.Values), x.Values // "4-cylinder cars and 6-cylinder cars" too
		}
	}
	if len(q.By) > 0 {
		if c := f.column(q.By[0]); c != nil {
			return c.Name, c.Unique, nil
		}
	}
	for _, n := range nums[min(1, len(nums)):] {
		if c := f.column(n); c != nil && catLike(c, f) {
			return n, c.Unique, nil
		}
	}
	return "", 0, nil
}

func without(list []string, s string) []string {
	var out []string
	for _, v := range list {
		if v != s {
			out = append(out, v)
		}
	}
	return out
}

// direction reads a one-sided alternative: "greater than", "higher", "lower".
func direction(ps *parsed) string {
	for _, t := range ps.toks {
		switch t.low {
		case ">", "higher", "greater", "larger", "bigger", "more", "exceeds", "above":
			return "greater"
		case "<", "lower", "less", "smaller", "fewer", "below":
			return "less"
		}
	}
	return "two-sided"
}

// readOneSample reads a one-sample t-test: the mean of a column against a value.
func readOneSample(q *Query, ps *parsed, f *Frame, s *statAsk, nums []string) bool {
	s.test = "ttest1"
	at := -1
	for i, t := range ps.toks {
		if t.num && !ps.taken[i] && !isYearOf(q, t.low) && !filterNumber(q, t.low) {
			at = i
			break
		}
	}
	if at < 0 || len(nums) != 1 {
		if len(nums) == 2 {
			s.test, s.features = "paired", nums
		}
		s.decline = "I understood a significance test, but not what to compare: two groups, two columns, or a mean and a value"
		s.readings = testReadings(q, f, s.test)
		return true
	}
	s.value, _ = parseNum(ps.toks[at].low)
	s.take(ps, at)
	s.side = direction(ps)
	return true
}

// filterNumber reports whether a number is the value of a condition on a number column:
// "4-cylinder cars" restricts the rows and is no mean to test against.
func filterNumber(q *Query, n string) bool {
	for _, x := range q.Filters {
		if x.Kind == "num" && (x.Op == "==" || x.Op == "in") && (x.Value == n || slices.Contains(x.Values, n)) {
			return true
		}
	}
	return false
}

// isYearOf reports whether a number is a year some date filter reads.
func isYearOf(q *Query, n string) bool {
	for _, x := range q.Filters {
		if x.Kind == "date" && strings.Contains(x.Value, n) {
			return true
		}
	}
	return false
}

// testReadings offers questions the rules answer, near what was asked, for a decline.
func testReadings(q *Query, f *Frame, test string) []string {
	nums := numericColumns(f)
	cats := categoryColumns(f)
	num, num2, cat := "x", "y", "group"
	if len(nums) > 0 {
		num = nums[0]
	}
	if ms := nonIDs(f, numericOf(q, f)); len(ms) > 0 {
		num = ms[0]
	}
	if len(nums) > 1 {
		num2 = nums[1]
		if num2 == num {
			num2 = nums[0]
		}
	}
	if len(cats) > 0 {
		cat = cats[0]
	}
	if len(q.By) > 0 {
		cat = q.By[0]
	}
	switch test {
	case "normality", "shape":
		return []string{"is " + num + " normally distributed?", "skewness and kurtosis of " + num}
	case "chi2":
		if named := catLikeColumns(q, f); len(named) > 1 {
			return []string{"chi-square test of independence between " + named[0] + " and " + named[1]}
		}
		if len(cats) > 1 {
			return []string{"chi-square test of independence between " + cats[0] + " and " + cats[1]}
		}
	case "paired", "wilcoxon", "corrtest":
		return []string{"paired t-test of " + num + " and " + num2, "is the correlation between " + num + " and " + num2 + " significant?"}
	}
	out := []string{"is the difference in " + num + " across " + cat + " significant?"}
	if c := f.column(cat); c != nil && len(c.Values) >= 2 {
		out = append([]string{"t-test of " + num + " between " + c.Values[0] + " and " + c.Values[1]}, out...)
	}
	return append(out, "one-sample t-test of "+num+" against "+meanGuess(f, num))
}

// meanGuess is a round value to test a mean against in a suggestion: the column's minimum.
func meanGuess(f *Frame, col string) string {
	if c := f.column(col); c != nil && c.Min != "" {
		return c.Min
	}
	return "0"
}

// readLevel reads a confidence level, "95%", "99 percent", "0.9", taking its number; 0.95 when
// none is typed.
func readLevel(ps *parsed, s *statAsk) float64 {
	for i, t := range ps.toks {
		v, ok := ordinalNumber(t.low)
		if !t.num || !ok || ps.taken[i] {
			continue
		}
		if v > 1 && v < 100 {
			v /= 100
		}
		if v >= 0.5 && v < 1 {
			s.take(ps, i)
			ps.taken[i] = true
			return v
		}
	}
	return 0.95
}

package analyst

import (
	"slices"
	"strings"
)

// completeStat checks a test, outlier rule or model against the table before any code is
// written, and returns a reply instead when the question cannot be answered as asked.
func completeStat(q *Query, f *Frame) string {
	s := &q.stat
	if (s.target != "" || len(s.features) > 0) && !slices.Equal(q.Measures, s.measures) {
		// A follow-up ("same for MSFT") changed the columns a test or model was read with; a
		// normality test or an outlier rule works on the measures and follows them.
		s.decline = "That follow-up changes the columns of the " + statNoun(s) + " before it; I read tests and models from a question asked in full"
		s.readings = nil
		return statDeclineReply(q, f)
	}
	for _, c := range append(append([]string{s.target, s.groupBy}, s.features...), s.groups...) {
		if c != "" && f.column(c) == nil && !contains(s.groups, c) {
			s.decline = "`" + c + "` is not a column of " + f.Key
			return statDeclineReply(q, f)
		}
	}
	return ""
}

// statsRun lists what the rules run, said when they decline a method.
const statsRun = "The built-in rules run normality tests (Shapiro–Wilk, D'Agostino–Pearson), skewness and kurtosis, " +
	"t-tests (one-sample, two groups, paired), Mann–Whitney U, Wilcoxon signed-rank, chi-square tests of independence, " +
	"one-way ANOVA, Kruskal–Wallis, Pearson, Spearman and Kendall correlation tests, outliers by z-score, IQR or percentiles, " +
	"linear and polynomial regression, logistic regression, decision-tree classifiers, k-means with a chosen k, and naive forecasts."

// statDeclineReply says which method or reading is out of reach, and offers the nearest
// questions the rules answer as links.
func statDeclineReply(q *Query, f *Frame) string {
	var b strings.Builder
	b.WriteString(q.stat.decline)
	b.WriteString(". I have run nothing rather than answer a nearby question.\n\n")
	b.WriteString(statsRun)
	if len(q.stat.readings) > 0 {
		b.WriteString("\n\nYou could ask instead:")
		b.WriteString(suggestionList(q.stat.readings[:min(len(q.stat.readings), maxSuggestions)]))
	}
	b.WriteString("\n\nLoaded: " + f.Key + " (columns " + quoteList(columnNames(f)) + ").")
	return b.String()
}

// statNoun names what a statAsk asks for, for a sentence.
func statNoun(s *statAsk) string {
	switch {
	case s.model != "":
		return modelNoun(s.model)
	case s.outlier != "":
		return "outlier rule"
	}
	return "test"
}

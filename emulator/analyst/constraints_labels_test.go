package analyst

import (
	"strings"
	"testing"
)

// TestLabelRules reads labelling sentences as benchmarks of data-analysis agents write them and
// checks the label each set of values gets.
func TestLabelRules(t *testing.T) {
	corr := func(r, p float64) []answerValue {
		return markerValues(marker{"kind": "corrtest", "r": r, "p": p, "alpha": 0.05, "a": "x", "b": "y"})
	}
	threeWay := "Calculate the Pearson correlation between x and y. Consider the relationship to be linear if the p-value is less than 0.05 and the absolute r value is greater than or equal to 0.5. " +
		"Consider the relationship to be nonlinear if the p-value is less than 0.05 and the absolute r value is less than 0.5. If the p-value is greater than or equal to 0.05, report that there is no significant correlation. " +
		`Format: @relationship_type[relationship_type] where relationship_type is "linear", "nonlinear", or "none".`
	oneSentence := `Calculate the correlation between x and y. Classify the relationship as "strong" if the absolute value of r is at least 0.5, and as "weak" if the absolute value of r is below 0.5. Format: @strength[label]`
	otherwise := `Calculate the correlation between x and y. Consider it "positive" if r > 0.3 and p < 0.05. Format: @kind[label] where label is "positive" or "unclear".`
	for _, c := range []struct {
		q    string
		vals []answerValue
		want string
	}{
		{threeWay, corr(-0.72, 1e-9), "linear"},
		{threeWay, corr(0.3, 0.001), "nonlinear"},
		{threeWay, corr(0.6, 0.2), "none"},
		{oneSentence, corr(-0.6, 0.01), "strong"},
		{oneSentence, corr(0.2, 0.01), "weak"},
		{otherwise, corr(0.5, 0.01), "positive"},
		{otherwise, corr(0.1, 0.01), "unclear"},
	} {
		proper, ref := readRefinements(c.q, &Profile{})
		got, _, ok := labelValue(ref.Labels, formatOptions(ref.FormatNote), c.vals)
		if !ok || got != c.want {
			t.Errorf("%q with %v: label %q (%v), want %q; rules %+v", c.q, c.vals, got, ok, c.want, ref.Labels)
		}
		if !strings.HasSuffix(proper, "correlation between x and y") {
			t.Errorf("the rules stay in the question: %q", proper)
		}
	}
	// a rule on a value the answer does not compute applies to nothing
	_, ref := readRefinements(threeWay, &Profile{})
	if _, _, ok := labelValue(ref.Labels, nil, markerValues(marker{"kind": "stat", "agg": "mean", "col": "x", "value": 3.0})); ok {
		t.Error("a label from a mean")
	}
}

package analyst

import (
	"strings"
	"testing"
)

// passengerProfile is the profile of a small passenger list, for reading clauses without a
// sandbox.
func passengerProfile() *Profile {
	cols := []Column{{Name: "PassengerId", Kind: "num", Unique: 10}, {Name: "Survived", Kind: "num"}, {Name: "Name", Kind: "text"},
		{Name: "Sex", Kind: "cat", Values: []string{"male", "female"}}, {Name: "Age", Kind: "num", Missing: 2},
		{Name: "SibSp", Kind: "num"}, {Name: "Parch", Kind: "num"}, {Name: "Fare", Kind: "num"},
		{Name: "Embarked", Kind: "cat", Values: []string{"S", "C", "Q"}}, {Name: "boarded", Kind: "date"}}
	return &Profile{Frames: []Frame{{Key: "passengers.csv", File: "passengers.csv", Rows: 10, Columns: cols}}}
}

func TestReadRefinements(t *testing.T) {
	t.Parallel()
	cases := []struct {
		q, proper string
		check     func(r refinements) bool
	}{
		{"What is the mean fare? Drop rows with missing values first.", "What is the mean fare?",
			func(r refinements) bool { return r.Drop == "any" }},
		{"Calculate the mean fare. Round to two decimals.", "Calculate the mean fare",
			func(r refinements) bool { return r.Round == 2 }},
		{"round the mean fare to 3 decimal places", "the mean fare",
			func(r refinements) bool { return r.Round == 3 }},
		{"Correlation between Age and Fare, use Spearman.", "Correlation between Age and Fare correlation",
			func(r refinements) bool { return r.Method == "spearman" }},
		{"Answer in this format: @mean_fare[value]. What is the mean fare?", "What is the mean fare?",
			func(r refinements) bool { return r.Format == "@mean_fare[value]" }},
		{"What is the mean Age? Fill missing Age with the median first.", "What is the mean Age?",
			func(r refinements) bool {
				return len(r.Fills) == 1 && r.Fills[0].How == "median" && r.Fills[0].Cols[0] == "Age"
			}},
		{"Remove duplicate rows, then how many rows are left?", "how many rows are left?",
			func(r refinements) bool { return r.Dedupe }},
		{"Min-max normalize Fare and give its mean", "Fare and give its mean",
			func(r refinements) bool { return len(r.Scales) == 1 && r.Scales[0].How == "minmax" }},
		{"Create a column FamilySize = SibSp + Parch, then give its correlation with Fare", "FamilySize , then give FamilySize correlation with Fare",
			func(r refinements) bool { return len(r.Derived) == 1 && r.Derived[0].How == "SibSp + Parch" }},
		{"bin ages into four groups and give the mean fare per group", "give the mean fare by AgeGroup",
			func(r refinements) bool { return len(r.Derived) == 1 && r.Derived[0].Kind == "cat" }},
		{"average fare for age groups 0-18, 19-40, 41+", "average fare for AgeGroup",
			func(r refinements) bool { return len(r.Derived) == 1 && len(r.Derived[0].Labels) == 3 }},
		{"fill missing ages by interpolation and give the mean age", "",
			func(r refinements) bool { return r.Unread != "" }},
		{"split revenue by region", "split revenue by region",
			func(r refinements) bool { return r.Unread == "" && len(r.Derived) == 0 }},
		{"what is the mean Age where Age = 30", "what is the mean Age where Age = 30",
			func(r refinements) bool { return len(r.Derived) == 0 }},
	}
	for _, c := range cases {
		proper, ref := readRefinements(c.q, passengerProfile())
		if c.proper != "" && strings.TrimSpace(proper) != c.proper {
			t.Errorf("%q: question proper %q, want %q", c.q, proper, c.proper)
		}
		if !c.check(ref) {
			t.Errorf("%q: refinements %+v", c.q, ref)
		}
	}
}

func TestFormatLine(t *testing.T) {
	t.Parallel()
	vals := []answerValue{{"a", 32.2041, nil}, {"b", 3.0, nil}}
	if got := formatLine("@mean_fare[value], @n[count]", "", vals, 2); got != "@mean_fare[32.20], @n[3.00]" {
		t.Errorf("two holes: %q", got)
	}
	if got := formatLine("@means[value]", "", vals, -1); got != "@means[32.20, 3]" {
		t.Errorf("one hole for two values: %q", got)
	}
	// each placeholder takes the value its name names, whatever the order of the results
	test := markerValues(marker{"kind": "normality", "p": 0.2, "stat": 0.98, "alpha": 0.05})
	if got := formatLine("@is_normal[yes or no] @p_value[p]", "", test, 3); got != "@is_normal[yes] @p_value[0.200]" {
		t.Errorf("named holes: %q", got)
	}
	groups := markerValues(marker{"kind": "twogroups", "p": 0.2, "stat": 1.1, "alpha": 0.05})
	if got := formatLine("@significant[yes_or_no]", "", groups, 3); got != "@significant[no]" {
		t.Errorf("options in a placeholder's name: %q", got)
	}
	if got := formatLine("@normality[result]", ` where "result" is "Not Normal" or "Normal"`, test, -1); got != "@normality[Normal]" {
		t.Errorf("verdict in the note's words: %q", got)
	}
	model := markerValues(marker{"kind": "regression", "rmse": 4.5, "r2": 0.8, "intercept": 1.0})
	if got := formatLine("@r_squared[v], @rmse[v]", "", model, 2); got != "@r_squared[0.80], @rmse[4.50]" {
		t.Errorf("model holes: %q", got)
	}
}

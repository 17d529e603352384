package analyst

import (
	"os"
	"regexp"
	"testing"
)

// TestStatMarkersHaveSentences checks that every marker kind the cells of tests, outlier rules
// and models emit has its sentence, so that no result is printed and then left unsaid.
func TestStatMarkersHaveSentences(t *testing.T) {
	t.Parallel()
	emitted := regexp.MustCompile(`_emit\(\\"(\w+)\\"`)
	for _, file := range []string{"code_tests.go", "code_outliers.go", "code_models.go"} {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		kinds := emitted.FindAllStringSubmatch(string(src), -1)
		if len(kinds) == 0 {
			t.Errorf("%s: no marker kinds found", file)
		}
		for _, k := range kinds {
			if s := sentence(marker{"kind": k[1]}); s == "" {
				t.Errorf("%s emits %q, which has no sentence", file, k[1])
			}
		}
	}
}

// TestStatThresholdsAreNoFilters checks that the numbers of a threshold, an α or a parameter
// never become row filters, and that "z-score" is never read as a value.
func TestStatThresholdsAreNoFilters(t *testing.T) {
	t.Parallel()
	f := Frame{Key: "weather.csv", File: "weather.csv", Rows: 730, Columns: []Column{
		{Name: "date", Kind: "date", Unique: 730}, {Name: "temperature", Kind: "num", Unique: 258},
		{Name: "wind_speed", Kind: "num", Unique: 231}, {Name: "wind_dir", Kind: "cat", Unique: 9, Values: []string{"N", "Z", "E"}},
	}}
	p := &Profile{Frames: []Frame{f}}
	for _, q := range []string{"outliers in temperature above 3 standard deviations", "wind_speed z-score > 2.5",
		"is temperature normally distributed at alpha 0.01?", "temperature outliers with |z| > 3", "kmeans k = 3 on temperature and wind_speed"} {
		pl := makePlan(q, nil, p)
		if len(pl.Query.Filters) > 0 {
			t.Errorf("%q: read as filters %v", q, pl.Query.Filters)
		}
		if pl.Query.Intent != intentOutliers && pl.Query.Intent != intentTest && pl.Query.Intent != intentModel {
			t.Errorf("%q: intent %s", q, pl.Query.Intent)
		}
	}
}

// TestStatFollowUps checks that a follow-up carries a one-column test over to the new column,
// and declines rather than rerun a two-column test on columns it did not name.
func TestStatFollowUps(t *testing.T) {
	t.Parallel()
	f := Frame{Key: "students.csv", File: "students.csv", Rows: 350, Columns: []Column{
		{Name: "gender", Kind: "cat", Unique: 2, Values: []string{"female", "male"}}, {Name: "math_score", Kind: "num", Unique: 57},
		{Name: "reading_score", Kind: "num", Unique: 53}, {Name: "writing_score", Kind: "num", Unique: 56},
	}}
	p := &Profile{Frames: []Frame{f}}
	pl := makePlan("same for reading_score", history([]string{"is math_score normally distributed?"}), p)
	if pl.Query.Intent != intentTest || pl.Reply != "" || len(pl.Query.Measures) != 1 || pl.Query.Measures[0] != "reading_score" {
		t.Errorf("normality follow-up: intent %s, measures %v, reply %q", pl.Query.Intent, pl.Query.Measures, pl.Reply)
	}
	if pl := makePlan("student's t-test reading_score by gender, assuming equal variances", nil, p); pl.Query.stat.test != "ttest2" || pl.Query.stat.method != "student" || pl.Reply != "" {
		t.Errorf("equal variances: test %q method %q reply %q", pl.Query.stat.test, pl.Query.stat.method, pl.Reply)
	}
	pl = makePlan("same for reading_score", history([]string{"paired t-test of math_score and writing_score"}), p)
	if pl.Reply == "" || len(pl.Cells) > 0 {
		t.Errorf("paired follow-up ran %d cells; a test on other columns must be asked in full", len(pl.Cells))
	}
}

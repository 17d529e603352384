package analyst

import (
	"strings"
	"testing"
)

// dailyProfile is a table of a few weeks of daily rows, several per date.
func dailyProfile(rows, dates int) *Profile {
	cols := []Column{{Name: "date", Kind: "date", Unique: dates}, {Name: "revenue", Kind: "num"}, {Name: "cost", Kind: "num"}}
	return &Profile{Frames: []Frame{{Key: "daily.csv", File: "daily.csv", Rows: rows, Columns: cols}}}
}

// TestTimeChart_FewDatesAreDrawnPerDate (issue 40): 52 rows over 40 dates
// are drawn one point per date, not as 3 monthly means; many dates still
// make one point per month. Two measures share the axis, named both.
func TestTimeChart_FewDatesAreDrawnPerDate(t *testing.T) {
	for _, c := range []struct {
		rows, dates int
		want, not   string
	}{
		{52, 40, `result = df.groupby("date")[["revenue", "cost"]]`, "resample("},
		{5000, 700, `.resample("M").sum()`, "groupby(\"date\")"},
	} {
		g := newGen(&Query{Measures: []string{"revenue", "cost"}}, dailyProfile(c.rows, c.dates))
		g.timeChart("line")
		code := g.b.String()
		if !strings.Contains(code, c.want) || strings.Contains(code, c.not) {
			t.Errorf("%d rows over %d dates: the code lacks %q or has %q:\n%s", c.rows, c.dates, c.want, c.not, code)
		}
		if !strings.Contains(code, "revenue and cost") {
			t.Errorf("%d rows: the axis or title does not name both measures:\n%s", c.rows, code)
		}
	}
}

package analyst

import (
	"strings"
	"testing"
)

// TestOverTimeWithoutTime: asked for a chart over time of a file with no dates, times or time
// named column, the analyst says so, first or as a follow-up, and draws neither the previous
// chart nor a histogram in its place (a review found both).
func TestOverTimeWithoutTime(t *testing.T) {
	t.Parallel()
	p := &Profile{Frames: []Frame{{Key: "scores.csv", File: "scores.csv", Rows: 25, Columns: []Column{
		{Name: "name", Kind: "text", Unique: 25}, {Name: "score", Kind: "num", Unique: 20},
		{Name: "grade", Kind: "cat", Unique: 4, Values: []string{"A", "B", "C", "D"}}}}}}
	h := []Message{{Role: "user", Text: "bar chart of score by grade"}, {Role: "assistant", Text: "Here is the chart."}}
	for _, q := range []string{"plot it over time", "plot score over time"} {
		pl := tablePlan(q, h, p)
		if len(pl.Cells) > 0 || !strings.Contains(pl.Reply, "“Over time” needs a column of dates or times, and scores.csv has none") {
			t.Errorf("%q: %d cells, reply %q", q, len(pl.Cells), pl.Reply)
		}
	}
	if pl := tablePlan("plot the total score per month", nil, p); len(pl.Cells) > 0 || !strings.Contains(pl.Reply, "A chart per month needs a column of dates or times") {
		t.Errorf("per month: %d cells, reply %q", len(pl.Cells), pl.Reply)
	}
	if pl := tablePlan("bar chart of score by grade", nil, p); len(pl.Cells) != 1 {
		t.Errorf("the bar chart itself: %q", pl.Reply)
	}
}

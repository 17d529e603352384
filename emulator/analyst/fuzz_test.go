package analyst

import (
	"strings"
	"testing"
)

// FuzzPlan feeds the planner arbitrary questions after an arbitrary earlier one, on every file
// set: it must answer with code or a reply, and a reply that asks back must offer readings.
// The seeds run with every go test; go test -fuzz FuzzPlan ./emulator/analyst explores further.
func FuzzPlan(f *testing.F) {
	for _, seed := range [][2]string{
		{"average revenue by region", "now as a bar chart"},
		{"plot AAPL close over time", "same for MSFT"},
		{"", "only after 2010"},
		{"top 5 products by revenue", "top 10 instead"},
		{"revnue regoin totl", "sorted the other way"},
		{"forecast", "why"},
		{"```python\nprint(1)\n```", "and for Support?"},
		{"corr heatmap pie", "its median"},
		{"top -3 by by by", "between 2010 and"},
		{"\x00\xff", "  "},
	} {
		f.Add(seed[0], seed[1])
	}
	sets := []string{px, sv, sl, slc, st, co}
	f.Fuzz(func(t *testing.T, prior, q string) {
		for _, set := range sets {
			pl := makePlan(q, history([]string{prior}), loadProfile(t, set))
			if len(pl.Cells) == 0 && pl.Reply == "" {
				t.Fatalf("%s: %q after %q: neither code nor a reply", set, q, prior)
			}
			if len(pl.Query.asked) > 0 && !strings.Contains(pl.Reply, "]("+SuggestionHref+")") {
				t.Fatalf("%s: %q asks back without readings: %s", set, q, pl.Reply)
			}
		}
	})
}

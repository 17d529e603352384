package analyst

import (
	"regexp"
	"strings"
	"testing"
)

var suggestionLink = regexp.MustCompile(`\[((?:\\.|[^\]\\])*)\]\(` + regexp.QuoteMeta(SuggestionHref) + `\)`)

// suggestions reads back the questions a reply offers as links.
func suggestions(reply string) []string {
	var out []string
	for _, m := range suggestionLink.FindAllStringSubmatch(reply, -1) {
		out = append(out, regexp.MustCompile(`\\(.)`).ReplaceAllString(m[1], "$1"))
	}
	return out
}

// lowConfidence are questions the rules cannot settle alone; each must ask back with readings
// to click, and each reading, asked next, must be answered with code rather than asked again.
var lowConfidence = []corpusCase{
	{set: sv, q: "average satisfaction"},
	{set: sv, q: "average trust by country"},
	{set: sv, q: "plot trust"},
	{set: sl, q: "average profit by region"},
	{set: sl, q: "biggest order"},
	{set: sv, q: "show satisfaction distribution"},
	{set: px, q: "plot"},
	{set: co, q: "value counts"},
	{set: sv, q: "scatter plot"},
	{set: sl, q: "pivot"},
	{set: sl, q: "sort"},
}

func TestLowConfidenceAsksBack(t *testing.T) {
	for _, c := range lowConfidence {
		p := loadProfile(t, c.set)
		pl := makePlan(c.q, history(c.prior), p)
		if pl.Reply == "" || len(pl.Cells) > 0 {
			t.Errorf("%q: ran code instead of asking back", c.q)
			continue
		}
		sugg := suggestions(pl.Reply)
		if len(sugg) == 0 {
			t.Errorf("%q: asked back without readings to click:\n%s", c.q, pl.Reply)
		}
		for _, s := range sugg {
			next := makePlan(s, history(append(c.prior, c.q)), p)
			if next.Reply != "" {
				t.Errorf("%q: the reading %q is not answered: %s", c.q, s, firstLine(next.Reply))
			}
		}
	}
}

func TestSuggestionList(t *testing.T) {
	got := suggestionList([]string{"mean of a[1]", "x_y *z*"})
	want := "\n- [mean of a\\[1\\]](#ask)\n- [x\\_y \\*z\\*](#ask)"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if back := suggestions(got); strings.Join(back, "|") != "mean of a[1]|x_y *z*" {
		t.Errorf("read back %q", back)
	}
}

package analyst

import (
	"testing"

	"github.com/analyst-workbench/workbench/emulator/analyst/meaning"
)

// tweetsCSV holds lists in its cells, as DataBench's tweet and survey tables do: mentions
// written as Python lists, and languages written bare between brackets.
const tweetsCSV = `id,author,mentions,languages,likes
1,ana,"['Boris', 'Rishi']",[en],10
2,ben,"['Boris']","[en, fr]",3
3,cy,[],[de],7
4,di,"['Keir', 'Boris', 'Rishi']","[en, es, fr]",1
`

// TestListCells holds questions about columns whose cells hold lists (issue 37): the items,
// not the lists, are counted, grouped and compared; Boris is mentioned 3 times, Rishi twice.
func TestListCells(t *testing.T) {
	askEach(t, "tweets.csv", tweetsCSV, []replyCase{
		{q: "What is the most common mention?", want: "**Boris**", anywhere: true},
		{q: "How many unique mentions are there?", want: "`mentions` has **3 distinct values**: Boris, Keir, Rishi."},
		{q: "How many rows have Boris in mentions?", want: "**3 rows**", anywhere: true},
		{q: "How many rows have Keir in mentions?", want: "mentions includes Keir", anywhere: true},
		{q: "Are there any tweets with Keir in mentions?", want: "**Yes.**"},
		// an empty list is no mention: tweet 3
		{q: "How many tweets do not contain any mentions?", want: "**1** of 4 rows match: `mentions` has no value."},
		{q: "Are there tweets without mentions?", want: "**Yes.**"},
		{q: "How many tweets have more than 1 language?", want: "**2** of 4 rows match: the number of items in `languages` above 1."},
		{q: "Are there any tweets with more than 2 mentions?", want: "**Yes.**"},
		{q: "What are the 2 most common languages?", want: "**en** (3 rows)", anywhere: true},
	})
}

// TestListConditionWords holds how a condition on a column of lists is said: membership for a
// value, a number of items for a comparison.
func TestListConditionWords(t *testing.T) {
	cases := []struct {
		c    meaning.Condition
		want string
	}{
		{meaning.Condition{Column: "mentions", Op: "==", Value: "Boris", Items: true}, "`mentions` includes Boris"},
		{meaning.Condition{Column: "mentions", Op: "!=", Value: "Boris", Items: true}, "`mentions` does not include Boris"},
		{meaning.Condition{Column: "languages", Op: ">", Value: "1", Numeric: true, Items: true}, "the number of items in `languages` above 1"},
	}
	for _, c := range cases {
		if got := conditionWords(c.c); got != c.want {
			t.Errorf("%+v: got %q, want %q", c.c, got, c.want)
		}
	}
}

package analyst

import (
	"fmt"
	"strings"

	"github.com/analyst-workbench/workbench/emulator/analyst/language"
)

// answersVerdict are the keyword intents whose answers settle a yes/no question about them:
// tests open with their verdict; missing values, outliers and correlations state the fact asked
// ("are there missing values?"); charts, files and views of the data show what "can I see …"
// asks for. A summary, a count, a ranking or a list of matching rows is no yes or no: given to
// "is Koli larger than Lemmenjoki?" it answers a nearby question.
var answersVerdict = setOf(intentTest, intentMissing, intentOutliers, intentCorr, intentChart, intentExport,
	intentOverview, intentColumns, intentHead, intentModel, intentJoin, intentShare)

// namesNothing are the keyword intents whose answers name no row and no value: a summary of a
// column, the file's first or last rows, its size, a single statistic. Given to "who is the
// last opponent?" or "what is the top placed country?" they answer a nearby question.
func namesNothing(q *Query) bool {
	if _, quantile := quantileOf(q.Agg); quantile || definedAggs[q.Agg] != "" || q.Agg == "var" {
		return false // "what is the 25th percentile of …" asks for the statistic it names
	}
	switch q.Intent {
	case intentDescribe, intentOverview, intentHead, intentSize:
		return true
	case intentStat:
		return len(q.By) == 0
	}
	return false
}

// formMismatch returns a reply when the keyword rules would answer a yes/no question with
// something that is not a verdict, or a question asking for something by name with something
// that names nothing, saying so and what could not be placed; "" when the reading answers in
// the form asked.
func formMismatch(q *Query, rd questionReading, p *Profile) string {
	if entity := rd.entity(); entity != "" && q.Which == "" && namesNothing(q) {
		return wrongForm(q, rd, p, mismatch{
			asks:  fmt.Sprintf("a name (“%s”), and I could not work out which one is meant", strings.ToLower(entity)),
			falls: "names none",
			can:   "Questions of this kind I can answer: the row with the highest or lowest value of a column, the most or least common value, the first or last row, and the rows that match conditions.",
		})
	}
	if asked := rd.valueAsked(); asked != "" && namesNothing(q) && q.Which == "" {
		return wrongForm(q, rd, p, mismatch{
			asks:  fmt.Sprintf("a value (“%s”), and I could not work out which one is meant", asked),
			falls: "is not it",
			can:   "Questions of this kind I can answer: a column's value in the row with the highest or lowest value of another, in the first or last row, or in the rows that match conditions.",
		})
	}
	if rd.form() == language.YesNo && !answersVerdict[q.Intent] {
		return wrongForm(q, rd, p, mismatch{
			asks:  "a yes or a no, and I could not work out what to check",
			falls: "says neither yes nor no",
			can:   "Yes/no questions I can check: whether any rows match conditions, whether all of them do, whether a count or an average is above a number, and what the top-ranked row's value is.",
		})
	}
	return ""
}

// verdictOfCorrelation answers "is there a correlation between A and B?" with the test of the
// coefficient, whose verdict opens the reply: yes when it differs from 0 at α, as a yes/no
// question asks; the coefficient alone says neither.
func verdictOfCorrelation(q *Query, rd questionReading, f *Frame) {
	if q.Intent != intentCorr || rd.form() != language.YesNo || q.Chart != "" || len(nonIDs(f, numericOf(q, f))) != 2 {
		return
	}
	q.Intent, q.stat.test, q.stat.method = intentTest, "corrtest", q.refine.Method
	readCorrTest(q, f, &q.stat)
}

// mismatch is what a reply says about a form the rules cannot answer in: what the question
// asks for, why the rules' reading falls short of it, and what of the kind they can answer.
type mismatch struct{ asks, falls, can string }

// wrongForm writes the reply for a mismatch, with the phrase meaning could not place and the
// reading the rules would have given.
func wrongForm(q *Query, rd questionReading, p *Profile, m mismatch) string {
	var b strings.Builder
	b.WriteString("This asks for " + m.asks)
	if rd.gap != nil {
		fmt.Fprintf(&b, " (%s)", rd.gap.Error())
	}
	b.WriteString(", so I have not answered it.")
	if read := readAs(q, p); read != "" {
		fmt.Fprintf(&b, " The rules I have would only give %s, which %s.", read, m.falls)
	}
	b.WriteString(" " + m.can)
	b.WriteString("\n\nLoaded: " + frameList(p) + ".")
	return b.String()
}

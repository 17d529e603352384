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
	if rd.entity != "" && q.Which == "" && namesNothing(q) {
		return entityMismatch(q, rd, p)
	}
	if rd.form != language.YesNo || answersVerdict[q.Intent] {
		return ""
	}
	var b strings.Builder
	b.WriteString("This asks for a yes or a no, and I could not work out what to check")
	if rd.gap != nil {
		fmt.Fprintf(&b, " (%s)", rd.gap.Error())
	}
	b.WriteString(", so I have not answered it.")
	if read := readAs(q, p); read != "" {
		fmt.Fprintf(&b, " The rules I have would only give %s, which says neither yes nor no.", read)
	}
	b.WriteString(" Yes/no questions I can check: whether any rows match conditions, whether all of them do, whether a count or an average is above a number, and what the top-ranked row's value is.")
	b.WriteString("\n\nLoaded: " + frameList(p) + ".")
	return b.String()
}

// entityMismatch says that a question asks for something by name and the rules would only give
// a summary.
func entityMismatch(q *Query, rd questionReading, p *Profile) string {
	var b strings.Builder
	fmt.Fprintf(&b, "This asks for a name (“%s”), and I could not work out which one is meant", strings.ToLower(rd.entity))
	if rd.gap != nil {
		fmt.Fprintf(&b, " (%s)", rd.gap.Error())
	}
	b.WriteString(", so I have not answered it.")
	if read := readAs(q, p); read != "" {
		fmt.Fprintf(&b, " The rules I have would only give %s, which names none.", read)
	}
	b.WriteString(" Questions of this kind I can answer: the row with the highest or lowest value of a column, the most or least common value, the first or last row, and the rows that match conditions.")
	b.WriteString("\n\nLoaded: " + frameList(p) + ".")
	return b.String()
}

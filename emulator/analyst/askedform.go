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

// formMismatch returns a reply when the keyword rules would answer a yes/no question with
// something that is not a verdict, saying so and what could not be placed; "" when the reading
// answers in the form asked.
func formMismatch(q *Query, rd questionReading, p *Profile) string {
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

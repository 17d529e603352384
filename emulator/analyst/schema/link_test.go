package schema

import (
	"fmt"
	"strings"
	"testing"
)

// titanic is DataBench's 002_Titanic header, with a few of its values.
var titanic = &Table{File: "titanic.csv", Columns: []Column{
	{Name: "Survived", Type: Boolean, Values: []string{"True", "False"}},
	{Name: "Pclass", Type: Category, Values: []string{"1", "2", "3"}},
	{Name: "Name", Type: Text},
	{Name: "Sex", Type: Category, Values: []string{"male", "female"}},
	{Name: "Age", Type: Number},
	{Name: "Siblings_Spouses Aboard", Type: Number},
	{Name: "Parents_Children Aboard", Type: Number},
	{Name: "Fare", Type: Number},
}}

// forbes is part of DataBench's 001_Forbes header.
var forbes = &Table{File: "forbes.csv", Columns: []Column{
	{Name: "rank", Type: Number}, {Name: "personName", Type: Text}, {Name: "age", Type: Number},
	{Name: "finalWorth", Type: Number}, {Name: "country", Type: Category, Values: []string{"United States", "China"}},
	{Name: "selfMade", Type: Boolean, Values: []string{"True", "False"}}, {Name: "gender", Type: Category, Values: []string{"M", "F"}},
}}

// cars is a made-up table of abbreviated names, to test the abbreviation and synonym rules.
var cars = &Table{Columns: []Column{
	{Name: "hp", Type: Number}, {Name: "qty", Type: Number}, {Name: "TMAX", Type: Number},
	{Name: "temp_c", Type: Number}, {Name: "pct_change", Type: Number}, {Name: "price", Type: Number},
}}

// weather has two columns that "temperature" names equally: the linker must ask.
var weather = &Table{Columns: []Column{
	{Name: "DATE", Type: Date}, {Name: "temp_min", Type: Number}, {Name: "temp_max", Type: Number}, {Name: "PRCP", Type: Number},
	{Name: "RatecodeID", Type: Category}, {Name: "Gforce_clean", Type: Number},
}}

// towers has a date column named by a participle, whose verb derives the rows' noun.
var towers = &Table{File: "towers.csv", Columns: []Column{
	{Name: "Name", Type: Category, Values: []string{"State Tower Building", "Granger Block"}},
	{Name: "City", Type: Category, Values: []string{"Syracuse"}}, {Name: "Built", Type: Date},
}}

// results and songs hold names of which questions say a part: a surname, a tournament
// without its city, a country without its code (WTQ nt-11970, nt-6965), and an edition of a
// series whose name alone names no one value (nt-2625).
var results = &Table{File: "results.csv", Columns: []Column{
	{Name: "Name", Type: Category, Values: []string{"Mariya Papulova", "Katja Saarinen", "Andrea Rothfuss"}},
	{Name: "Country", Type: Category, Values: []string{"Japan (JPN)", "Russia (RUS)"}},
	{Name: "Tournament", Type: Category, Values: []string{"Kremlin Cup, Moscow, Russia", "Copa Claro, Buenos Aires, Argentina"}},
	{Name: "Convention", Type: Category, Values: []string{"Swecon 2004", "ConFuse 98", "Imagicon"}},
	{Name: "Songwriters", Type: Text}, {Name: "Number", Type: Number}, {Name: "Kilometres Travelled", Type: Number}, {Name: "Title", Type: Category, Values: []string{"Hot Thing", "Stay Around"}},
}}

// survey has a column named by the question respondents answered (DataBench 003_Love).
var survey = &Table{File: "love.csv", Columns: []Column{
	{Name: "What is the maximum level of studies you have achieved?", Type: Category, Values: []string{"Master", "Bachelor"}},
	{Name: "What is your age?", Type: Number},
}}

// vitals names columns with acronyms that questions spell out (DataBench 004, 012).
var vitals = &Table{File: "heart.csv", Columns: []Column{
	{Name: "RestingBP", Type: Number}, {Name: "MaxHR", Type: Number}, {Name: "Age", Type: Number},
	{Name: "PULocationID", Type: Number}, {Name: "DOLocationID", Type: Number},
}}

// describeLinks renders links as "text→reading" for comparison.
func describeLinks(r *Result) []string {
	var out []string
	for _, l := range r.Links {
		b := l.Best()
		var what string
		switch b.Kind {
		case ColumnLink:
			what = b.Column
		case ValueLink:
			what = b.Column + "=" + b.Value
		case RowsLink:
			what = "rows"
		}
		if l.Ambiguous {
			what += "?"
		}
		out = append(out, l.Text+"→"+what)
	}
	return out
}

func TestLink(t *testing.T) {
	cases := []struct {
		table *Table
		q     string
		want  string // the links, space-separated, in question order
	}{
		{titanic, "Were there any female passengers in the 3rd class who survived?",
			"female→Sex=female passengers→rows class→Pclass survived→Survived=True"},
		{titanic, "Which are the top 4 fares paid by survivors?", "fares→Fare survivors→Survived=True"},
		// acronyms spelled out, by words and by the parts of compounds
		{vitals, "What is the highest resting blood pressure?", "resting blood pressure→RestingBP"},
		{vitals, "What is the average maximum heart rate?", "maximum heart rate→MaxHR"},
		{vitals, "What is the most common drop-off location?", "drop-off location→DOLocationID"},
		{vitals, "How many unique pickup locations are there?", "pickup locations→PULocationID"},
		{titanic, "What is the average Siblings_Spouses Aboard of passengers older than 30?",
			"Siblings_Spouses Aboard→Siblings_Spouses Aboard passengers→rows older→Age"},
		{titanic, "Were there any passengers who paid a fare of more than $500?", "passengers→rows fare→Fare $500→Fare"},
		// "Aboard", an adverb, is not what the column is about (DataBench 002)
		{titanic, "How many passengers boarded without any siblings or spouses?", "passengers→rows siblings or spouses→Siblings_Spouses Aboard"},
		{forbes, "Is the person with the highest net worth self-made?", "person→rows net worth→finalWorth self-made→selfMade=True"},
		{forbes, "Is there a non-self-made billionaire in the top 5 ranks?", "non-self-made→selfMade=False billionaire→rows ranks→rank"},
		{forbes, "How many billionaires are from the United States?", "billionaires→rows United States→country=United States"},
		{cars, "What is the average horsepower?", "horsepower→hp"},
		{cars, "Total quantity and the maximum temperature", "quantity→qty maximum temperature→TMAX"},
		{weather, "Which day had the highest temperature?", "day→DATE temperature→temp_min?"},
		{weather, "Name the 4 most common rate codes and the mean G-force.", "rate codes→RatecodeID G-force→Gforce_clean"},
		// "buildings" are things, not when they were built
		{towers, "Which other buildings are in the same city as the Granger Block?", "buildings→rows city→City Granger Block→Name=Granger Block"},
		// part of one value names it; a common word, or an edition's series, does not
		{results, "who finished directly after papulova?", "papulova→Name=Mariya Papulova"},
		{results, "what tournament was played after the kremlin cup?", "tournament→Tournament kremlin cup→Tournament=Kremlin Cup, Moscow, Russia"},
		{results, "how many medals did japan win?", "japan→Country=Japan (JPN)"},
		{results, "how many times was swecon held?", "times→rows"},
		// what "how many" counts and the clause's verb name one column together (WTQ nt-4970)
		{results, "how many kilometers did number 4110 travel?", "kilometers … travel→Kilometres Travelled number→Number"},
		// a participle after "X of Y" belongs to the name a survey question gives its column (DataBench 003/9)
		{survey, "What is the most common level of studies achieved?", "level of studies achieved→What is the maximum level of studies you have achieved?"},
		// "song" is a word of its own, not short for "songwriters"
		{results, "what song was previous to hot thing?", "song→rows hot thing→Title=Hot Thing"},
	}
	for _, c := range cases {
		s, r := NewIndex(c.table).Read(c.q)
		if got := strings.Join(describeLinks(r), " "); got != c.want {
			t.Errorf("%q:\n got %s\nwant %s\n%s", c.q, got, c.want, candidatesDump(r))
		}
		_ = s
	}
}

func candidatesDump(r *Result) string {
	var b strings.Builder
	for _, l := range r.Links {
		fmt.Fprintf(&b, "  %q:", l.Text)
		for _, c := range l.Candidates {
			fmt.Fprintf(&b, " %d/%s=%s %.2f %s;", c.Kind, c.Column, c.Value, c.Score, c.Reason)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

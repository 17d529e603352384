package language

import (
	"slices"
	"strings"
	"testing"
)

// readCase is one question from the development corpus (DataBench train/dev, WikiTableQuestions
// training) with what reading it must give. Every listed item must be present; chunks not
// listed may be present too.
type readCase struct {
	q            string
	form         string            // the first part's form and the head of its focus
	lemmas       map[string]string // word as typed → lemma
	tags         map[string]string // word as typed → Penn tag
	phrases      []string          // see phraseTexts
	comparisons  []string          // see comparisonTexts
	superlatives []string          // see superlativeTexts
	relatives    []string          // see relativeTexts
	coords       []string          // see coordinationTexts
	joints       []string          // the joints of the parts after the first
}

var readCases = []readCase{
	{q: "Is the person with the highest net worth self-made?", form: "yes/no person",
		lemmas:  map[string]string{"Is": "be", "highest": "high", "self-made": "self-made"},
		tags:    map[string]string{"Is": "VBZ", "highest": "JJS", "worth": "NN"},
		phrases: []string{"the person [with the highest net worth]"}, superlatives: []string{"high"}},
	{q: "Were there any passengers who paid a fare of more than $500?", form: "yes/no passengers",
		lemmas:      map[string]string{"Were": "be", "paid": "pay", "passengers": "passenger"},
		tags:        map[string]string{"Were": "VBD", "paid": "VBD"},
		comparisons: []string{"> $500"}, relatives: []string{"passengers: who paid a fare"}},
	{q: "Which are the top 4 fares paid by survivors?", form: "wh fares",
		lemmas:       map[string]string{"survivors": "survivor", "paid": "pay", "fares": "fare"},
		superlatives: []string{"top 4"}, relatives: []string{"fares: paid by survivors"}},
	{q: "Report the 4 highest toll amounts paid.", form: "imperative amounts",
		tags: map[string]string{"Report": "VB"}, superlatives: []string{"high 4"}, relatives: []string{"amounts: paid"}},
	{q: "Which passenger class has the highest number of survivors?", form: "wh class",
		phrases: []string{"Which passenger class", "the highest number [of survivors]"}, superlatives: []string{"high"}},
	{q: "What's the most common gender among the survivors?", form: "wh gender",
		lemmas: map[string]string{"'s": "be"}, superlatives: []string{"common"},
		phrases: []string{"the most common gender [among the survivors]"}},
	{q: "Does every reviewer location have at least one review with a rating of 5?", form: "yes/no location",
		comparisons: []string{">= one"}, phrases: []string{"every reviewer location", "one review [with a rating]"}},
	{q: "how many people stayed at least 3 years in office?", form: "how many people",
		lemmas: map[string]string{"stayed": "stay", "years": "year"}, comparisons: []string{">= 3"}},
	{q: "Are all students who are in a romantic relationship older than 17?", form: "yes/no students",
		comparisons: []string{"old > 17"}, relatives: []string{"students: who are in a romantic relationship older than 17"}},
	{q: "How many borrowers are older than 50?", form: "how many borrowers",
		lemmas: map[string]string{"older": "old", "borrowers": "borrower"}, comparisons: []string{"old > 50"}},
	{q: "Is there a non-self-made billionaire in the top 5 ranks?", form: "yes/no billionaire",
		superlatives: []string{"top 5"}, phrases: []string{"a non-self-made billionaire [in the top 5 ranks]"}},
	{q: "List the top 3 countries with the most billionaires.", form: "imperative countries",
		tags: map[string]string{"List": "VB"}, lemmas: map[string]string{"countries": "country", "billionaires": "billionaire"},
		superlatives: []string{"top 3", "many"}},
	{q: "List the top 5 ranks of billionaires who are not self-made.", form: "imperative ranks",
		relatives: []string{"billionaires: who are not self-made"}, superlatives: []string{"top 5"}},
	{q: "in which year did the team have its worst season?", form: "wh year",
		lemmas: map[string]string{"worst": "bad", "did": "do"}, superlatives: []string{"bad"}},
	{q: "how many of the worst dancers scored less than 15 points for their dance?", form: "how many dancers",
		lemmas: map[string]string{"dancers": "dancer", "scored": "score"}, comparisons: []string{"< 15"}, superlatives: []string{"bad"}},
	{q: "Were there any female passengers in the 3rd class who survived?", form: "yes/no passengers",
		phrases: []string{"any female passengers [in the 3rd class]"}, lemmas: map[string]string{"survived": "survive"}},
	{q: "Which are the top 2 states with the most tornado-related injuries? If in a tie then select alphabetically. ",
		form: "wh states", joints: []string{"?"}, lemmas: map[string]string{"injuries": "injury"}},
	{q: "Among those who survived, which fare range was the most common: (0-50, 50-100, 100-150, 150+)?",
		form: "wh range", tags: map[string]string{"fare": "NN"}, phrases: []string{"which fare range"}},
	{q: "Are there any players whose preferred foot is left and are from a nationality that starts with 'B'?",
		form: "yes/no players", relatives: []string{"players: whose preferred foot is left", "nationality: that starts with 'B'"}},
	{q: "What are the top 4 ages of students whose mother's education level is above 3?", form: "wh ages",
		comparisons: []string{"> 3"}, relatives: []string{"students: whose mother's education level is above 3"}},
	{q: "Name the top 3 passenger classes by survival rate.", form: "imperative classes",
		tags: map[string]string{"Name": "VB"}, phrases: []string{"the top 3 passenger classes [by survival rate]"}},
	{q: "how many total chairpersons were there between 1905 and 1921?", form: "how many chairpersons",
		comparisons: []string{"between 1905..1921"}, lemmas: map[string]string{"chairpersons": "chairperson"}},
	{q: "what was the last game to be attended by fewer than 30,000 people?", form: "wh game",
		comparisons: []string{"< 30,000"}},
	{q: "how many films grossed more than $80,000,000", form: "how many films",
		comparisons: []string{"> $80,000,000"}, lemmas: map[string]string{"grossed": "gross"}},
	{q: "Did any children below the age of 18 survive?", form: "yes/no children",
		lemmas: map[string]string{"children": "child", "Did": "do"}, tags: map[string]string{"Did": "VBD", "survive": "VB"}},
	{q: "On average, how many hours do employees work monthly?", form: "how many hours",
		lemmas: map[string]string{"employees": "employee"}},
	{q: "Does the youngest billionaire identify as male?", form: "yes/no billionaire",
		superlatives: []string{"young"}},
	{q: "What is the average age of the male passengers?", form: "wh age",
		phrases: []string{"the average age [of the male passengers]"}},
	{q: "Who are the top 3 authors with the most followers?", form: "wh authors",
		superlatives: []string{"top 3", "many"}},
	{q: "What are the 4 least common hair colors?", form: "wh colors", superlatives: []string{"least common 4"}},
	{q: "when did the last episode air?", form: "wh episode", tags: map[string]string{"air": "VB"}},
	{q: "Identify the top 6 programming languages used regularly.", form: "imperative languages",
		relatives: []string{"languages: used regularly"}, superlatives: []string{"top 6"}},
	{q: "Are there any employees with more than 7 projects?", form: "yes/no employees", comparisons: []string{"> 7"}},
	{q: "what is the total number of gold and silver medals won by china?", form: "wh number",
		coords: []string{"gold+medals"}, relatives: []string{"medals: won by china"}},
	{q: "Which company has the least number of employees?", form: "wh company", superlatives: []string{"least many"}},
	{q: "List the genders of the bottom 4 purchases with the lowest total cost.", form: "imperative genders",
		superlatives: []string{"bottom 4", "low"},
		phrases:      []string{"the genders [of the bottom 4 purchases]", "the bottom 4 purchases [with the lowest total cost]"}},
	{q: "Could you list the 3 fare ranges present in the dataset with the least survivors: (0-50, 50-100, 100-150, 150+)?",
		form: "imperative fare", superlatives: []string{"least many"}},
	{q: "which player paid the most in transfer fees?", form: "wh player", lemmas: map[string]string{"fees": "fee"}},
	{q: "How many employees have been promoted in the last 5 years?", form: "how many employees",
		lemmas: map[string]string{"promoted": "promote", "been": "be"}},
	{q: "Were there any employees hired in 2019?", form: "yes/no employees",
		relatives: []string{"employees: hired in 2019"}},
	// a participle after a plural noun opens a reduced relative clause (DataBench 005)
	{q: "What's the total number of unique agencies handling complaints?", form: "wh number", relatives: []string{"agencies: handling complaints"},
		phrases: []string{"the total number [of unique agencies]", "unique agencies", "complaints"}},
	{q: "Any property with more than 10 bedrooms?", form: "yes/no property", comparisons: []string{"> 10"}},
	// a statement that no row is so is a yes/no question (DataBench 008, 009)
	{q: "There were no days when the precipitation was greater than 5 inches.", form: "yes/no days", comparisons: []string{"> 5"}},
	{q: "No tornado has a length greater than 100 miles.", form: "yes/no tornado", comparisons: []string{"> 100"}},
	// "is it true that" frames the clause it introduces, whose subject is asked about
	{q: "Is it true that the athlete with the lowest ID is older than 30 years?", form: "yes/no athlete",
		comparisons: []string{"old > 30"}, superlatives: []string{"low"}},
}

func TestRead(t *testing.T) {
	for _, c := range readCases {
		s := Read(c.q, nil)
		fail := func(what string, want, got any) {
			t.Errorf("%q: %s: want %v, got %v\n%s", c.q, what, want, got, dump(s))
		}
		if got := formText(s, s.Form()); got != c.form {
			fail("form", c.form, got)
		}
		for word, want := range c.lemmas {
			if got := tokenField(s, word, func(t Token) string { return t.Lemma }); got != want {
				fail("lemma of "+word, want, got)
			}
		}
		for word, want := range c.tags {
			if got := tokenField(s, word, func(t Token) string { return t.POS }); got != want {
				fail("tag of "+word, want, got)
			}
		}
		checkAll(t, fail, "phrases", c.phrases, phraseTexts(s))
		checkAll(t, fail, "comparisons", c.comparisons, comparisonTexts(s))
		checkAll(t, fail, "superlatives", c.superlatives, superlativeTexts(s))
		checkAll(t, fail, "relatives", c.relatives, relativeTexts(s))
		checkAll(t, fail, "coordinations", c.coords, coordinationTexts(s))
		var joints []string
		for _, p := range s.Parts[1:] {
			joints = append(joints, p.Joint)
		}
		if c.joints != nil && !slices.Equal(joints, c.joints) {
			fail("joints", c.joints, joints)
		}
	}
}

func tokenField(s *Sentence, text string, f func(Token) string) string {
	for _, t := range s.Tokens {
		if t.Text == text {
			return f(t)
		}
	}
	return "<no token " + text + ">"
}

func checkAll(t *testing.T, fail func(string, any, any), what string, want, got []string) {
	t.Helper()
	for _, w := range want {
		if !slices.Contains(got, w) {
			fail(what, w, got)
		}
	}
}

// TestDifferenceAsked holds which questions ask by how much one value exceeds another: the
// tagger's comparative right after "how much/many", compared with something other than a
// number.
func TestDifferenceAsked(t *testing.T) {
	v := NewVocabulary("population", "revenue", "units")
	cases := []struct {
		q    string
		want string
	}{
		{"how much larger was the 2009 population of chicago than the 2009 population of toronto?", "larger"},
		{"how many more units were sold in the West than in the East", "more"},
		{"how much older is the oldest passenger than the youngest?", "older"},
		{"how many more than 10 units were sold?", ""},      // a condition on a number
		{"how much revenue came from the West?", ""},        // an amount, no comparison
		{"how many units are larger than the average?", ""}, // the comparison filters the rows counted
	}
	for _, c := range cases {
		s := Read(c.q, v)
		got := ""
		if i := s.DifferenceAsked(); i >= 0 {
			got = s.Tokens[i].Lower
		}
		if got != c.want {
			t.Errorf("%q: DifferenceAsked reads %q, want %q", c.q, got, c.want)
		}
	}
}

// TestRowOrderAsked holds which questions place a row by the rows around it ("listed before
// the midwest"), which the rules do not compute, and which compare a year or a date.
func TestRowOrderAsked(t *testing.T) {
	v := NewVocabulary("region", "midwest", "team name", "london lions", "year", "established", "code", "CL", "squad #", "price")
	cases := []struct {
		q    string
		want string
	}{
		{"what region is listed before the midwest?", "before the midwest"},
		{"what was the next team to end after the london lions?", "after the london lions"},
		{"which team came after the lions?", "after the lions"},
		{"which was the only diocese established before 1900?", ""},
		{"how many films came out after 2011?", ""},
		{"what is the average price after removing outliers?", ""},
		{"list the teams established before 1990 sorted by year", ""},
		// WTQ nt-11725, nt-9310: the rows above a value, and previous to one
		{"which code is above cl", "above cl"},
		{"what squad # is listed previous to squad # 7?", "previous to squad #"},
		{"which passenger is listed below the captain?", "below the captain"},
		{"how many prices are above the average?", ""},
		{"how many teams scored above 30?", ""},
	}
	for _, c := range cases {
		s := Read(c.q, v)
		got := ""
		if sp, ok := s.RowOrderAsked(); ok {
			got = s.Words(sp)
		}
		if got != c.want {
			t.Errorf("%q: RowOrderAsked reads %q, want %q", c.q, got, c.want)
		}
	}
}

// TestRowPlacement holds what a placement's object covers (the reference row's name, a number
// completing it, a phrase attached to it, the clause "after" opens when the question has its
// own verb before it) and which way it looks; the WTQ questions they come from are named.
func TestRowPlacement(t *testing.T) {
	v := NewVocabulary("round", "name", "nate boyle", "united states", "nfl team", "detroit lions", "player", "gary steele",
		"month", "july", "song", "blue", "competition", "olympic games", "year")
	cases := []struct {
		q      string
		object string
		after  bool
		marks  string
	}{
		{"the round after round 3", "round 3", true, "after"},                                                                   // nt-5320
		{"who finished before nate boyle for the united states?", "nate boyle for the united states", false, "before finished"}, // nt-9345
		{"which nfl team picked directly after the detroit lions chose gary steele?", "detroit lions chose gary steele", true, "after the directly picked"},
		{"what artist previous to july made blue?", "july", false, "previous to"}, // nt-8190: "made blue" is the question's
		{"what was the name of the competition that took place before the olympic games in 1996?", "olympic games in 1996", false, "before the took place"},
		{"what was the next album after kitty wells?", "kitty wells", true, "after next"},
	}
	for _, c := range cases {
		s := Read(c.q, v)
		p, ok := s.RowPlacement()
		if !ok {
			t.Errorf("%q: no placement", c.q)
			continue
		}
		var marks []string
		for _, k := range p.Marks {
			marks = append(marks, s.Tokens[k].Lower)
		}
		if got := s.Words(p.Object); got != c.object || p.After != c.after || strings.Join(marks, " ") != c.marks {
			t.Errorf("%q: object %q after %v marks %q, want %q %v %q", c.q, got, p.After, strings.Join(marks, " "), c.object, c.after, c.marks)
		}
	}
}

// TestMonthDates: a date written with a month's name is one Date token in any case, as
// analysts type it ("12 march 1983"); a month word with no year beside it stays a word.
func TestMonthDates(t *testing.T) {
	v := NewVocabulary("date")
	for q, want := range map[string]string{
		"which date comes before 12 march 1983?": "12 march 1983",
		"sales in March 2011":                    "March 2011",
		"orders since march 3, 2011":             "march 3, 2011",
		"rows that may 2 columns hold":           "",
		"how many soldiers march in the parade?": "",
	} {
		got := ""
		for _, tok := range Read(q, v).Tokens {
			if tok.Kind == Date {
				got = tok.Text
			}
		}
		if got != want {
			t.Errorf("%q: date %q, want %q", q, got, want)
		}
	}
}

// TestSuperlativeTag: an adjective in -est that WordNet's morphology takes to an adjective is
// a superlative, whatever the tagger said; one WordNet lists as it is spelled is not.
func TestSuperlativeTag(t *testing.T) {
	v := NewVocabulary("country")
	for q, want := range map[string]string{
		"which country is the happiest?":   "JJS",
		"which country is the unhappiest?": "JJS",
	} {
		s := Read(q, v)
		if got := s.Tokens[len(s.Tokens)-2].POS; got != want {
			t.Errorf("%q: %s tagged %s, want %s", q, s.Tokens[len(s.Tokens)-2].Text, got, want)
		}
	}
	for _, w := range []string{"honest", "modest", "forest"} {
		tok := Token{Lower: w, POS: "JJ"}
		if superlativeTag(&tok, WordNet()); tok.POS != "JJ" {
			t.Errorf("%s retagged %s", w, tok.POS)
		}
	}
}

// TestSameAs reads "the same <what> as <reference>" from questions of WTQ (nt-5600, nt-8085,
// nt-12145, nt-13475): what is compared, and the reference.
func TestSameAs(t *testing.T) {
	v := NewVocabulary("length", "topeng", "city", "windsor park", "height", "mega disk'o", "regular season")
	cases := []struct{ q, what, ref string }{
		{"which other album has the same length as topeng?", "the same length", "topeng"},
		{"which other stadiums are in the same city as windsor park?", "the same city", "windsor park"},
		{"what model has the same height as the mega disk'o?", "the same height", "the mega disk'o"},
		{"the 2012 regular season results were the same as what other year?", "", "what other year"},
	}
	for _, c := range cases {
		s := Read(c.q, v)
		sa, ok := s.SameAs()
		if !ok {
			t.Errorf("%q: no same-as read", c.q)
			continue
		}
		what := ""
		if sa.What >= 0 {
			what = s.Words(s.Phrases[sa.What].Span)
		}
		if what != c.what || s.Words(sa.Ref) != c.ref {
			t.Errorf("%q: same %q as %q, want %q as %q", c.q, what, s.Words(sa.Ref), c.what, c.ref)
		}
	}
	for _, q := range []string{"is the average age the same for men and women?", "draw the same chart as before"} {
		if _, ok := Read(q, v).SameAs(); ok {
			t.Errorf("%q: read a same-as of rows", q)
		}
	}
}

// TestNounNotPronoun: a noun the tagger calls a personal pronoun is a noun; a pronoun stays one.
func TestNounNotPronoun(t *testing.T) {
	v := NewVocabulary("origin", "mpg")
	s := Read("Which origin has the highest average mpg?", v)
	if got := s.Tokens[1].POS; got != "NN" {
		t.Errorf("origin tagged %s, want NN", got)
	}
	s = Read("Which of them has the highest mpg?", v)
	if got := s.Tokens[2].POS; got != "PRP" {
		t.Errorf("them tagged %s, want PRP", got)
	}
}

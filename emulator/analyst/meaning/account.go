package meaning

import (
	"slices"
	"strings"
	"unicode"

	"github.com/analyst-workbench/workbench/emulator/analyst/language"
	"github.com/analyst-workbench/workbench/emulator/analyst/schema"
)

// account makes sure every content word has a place: used by a rule, naming the rows, or the
// name of a column whose value the question gives ("the 'Technology' category").
func (rd *reader) account() error {
	for i, t := range rd.s.Tokens {
		if !rd.used[i] && (negations[t.Lower] || sequenceWords[t.Lower]) {
			return &Gap{Phrase: rd.text(language.Span{Start: i, End: min(i+3, len(rd.s.Tokens))}), Why: "I did not understand"}
		}
		if rd.used[i] || !content(t) && !rd.namesColumn(i) {
			continue // a harmless word, unless it is a column's very name ("overall" for Overall)
		}
		if c, ok := rd.best(i); ok && c.Kind == schema.ColumnLink && (rd.filtered(c.Column) || rd.restated(i, c.Column)) {
			continue
		}
		if rd.harmless(i) || rd.periodRows(i) {
			continue
		}
		return &Gap{Phrase: rd.linkText(i), Why: "I did not understand"}
	}
	return nil
}

// periodRows reports a plural period of the dates restricted by its own attachment, which
// names the rows of a table of such periods: "the average temperature on days with no
// precipitation". Counted, the days would be distinct dates, not rows, so a count is not read.
func (rd *reader) periodRows(i int) bool {
	t := rd.s.Tokens[i]
	c, ok := rd.best(i)
	if !ok || c.Kind != schema.ColumnLink || !t.IsPlural() || !rd.ix.IsTimeWord(t.Lemma) || rd.m.Agg == Count || rd.m.Agg == Distinct {
		return false
	}
	if col := rd.ix.Column(c.Column); col == nil || col.Type != schema.Date {
		return false
	}
	return rd.filteredBy(i)
}

// restated reports a column named again, after "in" or "on", that the meaning already uses: "the 3 unhappiest people in the happiness scale" says which scale "unhappiest" is on.
func (rd *reader) restated(i int, col string) bool {
	k := rd.phraseOf(i)
	if k < 0 || rd.s.Phrases[k].Start == 0 || !rd.s.Tokens[rd.s.Phrases[k].Start-1].Is("in", "on") {
		return false
	}
	return rd.usesColumn(col)
}

// namesColumn reports a token that names a column as written, up to case and form.
func (rd *reader) namesColumn(i int) bool {
	c, ok := rd.best(i)
	return ok && c.Kind == schema.ColumnLink && (c.Reason == schema.Exact || c.Reason == schema.Normalised || c.Reason == schema.Lemma)
}

// restrictive reports a row noun that restricts the rows rather than naming them all: one of
// age or sex ("children", "women"), or a bare plural after a preposition that is not the
// table's own entity ("the average salary of managers": some employees, not all of them; "the
// fare of the passengers" names them all).
func (rd *reader) restrictive(i int, c schema.Candidate) bool {
	t := rd.s.Tokens[i]
	if c.Score < 0.8 && t.IsPlural() && i > 0 && rd.s.Tokens[i-1].POS == "IN" && !rd.s.Tokens[i-1].Is("of", "among", "amongst") && !rd.agent(i) && !rd.filteredBy(i) {
		return true
	}
	lx := rd.ix.Lexicon()
	if c.Score < 0.8 && lx.IsAWithin(t.Lemma, "person", 2) {
		// The table says its rows are employees (employee_id); "managers" are some of them.
		for _, e := range rd.ix.Entities() {
			if lx.IsAWithin(e, "person", 2) {
				return true
			}
		}
	}
	for _, class := range []string{"female", "male"} {
		if lx.IsAWithin(t.Lemma, class, 1) {
			return true
		}
	}
	for _, class := range []string{"juvenile", "adult"} {
		if lx.IsAWithin(t.Lemma, class, 1) {
			return !rd.ageSpelledOut(i)
		}
	}
	return false
}

// filteredBy reports a row noun whose own attachment holds a condition the meaning read:
// "for companies in the retail sector", "for customers with a credit limit above 5000". The
// attachment restricts; the noun names the rows it restricts.
func (rd *reader) filteredBy(i int) bool {
	k := rd.phraseOf(i)
	if k < 0 || rd.s.Phrases[k].Head != i {
		return false
	}
	for _, a := range rd.s.Phrases[k].Attachments {
		obj := rd.s.Phrases[a.Object]
		for _, c := range rd.m.Filters {
			if c.at >= a.Prep && c.at < obj.End {
				return true
			}
		}
	}
	return false
}

// agent reports the row noun as the agent of a participle: "the ratings given by reviewers"
// names them all.
func (rd *reader) agent(i int) bool {
	return i >= 2 && rd.s.Tokens[i-1].Is("by") && rd.s.Tokens[i-2].POS == "VBN"
}

// ageSpelledOut reports an age class whose bound the question gives right after it: "children
// below the age of 18", "adults over 21". The comparison is the restriction, and the noun only
// names it.
func (rd *reader) ageSpelledOut(i int) bool {
	for _, c := range rd.m.Filters {
		if c.Numeric && c.at > i && c.at <= i+2 && slices.Contains(columnWords(c.Column), "age") {
			return true
		}
	}
	return false
}

// entityNoun reports an unlinked common noun that names what a row is: "How many complaints
// were made in Queens?", "Which neighbourhood has the most listings?". It must be plural or
// determined, must not restrict by age or sex, and must not name part of a category value (a
// table whose titles include "Engineering Manager" reads "managers" as a restriction).
func (rd *reader) entityNoun(i int) bool {
	t := rd.s.Tokens[i]
	if t.Kind != language.Word || !t.IsNoun() || strings.HasPrefix(t.POS, "NNP") || rd.namesValue(t) || rd.ix.IsTimeWord(t.Lemma) {
		return false // a year or a quarter is a period of the dates, not a row
	}
	if i > 0 && rd.s.Tokens[i-1].POS == "IN" && !rd.s.Tokens[i-1].Is("of", "among", "amongst", "per") {
		return false // "people with diabetes", "during heatwaves": a restriction
	}
	if rd.restrictive(i, schema.Candidate{Score: 1}) || countNouns[t.Lemma] || measureNouns[t.Lemma] {
		return false
	}
	k := rd.phraseOf(i)
	if k >= 0 && i+1 < len(rd.s.Tokens) && rd.s.Tokens[i+1].POS == "POS" && rd.ix.Identifier(t.Lemma) != "" {
		return true // "every passenger's name": the possessor is the row
	}
	if k < 0 || rd.s.Phrases[k].Head != i {
		return false
	}
	np := rd.s.Phrases[k]
	for _, j := range np.Modifiers {
		if !rd.used[j] && content(rd.s.Tokens[j]) && !rd.compoundWord(j) && !rd.oneRow(np, j) && !rd.themeWord(j) {
			return false // "foreign companies": a restriction the table may not hold
		}
	}
	if t.IsPlural() {
		return true
	}
	// A singular noun names the rows only as what is asked about ("which customer", "each
	// product", "is there any wine"), not as the object of a verb ("survived the iceberg") or
	// of "of" ("the crew").
	if np.Det < 0 {
		return np.Start > 0 && rd.s.Tokens[np.Start-1].Is("per") // "favorites per tweet"
	}
	return rd.s.Tokens[np.Det].Is("which", "what", "each", "every") ||
		rd.s.Tokens[np.Det].Is("the", "any", "a", "an") && (k == rd.s.Form().Focus || rd.ranked(k)) ||
		rd.s.Tokens[np.Det].Is("a", "an") && rd.generic(np)
}

// themeWord reports a noun that several column names share, the table's theme, at most weakly
// linked:
// "job" of "job listings" in a table with Job Title and job_state. Before the row noun it
// says what every row is.
func (rd *reader) themeWord(j int) bool {
	t := rd.s.Tokens[j]
	if c, ok := rd.best(j); !t.IsNoun() || ok && !rd.weakLink(j, c) {
		return false // a column named in full is that column
	}
	n := 0
	for _, col := range rd.ix.Table().Columns {
		if slices.Contains(columnWords(col.Name), t.Lemma) {
			n++
		}
	}
	return n >= 2
}

// oneRow reports "single" after "a": "a single tweet" is any one row.
func (rd *reader) oneRow(np language.NounPhrase, j int) bool {
	return rd.s.Tokens[j].Is("single") && np.Det >= 0 && rd.s.Tokens[np.Det].Is("a", "an") && j == np.Det+1
}

// generic reports a phrase with "a" that stands for any one row: the object of "of" after a
// measure ("the maximum duration of a talk"), or the subject of a clause that follows it
// ("the highest price a car is listed for", "the most retweets a tweet has received").
func (rd *reader) generic(np language.NounPhrase) bool {
	if np.Start > 0 && rd.s.Tokens[np.Start-1].Is("of") {
		return true
	}
	if np.Start > 0 && rd.s.Tokens[np.Start-1].Is("for", "in", "per", "by") && slices.ContainsFunc(np.Modifiers, func(j int) bool { return rd.oneRow(np, j) }) {
		return true // "the most favorites received for a single tweet"
	}
	if np.Start > 1 && rd.s.Tokens[np.Start-1].Is("in", "per") && rd.numericHead(np.Start-2) {
		return true // "the maximum number of bedrooms in a property": the count of one row
	}
	return np.End < len(rd.s.Tokens) && rd.s.Tokens[np.End].IsVerb()
}

// numericHead reports a token that heads a phrase naming a numeric column: "bedrooms" of "the
// number of bedrooms".
func (rd *reader) numericHead(i int) bool {
	k := rd.phraseOf(i)
	if k < 0 || rd.s.Phrases[k].Head != i {
		return false
	}
	c, ok := rd.best(i)
	return ok && c.Kind == schema.ColumnLink && rd.numeric(c.Column)
}

// ranked reports a phrase whose rows a superlative ranks: "the oldest roller coaster", "the
// song with the longest lyrics", "the person with the highest glucose level".
func (rd *reader) ranked(k int) bool {
	for _, sp := range rd.s.Superlatives {
		if sp.Phrase == k && !amountLemmas[sp.Lemma] {
			return true // but "the most money" is an amount, not a row
		}
		for _, a := range rd.s.Phrases[k].Attachments {
			if a.Object == sp.Phrase && rd.s.Tokens[a.Prep].Is("with", "by") {
				return true
			}
		}
	}
	return false
}

// betweenEntityAndColumn reports a verb between the entity a question asks about, named by a
// column of text, and the column that ranks or restricts it: "which company received the
// lowest rating". A verb followed by no column ("which region sells the most") says what is
// measured, and is not carried.
func (rd *reader) betweenEntityAndColumn(i int) bool {
	j := i - 1
	for j >= 0 && (rd.s.Tokens[j].IsVerb() || strings.HasPrefix(rd.s.Tokens[j].POS, "RB")) {
		j--
	}
	if c, ok := rd.best(j); !ok || c.Kind != schema.ColumnLink || !rd.used[j] || rd.numeric(c.Column) || rd.phraseOf(j) != rd.s.Form().Focus {
		return false
	}
	for k := i + 1; k < len(rd.s.Tokens); k++ {
		t := rd.s.Tokens[k]
		if c, ok := rd.best(k); ok && rd.used[k] && c.Kind != schema.RowsLink {
			return true
		}
		if t.POS != "DT" && !(rd.used[k] && (t.IsAdjective() || t.Kind == language.Number)) {
			return false
		}
	}
	return false
}

// compoundWord reports a noun right before the row noun that makes one English noun with it:
// "roller" of "roller coasters" (WordNet's "roller coaster") when the linker took "coasters"
// for the table's rows. Before any other noun ("booster doses", "side effects") the compound
// may be what is measured, and is not harmless.
func (rd *reader) compoundWord(j int) bool {
	k := rd.phraseOf(j)
	if k < 0 || rd.s.Phrases[k].Head != j+1 || !rd.s.Tokens[j].IsNoun() || !rd.isRowsToken(j+1) {
		return false
	}
	return rd.ix.Lexicon().POS(rd.s.Tokens[j].Lower + " " + rd.s.Tokens[j+1].Lemma).Has(language.Noun)
}

// carrierVerb reports a verb that only carries a condition to the rows: next to the row noun,
// with the condition after it ("complaints made in Queens", "agencies handling the most
// complaints", "passengers who paid a fare of more than 500"). A verb whose complement holds
// nothing the rules used is itself the condition ("employees who left the company") and blocks.
func (rd *reader) carrierVerb(i int) bool {
	t := rd.s.Tokens[i]
	if !t.IsVerb() {
		return false
	}
	if rd.participleOnColumn(i) {
		return true
	}
	if rd.betweenEntityAndColumn(i) {
		return true
	}
	if !rd.nextToRows(i) {
		return false
	}
	for _, c := range rd.ix.Table().Columns {
		if slices.ContainsFunc(columnWords(c.Name), func(w string) bool { return w == t.Lower || w == t.Lemma }) {
			return false // "who expected more than 5 matches": part of expected_num_matches
		}
	}
	for j := i + 1; j < len(rd.s.Tokens); j++ {
		u := rd.s.Tokens[j]
		if u.Kind == language.Punct || u.IsVerb() && !rd.used[j] {
			break
		}
		if rd.used[j] && content(u) {
			return true
		}
	}
	return rd.frontedObject(i)
}

// frontedObject reports a verb that ends a question whose object the wh-word brought to the
// front, a column the rules used: "how much fare did the passengers pay?", "what price did
// the shop charge?". The verb carries the column to the rows, as "the fare the passengers
// paid" does.
func (rd *reader) frontedObject(i int) bool {
	for j := i + 1; j < len(rd.s.Tokens); j++ {
		if rd.s.Tokens[j].Kind != language.Punct {
			return false // the verb has a complement of its own
		}
	}
	focus := rd.s.Form().Focus
	if focus < 0 {
		return false
	}
	np := rd.s.Phrases[focus]
	// The object is fronted only when "do" carries the question: "how much fare did they pay".
	// In "the age of people who smoke" the verb is a relative clause's, and the condition.
	do := false
	for j := np.End; j < i; j++ {
		switch u := rd.s.Tokens[j]; {
		case u.Is("who", "that", "which", "whose"):
			return false
		case u.Is("do", "does", "did"):
			do = true
		}
	}
	if !do && !rd.contactClause(rd.subject.End, i) {
		return false
	}
	for j := np.Start; j < np.End; j++ {
		if c, ok := rd.best(j); ok && c.Kind == schema.ColumnLink && rd.used[j] {
			return true
		}
	}
	return false
}

// contactClause reports a clause from token from to the verb at token v with no relative
// pronoun, whose subject is the row noun: "(the most retweets) a tweet has received", "(the
// highest price) a car is listed for". Its object is the phrase before it.
func (rd *reader) contactClause(from, v int) bool {
	subject := false
	for j := from; j < v; j++ {
		switch u := rd.s.Tokens[j]; {
		case u.POS == "DT" && !subject:
		case u.IsNoun() && !subject && (rd.isRowsToken(j) || rd.link[j] < 0 && rd.entityNoun(j)):
			subject = true
		case subject && (u.POS == "MD" || u.IsVerb() && (u.Lemma == "be" || u.Lemma == "have")):
		default:
			return false
		}
	}
	return subject
}

// participleOnColumn reports a participle right after a column the rules used, with nothing
// after it but the row noun as its agent or object: "the mean fare paid (by the passengers)",
// "the price charged", "agencies handling complaints". In "the price paid by survivors" the
// filters place the survivors, and the participle only carries that restriction.
func (rd *reader) participleOnColumn(i int) bool {
	t := rd.s.Tokens[i]
	if t.POS != "VBN" && t.POS != "VBG" || i == 0 {
		return false
	}
	c, ok := rd.best(i - 1)
	if !ok || c.Kind != schema.ColumnLink || !rd.used[i-1] {
		return false
	}
	for j := i + 1; j < len(rd.s.Tokens); j++ {
		u := rd.s.Tokens[j]
		switch {
		case u.Kind == language.Punct:
			return true
		case u.Is("by", "for", "per", "across", "who", "that", "which", "single") || u.POS == "DT" || rd.used[j]:
			continue // "the score received by an entry", "the feedback received for a review"
		case u.Is("in") && j+1 < len(rd.s.Tokens) && rd.s.Tokens[j+1].Is("a", "an", "each", "every"):
			continue // "the quantity ordered in a single transaction"
		case u.IsNoun() && (rd.entityNoun(j) || rd.isRowsToken(j) || tableWords[u.Lemma]):
			continue
		}
		return false
	}
	return true
}

// isRowsToken reports a token linked to the row entity.
func (rd *reader) isRowsToken(j int) bool {
	c, ok := rd.best(j)
	return ok && c.Kind == schema.RowsLink
}

// nextToRows reports a verb whose neighbour, past auxiliaries, adverbs and relative pronouns,
// is the row noun or a column the rules used: "complaints (were) made", "who paid", "fare paid".
func (rd *reader) nextToRows(i int) bool {
	rows := func(j int) bool {
		c, ok := rd.best(j)
		switch {
		case ok && (c.Kind == schema.RowsLink || c.Kind == schema.ValueLink && rd.used[j]):
			return true
		case ok && rd.ownNameColumn(j, c) && rd.ix.Column(c.Column).Type == schema.Text:
			// "songs (were produced in 1965)": the rows, each named in Song; a category's
			// values are groups ("which region sells the most" measures the regions)
			return true
		case ok && rd.weakLink(j, c):
			return rd.entityNoun(j)
		}
		return rd.link[j] < 0 && rd.entityNoun(j)
	}
	for j := i - 1; j >= 0; j-- {
		u := rd.s.Tokens[j]
		if u.IsVerb() || strings.HasPrefix(u.POS, "RB") || u.POS == "MD" || u.Is("who", "that", "which") {
			continue
		}
		if rows(j) {
			return true
		}
		break
	}
	for j := i + 1; j < len(rd.s.Tokens); j++ {
		u := rd.s.Tokens[j]
		if u.POS == "DT" || rd.used[j] && !u.IsNoun() {
			continue
		}
		return u.IsNoun() && rows(j)
	}
	return false
}

// measureNoun reports "level", "stat", "values" leaning on a column in the same phrase or the
// phrase attached by "of": "the maximum level of Extraversion", "the highest total stats".
func (rd *reader) measureNoun(i int) bool {
	if !measureNouns[rd.s.Tokens[i].Lemma] {
		return false
	}
	k := rd.phraseOf(i)
	if k < 0 {
		return false
	}
	if col, _ := rd.phraseColumn(k); col != "" {
		return true
	}
	for _, a := range rd.s.Phrases[k].Attachments {
		if col, _ := rd.phraseColumn(a.Object); col != "" && rd.s.Tokens[a.Prep].Is("of", "for") {
			return true
		}
	}
	return false
}

// namesValue reports a noun that is a word of some category value, or derives from one: it
// restricts that column ("managers" of "Engineering Manager", "smokers" of "smokes").
func (rd *reader) namesValue(t language.Token) bool {
	if rd.valueForms == nil {
		rd.valueForms = rd.valueWordForms()
	}
	if rd.valueForms[t.Lower] || rd.valueForms[t.Lemma] {
		return true
	}
	for _, d := range rd.ix.Lexicon().Derivations(t.Lemma) {
		if rd.valueForms[d] {
			return true
		}
	}
	return false
}

// valueWordForms collects the words of every category value with their lemmas.
func (rd *reader) valueWordForms() map[string]bool {
	lx := rd.ix.Lexicon()
	forms := map[string]bool{}
	for _, c := range rd.ix.Table().Columns {
		if c.Type != schema.Category {
			continue
		}
		for _, v := range c.Values {
			for _, w := range strings.FieldsFunc(strings.ToLower(v), func(r rune) bool { return !unicode.IsLetter(r) }) {
				forms[w] = true
				for _, tag := range []string{"NNS", "VBZ", "VBD", "VBG"} {
					if l := lx.Lemma(w, tag); l != "" {
						forms[l] = true
					}
				}
			}
		}
	}
	return forms
}

// phraseOf returns the noun phrase token i is in, or -1.
func (rd *reader) phraseOf(i int) int {
	for k, np := range rd.s.Phrases {
		if np.Contains(i) {
			return k
		}
	}
	return -1
}

// filtered reports a column some filter or check is on.
func (rd *reader) filtered(col string) bool {
	for _, c := range rd.m.Filters {
		if c.Column == col {
			return true
		}
	}
	return rd.m.Check != nil && rd.m.Check.Column == col
}

// usesColumn reports a column the meaning already takes, ranks, groups or tests.
func (rd *reader) usesColumn(col string) bool {
	m := &rd.m
	return m.Target == col || m.Group == col || m.Order != nil && m.Order.Column == col || rd.filtered(col)
}

// linkText is the phrase around token i: its link's text, or the word.
func (rd *reader) linkText(i int) string {
	if rd.link[i] >= 0 {
		return rd.r.Links[rd.link[i]].Text
	}
	return rd.s.Tokens[i].Text
}

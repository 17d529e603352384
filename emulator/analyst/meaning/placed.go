package meaning

import (
	"slices"

	"github.com/analyst-workbench/workbench/emulator/analyst/language"
	"github.com/analyst-workbench/workbench/emulator/analyst/schema"
)

// Placed returns the words of a question that have no analytic role of their own, by the rules
// Read accounts for them with: nouns that name the table's rows ("passengers", "billionaires"),
// participles that only carry a measure ("the fare paid"), and measure nouns leaning on a
// column ("the level of …"). Words
// that restrict the rows ("children", "managers" when titles hold it) or change the measure are
// never among them. Callers with rules of their own (the keyword planner) use it so that a
// harmless word never blocks an answer, whether or not Read composes the whole question.
func Placed(s *language.Sentence, r *schema.Result, ix *schema.Index) []string {
	rd := newReader(s, r, ix)
	rd.indexLinks()
	rd.subject = rd.subjectSpan()
	for _, rule := range []func() error{rd.order, rd.filters, rd.sameAs, rd.aggregate, rd.target} {
		_ = rule() // a gap elsewhere does not change how a row noun or a carrier verb is read
	}
	for i := range len(s.Tokens) - 1 {
		if c, ok := rd.best(i); ok && c.Kind == schema.ColumnLink && s.Tokens[i+1].POS == "VBN" {
			rd.used[i] = true // the caller reads the measure: "the fare (paid)" in a chart request
		}
	}
	var words []string
	for i, t := range s.Tokens {
		if rd.used[i] || !content(t) {
			continue
		}
		if rd.placedAlone(i) {
			words = append(words, t.Text)
		}
	}
	return words
}

// placedAlone reports a word that is harmless whatever the rest of the question means: the
// table's own row noun, a measure noun, a participle on a measure. A noun Read takes for the
// rows only because the question is whole ("which release had the most bugs": bugs are not
// releases) and a verb it takes to carry a condition it placed ("houses renovated after
// 2000") are not: when Read leaves a gap, they may be what it could not place.
func (rd *reader) placedAlone(i int) bool {
	if c, ok := rd.best(i); ok {
		return rd.plainRows(i, c)
	}
	return rd.measureNoun(i) || rd.s.Tokens[i].IsVerb() && rd.participleOnColumn(i)
}

// harmless reports a content word that names the rows, carries a condition or leans on a
// measure: the words account lets pass without a rule having used them.
func (rd *reader) harmless(i int) bool {
	if rd.describesColumn(i) || rd.otherOfExclusion(i) || rd.sourceOfTable(i) || rd.unitGloss(i) {
		return true
	}
	if rd.periodEvent(i) {
		return true
	}
	if c, ok := rd.best(i); ok && !rd.weakLink(i, c) {
		return rd.plainRows(i, c) || rd.namingColumnPlural(i, c)
	} else if ok && (rd.plainRows(i, c) || rd.namingColumnPlural(i, c)) {
		return true
	}
	return rd.entityNoun(i) || rd.themeOfRows(i) || rd.measureNoun(i) || rd.carrierVerb(i) || rd.compoundWord(i) || rd.possessor(i) || rd.singleRow(i)
}

// ownNameColumn reports a noun linked to a column of names that is the noun itself: "songs"
// for Song, "URLs" for URLs. Such a column names the rows.
func (rd *reader) ownNameColumn(i int, c schema.Candidate) bool {
	lx := rd.ix.Lexicon()
	return c.Kind == schema.ColumnLink && rd.names(c.Column) && lx.Lemma(lemmaOfColumn(c.Column), "NNS") == lx.Lemma(rd.s.Tokens[i].Lower, "NNS")
}

// periodEvent reports a participle naming the event whose dates are grouped by period: "hired"
// of "which year had the most employees hired", grouped by the year of Date Hired.
func (rd *reader) periodEvent(i int) bool {
	if rd.m.GroupPart == "" || !rd.s.Tokens[i].IsVerb() {
		return false
	}
	l := rd.s.Tokens[i]
	return slices.ContainsFunc(columnWords(rd.m.Group), func(w string) bool { return w == l.Lower || w == l.Lemma })
}

// themeOfRows reports a theme word (themeWord) before the noun that names the rows: "job" of
// "job listings".
func (rd *reader) themeOfRows(i int) bool {
	k := rd.phraseOf(i)
	if k < 0 || !rd.themeWord(i) {
		return false
	}
	h := rd.s.Phrases[k].Head
	return h > i && (rd.isRowsToken(h) || rd.link[h] < 0 && rd.entityNoun(h))
}

// weakLink reports a word the linker tied to a column only by a word of the name that is not
// its head, a column the meaning does not use: "property" of property_type, "job" of
// job_state. Such a word is read as if unlinked: "the property with the most bedrooms" names
// the rows; a word no rule places still blocks.
func (rd *reader) weakLink(i int, c schema.Candidate) bool {
	return c.Kind == schema.ColumnLink && c.Reason == schema.Partial && c.Score < 0.6 && !rd.usesColumn(c.Column)
}

// singleRow reports "single" of "a single tweet" when the phrase names the rows.
func (rd *reader) singleRow(i int) bool {
	k := rd.phraseOf(i)
	return k >= 0 && rd.oneRow(rd.s.Phrases[k], i) && rd.entityNoun(rd.s.Phrases[k].Head)
}

// possessorClasses are the WordNet classes of a noun that, before a column, says whose the
// column's values are: "car colors", "talk durations", "job listings". Places are left out:
// "home games" are some of the games.
var possessorClasses = []string{"artifact", "person", "organism", "communication", "act", "food", "organization"}

// possessor reports an unlinked singular noun right before a column the rules used, naming
// the things the rows are: "the 3 most common car colors" are the cars' colors. A noun that
// makes one English noun with the column's ("booster dose", "side effect") is a kind of it,
// and restricts; so does one that names a value, a period or an age or sex.
func (rd *reader) possessor(i int) bool {
	t, toks := rd.s.Tokens[i], rd.s.Tokens
	if t.POS != "NN" || i+1 >= len(toks) || !toks[i+1].IsNoun() || !rd.used[i+1] && !rd.isRowsToken(i+1) {
		return false
	}
	if c, ok := rd.best(i); ok && !rd.weakLink(i, c) {
		return false
	}
	if c, ok := rd.best(i + 1); !ok || c.Kind != schema.ColumnLink || rd.phraseOf(i) != rd.phraseOf(i+1) {
		return false
	}
	lx := rd.ix.Lexicon()
	if lx.POS(t.Lemma+" "+toks[i+1].Lemma).Has(language.Noun) || rd.namesValue(t) || rd.ix.IsTimeWord(t.Lemma) ||
		rd.restrictive(i, schema.Candidate{Score: 1}) || lx.IsAWithin(t.Lemma, "location", 2) {
		return false
	}
	return slices.ContainsFunc(possessorClasses, func(c string) bool { return lx.IsAWithin(t.Lemma, c, 2) })
}

// namingColumnPlural reports a noun for a column of names that is the noun itself, which no
// rule took, and that names rows: a plural with a determiner or a modifier ("by all Miami
// Heat players" are rows, each named in Player), or one a superlative ranks ("the artist of
// the song with the highest rank": the row, named in Song). A bare "by players" may ask for
// groups, and the phrase a wh-word asks about is the answer: both stay unplaced.
func (rd *reader) namingColumnPlural(i int, c schema.Candidate) bool {
	t := rd.s.Tokens[i]
	lx := rd.ix.Lexicon()
	if !rd.ownNameColumn(i, c) {
		return false
	}
	k := rd.phraseOf(i)
	if k < 0 || k == rd.s.Form().Focus || rd.s.Phrases[k].Head != i {
		return false // "which two chips …" asks for chips: a reading without them answers another question
	}
	np := rd.s.Phrases[k]
	if lx.Lemma(t.Lower, "NNS") == t.Lower {
		return np.Det >= 0 && rd.ranked(k) && rd.m.Order != nil
	}
	// "the rankings of URLs with low competition": after "of" or "for", the rows the values are of
	of := np.Start > 0 && rd.s.Tokens[np.Start-1].Is("of", "for") && rd.m.Target != "" && rd.m.Target != c.Column
	return np.Det >= 0 || len(np.Modifiers) > 0 || of
}

// describesColumn reports a bare singular noun after "of" on a column the rules used, which
// says what the column holds rather than naming another: "the source of wealth", "the level
// of education". A plural ("the salary of managers") or a determined phrase ("of the
// survivors") names rows, and is the filters' or the row noun's to place.
func (rd *reader) describesColumn(i int) bool {
	t := rd.s.Tokens[i]
	if t.POS != "NN" || t.Kind == language.Name {
		return false
	}
	for _, p := range rd.s.Phrases {
		c, ok := rd.best(p.Head)
		if !ok || c.Kind != schema.ColumnLink || !rd.used[p.Head] {
			continue
		}
		for _, a := range p.Attachments {
			obj := rd.s.Phrases[a.Object]
			if obj.Head == i && obj.Det < 0 && len(obj.Numbers) == 0 && obj.End-obj.Start == 1 && rd.s.Tokens[a.Prep].Is("of") {
				return true
			}
		}
	}
	return false
}

// plainRows reports a word linked to the row entity that does not restrict the rows: "passengers"
// in "the mean fare of the passengers", not "children" or a category value.
func (rd *reader) plainRows(i int, c schema.Candidate) bool {
	// The table's own entity ("buildings" of buildings.csv) names all its rows, even when a
	// value spells the word ("State Tower Building"); a weaker row noun that a value spells
	// ("managers" of "Engineering Manager") restricts.
	return c.Kind == schema.RowsLink && !rd.restrictive(i, c) && (c.Score >= 0.8 || !rd.namesValue(rd.s.Tokens[i]))
}

// otherOfExclusion reports "other" or "else" once a condition excludes a value: in "other
// than Townsville, how many other communities", the second "other" repeats the exclusion, and
// "which other album has the same length as Topeng" leaves Topeng out.
func (rd *reader) otherOfExclusion(i int) bool {
	if !rd.s.Tokens[i].Is("other", "else") {
		return false
	}
	for _, c := range rd.m.Filters {
		if c.Op == "!=" || c.Op == "not in" || c.Same != nil {
			return true
		}
	}
	return false
}

// sourceOfTable reports a word that says where to look, which is the table: "according" in
// "according to this table", and "chart" or "list" in "listed on this chart", "the last on the
// list", "in the table".
func (rd *reader) sourceOfTable(i int) bool {
	toks := rd.s.Tokens
	if toks[i].Is("according") && i+1 < len(toks) && toks[i+1].Is("to") {
		for k := i + 2; k < len(toks) && k <= i+4; k++ {
			if tableWords[toks[k].Lemma] || toks[k].Is("chart") {
				return true
			}
		}
		return false
	}
	if !tableWords[toks[i].Lemma] && !toks[i].Is("chart") || toks[i].IsPlural() {
		return false
	}
	k := i - 1
	if k >= 0 && toks[k].Is("the", "this", "that") {
		k--
	}
	return k >= 0 && k < i-1 && toks[k].Is("on", "in", "from", "of")
}

// unitGloss reports a unit of measurement said in parentheses, "(in grams)", "(in mph)", or
// with "in" at the end of the question, "… events in inches?": it says how the answer is
// measured, which the column's own unit decides.
func (rd *reader) unitGloss(i int) bool {
	toks := rd.s.Tokens
	j := i - 1
	if j >= 0 && toks[j].Is("in") {
		j--
	}
	bare := j == i-2 && j >= 0 && i+1 < len(toks) && toks[i+1].Kind == language.Punct // "… events in inches?"
	if !bare && (j < 0 || !toks[j].Is("(") || i+1 >= len(toks) || !toks[i+1].Is(")")) {
		return false
	}
	if c, ok := rd.best(i); ok && c.Kind == schema.ColumnLink {
		// "the top 3 speeds (in mph)" glosses speed_mph, which the meaning takes; "the
		// highest number of records (n)" names the column n, which some rule must take.
		return rd.usesColumn(c.Column)
	}
	if len(toks[i].Lemma) < 2 {
		return false
	}
	return rd.ix.Lexicon().IsA(toks[i].Lemma, "unit of measurement")
}

package meaning

import (
	"github.com/analyst-workbench/workbench/emulator/analyst/language"
	"github.com/analyst-workbench/workbench/emulator/analyst/schema"
)

// AsksEntity returns the words with which a question asks for a row or a value by its name
// ("who", "which country", "what album"), "" when it asks for a number, a verdict or anything
// else. An answer to it must name something: a summary of a column, the file's first rows or a
// single statistic answers a nearby question.
func AsksEntity(s *language.Sentence, r *schema.Result, ix *schema.Index) string {
	phrase, _ := entityAsked(s, r, ix)
	return phrase
}

// EntityColumn returns the column whose values answer a question that asks for something by
// name: the text column its X names ("which network" → Network), or, for "who" and a noun
// naming the rows ("which film"), the column that names the rows (Index.Identifier); "" when
// the question asks for no name, or no column holds one.
func EntityColumn(s *language.Sentence, r *schema.Result, ix *schema.Index) string {
	_, col := entityAsked(s, r, ix)
	return col
}

// entityAsked is AsksEntity's phrase and EntityColumn's column.
func entityAsked(s *language.Sentence, r *schema.Result, ix *schema.Index) (phrase, column string) {
	form := s.Form()
	if form.Kind != language.Wh {
		return "", ""
	}
	w := s.Tokens[form.Word]
	if w.Is("who", "whom") {
		return w.Text, ix.Identifier("")
	}
	if !w.Is("which", "what") || form.Focus < 0 {
		return "", ""
	}
	rd := newReader(s, r, ix)
	rd.indexLinks()
	np := s.Phrases[form.Focus]
	if rd.elliptical(form.Focus) {
		return "", ""
	}
	for _, i := range append([]int{np.Head}, np.Modifiers...) {
		if _, ok := aggWords[s.Tokens[i].Lower]; ok {
			return "", "" // "what is the average price", "what is the mean of A" ask for a number
		}
	}
	head := s.Tokens[np.Head].Lemma
	if tableWords[head] || tableWords[s.Tokens[np.Head].Lower] {
		return "", "" // "what does the data look like" asks about the table
	}
	if c, ok := rd.best(np.Head); ok {
		switch {
		case c.Kind == schema.ColumnLink && rd.names(c.Column):
			return rd.phraseText(form.Focus), c.Column
		case c.Kind == schema.RowsLink:
			return rd.phraseText(form.Focus), ix.Identifier(head)
		case c.Kind != schema.ValueLink:
			return "", ""
		}
	} else if rd.entityNoun(np.Head) {
		return rd.phraseText(form.Focus), ix.Identifier(head)
	}
	if rd.filters() == nil {
		if col := rd.alternativesAsked(); col != "" {
			return w.Text, col // "which is a civil parish, Aintree Village or Maghull?"
		}
	}
	return "", ""
}

// names reports a column whose values name things: text or categories, not numbers, dates or
// flags.
func (rd *reader) names(col string) bool {
	c := rd.ix.Column(col)
	return c != nil && (c.Type == schema.Text || c.Type == schema.Category)
}

// placeAsked leaves a gap when "where" asks for a place and the answer would be a column that
// holds none: "where was the last competition held" is not answered with the competition's name.
func (rd *reader) placeAsked() error {
	if !rd.asksWhere() || rd.m.Form == Verdict {
		return nil
	}
	t := rd.m.Target
	if t == "" {
		t = rd.m.Identifier
	}
	if t != "" && rd.holdsPlaces(t) {
		return nil
	}
	if rd.m.Order != nil && rd.m.Agg == NoAgg && !rd.m.Order.Size {
		// "where was the last competition held": the row is picked, its place is the answer
		if col := rd.onlyPlaces(); col != "" {
			rd.m.Target, rd.m.Identifier = col, ""
			return nil
		}
	}
	return &Gap{Phrase: "where", Why: "a place asked for, and no column of places is what is read"}
}

// onlyPlaces returns the table's one column of names that holds places, "" when none or several.
func (rd *reader) onlyPlaces() string {
	return rd.onlyColumn(func(c schema.Column) bool { return rd.names(c.Name) && rd.holdsPlaces(c.Name) })
}

// holdsPlaces reports a column named for a place, by WordNet: a location (city, country,
// venue, region) or a structure (stadium, arena).
func (rd *reader) holdsPlaces(col string) bool {
	lx := rd.ix.Lexicon()
	for _, w := range columnWords(col) {
		if lx.IsAWithin(w, "location", 8) || lx.IsAWithin(w, "structure", 8) {
			return true
		}
	}
	return false
}

// asksWhere reports a question asked with "where": its answer is a place, whatever the rows.
func (rd *reader) asksWhere() bool {
	form := rd.s.Form()
	return form.Kind == language.Wh && rd.s.Tokens[form.Word].Is("where")
}

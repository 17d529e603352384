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
	form := s.Form()
	if form.Kind != language.Wh {
		return ""
	}
	w := s.Tokens[form.Word]
	if w.Is("who", "whom") {
		return w.Text
	}
	if !w.Is("which", "what") || form.Focus < 0 {
		return ""
	}
	rd := newReader(s, r, ix)
	rd.indexLinks()
	np := s.Phrases[form.Focus]
	if rd.elliptical(form.Focus) {
		return ""
	}
	for _, i := range np.Modifiers {
		if _, ok := aggWords[s.Tokens[i].Lower]; ok {
			return "" // "what is the average price" asks for a number
		}
	}
	if c, ok := rd.best(np.Head); ok {
		if c.Kind == schema.RowsLink || c.Kind == schema.ColumnLink && rd.names(c.Column) {
			return rd.phraseText(form.Focus)
		}
		return ""
	}
	if rd.entityNoun(np.Head) {
		return rd.phraseText(form.Focus)
	}
	return ""
}

// names reports a column whose values name things: text or categories, not numbers, dates or
// flags.
func (rd *reader) names(col string) bool {
	c := rd.ix.Column(col)
	return c != nil && (c.Type == schema.Text || c.Type == schema.Category)
}

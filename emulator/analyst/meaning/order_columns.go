package meaning

import (
	"github.com/analyst-workbench/workbench/emulator/analyst/language"
	"github.com/analyst-workbench/workbench/emulator/analyst/schema"
)

// verbColumn returns the numeric column a verb at i is the verb of, and places the verb:
// "placed" is Place's, "ranked" Rank's; "" when i is no such verb.
func (rd *reader) verbColumn(i int) string {
	return rd.columnOfVerb(i, func(c schema.Column) bool { return c.Type == schema.Number })
}

// columnOfVerb returns the one column of those ok accepts that the verb at i is the verb of,
// and places the verb; "" when there is none or several.
func (rd *reader) columnOfVerb(i int, ok func(schema.Column) bool) string {
	if i < 0 || i >= len(rd.s.Tokens) || rd.used[i] || !rd.s.Tokens[i].IsVerb() {
		return ""
	}
	lemma := rd.s.Tokens[i].Lemma
	found := rd.onlyColumn(func(c schema.Column) bool { return ok(c) && lemmaOfColumn(c.Name) == lemma })
	if found != "" {
		rd.used[i] = true
	}
	return found
}

// whoseColumn returns, for a question asked with "who", the one column of names another phrase
// names: in "who had pole position the most times" the names in Pole Position are the groups
// counted; "" when there is none or several.
func (rd *reader) whoseColumn(skip int) (string, int) {
	if form := rd.s.Form(); form.Kind != language.Wh || !rd.s.Tokens[form.Word].Is("who", "whom") {
		return "", -1
	}
	found, where := "", -1
	for k := range rd.s.Phrases {
		col, at := rd.phraseColumn(k)
		if k == skip || col == "" || !rd.names(col) || rd.used[at] {
			continue
		}
		if found != "" && found != col {
			return "", -1
		}
		found, where = col, at
	}
	return found, where
}

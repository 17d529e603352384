package meaning

import (
	"github.com/analyst-workbench/workbench/emulator/analyst/language"
	"github.com/analyst-workbench/workbench/emulator/analyst/schema"
)

// positionOrder reads "first" and "last" on the phrase asked about, or on the phrase it takes
// its value from, as a position: a column of years or dates orders by itself ("the last
// year" is the latest), rows by the table's one date or year column ("the last flight" is the
// latest), and by the file's order when it has none ("who is the last opponent", "the
// attendance of the first game"). Elsewhere ("in first place", "first team") the words are
// values or names, not positions, and stay unplaced.
func (rd *reader) positionOrder() *Order {
	f := rd.s.Form().Focus
	if f < 0 || rd.s.Form().Kind != language.Wh {
		return nil // "show the first 5 rows" is the keyword rules' view of the file
	}
	phrases := []int{f}
	for _, a := range rd.s.Phrases[f].Attachments {
		if rd.s.Tokens[a.Prep].Is("of") {
			phrases = append(phrases, a.Object)
		}
	}
	for _, k := range phrases {
		np := rd.s.Phrases[k]
		for _, i := range np.Modifiers {
			t := rd.s.Tokens[i]
			if !t.Is("first", "last") || !rd.namesColumnOrRows(np.Head) {
				continue
			}
			rd.used[i] = true
			o := &Order{N: 1, Desc: t.Is("last"), Position: true, Phrase: rd.phraseText(k)}
			if c, ok := rd.best(np.Head); ok && c.Kind == schema.ColumnLink && rd.temporal(c.Column) {
				o.Position, o.Column = false, c.Column
			} else if col := rd.onlyTemporal(); col != "" {
				o.Position, o.Column = false, col // "the last flight" is the latest by its date
			}
			return o
		}
	}
	return nil
}

// namesColumnOrRows reports a head noun that names a column or the table's rows.
func (rd *reader) namesColumnOrRows(i int) bool {
	if c, ok := rd.best(i); ok {
		return c.Kind == schema.ColumnLink || c.Kind == schema.RowsLink
	}
	return rd.entityNoun(i)
}

// onlyTemporal returns the table's one column of dates or years, "" when it has none or several.
func (rd *reader) onlyTemporal() string {
	return rd.onlyColumn(func(c schema.Column) bool { return rd.temporal(c.Name) })
}

// onlyColumn returns the table's one column that ok accepts, "" when none or several do.
func (rd *reader) onlyColumn(ok func(schema.Column) bool) string {
	found := ""
	for _, c := range rd.ix.Table().Columns {
		if !ok(c) {
			continue
		}
		if found != "" {
			return ""
		}
		found = c.Name
	}
	return found
}

// temporal reports a column of dates, or of years as numbers.
func (rd *reader) temporal(col string) bool {
	c := rd.ix.Column(col)
	return c != nil && (c.Type == schema.Date || c.Type == schema.Number && lemmaOfColumn(col) == "year")
}

package meaning

import (
	"slices"

	"github.com/analyst-workbench/workbench/emulator/analyst/language"
)

// sameAs reads "the same <column> as <value>" as the rows whose column equals that of the
// rows the value names, those rows left out: "which other album has the same length as
// Topeng", "which other stadiums are in the same city as Windsor Park". The value is the
// filter read in the reference; a reference that is no value ("as in 1992"), a comparison of
// two rows in a yes/no question, or no column named after "same" leave a gap: answered without
// the construction, the question would be a nearby one.
func (rd *reader) sameAs() error {
	sa, ok := rd.s.SameAs()
	if !ok || rd.also != nil && rd.also.Pick != "" {
		return nil // two rows compared by their extremes (alsoExtreme)
	}
	gap := &Gap{Phrase: rd.text(sa.Span), Why: "a comparison with another row I could not read"}
	if rd.s.Form().Kind == language.YesNo || sa.What < 0 {
		return gap
	}
	col, at := rd.phraseColumn(sa.What)
	k := slices.IndexFunc(rd.m.Filters, func(c Condition) bool { return sa.Ref.Contains(c.at) })
	if col == "" || k < 0 || rd.m.Filters[k].Op != "==" && rd.m.Filters[k].Op != "in" || rd.m.Filters[k].Column == col {
		return gap
	}
	ref := rd.m.Filters[k]
	rd.m.Filters = slices.Delete(rd.m.Filters, k, k+1)
	rd.useLink(at)
	rd.used[sa.Same], rd.used[sa.As] = true, true
	rd.m.Filters = append(rd.m.Filters, Condition{Column: col, Op: "same", Same: &ref, Phrase: rd.text(sa.Span), at: sa.Start})
	return nil
}

// SameAs reports a condition of the form "the same … as …", which only the meaning reads.
func (m *Meaning) SameAs() bool {
	return slices.ContainsFunc(m.Filters, func(c Condition) bool { return c.Same != nil })
}

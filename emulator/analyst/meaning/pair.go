package meaning

import (
	"slices"
	"strings"

	"github.com/analyst-workbench/workbench/emulator/analyst/language"
	"github.com/analyst-workbench/workbench/emulator/analyst/schema"
)

// versusRow keeps for pairOrder a comparison whose value is a named row rather than a number:
// "does Guam have more bronze medals than Palau".
func (rd *reader) versusRow(cmp language.Comparison) bool {
	if cmp.Adjective < 0 && strings.HasSuffix(rd.s.Tokens[cmp.Start].Lower, " than") {
		cmp.Adjective = cmp.Start // "greater than" read as one word: it is the comparative
	}
	if cmp.Adjective < 0 || cmp.Op != ">" && cmp.Op != "<" {
		return false
	}
	if _, ok := rd.number(cmp.Value); ok {
		return rd.versusCode(cmp)
	}
	end := cmp.Value.End
	if k := rd.phraseOf(cmp.Value.Start); k >= 0 {
		for _, a := range rd.s.Phrases[k].Attachments {
			end = max(end, rd.s.Phrases[a.Object].End) // "than the average bmi of females"
		}
	} else if rd.s.Tokens[cmp.Value.Start].Is("that", "those") {
		// "than that of japan cars": the row named after the pronoun's "of"
		for end < len(rd.s.Tokens) && !rd.s.Tokens[end].Is("and", "or", ",", "?", ".", ";") {
			end++
		}
	}
	for i := cmp.Value.Start; i < end; i++ {
		if c, ok := rd.best(i); (!ok || c.Kind == schema.RowsLink) && rd.s.Tokens[i].IsNoun() {
			t := rd.s.Tokens[i]
			if col, _ := rd.attributeValue(t.Lemma); col != "" {
				rd.versus = &cmp // "more women than men": a value named by what it is a kind of
				return true
			}
		}
		if c, ok := rd.best(i); ok && c.Kind == schema.ValueLink {
			rd.versus = &cmp
			return true
		}
	}
	return false
}

// pairOrder reads two named rows compared on a scale: "is the State Tower Building or the
// Granger Block taller?" asks which of the two is higher (the row with the larger Height), and
// "does Guam have more bronze medals than Palau?" whether the first is. Both are an order of
// the two rows, the filter naming them, by the scale's column; the second checks the row on
// top. The scale is the column the comparative names or modifies, or the one WordNet makes its
// attribute ("tall" → height).
func (rd *reader) pairOrder() error {
	if k := rd.s.Form().Kind; rd.m.Order != nil || k == language.HowMany || k == language.HowMuch {
		return nil // "how many more locks does A have than B" asks for the difference
	}
	adj, op := rd.pairComparative()
	if adj < 0 {
		return nil
	}
	rd.mergePair()
	k := slices.IndexFunc(rd.m.Filters, func(c Condition) bool { return c.Op == "in" && len(c.Values) == 2 })
	if k < 0 {
		return nil
	}
	pair := rd.m.Filters[k]
	desc := op == ">"
	if desc && rd.lowEnd(rd.s.Tokens[adj].Lemma) {
		desc = false // "shorter" is more of the low end of length; "fewer" said "<" already
	}
	o := &Order{Desc: desc, N: 1, Phrase: rd.text(language.Span{Start: adj, End: adj + 1})}
	col, at := rd.scaleOfComparative(adj)
	if col == "" && rd.s.Form().Kind == language.YesNo {
		col, at = rd.subjectScale(adj) // "is the average charges of smokers higher than that of non-smokers"
	}
	switch {
	case col != "" && rd.numeric(col):
		o.Column = col
		rd.useLink(at)
		rd.placeRepeatedScale(col)
	case rd.s.Tokens[adj].Is("more", "fewer", "less") && rd.countsRows(adj):
		// "more single individuals than married ones": the two values by how many rows have each
		o.Size = true
		rd.m.Group = pair.Column
		rd.placeCountedRows(adj)
	default:
		return &Gap{Phrase: rd.linkText(adj), Why: "two rows compared on no column I could find"}
	}
	rd.used[adj] = true
	if adj > 0 && rd.s.Tokens[adj-1].Is("more", "less") {
		rd.used[adj-1] = true
	}
	rd.m.Order = o
	rd.m.Target = pair.Column
	than := slices.IndexFunc(rd.s.Tokens[adj:], func(t language.Token) bool { return t.Is("than") || strings.HasSuffix(t.Lower, " than") })
	if than >= 0 && rd.s.Form().Kind == language.YesNo {
		rd.used[adj+than] = true
		// the first row named is the subject: "does Guam have more … than Palau"
		rd.m.Check = &Condition{Column: pair.Column, Op: "==", Value: pair.Values[0], Phrase: pair.Values[0]}
		return nil
	}
	rd.pairAsked = true
	return nil
}

// pairComparative returns the comparative adjective or adverb of a comparison with a named
// row, or of a question naming two rows ("taller", "higher", "more"), and its direction.
func (rd *reader) pairComparative() (int, string) {
	if v := rd.versus; v != nil {
		return v.Adjective, v.Op
	}
	for i, t := range rd.s.Tokens {
		if !rd.used[i] && t.Kind == language.Operator && strings.HasSuffix(t.Lower, " than") && t.Op != "" {
			return i, t.Op // "greater than that of japan cars", read as one word
		}
		if rd.used[i] || t.POS != "JJR" && t.POS != "RBR" {
			continue
		}
		if t.Is("more", "less") && i+1 < len(rd.s.Tokens) && rd.s.Tokens[i+1].IsAdjective() && !rd.used[i+1] && !rd.namesNumber(i+1) {
			continue // "more expensive": the adjective carries the scale; "more male …" counts; "more gold medals" counts Gold
		}
		return i, language.ComparativeOp(t)
	}
	return -1, ""
}

// namesNumber reports a token linked to a numeric column: "gold" of "more gold medals".
func (rd *reader) namesNumber(i int) bool {
	c, ok := rd.best(i)
	return ok && c.Kind == schema.ColumnLink && rd.numeric(c.Column)
}

// scaleOfComparative returns the column a comparative ranks the two rows by: the column it
// names ("higher Rank"), the column of the phrase it modifies or that follows it ("more
// bronze medals", "a larger amount of bronze"), or its attribute in WordNet ("taller" →
// Height).
func (rd *reader) scaleOfComparative(adj int) (string, int) {
	if c, ok := rd.best(adj); ok && c.Kind == schema.ColumnLink {
		return c.Column, adj
	}
	for k, np := range rd.s.Phrases {
		if !np.Contains(adj) && np.Start != adj+1 {
			continue
		}
		if col, at := rd.phraseColumn(k); col != "" && rd.numeric(col) {
			return col, at
		}
		if col, at := rd.attachedColumn(k); col != "" {
			return col, at // "a larger amount of bronze"
		}
	}
	lemma := rd.s.Tokens[adj].Lemma
	if col := rd.attributeColumn(lemma); col != "" {
		return col, -1
	}
	for _, c := range rd.ix.Table().Columns {
		if c.Type == schema.Number && strings.EqualFold(lemmaOfColumn(c.Name), lemma) {
			return c.Name, -1
		}
	}
	return "", -1
}

// countsRows reports a "more" whose noun is the rows themselves, or none: "more single
// individuals", "are there more men"; "more medals" names a measure the table must hold.
func (rd *reader) countsRows(adj int) bool {
	for _, np := range rd.s.Phrases {
		if np.Start != adj+1 && !(np.Contains(adj) && np.Head != adj) {
			continue
		}
		head := rd.s.Tokens[np.Head]
		if rd.used[np.Head] || head.Is("ones", "one") || personWords[head.Lemma] || rd.entityNoun(np.Head) {
			return true
		}
		c, ok := rd.best(np.Head)
		return ok && c.Kind == schema.RowsLink
	}
	return true
}

// placeCountedRows places the nouns a count of two values leans on: "individuals", "ones" in
// "more single individuals than married ones" are the rows of each value.
func (rd *reader) placeCountedRows(adj int) {
	for i := adj + 1; i < len(rd.s.Tokens); i++ {
		t := rd.s.Tokens[i]
		if !rd.used[i] && t.IsNoun() && t.Is("ones", "one") || rd.entityNoun(i) {
			rd.used[i] = true
		}
	}
}

// subjectScale returns the numeric column a yes/no question's subject names before its
// comparative, and its token: "is the average charges of smokers higher than that of
// non-smokers" compares the two values by charges (averaged, as the phrase's own modifier
// says). Words after "than" that repeat the scale ("that", "the average bmi of") are placed.
func (rd *reader) subjectScale(adj int) (string, int) {
	for k, np := range rd.s.Phrases {
		if np.End > adj {
			break
		}
		if col, at := rd.phraseColumn(k); col != "" && rd.numeric(col) {
			return col, at
		}
	}
	return "", -1
}

// placeRepeatedScale places the words of a yes/no comparison of two values that name its
// scale again: "is the average bmi of males greater than the average bmi of females", "than
// that of non-smokers".
func (rd *reader) placeRepeatedScale(col string) {
	if rd.s.Form().Kind != language.YesNo {
		return
	}
	for i, t := range rd.s.Tokens {
		if t.Is("that", "those") && t.POS == "DT" && i > 0 && (rd.s.Tokens[i-1].Is("than") || strings.HasSuffix(rd.s.Tokens[i-1].Lower, " than")) {
			rd.used[i] = true
		}
		if c, ok := rd.best(i); ok && c.Kind == schema.ColumnLink && c.Column == col {
			rd.used[i] = true
		}
	}
}

// versusCode keeps a compared number joined by a hyphen to the column it is a value of: "than
// 6-cylinder cars" is the rows with cylinders 6, compared with the rows named before ("more
// than 5 bedrooms" stays a comparison of bedrooms with 5).
func (rd *reader) versusCode(cmp language.Comparison) bool {
	n := cmp.Value.Start
	at := n + 2
	if at >= len(rd.s.Tokens) || !rd.s.Tokens[n+1].Is("-") {
		return false
	}
	c, ok := rd.best(at)
	if at >= len(rd.s.Tokens) || !ok || c.Kind != schema.ColumnLink || !rd.numeric(c.Column) || rd.r.Links[rd.link[at]].Span.Start != at {
		return false
	}
	rd.versus = &cmp
	rd.useLink(at)
	for k := n + 1; k < at; k++ {
		rd.used[k] = true
	}
	rd.addNumberValue(c.Column, n, language.Span{Start: n, End: rd.r.Links[rd.link[at]].Span.End})
	return true
}

// mergePair makes two values of one column, each an equality, one pair in a comparison of two
// ("more houses with 3 bedrooms than with 4 bedrooms"): rows never have both.
func (rd *reader) mergePair() {
	fs := rd.m.Filters
	for i := range fs {
		for j := i + 1; j < len(fs); j++ {
			if fs[i].Op == "==" && fs[j].Op == "==" && fs[i].Column == fs[j].Column && fs[i].Value != fs[j].Value {
				first, second := fs[i], fs[j]
				if second.at < first.at {
					first, second = second, first // the value said first is the subject
				}
				fs[i] = first
				fs[i].Op, fs[i].Values, fs[i].Phrase = "in", []string{first.Value, second.Value}, first.Phrase+" or "+second.Phrase
				rd.m.Filters = slices.Delete(fs, j, j+1)
				return
			}
		}
	}
}

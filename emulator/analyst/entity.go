package analyst

import (
	"fmt"
	"slices"
	"strings"
)

// "Which X has the highest Y?" asks for an X, not for the highest Y: the answer names the
// entity first. Two readings, told apart by the words:
//   - a ranking of groups when the question aggregates ("on average", "in total", "the most
//     conversions" of an additive count): the group with the extreme aggregate;
//   - the row with the extreme value otherwise ("which model has the highest horsepower",
//     "which country had the lowest Freedom"): its X, said to be one row's.

// intentWhich answers "which X" with the X of the row holding the extreme value.
const intentWhich intent = "which"

// askedEntity returns the column a "which X" question asks for, or "": the column its X
// names (a category, a label, an id), or the id column of the rows it names ("which
// employee"). Time words are whichPeriod's.
func askedEntity(ps *parsed, ix *colIndex, q *Query, f *Frame) string {
	at := -1
	for i := 0; i+1 < len(ps.toks) && i < 3; i++ {
		if ps.toks[i].low == "which" || ps.toks[i].low == "what" && i+2 < len(ps.toks) && !stopwords[ps.toks[i+1].low] {
			at = i + 1
			break
		}
	}
	if at < 0 {
		at = laterWhich(ps)
	}
	if at < 0 {
		at = entityWithExtreme(ps)
	}
	if at < 0 || timeWords[singular(ps.toks[at].low)] && !derivedAt(ps, ix, q, at) {
		return "" // "which month": a period of the dates, whichPeriod's
	}
	for _, m := range ps.mentions {
		if m.start != at {
			continue
		}
		cols := q.columnsOf(m.cols)
		if len(cols) == 1 {
			if c := ix.column(cols[0]); c.Kind != "num" || c.isCode() || isID(c, f.Rows) {
				return c.Name
			}
		}
		return ""
	}
	w := singular(ps.toks[at].low)
	for _, c := range f.Columns {
		if isID(&c, f.Rows) && len(nameWords(c.Name)) > 0 && nameWords(c.Name)[0] == w {
			return c.Name // "which employee" names the rows by their employee_id
		}
	}
	return ""
}

// laterWhich returns where X starts in a "which X has the highest Y" asked after a first
// sentence ("Group the data by region and calculate the mean charges. Which region has the
// highest mean charges?"), or -1: X must be a column and the extreme follow within a few words.
func laterWhich(ps *parsed) int {
	for i := 3; i+1 < len(ps.toks); i++ {
		if ps.toks[i].low != "which" {
			continue
		}
		for _, m := range ps.mentions {
			if m.start == i+1 && extremeWithin(ps, m.end, 4) {
				return i + 1
			}
		}
	}
	return -1
}

// derivedAt reports a mention at token i of a column the question derived: "the month" of
// date_month, after "extract the month from the date column".
func derivedAt(ps *parsed, ix *colIndex, q *Query, i int) bool {
	for _, m := range ps.mentions {
		if m.start != i {
			continue
		}
		for _, c := range m.cols {
			name := ix.column(c).Name
			if slices.ContainsFunc(q.refine.Derived, func(d derivation) bool { return d.Name == name }) {
				return true
			}
		}
	}
	return false
}

// groupNouns name a column's values as groups: "the quality level", "the age group".
var groupNouns = setOf("level", "group", "category", "value", "type", "band", "bucket", "class", "tier")

// entityWithExtreme returns where X starts in "the X with the lowest Y" ("Report the origin
// with the lowest median horsepower", "find the region having the most sales"), or -1: the
// imperative form of "which X has the lowest Y".
func entityWithExtreme(ps *parsed) int {
	for _, m := range ps.mentions {
		i, j := m.start, m.end
		if j < len(ps.toks) && groupNouns[ps.toks[j].low] {
			j++ // "the quality level with the fewest wines"
		}
		if i == 0 || ps.toks[i-1].low != "the" || j+2 >= len(ps.toks) {
			continue
		}
		switch {
		case ps.toks[j].low == "with" || ps.toks[j].low == "having":
			j++
		case ps.toks[j].low == "that" || ps.toks[j].low == "which":
			j += 2 // "that has", "which had"
		default:
			continue
		}
		if extremeWithin(ps, j, 3) {
			return i
		}
	}
	return -1
}

// extremeWithin reports a highest or lowest among the n tokens from i.
func extremeWithin(ps *parsed, i, n int) bool {
	for k := i; k < min(i+n, len(ps.toks)); k++ {
		if ps.toks[k].kw && (ps.toks[k].norm == "max" || ps.toks[k].norm == "min") {
			return true
		}
	}
	return false
}

// readEntity turns a "which X" question with an extreme into the answer that names X.
func readEntity(q *Query, ps *parsed, ix *colIndex, f *Frame) {
	e := askedEntity(ps, ix, q, f)
	if e == "" || !ps.has("max") && !ps.has("min") {
		return
	}
	var measures []string
	for _, m := range q.Measures {
		if c := f.column(m); m != e && c != nil && c.Kind == "num" && !isID(c, f.Rows) {
			measures = append(measures, m)
		}
	}
	if len(measures) == 0 {
		if q.Agg == "count" && len(q.By) == 1 && q.By[0] == e {
			// "the quality level with the fewest wines": the groups ranked by their rows
			q.Which, q.Bottom, q.flipped = e, ps.firstOf("max", "min") == "min", ps.firstOf("max", "min") == "min"
		}
		return
	}
	q.Which, q.Measures, q.Bottom = e, measures[:1], ps.firstOf("max", "min") == "min"
	if groupedEntity(q, ps, f.column(e), f.Rows) {
		q.By, q.Intent, q.explicit = []string{e}, intentStat, true
		q.flipped = q.Bottom // the lowest group first, so it is never cut off the list
		if q.Agg == "max" || q.Agg == "min" {
			q.Agg = "sum" // "the most conversions": the channel's total
		}
		return
	}
	q.By, q.Intent, q.explicit = nil, intentWhich, true
}

// groupedEntity reports whether "which X" ranks groups of rows rather than single rows: X
// repeats across rows and the question aggregates, or counts an additive quantity.
func groupedEntity(q *Query, ps *parsed, c *Column, rows int) bool {
	if c == nil || c.Unique >= rows || isID(c, rows) {
		return false
	}
	if ps.firstOf("mean", "median", "sum", "std", "count") != "" {
		return true
	}
	return ps.hasWord("most") || ps.hasWord("fewest") || ps.hasWord("least")
}

// whichArg passes a "which X" question's extreme to a group marker, so its sentence leads
// with the group asked for.
func (g *gen) whichArg() string {
	switch {
	case g.q.Which == "":
		return ""
	case g.q.Bottom:
		return ", which=\"min\""
	}
	return ", which=\"max\""
}

// which writes the cell of a row-level "which X": the X of the row with the extreme value.
func (g *gen) which() {
	g.prelude()
	m, e := g.q.Measures[0], g.q.Which
	fn, word := "idxmax", "max"
	if g.q.Bottom {
		fn, word = "idxmin", "min"
	}
	g.line("i = %s.%s()", col(m), fn)
	g.line("tied = df.loc[%s == %s.%s(), %s].drop_duplicates()", col(m), col(m), word, py(e))
	g.line("result = df.loc[[i], [%s, %s]]", py(e), py(m))
	g.line("print(result.to_string(index=False))")
	g.line("_emit(\"which\", entity=%s, label=df.loc[i, %s], col=%s, value=df.loc[i, %s], which=%s, repeats=bool(df[%s].duplicated().any()), tied=tied.head(10).tolist(), ties=len(tied))",
		py(e), py(e), py(m), py(m), py(word), py(e))
}

// whichSentence names the entity first, then the value; when the entity repeats across rows,
// it says the value is one row's and how to compare the groups instead.
func whichSentence(m marker) string {
	word := "highest"
	if m.str("which") == "min" {
		word = "lowest"
	}
	s := fmt.Sprintf("**%s** has the %s `%s`: **%s** (`%s` %s).", fmtLabel(m["label"]), word, m.str("col"), m.str("value"), m.str("entity"), fmtLabel(m["label"]))
	if n, _ := m.num("ties"); n > 1 {
		// the first in the file's order answers, as idxmax finds it; the others are named
		s += fmt.Sprintf(" %d more tie at %s: %s.", int(n)-1, m.str("value"), joinLabels(m.list("tied")[1:], int(n)-1))
	}
	if m["repeats"] == true {
		s += fmt.Sprintf(" That is the single row with the %s value; `%s` has several rows each, so ask for “average %s by %s” to compare them as groups.",
			word, m.str("entity"), m.str("col"), m.str("entity"))
	}
	return s
}

// joinLabels writes the tied labels, "and" before the last, with how many more there are when
// the list was cut.
func joinLabels(items []any, total int) string {
	var names []string
	for _, it := range items {
		names = append(names, fmtLabel(it))
	}
	if total > len(names) {
		return strings.Join(names, ", ") + fmt.Sprintf(" and %d more", total-len(names))
	}
	return andList(names)
}

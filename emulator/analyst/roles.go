package analyst

import (
	"slices"
	"strings"
)

// pickFrame chooses the frame a question is about: the one whose file it names, else the one
// holding most of the columns and values it mentions, else the first. named is false when
// nothing in the question pointed at a frame.
func pickFrame(ps *parsed, ix *colIndex) (best int, named bool) {
	if len(ix.p.Frames) <= 1 {
		return 0, true
	}
	if ps.file >= 0 {
		fi, _ := typedSheet(ps, ix.p)
		return fi, true // "in stocks.csv": the file typed wins
	}
	score := make([]float64, len(ix.p.Frames))
	for fi, f := range ix.p.Frames {
		for _, w := range frameWords(f) {
			for i, t := range ps.toks {
				if (t.low == w || singular(t.low) == w) && len(w) > 2 && (!ps.taken[i] || namesSheet(ps, i)) {
					score[fi] += 5
				}
			}
		}
	}
	for _, m := range ps.mentions {
		for _, c := range m.cols {
			score[c.frame] += m.score / float64(len(m.cols))
		}
	}
	for _, v := range ps.values {
		score[v.col.frame] += 0.5
	}
	for fi := range score {
		if score[fi] > score[best] {
			best = fi
		}
	}
	return best, score[best] > 0
}

// typedSheet returns the frame of the typed file: the sheet typed with it ("history.xls:2024",
// "the 2024 sheet of history.xls"), else the frame typedFile chose, and whether a sheet was
// named.
func typedSheet(ps *parsed, p *Profile) (int, bool) {
	if ps.file < 0 || ps.sheetTyped {
		return ps.file, ps.sheetTyped
	}
	for _, fi := range sheetsOf(p, ps.file) {
		for _, w := range nameWords(p.Frames[fi].Sheet) {
			if ps.hasWord(w) {
				return fi, true
			}
		}
	}
	return ps.file, false
}

// namesSheet reports whether a word that is also a column names a file or sheet: "the
// departments sheet", "in the employees table".
func namesSheet(ps *parsed, i int) bool {
	return i+1 < len(ps.toks) && ps.toks[i+1].norm == "file"
}

// assignRoles fills the query's measures, group keys, date column and filters from the
// mentions in the chosen frame.
func assignRoles(q *Query, ps *parsed, ix *colIndex) {
	f := queryFrame(ix.p, q)
	used := make([]bool, len(ps.toks))
	numericFilters(q, ps, ix, used)
	valueFirstFilters(q, ps, ix, used)
	codeFirstFilters(q, ps, ix, used)
	mergeEqualities(q)
	for _, m := range ps.mentions {
		if used[m.start] || namesSheet(ps, m.end-1) {
			continue // "the departments sheet" names a table, not a column
		}
		cols := q.columnsOf(m.cols)
		if len(cols) == 0 {
			continue
		}
		if len(cols) > 1 && allIDsOrDates(ix, cols) {
			continue // "orders" half-names order_id and order_date: it names the rows, not a column
		}
		if len(cols) > 1 && !ps.has("all") {
			if q.Ambiguous == nil {
				q.AmbigWord = joinTokens(ps.toks[m.start:m.end])
				for _, c := range cols {
					q.Ambiguous = append(q.Ambiguous, ix.column(c).Name)
				}
			}
			continue
		}
		if len(cols) == 1 && flagRows(q, ps, m, ix.column(cols[0])) {
			continue
		}
		for _, c := range cols {
			addRole(q, ps, m, *ix.column(c))
		}
		noteTypo(q, ps, m, ix.column(cols[0]).Name)
	}
	valueFilters(q, ps, ix)
	dropFilteredCategories(q, f)
	dateFilters(q, ps, f, used)
	if !anyFilterOn(q, "num") {
		ageFilters(q, ps, f)
	}
}

// noteTypo says how a word that is not the column's name was read ("I read *revnue* as
// `revenue`", "I read *sales* as `revenue`"), so that a wrong guess shows at once.
func noteTypo(q *Query, ps *parsed, m mention, name string) {
	if m.score >= 1 || m.end-m.start != 1 {
		return
	}
	word := ps.toks[m.start].low
	if slices.Contains(nameWords(name), singular(word)) {
		return // "contracts" for contract_id is a part of the name, not a typo
	}
	q.Notes = append(q.Notes, "I read *"+word+"* as `"+name+"`.")
}

func allIDsOrDates(ix *colIndex, cols []colRef) bool {
	for _, r := range cols {
		c := ix.column(r)
		if c.Kind != "date" && !isID(c, ix.p.Frames[r.frame].Rows) {
			return false
		}
	}
	return true
}

func anyFilterOn(q *Query, kind string) bool {
	for _, f := range q.Filters {
		if f.Kind == kind {
			return true
		}
	}
	return false
}

// flagRows reads a yes/no column named in the plural as the rows that say yes: "smokers" are
// smoker = yes, "the region with the most smokers" counts them; "non-smokers" say no.
func flagRows(q *Query, ps *parsed, m mention, c *Column) bool {
	t := ps.toks[m.end-1]
	if m.end-m.start != 1 || t.low == singular(t.low) || singular(t.low) != strings.ToLower(c.Name) {
		return false
	}
	yes, no := textTruth(c, "True"), textTruth(c, "False")
	switch {
	case c.Kind == "cat" && trueFalse(c.Values):
	case c.Kind == "num" && c.Unique == 2 && c.Min == "0" && c.Max == "1":
		yes, no = "1", "0"
	default:
		return false
	}
	v, kind := yes, "cat"
	if m.start > 0 && (negates(ps.toks[m.start-1]) || ps.toks[m.start-1].low == "non") {
		v = no
	}
	if c.Kind == "num" {
		kind = "num"
	}
	for i, x := range q.Filters {
		if x.Col == c.Name && x.Op == "==" && x.Value != v {
			// "smokers and non-smokers" are both sets of rows, never rows that are both
			q.Filters[i].Op, q.Filters[i].Values = "in", []string{x.Value, v}
			return true
		}
	}
	q.Filters = append(q.Filters, Filter{Col: c.Name, Op: "==", Value: v, Values: []string{v}, Kind: kind})
	return true
}

// dropFilteredCategories removes a category named only to place a value ("the West region")
// from the measures.
func dropFilteredCategories(q *Query, f *Frame) {
	var keep []string
	for _, m := range q.Measures {
		if c := f.column(m); c == nil || c.Kind != "cat" || !filtered(q, m) {
			keep = append(keep, m)
		}
	}
	q.Measures = keep
}

// columnsOf keeps the candidates in the query's frame, else in the frame merged into it.
func (q *Query) columnsOf(cols []colRef) []colRef {
	if in := inFrame(cols, q.Frame); len(in) > 0 || q.Via < 0 {
		return in
	}
	return inFrame(cols, q.Via)
}

func inFrame(cols []colRef, frame int) []colRef {
	var out []colRef
	for _, c := range cols {
		if c.frame == frame {
			out = append(out, c)
		}
	}
	return out
}

func joinTokens(toks []token) string {
	var w []string
	for _, t := range toks {
		w = append(w, t.raw)
	}
	return strings.Join(w, " ")
}

// addRole decides whether a mentioned column is grouped by, the time axis, or measured.
func addRole(q *Query, ps *parsed, m mention, c Column) {
	afterBy := false
	for j := m.start - 1; j >= 0 && j >= m.start-3; j-- {
		if ps.toks[j].norm == "by" || ps.toks[j].low == "and" && len(q.By) == 1 {
			afterBy = true
			break
		}
		if !stopwords[ps.toks[j].low] {
			break
		}
	}
	// An integer code (a class, a rating) is a category when the question groups by it.
	categorical := c.Kind == "cat" || c.Kind == "bool" || c.Kind == "text" || c.isCode()
	switch {
	case c.Kind == "date":
		q.DateCol = c.Name
	case afterBy && categorical && len(q.By) < 2:
		q.By = appendNew(q.By, c.Name)
	default:
		q.Measures = appendNew(q.Measures, c.Name)
	}
}

func appendNew(list []string, s string) []string {
	for _, v := range list {
		if v == s {
			return list
		}
	}
	return append(list, s)
}

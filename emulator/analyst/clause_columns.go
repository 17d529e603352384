package analyst

import "strings"

// Columns as the clause reader finds them: by their names as typed, whole, in any case, with
// spaces or underscores, or in the plural ("ages" for Age). Unlike the question's own column
// matching there is no guessing here: a clause that names no column exactly is not read.

// maxNameWords bounds the words of a column name typed with spaces ("GDP per capita").
const maxNameWords = 4

// column reads a column name at word i and returns it and the index after it, or "".
func (r *clauseReader) column(i int) (string, int) {
	if i >= len(r.ws) {
		return "", i
	}
	if r.ws[i].quoted {
		if c := r.lookup(r.ws[i].s); c != "" {
			return c, i + 1
		}
		return "", i
	}
	for n := min(maxNameWords, len(r.ws)-i); n >= 1; n-- {
		if !r.plainRun(i, n) {
			continue
		}
		if c := r.lookup(r.text[r.ws[i].at:r.ws[i+n-1].end]); c != "" {
			return c, i + n
		}
	}
	return "", i
}

// plainRun reports whether words [i, i+n) are words, not numbers or symbols.
func (r *clauseReader) plainRun(i, n int) bool {
	for k := i; k < i+n; k++ {
		w := r.ws[k]
		if w.num || w.quoted || w.operator || !isLetterStart(w.s) {
			return false
		}
	}
	return true
}

func isLetterStart(s string) bool {
	return s != "" && (s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z' || s[0] == '_')
}

// columnAt returns the index after column name at i when the words there name it, else i.
func (r *clauseReader) columnAt(i int, name string) int {
	if c, end := r.column(i); c == name {
		return end
	}
	return i
}

// columnList reads "Age", "Age and Fare", "Age, Fare or SibSp" at i.
func (r *clauseReader) columnList(i int) ([]string, int) {
	var cols []string
	end := i
	for {
		c, k := r.column(end)
		if c == "" {
			return cols, end
		}
		cols = appendNew(cols, c)
		end = k
		if r.is(end, ",", "and", "or", "&") {
			if c2, _ := r.column(end + 1); c2 != "" {
				end++
				continue
			}
		}
		return cols, end
	}
}

// lookup finds the column a typed name means, in any frame; derived columns of earlier
// questions are in the profile by now.
func (r *clauseReader) lookup(typed string) string {
	if r.names == nil {
		r.names = map[string]string{}
		for fi := len(r.p.Frames) - 1; fi >= 0; fi-- { // the first frame's name wins
			for _, c := range r.p.Frames[fi].Columns {
				r.names[normName(c.Name)] = c.Name
			}
		}
	}
	key := normName(typed)
	if c, ok := r.names[key]; ok {
		return c
	}
	return r.names[singular(key)]
}

// normName compares column names loosely: case, spaces, underscores and hyphens do not matter.
func normName(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range strings.ToLower(s) {
		if r != ' ' && r != '_' && r != '-' && r != '\t' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// columnInfo returns the column and its frame's index, or nil.
func columnInfo(p *Profile, name string) (*Column, int) {
	for fi := range p.Frames {
		if c := p.Frames[fi].column(name); c != nil {
			return c, fi
		}
	}
	return nil, -1
}

// fileColumn reports whether word i names a column of the file itself, not a derived one.
func (r *clauseReader) fileColumn(i int) bool {
	c, _ := r.column(i)
	if c == "" {
		return false
	}
	col, _ := columnInfo(r.p, c)
	return !isDerivedColumn(*col)
}

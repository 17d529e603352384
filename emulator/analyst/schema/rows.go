package schema

import (
	"slices"

	"github.com/analyst-workbench/workbench/emulator/analyst/language"
)

// entityClasses are the WordNet classes of nouns that name what a row of a table usually is.
var entityClasses = []string{"person", "organism", "social group", "organization", "artifact", "location", "event", "food"}

// linkRows offers the row entity for each noun-phrase head: the noun that names what a row is
// ("passengers", "employees", "billionaires"). A head already linked keeps its link; the row
// entity is added as a further candidate, so "survivors" reads as Survived = True first and the
// passengers second.
func (ix *Index) linkRows(s *language.Sentence, r *Result) {
	focus := map[int]bool{}
	named := map[int]bool{} // phrases whose rows the answer names: "which X", "list the X"
	for _, p := range s.Parts {
		if p.Form.Focus >= 0 {
			focus[p.Form.Focus] = true
			named[p.Form.Focus] = p.Form.Kind == language.Wh || p.Form.Kind == language.Imperative
		}
	}
	for k, np := range s.Phrases {
		head := s.Tokens[np.Head]
		if head.Kind != language.Word || !head.IsNoun() {
			continue
		}
		score := ix.rowsScore(head, focus[k])
		if score < MinScore {
			continue
		}
		c := Candidate{Kind: RowsLink, Score: score, Reason: Entity}
		if named[k] {
			c.Column = ix.Identifier(head.Lemma)
		}
		if at := linkAt(r, np.Head); at >= 0 {
			l := &r.Links[at]
			l.Candidates = append(l.Candidates, c)
			slices.SortStableFunc(l.Candidates, func(a, b Candidate) int {
				if a.Score == b.Score {
					return 0
				}
				return cmpDesc(a.Score, b.Score)
			})
			continue
		}
		sp := language.Span{Start: np.Head, End: np.Head + 1}
		r.Links = append(r.Links, Link{Span: sp, Text: head.Text, Candidates: []Candidate{c}})
	}
}

// rowsScore scores a noun as the row entity: the file's name, an id or name column's entity
// ("personName" for "billionaires", who are persons), or a person, organism, group, artifact,
// place or event named in the plural or asked about.
func (ix *Index) rowsScore(head language.Token, asked bool) float64 {
	lemma := head.Lemma
	if slices.Contains(ix.fileWords, lemma) || slices.Contains(ix.fileWords, fold(lemma)) {
		return 0.85
	}
	for _, ic := range ix.columns {
		if ic.entity == lemma && lemma != "" {
			return 0.82 // author_id's own word: above a synonym of another column ("source")
		}
	}
	for _, ic := range ix.columns {
		if ic.entity != "" && ix.lx.IsAWithin(lemma, ic.entity, 2) {
			return 0.8
		}
	}
	if !head.IsPlural() && !asked {
		return 0
	}
	if asked && ix.lx.POS(lemma) == 0 {
		return 0.5 // a noun WordNet lacks, asked about and linked to nothing: "which Pokémon"
	}
	for _, class := range entityClasses {
		if ix.lx.IsAWithin(lemma, class, 2) {
			if class == "person" {
				return 0.6
			}
			return 0.5
		}
	}
	return 0
}

// linkAt returns the link covering token i, or -1.
func linkAt(r *Result, i int) int {
	for k, l := range r.Links {
		if slices.Contains(l.Tokens, i) {
			return k
		}
	}
	return -1
}

// identifiers are the words that mark a column naming or numbering the rows.
var identifiers = []string{"name", "id", "title"}

// Identifier returns the column that names the rows: one whose entity is the noun asked about
// ("author_name" for "authors"), else a plain name, title or id column, or "".
func (ix *Index) Identifier(lemma string) string {
	best, rank := "", len(identifiers)
	// Ranks: the asked entity's name, title, id; then any name, title, id.
	for _, ic := range ix.columns {
		n := len(ic.words)
		if n == 0 || n > 2 {
			continue
		}
		k := slices.Index(identifiers, ic.words[n-1].lemma)
		if k < 0 {
			continue
		}
		if n == 2 && ic.entity == lemma {
			k -= len(identifiers) // the entity asked about first: author_name for "authors"
		}
		if k < rank {
			best, rank = ic.col.Name, k
		}
	}
	return best
}

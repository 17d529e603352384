package schema

import (
	"slices"
	"strings"
	"sync"

	"github.com/analyst-workbench/workbench/emulator/analyst/language"
)

// Index is a table prepared for linking: each column's words with their lemmas and WordNet
// relations, computed once per table rather than once per question.
type Index struct {
	table     *Table
	lx        *language.Lexicon
	columns   []indexedColumn
	vocabOnce sync.Once
	vocab     *language.Vocabulary
	timeOnce  sync.Once
	timeCols  []string
	// fileWords are the lemmas of the file name's words ("employees.csv" → employee).
	fileWords []string
}

type indexedColumn struct {
	col   Column
	norm  string
	words []columnWord
	// head is the index in words of the name's head: its last word that is not an operation
	// word ("Number of Projects" → projects, "complaint_type" → type).
	head int
	// values are the normalised categorical values, parallel to col.Values.
	values []string
	// entity is what an id, name or number column says a row is: "PassengerId" → passenger,
	// "personName" → person, "Incident Number" → incident; "" otherwise.
	entity string
	// money marks a column whose words WordNet files under sums of money (fare, price, salary),
	// which a currency amount in the question points to.
	money bool
}

// columnWord is a content word of a column name with what it relates to in WordNet.
type columnWord struct {
	word
	// synonyms holds each synonym with the parts of speech in whose senses it is one: "last"
	// is a verb synonym of "survive", never an adjective one.
	synonyms                map[string]language.PartOfSpeech
	derivations, attributes map[string]bool
}

// NewIndex prepares a table for linking. It loads the lexicon if needed.
func NewIndex(t *Table) *Index {
	ix := &Index{table: t, lx: language.WordNet()}
	for _, c := range t.Columns {
		ix.columns = append(ix.columns, ix.indexColumn(c))
	}
	if t.File != "" {
		for _, w := range contentWords(strings.TrimSuffix(t.File, fileExt(t.File)), ix.lx) {
			ix.fileWords = append(ix.fileWords, w.forms...)
		}
	}
	return ix
}

func fileExt(name string) string {
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		return name[i:]
	}
	return ""
}

// moneyClasses are the WordNet nouns under which amounts of money are filed.
var moneyClasses = []string{"cost", "sum", "monetary value", "money", "assets", "payment"}

func (ix *Index) indexColumn(c Column) indexedColumn {
	ic := indexedColumn{col: c, norm: normalise(c.Name)}
	for _, w := range contentWords(c.Name, ix.lx) {
		ic.words = append(ic.words, ix.relate(w))
	}
	for _, v := range c.Values {
		ic.values = append(ic.values, normalise(v))
	}
	if n := len(ic.words); n >= 2 && (ix.unitWord(ic.words[n-1].lemma) || ix.lx.POS(ic.words[n-1].lemma) == language.Adverb) {
		// "speed_mph", "height_ft": the unit says how, not what; "Siblings_Spouses Aboard":
		// an adverb says where
		ic.words[n-1].aside = true
	}
	if n := len(ic.words); n >= 2 && (ic.words[0].low == "num" || ic.words[0].low == "number" || ic.words[0].low == "no") {
		ic.words[0].aside = true // num_claims holds claims, counted: "how many claims" names it
	}
	if n := len(ic.words); n >= 3 && ic.words[n-1].low == "id" {
		ic.words[n-1].aside = true // "DO Location ID" holds locations, by their ids
	}
	ic.head = len(ic.words) - 1
	for k := len(ic.words) - 1; k >= 0; k-- {
		if !operationWords[ic.words[k].lemma] && !ic.words[k].aside {
			ic.head = k
			break
		}
	}
	if n := len(ic.words); n >= 2 && (ic.words[n-1].low == "id" || ic.words[n-1].low == "name" || ic.words[n-1].low == "number") && !ic.words[0].acronym {
		ic.entity = ic.words[n-2].lemma // but the "DO" of "DO Location ID" says which locations
	}
	for _, w := range ic.words {
		// the word as written and its noun lemma, not its other forms: "rating" is no "rate"
		for _, f := range []string{w.low, ix.lx.Lemma(w.low, "NNS")} {
			for _, class := range moneyClasses {
				if ix.lx.IsAWithin(f, class, 2) {
					ic.money = true
				}
			}
		}
	}
	return ic
}

// unitWord reports a unit of measurement ("ft", "cm", "kg") or of a rate ("mph": WordNet's
// "miles per hour").
func (ix *Index) unitWord(lemma string) bool {
	if ix.lx.IsAWithin(lemma, "unit of measurement", 2) {
		return true
	}
	return slices.ContainsFunc(ix.lx.Synonyms(lemma, language.Noun), func(s string) bool { return strings.Contains(s, " per ") })
}

// relate gathers a column word's synonyms, derivations and attributes over all its forms.
func (ix *Index) relate(w word) columnWord {
	cw := columnWord{word: w, synonyms: map[string]language.PartOfSpeech{}, derivations: map[string]bool{}, attributes: map[string]bool{}}
	for _, f := range w.forms {
		for _, pos := range []language.PartOfSpeech{language.Noun, language.Verb, language.Adjective} {
			for _, s := range ix.lx.Synonyms(f, pos) {
				cw.synonyms[s] |= pos
			}
		}
		for _, d := range ix.lx.Derivations(f) {
			cw.derivations[d] = true
		}
		for _, a := range ix.lx.Attributes(f) {
			cw.attributes[a] = true
		}
	}
	return cw
}

// Table returns the table the index links to.
func (ix *Index) Table() *Table { return ix.table }

// Lexicon returns the lexicon the index reads words with.
func (ix *Index) Lexicon() *language.Lexicon { return ix.lx }

// MoneyColumns returns the numeric columns whose names WordNet files under sums of money
// (fare, price, salary, income), or that say what something is worth: what "the richest" or
// "the most expensive" orders by.
func (ix *Index) MoneyColumns() []string {
	var out []string
	for _, ic := range ix.columns {
		if ic.col.Type != Number {
			continue
		}
		worth := slices.ContainsFunc(ic.words, func(w columnWord) bool { return w.lemma == "worth" || w.lemma == "wealth" })
		if ic.money || worth {
			out = append(out, ic.col.Name)
		}
	}
	return out
}

// Column returns the named column, or nil.
func (ix *Index) Column(name string) *Column {
	for k := range ix.table.Columns {
		if ix.table.Columns[k].Name == name {
			return &ix.table.Columns[k]
		}
	}
	return nil
}

// EntityOf returns what an id or name column says a row is ("vendor" for VendorID, "department"
// for "Department Name"), or "".
func (ix *Index) EntityOf(column string) string {
	for _, ic := range ix.columns {
		if ic.col.Name == column {
			return ic.entity
		}
	}
	return ""
}

// Entities returns what the table's id and name columns say a row is: "employee" for
// employee_id, "author" for author_name.
func (ix *Index) Entities() []string {
	var out []string
	for _, ic := range ix.columns {
		if ic.entity != "" && !slices.Contains(out, ic.entity) {
			out = append(out, ic.entity)
		}
	}
	return out
}

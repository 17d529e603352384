package analyst

import (
	"strings"

	"github.com/analyst-workbench/workbench/emulator/analyst/language"
	"github.com/analyst-workbench/workbench/emulator/analyst/schema"
)

// The language front end (packages language and schema) reads the question as English: its
// tagged and lemmatised words, its phrases, and their links to the columns, values and rows of
// each frame. The rules below consult it where a word list cannot decide.

// schemaKinds maps the profile's column kinds onto the linker's types.
var schemaKinds = map[string]schema.ColumnType{"num": schema.Number, "cat": schema.Category,
	"bool": schema.Boolean, "date": schema.Date, "text": schema.Text}

// schemaTable describes a frame to the linker: its file, its columns and their frequent values.
func schemaTable(f *Frame) *schema.Table {
	t := &schema.Table{File: f.File}
	for _, c := range f.Columns {
		kind, ok := schemaKinds[c.Kind]
		if !ok {
			kind = schema.Text
		}
		t.Columns = append(t.Columns, schema.Column{Name: c.Name, Type: kind, Values: c.Values})
	}
	return t
}

// rowNouns returns the words of the question (lowercased) that name what a row of some frame
// is: "billionaires", "passengers", "respondents". Such a word asks about the rows themselves,
// which the rules count and filter, so it does not block an answer — except where it is the
// one thing that tells the question apart from a nearby one the rules would answer instead:
// a superlative that picks rows ("the title of the billionaire with the lowest rank" is not the
// average rank by title) and a yes/no question, unless it is read for a verdict (verdict.go).
// There it stays unread, and the reply asks back.
func rowNouns(question string, ix *colIndex) map[string]bool {
	out := map[string]bool{}
	for i := range ix.p.Frames {
		s, r := schema.NewIndex(schemaTable(&ix.p.Frames[i])).Read(question)
		if s.Form().Kind == language.YesNo && !ix.yesNoRows || len(s.Superlatives) > 0 || !accountedFor(s, r) {
			continue
		}
		for _, l := range r.Links {
			if l.Best().Kind != schema.RowsLink {
				continue
			}
			for k := l.Span.Start; k < l.Span.End; k++ {
				if s.Tokens[k].IsNoun() {
					out[strings.ToLower(s.Tokens[k].Text)] = true
				}
			}
		}
		for _, k := range describingVerbs(s, r) {
			out[strings.ToLower(s.Tokens[k].Text)] = true
		}
	}
	return out
}

// describingVerbs returns the verbs that only say how a column's value came about: the verb
// whose object is a column ("passengers who paid a fare", "respondents who achieved a level of
// studies") and the participle right after one ("the fare paid", "the amount lifted"). Such a
// verb adds nothing the column does not say. A verb whose subject alone is linked ("did the
// team win") may restrict the rows, and stays meaningful.
func describingVerbs(s *language.Sentence, r *schema.Result) []int {
	linkedAt := map[int]bool{}
	for _, l := range r.Links {
		if b := l.Best(); b.Kind == schema.ColumnLink && b.Score >= schema.UseScore {
			for _, k := range l.Tokens {
				linkedAt[k] = true
			}
		}
	}
	var out []int
	for i, t := range s.Tokens {
		if !t.IsVerb() {
			continue
		}
		object := i + 1
		for object < len(s.Tokens) && s.Tokens[object].Is("a", "an", "the", "their", "his", "her", "its", "any") {
			object++
		}
		participle := t.POS == "VBN" && i > 0 && linkedAt[i-1]
		if participle || object < len(s.Tokens) && linkedAt[object] {
			out = append(out, i)
		}
	}
	return out
}

// functionTags are the parts of speech that carry grammar, not content: determiners,
// prepositions, pronouns, conjunctions, modals, particles, wh-words, the possessive.
var functionTags = map[string]bool{"DT": true, "PDT": true, "IN": true, "TO": true, "PRP": true, "PRP$": true,
	"CC": true, "MD": true, "RP": true, "EX": true, "WDT": true, "WP": true, "WP$": true, "WRB": true, "POS": true}

// accountedFor reports whether every content word of the question is read by the linker: a
// link to a column, a value or the rows, a comparison, a keyword of the rules (average, count,
// total …), a describing verb, or an auxiliary. A row noun is read as the rows only then: where
// some other word is left over ("the average attendance in 2008", "parishes named St. Anthony"),
// that word may be the question, and the rules' own account decides.
func accountedFor(s *language.Sentence, r *schema.Result) bool {
	covered := make([]bool, len(s.Tokens))
	mark := func(sp language.Span) {
		for k := sp.Start; k < sp.End && k < len(covered); k++ {
			covered[k] = true
		}
	}
	for _, l := range r.Links {
		if b := l.Best(); b.Kind == schema.RowsLink || b.Score >= schema.UseScore {
			mark(l.Span)
		}
	}
	for _, c := range s.Comparisons {
		mark(c.Span)
	}
	for _, k := range describingVerbs(s, r) {
		covered[k] = true
	}
	for i, t := range s.Tokens {
		switch {
		case covered[i] || t.Kind == language.Punct || t.Kind == language.Operator || functionTags[t.POS]:
		case t.Lemma == "be" || t.Lemma == "have" || t.Lemma == "do":
		case t.Kind == language.Word && isRulesKeyword(t.Lower):
		default:
			return false
		}
	}
	return true
}

// isRulesKeyword reports a word the rules read as an operation (see vocabulary.go): "average",
// "total", "count", "how many" and their kin.
func isRulesKeyword(w string) bool {
	_, ok := vocabulary[w]
	if !ok {
		_, ok = vocabulary[singular(w)]
	}
	return ok || fillerWords[w] || stopwords[w]
}
